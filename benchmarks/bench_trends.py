"""Trends over 1,000,000 dead letters spread over 90 days and 200 batches: the Trends tab's
render and ``stats --json`` as a subprocess.

Not a timed test: run it by hand and read the figures.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_trends.py [--store DIR]

``--store DIR`` keeps (or reuses) the filled store, so a second run skips the fill.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from triage_app.core.db import open_workspace
from triage_app.core.demo import fill_history

REPO = Path(__file__).resolve().parent.parent


def fill_store(folder: Path, total: int = 1_000_000, batches: int = 200) -> None:
    """The demo history (``core/demo/history.py``): the screenshots show the same shape."""
    with open_workspace(folder) as ws:
        fill_history(ws, total, batches)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def _best(fn: Callable[[], object], runs: int = 3) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="dead letters in the store")
    ap.add_argument("--batches", type=int, default=200)
    ap.add_argument("--store", type=Path, help="reuse (or create) the store in this folder")
    ap.add_argument("--fill-only", action="store_true")
    args = ap.parse_args()
    # Byte-compile first, as an install does: where PYTHONDONTWRITEBYTECODE is set, every
    # `stats` start would otherwise compile the package again (about 0.3 s) and time that.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        folder = args.store or tmp / "ws"
        if not (folder / "dead_letter.db").exists():
            t = time.perf_counter()
            fill_store(folder, args.rows, args.batches)
            print(f"generated {args.rows:,} dead letters in {time.perf_counter() - t:.1f} s")
        if args.fill_only:
            return
        measure(folder, tmp)


def _stats_subprocess(folder: Path) -> float:
    """``stats --json`` as a lead runs it: a new process, both databases by URL."""
    cmd = [
        sys.executable,
        "-m",
        "triage_app",
        "--dead-letter",
        f"sqlite:///{folder / 'dead_letter.db'}",
        "--warehouse",
        f"sqlite:///{folder / 'warehouse.db'}",
        "stats",
        "--json",
    ]
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, check=True)
    took = time.perf_counter() - t
    assert done.stdout.startswith(b"{"), done.stderr[:300]
    return took


def measure(folder: Path, tmp: Path) -> None:
    from triage_app.core.trends import compute_stats, compute_trends

    with open_workspace(folder) as ws, ws.store.connect() as conn:
        total = conn.exec_driver_sql("SELECT count(*) FROM dead_letters").scalar_one()
        batches = conn.exec_driver_sql("SELECT count(*) FROM batches").scalar_one()
        # Instants are whole microseconds on SQLite since schema 0008 (julianday() of one
        # is NULL).
        lo, hi = conn.exec_driver_sql(
            "SELECT min(first_failed_at), max(first_failed_at) FROM dead_letters"
        ).one()
        days = (hi - lo) / 86_400e6 if lo is not None else 0.0
    print(f"store: {total:,} dead letters, {batches} batches over {days:.0f} days")

    empty = tmp / "empty"
    with open_workspace(empty):
        pass
    base_best, base_median = _best(lambda: _stats_subprocess(empty), 3)
    best, median = _best(lambda: _stats_subprocess(folder), 5)
    print(
        f"stats --json, subprocess               {_ms(best)} best, {_ms(median)} median"
        "   (target < 500 ms)"
    )
    print(
        f"  the same on an empty store           {_ms(base_best)} best, {_ms(base_median)} "
        "median (process start and imports)"
    )
    with open_workspace(folder) as ws:
        best, median = _best(lambda: compute_stats(ws), 5)
        print(f"  compute_stats in process             {_ms(best)} best, {_ms(median)} median")
        best, median = _best(lambda: compute_trends(ws), 5)
        print(f"  compute_trends in process            {_ms(best)} best, {_ms(median)} median")
    measure_tab(folder, tmp)


def measure_tab(folder: Path, tmp: Path) -> None:
    """The Trends tab of the real window: from asking to the charts painted."""
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp))
    QCoreApplication.setOrganizationName("TriageDeskBench")
    from triage_app.gui import open_window

    app = QApplication.instance() or QApplication([])
    done: list[float] = []

    def settle() -> None:
        while not done:
            app.processEvents()
            time.sleep(0.001)
        app.processEvents()  # the paint

    t = time.perf_counter()
    window = open_window(str(folder))
    tab = window.trends
    tab.updated.connect(lambda: done.append(time.perf_counter()))
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    opened = time.perf_counter() - t
    while window.model.total() is None or tab.busy():
        app.processEvents()
        time.sleep(0.001)
    counted = time.perf_counter() - t
    t = time.perf_counter()
    window.tabs.setCurrentWidget(tab)  # the first time: the charts are read now
    settle()
    print(f"window open (table shown)              {_ms(opened)}")
    print(f"  table count and banner in            {_ms(counted)}")
    print(f"Trends tab first shown, painted        {_ms(time.perf_counter() - t)}   (target < 1 s)")

    def render(action: Callable[[], None]) -> float:
        done.clear()
        t = time.perf_counter()
        action()
        settle()
        return time.perf_counter() - t

    times = [render(tab.refresh) for _ in range(3)]
    print(
        f"Trends tab refresh (after a batch)     {_ms(min(times))} best, "
        f"{_ms(statistics.median(times))} median   (target < 1000 ms)"
    )
    print(f"  of which drawing the charts          {tab.last_render_ms:7.1f} ms (GUI thread)")
    t = time.perf_counter()
    tab.per_batch.setChecked(True)
    app.processEvents()
    print(f"  switch to per batch                  {_ms(time.perf_counter() - t)}")
    window.close()


if __name__ == "__main__":
    main()
