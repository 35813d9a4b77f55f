#!/usr/bin/env python3
"""Start-up of `triage-app run` on a 10-line file, against references measured in the same run.

Target (issue 11): a run on a small file under 0.25 s of wall time; the issue found 0.40 s,
0.27 s of it imports. Three cases, each round on a new file (a new batch, loaded):

- ``existing``: into a workspace that is there already (the everyday case);
- ``fresh``: into a new workspace (the store is created first);
- ``rerun``: a file loaded already ("already loaded: nothing to do").

References, interleaved with ours round by round so that drift on a shared machine hits
all alike: ``python -c pass`` (the interpreter's own start) and ``python -c "import
sqlite3"`` (the least any run on SQLite imports). ``--compare DIR`` adds the same three
cases for another source tree of the package (for instance ``git archive`` of an older
commit unpacked into DIR), run with ``python -m triage_app`` in DIR, for a before/after
ratio measured in this run. Repeat it to compare several trees at once (say, before a change,
and a prototype of the next one): each is named by its folder.

    python benchmarks/bench_startup.py [--rounds 15] [--compare DIR]...
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

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TARGET_S = 0.25

sys.path.insert(0, str(HERE))
import bench_run  # noqa: E402
from bench_run import cpu_of_children  # noqa: E402

ROWS = 10


def measure(cmd: list[str], cwd: Path | None = None) -> tuple[float, float, float, str]:
    """Wall seconds, peak tree RSS in MB, CPU seconds, stdout. Sampled every 2 ms: a run
    this short would slip between samples 10 ms apart."""
    before = cpu_of_children()
    wall, peak, out = bench_run.measure(cmd, cwd=cwd, every=0.002)
    return wall, peak, cpu_of_children() - before, out


def ours_command() -> list[str]:
    """The console script as a user runs it; ``python -m triage_app`` where it is not
    installed next to this interpreter (both end the same way, ``os._exit`` after a
    flush)."""
    script = Path(sys.executable).with_name("triage-app")
    return [str(script)] if script.exists() else [sys.executable, "-m", "triage_app"]


def run_args(workspace: Path, src: Path) -> list[str]:
    return ["--workspace", str(workspace), "run", str(src), "--transform", "pesanan@1"]


def small_file(work: Path, n: int) -> Path:
    """A new 10-line batch: another seed, other bytes, another batch id."""
    from triage_app.core.demo import write_orders

    return write_orders(work / f"small_{n}.jsonl", ROWS, bad=0.1, seed=1000 + n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        help="another source tree of triage_app, measured the same way (repeatable)",
    )
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: temp)")
    a = ap.parse_args()

    # Byte-compile first, as an install does: where PYTHONDONTWRITEBYTECODE is set, every
    # start would otherwise compile the package again and time that instead.
    trees = [REPO / "triage_app"] + [d / "triage_app" for d in a.compare]
    for tree in trees:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    work = a.work or Path(tempfile.mkdtemp(prefix="triage-startup-"))
    work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} over the last minute")
    if load > 0.5:
        print(
            "  (something else is running: read the ratios and the CPU seconds; the wall "
            "seconds wait for a core)"
        )

    contenders: dict[str, tuple[list[str], Path | None]] = {"ours": (ours_command(), None)}
    for d in a.compare:
        who = "compare" if len(a.compare) == 1 else f"compare:{d.resolve().name}"
        if who in contenders:
            sys.exit(f"two trees to compare are named {d.resolve().name}: rename one")
        contenders[who] = ([sys.executable, "-m", "triage_app"], d.resolve())
    refs: dict[str, list[str]] = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import sqlite3": [sys.executable, "-c", "import sqlite3"],
    }
    cases = ("existing", "fresh", "rerun")
    names = list(refs) + [f"{who} {case}" for who in contenders for case in cases]
    times: dict[str, list[float]] = {k: [] for k in names}
    rss: dict[str, list[float]] = {k: [] for k in names}
    cpu: dict[str, list[float]] = {k: [] for k in names}

    def record(name: str, wall: float, peak: float, cpu_s: float) -> None:
        times[name].append(wall)
        rss[name].append(peak)
        cpu[name].append(cpu_s)

    # Each contender's standing workspace and the file it reruns, loaded once, untimed.
    n = 0
    standing: dict[str, tuple[Path, Path]] = {}
    for who, (cmd, cwd) in contenders.items():
        ws = work / f"ws_{who}"
        shutil.rmtree(ws, ignore_errors=True)
        first = small_file(work, n)
        n += 1
        measure([*cmd, *run_args(ws, first)], cwd)
        standing[who] = (ws, first)

    for i in range(a.rounds):
        for name, cmd in refs.items():
            wall, peak, cpu_s, _ = measure(cmd)
            record(name, wall, peak, cpu_s)
        for who, (cmd, cwd) in contenders.items():
            ws, loaded = standing[who]
            new = small_file(work, n)
            n += 1
            wall, peak, cpu_s, out = measure([*cmd, *run_args(ws, new)], cwd)
            if "already loaded" in out:
                sys.exit(f"{new} was not new to {ws}: {out.strip()}")
            record(f"{who} existing", wall, peak, cpu_s)

            fresh = work / f"fresh_{who}_{i}"
            new = small_file(work, n)
            n += 1
            wall, peak, cpu_s, _ = measure([*cmd, *run_args(fresh, new)], cwd)
            record(f"{who} fresh", wall, peak, cpu_s)
            shutil.rmtree(fresh, ignore_errors=True)

            wall, peak, cpu_s, out = measure([*cmd, *run_args(ws, loaded)], cwd)
            if "already loaded" not in out:
                sys.exit(f"the rerun of {loaded} loaded it again: {out.strip()}")
            record(f"{who} rerun", wall, peak, cpu_s)
        done = ", ".join(f"{k} {times[k][-1]:.3f}" for k in names if k.startswith("ours"))
        print(f"  round {i + 1}: {done}", flush=True)

    med = {k: statistics.median(v) for k, v in times.items()}
    print()
    w = max(20, *(len(k) + 2 for k in names))
    print(f"{'':{w}}{'median s':>10}{'min s':>8}{'max s':>8}{'peak MB':>9}{'cpu s':>8}")
    for k in names:
        print(
            f"{k:{w}}{med[k]:10.3f}{min(times[k]):8.3f}{max(times[k]):8.3f}"
            f"{max(rss[k]):9.0f}{statistics.median(cpu[k]):8.3f}"
        )
    base = med["python -c pass"]
    lite = med["import sqlite3"]
    print()
    for case in cases:
        k = f"ours {case}"
        verdict = "met" if med[k] < TARGET_S else "MISSED"
        print(
            f"{k:14} = {med[k]:.3f} s (target < {TARGET_S}: {verdict}); "
            f"{med[k] / base:.1f}x python -c pass, {med[k] / lite:.1f}x import sqlite3; "
            f"above import sqlite3: {med[k] - lite:.3f} s"
        )
    for who in contenders:
        if who == "ours":
            continue
        for case in cases:
            r = med[f"ours {case}"] / med[f"{who} {case}"]
            c = statistics.median(cpu[f"ours {case}"]) / statistics.median(cpu[f"{who} {case}"])
            print(f"ours / {who} ({case}) = {r:.2f} wall, {c:.2f} cpu")
    peak = max(max(rss[f"ours {c}"]) for c in cases)
    print(f"ours peak RSS = {peak:.0f} MB (target < 200: {'met' if peak < 200 else 'MISSED'})")
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
