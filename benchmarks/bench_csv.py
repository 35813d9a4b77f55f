#!/usr/bin/env python3
"""`triage-app run` on a CSV batch (``orders@1``) against the CSV floor, in the same run.

Target (issues 11 and 23): at most 1.0x the floor (benchmarks/references/csv_floor.py: the csv
module, the seed's checks, one executemany upsert where the newest updated_at wins), peak
RSS of the process tree under 200 MB.

The batch is seed 001's shape from the project's generator (``write_orders_csv``):
``--rows`` order versions, about three per order, a ``--bad`` share defective and a few
quoted names (a comma, a line break), which take the reference path. Runs are interleaved
(floor, ours, floor, ours, ...) so that drift on a shared machine hits both alike; the
median of each is reported, with CPU seconds and the load average.

    python benchmarks/bench_csv.py [--rows 300000] [--repeat 5] [--lanes 1|2] [--before DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_run import cpu_of_children, measure

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
REFERENCES = HERE / "references"


def ours(src: Path, work: Path, i: int, checkout: Path | None = None) -> list[str]:
    """The CLI's command line; ``checkout``: another copy of the project's code (say, the
    commit before a change, from ``git archive``), run instead of this one."""
    ws = work / f"ws{i}"
    shutil.rmtree(ws, ignore_errors=True)
    if checkout is None:
        start = ["-m", "triage_app"]
    else:
        code = (
            f"import runpy, sys; sys.path.insert(0, {str(checkout)!r}); "
            "sys.argv[0] = 'triage-app'; runpy.run_module('triage_app', run_name='__main__')"
        )
        start = ["-c", code]
    return [
        sys.executable,
        *start,
        "--workspace",
        str(ws),
        "run",
        str(src),
        "--transform",
        "orders@1",
        "--json",
    ]


def generated(work: Path, rows: int, bad: float) -> Path:
    """A CSV batch from the project's generator, made once per scratch folder."""
    sys.path.insert(0, str(REPO))
    from triage_app.core.demo.orders import write_orders_csv

    path = work / f"orders_{rows}_{bad}.csv"
    if not path.exists():
        write_orders_csv(path, rows, bad)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--bad", type=float, default=0.001)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--lanes", choices=("1", "2"), default=None, help="force TRIAGE_LANES")
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: temp)")
    ap.add_argument(
        "--before",
        type=Path,
        default=None,
        help="also time another checkout of the code (e.g. `git archive HEAD` unpacked)",
    )
    a = ap.parse_args()

    # Byte-compile first, as an install does (see bench_run.py).
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = a.work or Path(tempfile.mkdtemp(prefix="triage-bench-csv-"))
    work.mkdir(parents=True, exist_ok=True)
    src = generated(work, a.rows, a.bad)
    print(f"batch: {a.rows:,} CSV rows, {src.stat().st_size / 1e6:.0f} MB, bad share {a.bad}")
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} over the last minute")
    env = dict(os.environ)
    if a.lanes:
        env["TRIAGE_LANES"] = a.lanes

    names = ["floor", "ours"] + (["before"] if a.before else [])
    times: dict[str, list[float]] = {k: [] for k in names}
    rss: dict[str, list[float]] = {k: [] for k in times}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    counts: dict[str, str] = {}
    for i in range(a.repeat):
        runs = {
            "floor": [
                sys.executable,
                str(REFERENCES / "csv_floor.py"),
                str(src),
                str(work / "floor.db"),
            ],
            "ours": ours(src, work, i),
        }
        if a.before:
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(a.before / "triage_app")],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            runs["before"] = ours(src, work, i, a.before.resolve())
        for name, cmd in runs.items():
            before = cpu_of_children()
            wall, peak, out = measure(cmd, env)
            times[name].append(wall)
            rss[name].append(peak)
            cpu[name].append(cpu_of_children() - before)
            counts[name] = out
            print(
                f"  round {i + 1}: {name:5} {wall:6.2f} s  {peak:6.0f} MB  "
                f"cpu {cpu[name][-1]:5.2f} s",
                flush=True,
            )
            shutil.rmtree(work / f"ws{i}", ignore_errors=True)

    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"\n{'':8}{'median s':>10}{'rows/s':>12}{'peak MB':>10}{'cpu s':>8}")
    for k in names:
        print(f"{k:8}{med[k]:10.2f}{a.rows / med[k]:12,.0f}{max(rss[k]):10.0f}{med_cpu[k]:8.2f}")
    r_floor = med["ours"] / med["floor"]
    print(
        f"\nours / floor = {r_floor:.2f}  (target <= 1.00: {'met' if r_floor <= 1.0 else 'MISSED'})"
    )
    print(f"cpu: ours / floor = {med_cpu['ours'] / med_cpu['floor']:.2f}")
    if a.before:
        print(
            f"before / floor = {med['before'] / med['floor']:.2f} "
            f"(cpu {med_cpu['before'] / med_cpu['floor']:.2f})"
        )
    peak = max(rss["ours"])
    print(f"ours peak RSS = {peak:.0f} MB (target < 200: {'met' if peak < 200 else 'MISSED'})")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
