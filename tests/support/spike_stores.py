"""Stores with one spike of a chosen cause: eight quiet nights, then a night whose rows fail
on the classes and signatures a test names, through the transform version it names. Every
quarantined row is a real dead letter (so the summary's cells name the error groups), and
the batch counters agree with them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from triage_app.core.db import Workspace
from triage_app.core.demo import StoreFiller

NIGHTS = 8
ROWS = 1000
QUIET = 20  # quarantined on a quiet night (2 %), all data
QUIET_SIGNATURE = "DataError: kolom wajib hilang: qty"
QTY = "DataError: qty tidak valid: <n>"
TYPE_ERROR = "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"
TIMEOUT = "OperationalError: connection timed out"
FIRST_NIGHT = dt.datetime(2026, 3, 1, 2, 0)


def spike_id() -> str:
    return f"{NIGHTS:016x}"


def build_spike(
    ws: Workspace,
    failures: Sequence[tuple[str, str, int]],
    *,
    transform: str = "pesanan@1",
    quiet_transforms: Sequence[str] = ("pesanan@1",) * NIGHTS,
    source_name: str = "night_8.jsonl",
) -> str:
    """Eight quiet nights through ``quiet_transforms`` (one each), then the spike: rows
    failing as ``failures`` says ((class, signature, rows), ...) through ``transform``.
    The spiking batch's id."""
    assert len(quiet_transforms) == NIGHTS
    nights = [
        (list(quiet_transforms)[i], [("data", QUIET_SIGNATURE, QUIET)], f"night_{i}.jsonl")
        for i in range(NIGHTS)
    ]
    nights.append((transform, list(failures), source_name))
    with StoreFiller(ws) as filler:
        for i, (version, fails, name) in enumerate(nights):
            batch_id = f"{i:016x}"
            started = FIRST_NIGHT + dt.timedelta(days=i)
            by_class: dict[str, int] = {}
            for cls, _sig, n in fails:
                by_class[cls] = by_class.get(cls, 0) + n
            filler.batch(
                batch_id,
                source_name=name,
                source_sha256=f"{i:064x}",
                transform=version,
                rows=ROWS,
                loaded=ROWS - sum(by_class.values()),
                quarantined=sum(by_class.values()),
                by_class=by_class,
                started_at=started,
                finished_at=started + dt.timedelta(minutes=5),
            )
            line = 0
            for cls, sig, n in fails:
                for _ in range(n):
                    line += 1
                    filler.dead_letter(
                        batch_id,
                        line,
                        error=sig,
                        error_class=cls,
                        transform=version,
                        failed_at=started + dt.timedelta(seconds=line),
                    )
    return spike_id()
