"""The window with 1,000,000 dead letters: first page, filter/sort change, jump to the last
row, and the event loop's longest block while a 1,000,000-row batch runs from the window.

Not a timed test: run it by hand and read the figures.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from triage_app.core.db import open_workspace
from triage_app.core.demo import StoreFiller, order_payload, write_orders

SIGNATURES = [
    ("data", "DataError: qty tidak valid: <n>", "DataError: qty tidak valid: -1"),
    ("data", "DataError: kolom wajib hilang: qty", "DataError: kolom wajib hilang: qty"),
    (
        "data",
        "JSONDecodeError: unexpected end of data: line <n> column <n> (char <n>)",
        "JSONDecodeError: unexpected end of data: line 1 column 72 (char 71)",
    ),
    (
        "code",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
    ),
    ("transient", "TimeoutError: warehouse busy", "TimeoutError: warehouse busy"),
]
STATUSES = ["open"] * 6 + ["parked", "resolved", "resolved", "discarded"]


def fill_store(folder: Path, rows: int, batches: int = 4) -> None:
    """``rows`` dead letters over a few batches, written straight into the store."""
    rnd = random.Random(7)
    t0 = dt.datetime(2026, 1, 1)
    per = rows // batches
    with open_workspace(folder) as ws, StoreFiller(ws) as filler:
        for b in range(batches):
            bid = f"{b:02d}bench{b:09d}"[:16]
            n = per if b < batches - 1 else rows - per * (batches - 1)
            filler.batch(
                bid,
                source_name=f"bench_{b}.jsonl",
                source_sha256=f"{b:064d}",
                rows=per,
                quarantined=per,
                seconds=1.0,
                started_at=t0 + dt.timedelta(days=b),
            )
            for line in range(1, n + 1):
                cls, sig, err = SIGNATURES[rnd.randrange(len(SIGNATURES))]
                at = t0 + dt.timedelta(days=b, seconds=line)
                filler.dead_letter(
                    bid,
                    line,
                    payload=order_payload(line),
                    error=err,
                    error_class=cls,
                    signature=sig,
                    attempts=1 + rnd.randrange(3),
                    status=STATUSES[rnd.randrange(len(STATUSES))],
                    transform="pesanan@1" if rnd.random() < 0.8 else "pesanan@2",
                    failed_at=at,
                )


def _settle(app, condition: Callable[[], bool], timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("gave up waiting")
        app.processEvents()
        time.sleep(0.001)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def _timed(app, action: Callable[[], None]) -> float:  # type: ignore[no-untyped-def]
    """Run ``action`` and the events it posts (the repaint of the table) to completion."""
    t0 = time.perf_counter()
    action()
    app.processEvents()
    return time.perf_counter() - t0


def measure_window(folder: Path, rows: int, batch_rows: int, tmp: Path) -> None:
    from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp))
    QCoreApplication.setOrganizationName("TriageDeskBench")
    from triage_app.core.deadletters import DeadLetterFilter
    from triage_app.gui import open_window

    t0 = time.perf_counter()
    window = open_window(str(folder))
    app = QApplication.instance()
    window.resize(1400, 900)
    app.processEvents()  # the first paint
    first_page = time.perf_counter() - t0
    assert window.model.rowCount() > 0
    _settle(app, lambda: window.model.total() is not None)
    counted = time.perf_counter() - t0
    print(f"{rows:,} dead letters ({window.model.total():,} open)")
    print(f"first page shown after open            {_ms(first_page)}   (target < 1000 ms)")
    print(f"  row count arrived (query thread)     {_ms(counted)}")

    def filter_change(**kw) -> float:  # type: ignore[no-untyped-def]
        took, _ = filter_and_count(**kw)
        return took

    def filter_and_count(**kw) -> tuple[float, float]:  # type: ignore[no-untyped-def]
        """The first page shown (GUI thread), and the count in the status bar (query
        thread), each from the moment the filter changed."""
        f = DeadLetterFilter(**kw)
        t0 = time.perf_counter()
        took = _timed(app, lambda: window.model.set_filter(f))
        _settle(app, lambda: window.model.total() is not None)
        return took, time.perf_counter() - t0

    _settle(app, lambda: bool(window.batches))
    first_batch = window.batches[-1].batch_id
    figures = []
    for label, kw in (
        ("class = code", {"error_class": "code"}),
        ("status = parked", {"status": "parked"}),
        ("transform = pesanan@2", {"transform": "pesanan@2"}),
        ("batch = <full id>", {"batch_id": first_batch}),
        ("batch + class = code", {"batch_id": first_batch, "error_class": "code"}),
        ("class = code, all statuses", {"error_class": "code", "status": "all"}),
        ("attempts >= 3", {"min_attempts": 3}),
        ("search 'Budi'", {"search": "Budi"}),
        ("back to open", {}),
    ):
        took, counted = filter_and_count(**kw)
        figures.append(took)
        print(
            f"filter {label:31} {_ms(took)}   (target < 200 ms)  "
            f"count {window.model.total():>9,} in {_ms(counted)}"
        )
    header = window.table.horizontalHeader()
    for col, name in ((3, "class"), (4, "error"), (7, "last failed"), (1, "batch"), (0, "id")):
        for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
            took = _timed(app, lambda c=col, o=order: header.setSortIndicator(c, o))
            _settle(app, lambda: window.model.total() is not None)
            figures.append(took)
            print(
                f"sort by {name:12} {order.name[:4]:4}             {_ms(took)}   (target < 200 ms)"
            )
    for label, kw in (("open", {}), ("class = code", {"error_class": "code"})):
        filter_change(**kw)
        took = _timed(app, window.table.scrollToBottom)
        last = window.model.row(window.model.rowCount() - 1)
        print(f"jump to last row ({label:13})        {_ms(took)}   (target < 200 ms) id {last.id}")
        took = _timed(app, window.table.scrollToTop)
        print(f"  and back to the first                {_ms(took)}")
        took = _timed(
            app,
            lambda: window.table.verticalScrollBar().setValue(
                window.table.verticalScrollBar().maximum() // 2
            ),
        )
        print(f"  jump to the middle                   {_ms(took)}")
    print(f"slowest filter/sort change             {_ms(max(figures))}")

    # The event loop while a batch runs from the window: a 10 ms heartbeat.
    source = tmp / "batch.jsonl"
    t = time.perf_counter()
    # A seed of the clock: a file run before would be a finished batch, not a measurement.
    write_orders(source, batch_rows, 0.001, seed=int(time.time()))
    print(f"generated a {batch_rows:,}-row batch in {time.perf_counter() - t:.1f} s")
    from triage_app.core.batch.lanes import lanes_for

    print(
        f"  {source.stat().st_size / 1e6:.0f} MB: {lanes_for(source.stat().st_size, False)} lanes"
    )
    lane_starts = _record_lane_starts()
    beats: list[float] = []
    heartbeat = QTimer(interval=10)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
    window.run_batch()
    dialog = window.dialogs()[-1]
    dialog.set_path(source)
    dialog.set_transform("pesanan@1")
    done: list[object] = []
    dialog.batchFinished.connect(done.append)
    heartbeat.start()
    t = time.perf_counter()
    dialog.run()
    _settle(app, lambda: bool(done) and not dialog.is_running(), timeout=1800)
    took = time.perf_counter() - t
    _settle(app, lambda: window.model.total() is not None and not window.queries.busy())
    heartbeat.stop()
    gaps = sorted(((b - a, a - t) for a, b in itertools.pairwise(beats)), reverse=True)
    summary = done[0]
    print(
        f"batch from the window: {summary.rows:,} rows in {took:.1f} s "
        f"({summary.rows / took:,.0f} rows/s), {summary.quarantined:,} quarantined"
    )
    print(
        f"event loop during the batch: longest gap {_ms(gaps[0][0])} (target < 100 ms), "
        f"p99 {_ms(gaps[len(gaps) // 100][0])}, {len(beats):,} beats of 10 ms"
    )
    worst = ", ".join(f"{g * 1000:.0f} ms at {at:.2f} s" for g, at in gaps[:5])
    print(f"  longest gaps: {worst} (batch ended at {took:.2f} s)")
    print(f"  second lane started by: {', '.join(lane_starts) or 'none (one lane)'}")
    window.close()


def _record_lane_starts() -> list[str]:
    """How core starts the batch's second lane from the window: "fork" or "process"."""
    import triage_app.core.batch.lanes as lane

    starts: list[str] = []
    real_fork, real_popen = lane.os.fork, lane.subprocess.Popen

    def fork() -> int:
        pid = real_fork()
        if pid:
            starts.append("fork")
        return pid

    def popen(args, *a, **k):  # type: ignore[no-untyped-def]
        if any(str(a).startswith("triage_app.core.batch.lane") for a in args):
            starts.append("process")
        return real_popen(args, *a, **k)

    lane.os.fork = fork  # type: ignore[assignment]
    lane.subprocess.Popen = popen  # type: ignore[misc]
    return starts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="dead letters in the store")
    ap.add_argument("--batch-rows", type=int, default=1_000_000, help="rows in the timed batch")
    ap.add_argument("--store", type=Path, help="reuse (or create) the store in this folder")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        folder = args.store or tmp / "ws"
        if not (folder / "dead_letter.db").exists():
            t = time.perf_counter()
            fill_store(folder, args.rows)
            print(f"generated {args.rows:,} dead letters in {time.perf_counter() - t:.1f} s")
        measure_window(folder, args.rows, args.batch_rows, tmp)


if __name__ == "__main__":
    main()
