"""The seed's dead-letter scenario (document 000), end to end through core."""

from __future__ import annotations

from pathlib import Path

from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, count_rows
from triage_app.core.deadletters import (
    DeadLetterFilter,
    edit_payload,
    get_dead_letter,
    list_dead_letters,
    redrive,
)
from triage_app.core.transforms.pesanan import TRANSFORMS

FIX_3 = (
    '{"pesanan_id": 3, "waktu": "2026-01-10T19:45:00", "pelanggan": "Dewi", '
    '"produk": "Blouse Katun", "qty": 1, "harga": 120000, "diskon": 0}'
)
FIX_6 = (
    '{"pesanan_id": 6, "waktu": "2026-01-11T16:40:00", "pelanggan": "Siti", '
    '"produk": "Kemeja Batik", "qty": 1, "harga": 250000, "diskon": 0}'
)


def run_seed_cycle(ws: Workspace, batch: Path) -> None:
    """The whole steward's loop; shared with the PostgreSQL test."""
    s = run_batch(ws, batch, "pesanan@1")
    assert (s.rows, s.loaded, s.superseded, s.quarantined) == (10, 6, 0, 4)
    assert s.by_class == {"data": 3, "code": 1}

    dls = {d.line: d for d in list_dead_letters(ws)}
    assert sorted(dls) == [3, 4, 6, 8]
    assert dls[3].error.startswith("JSONDecodeError: ")
    assert dls[4].error == "DataError: kolom wajib hilang: qty"
    assert dls[6].error == "DataError: qty tidak valid: -1"
    assert dls[6].signature == "DataError: qty tidak valid: <n>"
    assert dls[8].error_class == "code"
    assert dls[8].error.startswith("TypeError: unsupported operand")
    assert all(d.attempts == 1 and d.status == "open" for d in dls.values())

    edit_payload(ws, dls[3].id, FIX_3)
    edit_payload(ws, dls[6].id, FIX_6)

    r = redrive(ws, "pesanan@2", where=DeadLetterFilter(status="open"))
    outcomes = {res.line: res.outcome for res in r.results}
    assert outcomes == {3: "resolved", 4: "failed", 6: "resolved", 8: "resolved"}
    assert (r.attempted, r.succeeded, r.failed, r.parked) == (4, 3, 1, 0)

    assert count_rows(ws.warehouse, TRANSFORMS[1]) == 9
    still_open = list_dead_letters(ws)
    assert [(d.line, d.attempts) for d in still_open] == [(4, 2)]
    # Resolved dead letters stay as history.
    assert len(list_dead_letters(ws, DeadLetterFilter(status="resolved"))) == 3
    detail = get_dead_letter(ws, dls[3].id, reveal=True)
    assert detail.original_payload.endswith('"pelanggan": "Dewi", ')  # byte-exact, trailing space
    assert detail.payload == FIX_3
    assert [e.action for e in detail.events] == ["quarantined", "edited", "resolved"]


def test_seed_000_cycle_on_sqlite(workspace: Workspace, seed_batch: Path) -> None:
    run_seed_cycle(workspace, seed_batch)


def test_v1_total_matches_seed(workspace: Workspace, seed_batch: Path) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    with workspace.warehouse.connect() as conn:
        from sqlalchemy import text

        rows = dict(conn.execute(text("SELECT pesanan_id, total FROM pesanan")).all())
    assert rows == {1: 250000, 2: 340000, 5: 300000, 7: 350000, 9: 360000, 10: 210000}
