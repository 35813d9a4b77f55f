#!/usr/bin/env python3
"""Retention purge of discarded dead letters (issue 21): 10,000, 30,000 and 100,000 rows,
each with its ``quarantined`` and ``discarded`` events, against a plain ``DELETE`` of the
same rows and events with the standard library's sqlite3, measured in the same run on a copy
of the same store.

A discarded row's closing time is its newest ``discarded`` event. Before issue 21 the purge
asked for it with a correlated ``max(at)`` per row, which SQLite answered by scanning every
discarded event of the store for each row: 1,788 rows 1.45 s, 7,179 rows 12.4 s, 26,925 rows
over 100 s. Linear now: the seconds per 1,000 rows stay flat as the store grows, and the
ratio to the plain DELETE stays about the same.

The store is written with the demo's store filler, and its planner statistics are removed
afterwards, since the application never runs ANALYZE (the quadratic plan was the one a
store without statistics gets). The purge runs in this process (``purge()``, the workspace
already open); the reference deletes the same rows in one transaction, with the pragmas
every store connection has (WAL, ``synchronous=NORMAL``, foreign keys on). Medians of
``--repeat`` rounds, each on a fresh copy.

    python benchmarks/bench_purge.py [--sizes 10000,30000,100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from triage_app.core.db import open_workspace  # noqa: E402
from triage_app.core.deadletters import purge  # noqa: E402
from triage_app.core.demo import StoreFiller  # noqa: E402
from triage_app.core.vocabulary import AuditAction, Status  # noqa: E402

FIRST = dt.datetime(2026, 1, 5, 9)
CLOSED = dt.datetime(2026, 2, 1, 12)
NOW = CLOSED + dt.timedelta(days=40)
BATCH = "0badc0de0badc0de"


def make_store(folder: Path, rows: int) -> None:
    """A workspace whose store holds ``rows`` discarded dead letters over 30 days, with
    their two events each, and no planner statistics."""
    with open_workspace(folder) as ws, StoreFiller(ws) as filler:
        filler.batch(BATCH, rows=rows, quarantined=rows, started_at=FIRST)
        for line in range(1, rows + 1):
            failed = FIRST + dt.timedelta(days=line % 30, seconds=line)
            dl = filler.dead_letter(
                BATCH,
                line,
                error=f"DataError: qty tidak valid: -{line}",
                signature="DataError: qty tidak valid: <n>",
                status=Status.DISCARDED,
                failed_at=failed,
            )
            filler.event(dl, AuditAction.QUARANTINED, failed)
            filler.event(dl, AuditAction.DISCARDED, CLOSED, actor="steward", detail="junk")
    with sqlite3.connect(folder / "dead_letter.db") as conn:
        conn.execute("DROP TABLE IF EXISTS sqlite_stat1")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def time_purge(folder: Path, rows: int) -> float:
    with open_workspace(folder) as ws:
        started = time.perf_counter()
        s = purge(ws, 30, [Status.DISCARDED.value], now=NOW)
        took = time.perf_counter() - started
    assert s.rows == rows, (s.rows, rows)
    return took


def time_reference(folder: Path, rows: int) -> float:
    """The same rows and their events, deleted by hand: the floor a purge is measured by."""
    conn = sqlite3.connect(folder / "dead_letter.db", isolation_level=None)
    try:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            conn.execute(f"PRAGMA {pragma}")
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "DELETE FROM audit_events WHERE dead_letter_id IN "
            "(SELECT id FROM dead_letters WHERE status = 'discarded')"
        )
        n = conn.execute("DELETE FROM dead_letters WHERE status = 'discarded'").rowcount
        conn.execute("COMMIT")
        took = time.perf_counter() - started
    finally:
        conn.close()
    assert n == rows, (n, rows)
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,30000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    results = []
    with tempfile.TemporaryDirectory(prefix="triage-bench-purge-") as tmp:
        work = Path(tmp)
        for rows in sizes:
            made = work / f"store{rows}"
            make_store(made, rows)
            purges, refs = [], []
            for i in range(a.repeat):
                for times, timed in ((purges, time_purge), (refs, time_reference)):
                    copy = work / f"copy{rows}-{i}"
                    shutil.copytree(made, copy)
                    times.append(timed(copy, rows))
                    shutil.rmtree(copy)
            shutil.rmtree(made)
            p, r = statistics.median(purges), statistics.median(refs)
            results.append((rows, p, r))
            print(f"  {rows:,} rows: purge {p:.2f} s, plain DELETE {r:.2f} s", flush=True)
    print(f"\ndiscarded dead letters purged; medians of {a.repeat}")
    print(f"  {'rows':>9}{'purge s':>10}{'s/1k rows':>11}{'DELETE s':>10}{'/ DELETE':>10}")
    for rows, p, r in results:
        print(f"  {rows:9,}{p:10.2f}{p / rows * 1000:11.3f}{r:10.2f}{p / r:10.1f}")
    first, last = results[0], results[-1]
    growth = (last[1] / first[1]) / (last[0] / first[0])
    print(
        f"  time grew {last[1] / first[1]:.1f}x for {last[0] / first[0]:.0f}x the rows "
        f"({growth:.2f} of linear)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
