"""Stores with one spike of a chosen cause: eight quiet nights, then a night whose rows fail
on the classes and signatures a test names, through the transform version it names. Every
quarantined row is a real dead letter (so the summary's cells name the error groups), and
the batch counters agree with them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from triage_app.core.db import Workspace
from triage_app.core.demo import StoreFiller
from triage_app.core.demo.morning import write_night

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
            started = FIRST_NIGHT + dt.timedelta(days=i)
            write_night(filler, f"{i:016x}", started, version, fails, source_name=name, rows=ROWS)
    return spike_id()
