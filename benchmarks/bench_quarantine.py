#!/usr/bin/env python3
"""A batch where every row fails: `triage-app run` against the seed's loader on the same file,
time and the size of the store each leaves, measured in the same run.

The scene (issues 11 and 23): a release with a code bug (``pesanan@1`` mishandles a null
``diskon``) quarantines every row of a batch. Targets (issue 23): our run at most the seed
loader's time (ratio <= 1.0), our dead-letter store at most 2x the seed's database, peak
RSS of the process tree under 200 MB. The seed's loader (``references/seed_loader.py``)
keeps payload, error and class per failed row and nothing else; ours keeps the evidence
(signature, traceback, the event of each row, the ledger) that the window and re-drive need.

Rounds interleave the two; medians of each. Sizes are of the files after a checkpoint (our
store's WAL folded in) and broken down by table and index (SQLite's dbstat).

    python benchmarks/bench_quarantine.py [--rows 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench_redrive import cli, null_discount_batch  # noqa: E402
from bench_run import cpu_of_children, measure  # noqa: E402

SEED = HERE / "references" / "seed_loader.py"


def checkpointed_size(db: Path) -> int:
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.stat().st_size


def breakdown(db: Path) -> list[tuple[str, float]]:
    """Every table and index of some size (0.05 MB or more), largest first, in MB: what
    each index of dead_letters costs on a bad day."""
    with sqlite3.connect(db) as c:
        try:
            rows = c.execute(
                "SELECT name, sum(pgsize) / 1e6 FROM dbstat GROUP BY name ORDER BY 2 DESC"
            ).fetchall()
        except sqlite3.OperationalError:  # a sqlite3 built without dbstat
            return []
    return [(str(n), float(mb)) for n, mb in rows if mb >= 0.05]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = Path(tempfile.mkdtemp(prefix="triage-bench-quarantine-"))
    try:
        src = null_discount_batch(work / f"nulls_{a.rows}.jsonl", a.rows)
        print(
            f"batch: {a.rows:,} orders, all diskon null (every row fails pesanan@1), "
            f"{src.stat().st_size / 1e6:.0f} MB"
        )
        print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
        times: dict[str, list[float]] = {"ours": [], "seed": []}
        rss: dict[str, list[float]] = {"ours": [], "seed": []}
        # CPU seconds too: on a loaded machine the wall clock says more about the load.
        cpu: dict[str, list[float]] = {"ours": [], "seed": []}
        sizes: dict[str, int] = {}
        for i in range(a.repeat):
            ws, seed_db = work / f"ws{i}", work / f"seed{i}.db"
            runs = {
                "ours": cli("--workspace", str(ws), "run", str(src), "--transform", "pesanan@1"),
                "seed": [sys.executable, str(SEED), str(src), str(seed_db), "1"],
            }
            for name, cmd in runs.items():
                before = cpu_of_children()
                wall, peak, _ = measure(cmd)
                times[name].append(wall)
                rss[name].append(peak)
                cpu[name].append(cpu_of_children() - before)
                print(
                    f"  round {i + 1}: {name:5} {wall:6.2f} s  {peak:6.0f} MB  "
                    f"cpu {cpu[name][-1]:6.2f} s",
                    flush=True,
                )
            with sqlite3.connect(ws / "dead_letter.db") as c:
                stored = c.execute("SELECT count(*) FROM dead_letters").fetchone()[0]
            if stored != a.rows:
                sys.exit(f"our store holds {stored:,} dead letters, not {a.rows:,}")
            if i == 0:
                sizes["ours"] = checkpointed_size(ws / "dead_letter.db")
                sizes["seed"] = seed_db.stat().st_size
                parts = breakdown(ws / "dead_letter.db")
            shutil.rmtree(ws, ignore_errors=True)
            seed_db.unlink(missing_ok=True)

        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"\n{'':6}{'median s':>10}{'rows/s':>12}{'peak MB':>10}{'store MB':>10}")
        for k in ("ours", "seed"):
            print(
                f"{k:6}{med[k]:10.2f}{a.rows / med[k]:12,.0f}{max(rss[k]):10.0f}"
                f"{sizes[k] / 1e6:10.1f}"
            )
        ratio = med["ours"] / med["seed"]
        med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
        print(
            f"\nours / seed time  = {ratio:.2f}  (target <= 1.00: "
            f"{'met' if ratio <= 1.0 else 'MISSED'}); cpu: "
            f"{med_cpu['ours']:.2f} s against {med_cpu['seed']:.2f} s = "
            f"{med_cpu['ours'] / med_cpu['seed']:.2f}"
        )
        size_ratio = sizes["ours"] / sizes["seed"]
        print(
            f"ours / seed store = {size_ratio:.2f}  (target <= 2.00: "
            f"{'met' if size_ratio <= 2.0 else 'MISSED'}); "
            f"{sizes['ours'] / a.rows:.0f} bytes a dead letter against "
            f"{sizes['seed'] / a.rows:.0f}"
        )
        if parts:
            print("our store by table and index (dbstat, MB):")
            for n, mb in parts:
                print(f"  {n:36}{mb:8.2f}")
        peak = max(rss["ours"])
        print(f"peak RSS = {peak:.0f} MB (target < 200: {'met' if peak < 200 else 'MISSED'})")
        print(f"load average now {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
