"""Purging discarded rows is linear (issue 21): the work SQLite does grows with the rows,
not with their square. Before, each row's closing time was a correlated ``max(at)`` that
SQLite answered by scanning every discarded event of the store, on a store without planner
statistics (the application never runs ANALYZE): 6,000 rows took 8x the time of 2,000.

Measured in SQLite virtual-machine steps (a progress handler on every connection of the
store), which do not depend on the machine's load; benchmarks/bench_purge.py has the
seconds."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event

from tests.support.purge_store import CLOSED_AT, fill_purge_store
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import purge
from triage_app.core.vocabulary import Status

STEP = 1_000  # VM instructions per call of the handler


def _steps_to_purge(folder: Path, rows: int) -> int:
    with open_workspace(folder) as ws:
        fill_purge_store(ws, resolved=0, discarded=rows, open_=0, parked=0)
        with ws.store.begin() as conn:
            conn.exec_driver_sql("DROP TABLE IF EXISTS sqlite_stat1")  # as the app leaves it
    ticks = [0]

    def count() -> int:
        ticks[0] += 1
        return 0  # go on

    with open_workspace(folder) as ws:

        @event.listens_for(ws.store, "connect")
        def _watch(dbapi: sqlite3.Connection, _record: Any) -> None:
            dbapi.set_progress_handler(count, STEP)

        ws.store.dispose()  # connections made from here on are watched
        s = purge(ws, 0, [Status.DISCARDED.value], now=CLOSED_AT.replace(year=2027))
    assert s.rows == rows
    return ticks[0]


def test_purging_discarded_rows_grows_linearly(tmp_path: Path) -> None:
    small = _steps_to_purge(tmp_path / "small", 1_000)
    large = _steps_to_purge(tmp_path / "large", 4_000)
    # Linear: about 4x. The quadratic plan made it about 16x.
    assert large < 6 * small, (small, large)
