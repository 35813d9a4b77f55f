#!/usr/bin/env python3
"""The retry ladder (issue 27): a retry pass over 100,000 due transient dead letters
against a plain ``redrive`` of the same rows, measured in the same run on copies of one
store (SQLite), so that the ratio is what the pass adds: finding the due rows in the partial
index, grouping them by the version that failed them, re-driving them with the versions it
read (``seen``), and then reading where the failed rows went.

Two cases, each on a fresh copy of the store:

- **up**: the service is back; every row loads and resolves;
- **down**: still down; every row fails transiently again (the pass moves each one down the
  ladder, the re-drive does too: one rule).

Each run in a process of its own (as cron starts ``retry-due``), the pass and the re-drive
in turns; medians of ``--repeat`` rounds.

    python benchmarks/bench_ladder.py [--rows 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from triage_app.core.batch import run_batch  # noqa: E402
from triage_app.core.clock import utcnow  # noqa: E402
from triage_app.core.db import open_workspace  # noqa: E402
from triage_app.core.deadletters import DeadLetterFilter, redrive, retry_due  # noqa: E402
from triage_app.core.demo import write_orders  # noqa: E402
from triage_app.core.errors import TransientError  # noqa: E402
from triage_app.core.retry import RetryPolicy  # noqa: E402
from triage_app.core.transforms import Registry, default_registry  # noqa: E402

ONCE = RetryPolicy(attempts=1)


def registry(down: bool) -> Registry:
    """``pesanan@1`` as it is (up) or failing every record transiently (down)."""
    base = default_registry().get("pesanan@1")
    if not down:
        reg = Registry()
        reg.register(base)
        return reg

    def fn(_record: Any) -> tuple[Any, ...]:
        raise TransientError("layanan stok tidak menjawab")

    reg = Registry()
    reg.register(replace(base, fn=fn, fast=None))
    return reg


def build(folder: Path, rows: int) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    src = write_orders(folder.parent / "orders.jsonl", rows, bad=0.0, seed=27)
    with open_workspace(folder) as ws:
        s = run_batch(ws, src, "pesanan@1", registry=registry(True), retry=ONCE)
    assert s.quarantined == s.rows, s


def timed(folder: Path, how: str, down: bool) -> tuple[float, dict[str, int]]:
    reg = registry(down)
    with open_workspace(folder) as ws:
        start = time.perf_counter()
        if how == "pass":
            p = retry_due(ws, now=utcnow() + dt.timedelta(hours=1), registry=reg, retry=ONCE)
            took = time.perf_counter() - start
            return took, {"retried": p.retried, "resolved": p.resolved, "moved": p.moved_down}
        r = redrive(
            ws,
            "pesanan@1",
            where=DeadLetterFilter(status="open"),
            registry=reg,
            retry=ONCE,
            keep=0,
        )
        took = time.perf_counter() - start
        return took, {"retried": r.attempted, "resolved": r.succeeded, "failed": r.failed}


def one_run(folder: Path, how: str, down: bool) -> tuple[float, dict[str, int]]:
    """``timed`` in a fresh process: nothing one run leaves in the interpreter (caches, the
    planner's state of a connection) carries into the next."""
    out = subprocess.run(
        [sys.executable, __file__, "--one", how, "down" if down else "up", str(folder)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    took, counts = json.loads(out.strip().splitlines()[-1])
    return float(took), counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--one", nargs=3, metavar=("HOW", "CASE", "FOLDER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        how, case, folder = args.one
        print(json.dumps(timed(Path(folder), how, case == "down")))
        return
    results: dict[str, Any] = {"rows": args.rows}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base" / "ws"
        start = time.perf_counter()
        build(base, args.rows)
        results["quarantine_seconds"] = round(time.perf_counter() - start, 2)
        for case, down in (("up", False), ("down", True)):
            times: dict[str, list[float]] = {"pass": [], "redrive": []}
            said: dict[str, Any] = {}
            for n in range(args.repeat):
                for how in ("pass", "redrive") if n % 2 == 0 else ("redrive", "pass"):
                    copy = Path(tmp) / f"{case}-{how}-{n}" / "ws"
                    shutil.copytree(base, copy)
                    took, counts = one_run(copy, how, down)
                    times[how].append(took)
                    said[how] = counts
                    shutil.rmtree(copy.parent)
            p, r = statistics.median(times["pass"]), statistics.median(times["redrive"])
            results[case] = {
                "pass_seconds": round(p, 3),
                "redrive_seconds": round(r, 3),
                "ratio": round(p / r, 3),
                "counts": said,
            }
            print(
                f"{case:5} {args.rows:,} rows: retry pass {p:.2f} s, redrive {r:.2f} s, "
                f"ratio {p / r:.2f}  {said}",
                flush=True,
            )
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
