#!/usr/bin/env python3
"""How fast the dead-letter store's own writes can go on a bad day: the floor under the
quarantine and re-drive targets of issue 23 (quarantine at most the seed loader's time,
re-drive at most 2x a fresh batch), measured against their references in the same run,
with the shipped schema's indexes (and, for comparison, with none).

The floors are SQL alone, timed inside one process: the rows the batch would store,
prepared beforehand, written by sqlite3's executemany into a store of the shipped schema;
then every row resolved by one UPDATE and its line in ``resolutions`` (the re-drive's set
record, schema 0007) by one INSERT ... SELECT. A quarantined row writes nothing else: its
batch is its set record. No parsing, no transform, no process start, no
claims: whatever the application does costs at least this. The references are whole
processes, as the benchmarks time them: the seed's loader on the same file (quarantine)
and a fresh ``triage-app run`` of the same rows through ``pesanan@2`` (re-drive).

A floor above its target says the target cannot be met by a faster path alone, only by
writing less: fewer indexes (each of which a sort or filter of the window serves at ten
million rows, ``bench_ten_million.py``).

    python benchmarks/bench_store_floor.py [--rows 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_quarantine import SEED  # noqa: E402
from bench_redrive import cli, null_discount_batch  # noqa: E402
from bench_run import measure  # noqa: E402

_COLUMNS = (
    "batch_id, line, original_payload, payload_kind, error, error_class, signature_id, "
    "traceback_id, attempts, status, transform, first_failed_at, last_failed_at"
)


def _emptied(store: Path, to: Path, *, secondary_indexes: bool) -> list[tuple[object, ...]]:
    """A copy of ``store`` with no dead letters or events (and, if asked, no secondary
    index on dead_letters); the rows it held, as the quarantine writes them."""
    shutil.copyfile(store, to)
    c = sqlite3.connect(to, isolation_level=None)
    try:
        rows = c.execute(f"SELECT {_COLUMNS} FROM dead_letters ORDER BY id").fetchall()
        c.execute("DELETE FROM audit_events")
        c.execute("DELETE FROM dead_letters")
        if not secondary_indexes:
            for (name,) in c.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' "
                "AND tbl_name = 'dead_letters' AND sql IS NOT NULL"
            ).fetchall():
                c.execute(f"DROP INDEX {name}")
        c.execute("VACUUM")
    finally:
        c.close()
    return rows


def _connect(db: Path) -> sqlite3.Connection:
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")  # as the application runs it
    return c


def _insert(c: sqlite3.Connection, rows: list[tuple[object, ...]]) -> float:
    marks = ", ".join("?" * len(rows[0]))
    start = time.perf_counter()
    c.execute("BEGIN IMMEDIATE")
    c.executemany(f"INSERT INTO dead_letters ({_COLUMNS}) VALUES ({marks})", rows)
    c.execute("COMMIT")
    return time.perf_counter() - start


def _resolutions(c: sqlite3.Connection) -> float:
    """The re-drive's set record: one run, and a (row, run, version) line per resolved row."""
    start = time.perf_counter()
    c.execute("BEGIN IMMEDIATE")
    c.execute(
        "INSERT INTO redrive_runs (at, actor, transform, given) "
        "SELECT max(last_failed_at), 'bench', 'pesanan@2', '' FROM dead_letters"
    )
    c.execute(
        "INSERT INTO resolutions (dead_letter_id, run_id, version) "
        "SELECT id, (SELECT max(id) FROM redrive_runs), version FROM dead_letters ORDER BY id"
    )
    c.execute("COMMIT")
    return time.perf_counter() - start


def _resolve_all(c: sqlite3.Connection) -> float:
    start = time.perf_counter()
    c.execute("BEGIN IMMEDIATE")
    c.execute(
        "UPDATE dead_letters SET status = 'resolved', resolved_at = last_failed_at, "
        "transform = 'pesanan@2', version = version + 1"
    )
    c.execute("COMMIT")
    return time.perf_counter() - start


def floors(store: Path, work: Path) -> dict[str, float]:
    out: dict[str, float] = {}
    bare = work / "bare.db"
    rows = _emptied(store, bare, secondary_indexes=False)
    c = _connect(bare)
    out["insert, no secondary index"] = _insert(c, rows)
    c.close()
    full = work / "full.db"
    _emptied(store, full, secondary_indexes=True)
    c = _connect(full)
    out["insert"] = _insert(c, rows)
    out["resolve"] = _resolve_all(c)
    out["resolutions"] = _resolutions(c)
    c.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="triage-bench-floor-"))
    try:
        src = null_discount_batch(work / "nulls.jsonl", a.rows)
        quarantined = work / "quarantined"
        measure(cli("--workspace", str(quarantined), "run", str(src), "--transform", "pesanan@1"))
        store = quarantined / "dead_letter.db"
        seed, fresh = [], []
        found: dict[str, list[float]] = {}
        for i in range(a.repeat):
            seed_db, ws = work / f"seed{i}.db", work / f"fresh{i}"
            seed.append(measure([sys.executable, str(SEED), str(src), str(seed_db), "1"])[0])
            fresh.append(
                measure(cli("--workspace", str(ws), "run", str(src), "--transform", "pesanan@2"))[0]
            )
            for k, v in floors(store, work).items():
                found.setdefault(k, []).append(v)
            seed_db.unlink(missing_ok=True)
            shutil.rmtree(ws, ignore_errors=True)
        med = {k: statistics.median(v) for k, v in found.items()}
        seed_s, fresh_s = statistics.median(seed), statistics.median(fresh)
        print(f"{a.rows:,} dead letters of one code bug; medians of {a.repeat} rounds")
        print(f"  seed loader, whole process:         {seed_s:6.2f} s")
        print(f"  fresh batch through pesanan@2:      {fresh_s:6.2f} s")
        for k, v in med.items():
            print(f"  floor: {k:28} {v:6.2f} s")
        q = med["insert"]
        r = med["resolve"] + med["resolutions"]
        print(
            f"\nquarantine floor / seed = {q / seed_s:.2f} (the inserts; target for the whole "
            f"run <= 1.00; without the secondary indexes: "
            f"{med['insert, no secondary index'] / seed_s:.2f})"
        )
        with sqlite3.connect(store) as c:
            indexes = [
                n
                for (n,) in c.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'index' "
                    "AND tbl_name = 'dead_letters' AND sql IS NOT NULL ORDER BY name"
                )
            ]
        c.close()
        print(f"secondary indexes of dead_letters ({len(indexes)}): {', '.join(indexes)}")
        print(
            f"re-drive floor / fresh  = {1 + r / fresh_s:.2f} (the fresh batch's own work, plus "
            f"resolving the rows and their resolutions; target <= 2.0; the update alone: "
            f"{1 + med['resolve'] / fresh_s:.2f})"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
