"""A small workspace whose trends are counted by hand, built with the real core functions.

Three batches of ``pesanan@1`` on three days, then an edit and a re-drive that resolves,
two failing re-drives that park, and a discard. Timestamps are moved onto chosen days with
SQL afterwards (a batch records the clock; the trends group by day).

    dead letter  batch line  class      signature               status     attempts
    a            B1    7     data       qty tidak valid         resolved   1  (Mar 3)
    b            B1    8     code       TypeError (diskon null) open       1
    c            B1    9     data       JSONDecodeError         discarded  1  (Mar 4)
    d            B1    10    data       qty tidak valid         parked     3  (last Mar 3)
    e            B2    4     code       TypeError               open       1
    f            B2    5     data       qty tidak valid         open       1
    g            B3    1     data       kolom wajib hilang      open       1

B1 (Mar 1, 10 rows, 4 quarantined), B2 (Mar 2, 5 rows, 2), B3 (Mar 4, 4 rows, 1).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import update

from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, Batch, DeadLetter, counts, open_workspace
from triage_app.core.deadletters import (
    DeadLetterFilter,
    apply_change,
    discard,
    edit_payload,
    list_dead_letters,
    redrive,
)
from triage_app.core.demo import StoreFiller

MAR = [dt.date(2026, 3, d) for d in range(1, 6)]  # MAR[0] is March 1
QTY = "DataError: qty tidak valid: <n>"
TYPE_ERROR = "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"
MISSING = "DataError: kolom wajib hilang: qty"


def _row(pid: int, qty: object = 1, diskon: object = 0, **extra: object) -> str:
    import json

    rec = {
        "pesanan_id": pid,
        "waktu": "2026-03-01T09:00:00",
        "pelanggan": "Budi",
        "produk": "Kemeja Batik",
        "qty": qty,
        "harga": 1000,
        "diskon": diskon,
        **extra,
    }
    if qty is None:
        rec.pop("qty")
    return json.dumps(rec)


def _at(day: dt.date, hour: int) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour)


@dataclass(frozen=True)
class Crafted:
    ids: dict[str, int]  # dead letter ids by letter (a…g)
    batches: dict[str, str]  # batch ids: b1, b2, b3


def build_crafted(
    folder: Path, warehouse_url: str | None = None, dead_letter_url: str | None = None
) -> Crafted:
    """Fill ``folder`` (or the databases at the URLs; the batch files go in ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    b1 = [_row(i) for i in range(1, 7)]
    b1 += [_row(7, qty=-1), _row(8, diskon=None), '{"pesanan_id": 9, "waktu": ', _row(10, qty=-2)]
    b2 = [_row(100 + i) for i in range(1, 4)] + [_row(104, diskon=None), _row(105, qty=-5)]
    b3 = [_row(200, qty=None)] + [_row(200 + i) for i in range(1, 4)]
    batches = {}
    with open_workspace(folder, warehouse_url=warehouse_url, dead_letter_url=dead_letter_url) as ws:
        for name, lines in (("b1", b1), ("b2", b2), ("b3", b3)):
            path = folder / f"{name}.jsonl"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            batches[name] = run_batch(ws, path, "pesanan@1").batch_id
        rows = list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
        by = {(r.batch_id, r.line): r.id for r in rows}
        ids = {
            "a": by[(batches["b1"], 7)],
            "b": by[(batches["b1"], 8)],
            "c": by[(batches["b1"], 9)],
            "d": by[(batches["b1"], 10)],
            "e": by[(batches["b2"], 4)],
            "f": by[(batches["b2"], 5)],
            "g": by[(batches["b3"], 1)],
        }
        edit_payload(ws, ids["a"], _row(7, qty=1))
        assert redrive(ws, "pesanan@1", ids=[ids["a"]]).succeeded == 1
        for _ in range(2):
            redrive(ws, "pesanan@1", ids=[ids["d"]])
        apply_change(ws, [ids["c"]], discard("cut off: junk"))
        days = {"b1": MAR[0], "b2": MAR[1], "b3": MAR[3]}
        with ws.store.begin() as conn:
            for name, day in days.items():
                conn.execute(
                    update(Batch)
                    .where(Batch.batch_id == batches[name])
                    .values(started_at=_at(day, 10), finished_at=_at(day, 10))
                )
                conn.execute(
                    update(DeadLetter)
                    .where(DeadLetter.batch_id == batches[name])
                    .values(first_failed_at=_at(day, 10), last_failed_at=_at(day, 10))
                )
            conn.execute(
                update(DeadLetter)
                .where(DeadLetter.id == ids["a"])
                .values(resolved_at=_at(MAR[2], 12))
            )
            conn.execute(
                update(DeadLetter)
                .where(DeadLetter.id == ids["d"])
                .values(last_failed_at=_at(MAR[2], 15))
            )
            conn.execute(
                update(AuditEvent)
                .where(AuditEvent.dead_letter_id == ids["c"], AuditEvent.action == "discarded")
                .values(at=_at(MAR[3], 9))
            )
            # The first failures were moved by hand: the summary counted afresh, as a
            # repair would (the writers keep it in step; this helper is not one of them).
            counts.rebuild(conn)
    return Crafted(ids, batches)


def build_spike_store(folder: Path) -> None:
    """Batch counters straight into the store: eight quiet nights (2% quarantined, all
    data), then a release of pesanan@2 that quarantines 20%, mostly code."""
    with open_workspace(folder) as ws, StoreFiller(ws) as filler:
        for i in range(9):
            spike = i == 8
            filler.batch(
                f"{i:016x}",
                source_name=f"night_{i}.jsonl",
                source_sha256=f"{i:064x}",
                transform="pesanan@2" if spike else "pesanan@1",
                rows=1000,
                quarantined=200 if spike else 20,
                by_class={"code": 180 if spike else 0, "data": 20},
                started_at=dt.datetime(2026, 3, 1) + dt.timedelta(days=i),
            )
