#!/usr/bin/env python3
"""`triage-app run` against the references in benchmarks/references/, measured in the same run.

Targets (issue 2): at least 2x as fast as the seed's loader (ratio <= 0.50), at most 1.25x
the orjson floor (ratio <= 1.25), peak RSS under 200 MB whatever the file size.

Runs are interleaved (seed, floor, ours, seed, floor, ours, ...) so that drift on a
shared machine hits all three alike; the median of each is reported. Peak RSS is the
largest sum over the process tree (the CLI and its warehouse writer), sampled every 10 ms.

    python benchmarks/bench_run.py [--rows 1000000] [--repeat 3] [--memory-rows 3000000]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
REFERENCES = HERE / "references"


def tree_rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in KiB."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def cpu_of_children() -> float:
    """User + system seconds of every child waited for so far (grandchildren included
    when their parent waited for them, as the CLI does for its second lane)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(
    cmd: list[str],
    env: dict[str, str] | None = None,
    *,
    cwd: Path | None = None,
    every: float = 0.01,
) -> tuple[float, float, str]:
    """Wall seconds, peak tree RSS in MB (sampled ``every`` seconds), stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss_kb(proc.pid))
            time.sleep(every)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    t.join()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode()[-500:]}")
    return wall, peak / 1024, out.decode()


def ours(src: Path, work: Path, i: int) -> list[str]:
    ws = work / f"ws{i}"
    shutil.rmtree(ws, ignore_errors=True)
    return [
        sys.executable,
        "-m",
        "triage_app",
        "--workspace",
        str(ws),
        "run",
        str(src),
        "--transform",
        "pesanan@2",
        "--json",
    ]


def generated(work: Path, rows: int, bad: float) -> Path:
    """A batch from the project's generator, made once per scratch folder."""
    from triage_app.core.demo import write_orders

    path = work / f"batch_{rows}.jsonl"
    if not path.exists():
        write_orders(path, rows, bad)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--bad", type=float, default=0.001)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--memory-rows",
        type=int,
        default=0,
        help="also run ours once on a batch this large, for memory only",
    )
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: temp)")
    a = ap.parse_args()

    # Byte-compile first, as an install does: where PYTHONDONTWRITEBYTECODE is set, every
    # start would otherwise compile the package again (about 0.3 s) and time that instead.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = a.work or Path(tempfile.mkdtemp(prefix="triage-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    src = generated(work, a.rows, a.bad)
    size_mb = src.stat().st_size / 1e6
    print(f"batch: {a.rows:,} rows, {size_mb:.0f} MB, bad share {a.bad}")
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} over the last minute")
    if load > 0.5:
        print(
            "  (something else is running: two lanes need both cores, the seed's loader one, "
            "so ours / seed suffers first; the CPU line below shows the work itself)"
        )

    times: dict[str, list[float]] = {"seed": [], "floor": [], "ours": []}
    rss: dict[str, list[float]] = {k: [] for k in times}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    for i in range(a.repeat):
        runs = {
            "seed": [
                sys.executable,
                str(REFERENCES / "seed_loader.py"),
                str(src),
                str(work / "seed.db"),
                "2",
            ],
            "floor": [
                sys.executable,
                str(REFERENCES / "orjson_floor.py"),
                str(src),
                str(work / "floor.db"),
            ],
            "ours": ours(src, work, i),
        }
        for name, cmd in runs.items():
            before = cpu_of_children()
            wall, peak, _out = measure(cmd)
            times[name].append(wall)
            rss[name].append(peak)
            cpu[name].append(cpu_of_children() - before)
            print(
                f"  round {i + 1}: {name:5} {wall:6.2f} s  {peak:6.0f} MB  "
                f"cpu {cpu[name][-1]:5.2f} s",
                flush=True,
            )

    med = {k: statistics.median(v) for k, v in times.items()}
    print()
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"{'':8}{'median s':>10}{'rows/s':>12}{'peak MB':>10}{'cpu s':>8}")
    for k in ("seed", "floor", "ours"):
        print(f"{k:8}{med[k]:10.2f}{a.rows / med[k]:12,.0f}{max(rss[k]):10.0f}{med_cpu[k]:8.2f}")
    r_seed = med["ours"] / med["seed"]
    r_floor = med["ours"] / med["floor"]
    print(
        f"\nours / seed  = {r_seed:.2f}  (target <= 0.50: {'met' if r_seed <= 0.5 else 'MISSED'})"
    )
    print(
        f"ours / floor = {r_floor:.2f}  (target <= 1.25: {'met' if r_floor <= 1.25 else 'MISSED'})"
    )
    print(
        f"cpu: ours / seed = {med_cpu['ours'] / med_cpu['seed']:.2f} "
        "(about the wall ratio if only one core were free for us)"
    )
    peak = max(rss["ours"])
    print(f"ours peak RSS = {peak:.0f} MB (target < 200: {'met' if peak < 200 else 'MISSED'})")

    if a.memory_rows:
        big = generated(work, a.memory_rows, a.bad)
        wall, peak_big, _ = measure(ours(big, work, 99))
        print(
            f"ours on {a.memory_rows:,} rows: {wall:.2f} s, peak RSS {peak_big:.0f} MB "
            f"(vs {peak:.0f} MB at {a.rows:,})"
        )
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
