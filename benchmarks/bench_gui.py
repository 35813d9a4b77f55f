"""The window with 1,000,000 dead letters: first page, filter/sort change, jump to the last
row, Trends first shown, and the event loop's longest block while a 1,000,000-row batch
runs from the window.

``--bad-day`` measures the same on the store a bad release leaves (issue 11): 1,000,000
dead letters from one day, nearly all one code signature (orders whose ``diskon`` is null,
which ``pesanan@1`` mishandles), nearly all open, in a few batches. Then, instead of a
batch, a steward re-drives 200,000 of them through ``pesanan@2`` from the window, as a user
does: filter, Re-drive…, Preview, Re-drive; the event loop is watched through both.

Not a timed test: run it by hand and read the figures.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py [--rows 1000000]
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py --bad-day \
        [--redrive-rows 200000] [--screenshot redrive.png]

``--store DIR`` keeps (or reuses) the filled store; with ``--bad-day`` each run works on a
copy of it, as the re-drive changes it. The load average is printed before and after, and
the bad day also measures the heartbeat with nothing running: the machine's own noise.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_redrive import null_discount_order

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
NULL_DISCOUNT = SIGNATURES[3]  # what pesanan@1 raises on a null diskon


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


# -- the bad day ------------------------------------------------------------------------
BAD_DAY = dt.datetime(2026, 11, 29, 1, 0)
BAD_BATCHES = 5  # the nightly file and its re-sends, all through the broken release


def bad_day_batch_id(b: int) -> str:
    return f"{b:02d}badday{b:08d}"[:16]


def fill_bad_day(folder: Path, rows: int, redrive_rows: int) -> None:
    """``rows`` dead letters of one bad day. The last batch holds exactly ``redrive_rows``
    open code-class rows (the ones re-driven) and 1% data errors; the others are 97% the
    same code signature, 95% open (a few parked or resolved by an earlier attempt)."""
    rnd = random.Random(11)
    last = redrive_rows + redrive_rows // 100
    if rows < last + BAD_BATCHES - 1:
        raise SystemExit(f"--rows must be at least {last + BAD_BATCHES - 1:,}")
    per = (rows - last) // (BAD_BATCHES - 1)
    sizes = [per] * (BAD_BATCHES - 2) + [rows - last - per * (BAD_BATCHES - 2), last]
    code_cls, code_sig, code_err = NULL_DISCOUNT
    pesanan_id = 0
    with open_workspace(folder) as ws, StoreFiller(ws) as filler:
        for b, n in enumerate(sizes):
            bid = bad_day_batch_id(b)
            started = BAD_DAY + dt.timedelta(hours=4 * b)
            target = b == BAD_BATCHES - 1
            # The target batch: its first `redrive_rows` lines are the bug, the rest data.
            kinds = [
                (line <= redrive_rows) if target else (rnd.random() < 0.97)
                for line in range(1, n + 1)
            ]
            n_code = sum(kinds)
            filler.batch(
                bid,
                source_name=f"pesanan_2026-11-29_{b}.jsonl",
                source_sha256=f"{b + 100:064d}",
                rows=n + n // 50,
                loaded=n // 50,
                quarantined=n,
                by_class={"code": n_code, "data": n - n_code},
                seconds=n / 400_000,
                started_at=started,
                finished_at=started + dt.timedelta(seconds=n / 400_000),
            )
            for line, is_code in enumerate(kinds, start=1):
                pesanan_id += 1
                at = started + dt.timedelta(microseconds=2 * line)
                if is_code:
                    roll = 0.0 if target else rnd.random()
                    filler.dead_letter(
                        bid,
                        line,
                        payload=orjson.dumps(null_discount_order(pesanan_id)),
                        error=code_err,
                        error_class=code_cls,
                        signature=code_sig,
                        status="open" if roll < 0.95 else ("parked" if roll < 0.98 else "resolved"),
                        attempts=1 if roll < 0.95 else 3,
                        failed_at=at,
                        resolved_at=at + dt.timedelta(hours=1) if roll >= 0.98 else None,
                    )
                else:
                    cls, sig, err = SIGNATURES[rnd.randrange(3)]  # the data ones
                    filler.dead_letter(
                        bid,
                        line,
                        payload=order_payload(pesanan_id),
                        error=err,
                        error_class=cls,
                        signature=sig,
                        failed_at=at,
                    )


# -- measuring --------------------------------------------------------------------------
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


class Heartbeat:
    """A 10 ms timer in the GUI thread: the gaps between its beats are how long the event
    loop was blocked."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.beats: list[float] = []
        self.timer = QTimer(interval=10)
        self.timer.timeout.connect(lambda: self.beats.append(time.perf_counter()))
        self.started = 0.0

    def start(self) -> None:
        """Start beating; the moment of the call counts as a beat, so that what the caller
        does in the GUI thread right after (starting a job) is measured too."""
        self.started = time.perf_counter()
        self.beats[:] = [self.started]
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def gaps(self) -> list[tuple[float, float]]:
        """(gap, when it began, seconds after start), longest first."""
        return sorted(
            ((b - a, a - self.started) for a, b in itertools.pairwise(self.beats)), reverse=True
        )

    def report(self, what: str, ended: float) -> tuple[float, float]:
        gaps = self.gaps()
        longest, p99 = gaps[0][0], gaps[len(gaps) // 100][0]
        print(
            f"event loop during the {what}: longest gap {_ms(longest)} (target < 100 ms), "
            f"p99 {_ms(p99)}, {len(self.beats):,} beats of 10 ms"
        )
        worst = ", ".join(f"{g * 1000:.0f} ms at {at:.2f} s" for g, at in gaps[:5])
        print(f"  longest gaps: {worst} (ended at {ended:.2f} s)")
        return longest, p99


def open_measured(folder: Path, tmp: Path) -> tuple[Any, Any]:
    """The window opened on ``folder``; prints how soon the first page and the count came."""
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp))
    QCoreApplication.setOrganizationName("TriageDeskBench")
    # Imported before the clock starts, as this benchmark always has (the figures in
    # README.md compare): the window's own modules are timed, the engine's are not.
    from triage_app.core.deadletters import DeadLetterFilter  # noqa: F401
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
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        rows = conn.exec_driver_sql("SELECT count(*) FROM dead_letters").scalar_one()
    print(f"{rows:,} dead letters ({window.model.total():,} open)")
    print(f"first page shown after open            {_ms(first_page)}   (target < 1000 ms)")
    print(f"  row count arrived (query thread)     {_ms(counted)}")
    return app, window


def measure_filters(  # type: ignore[no-untyped-def]
    app, window, filters: Sequence[tuple[str, dict[str, Any]]], sorts: bool = True
) -> list[float]:
    """Each filter's first page (GUI thread) and its count in the status bar (query
    thread), from the moment the filter changed; then every sort, both ways."""
    from PySide6.QtCore import Qt

    from triage_app.core.deadletters import DeadLetterFilter

    figures = []
    for label, kw in filters:
        t0 = time.perf_counter()
        took = _timed(app, lambda kw=kw: window.model.set_filter(DeadLetterFilter(**kw)))
        _settle(app, lambda: window.model.total() is not None)
        counted = time.perf_counter() - t0
        figures.append(took)
        print(
            f"filter {label:33} {_ms(took)}   (target < 200 ms)  "
            f"count {window.model.total():>9,} in {_ms(counted)}"
        )
    header = window.table.horizontalHeader()
    columns = ((3, "class"), (4, "error"), (7, "last failed"), (1, "batch"), (0, "id"))
    for col, name in columns if sorts else ():
        for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
            took = _timed(app, lambda c=col, o=order: header.setSortIndicator(c, o))
            _settle(app, lambda: window.model.total() is not None)
            figures.append(took)
            print(
                f"sort by {name:12} {order.name[:4]:4}             {_ms(took)}   (target < 200 ms)"
            )
    print(f"slowest filter/sort change             {_ms(max(figures))}")
    return figures


def measure_jumps(app, window, filters: Sequence[tuple[str, dict[str, Any]]]) -> list[float]:  # type: ignore[no-untyped-def]
    from triage_app.core.deadletters import DeadLetterFilter

    figures = []
    for label, kw in filters:
        window.model.set_filter(DeadLetterFilter(**kw))
        _settle(app, lambda: window.model.total() is not None)
        app.processEvents()
        took = _timed(app, window.table.scrollToBottom)
        figures.append(took)
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
    return figures


def measure_trends_first(app, window) -> float:  # type: ignore[no-untyped-def]
    """The Trends tab shown for the first time: from the click to the charts painted."""
    tab = window.trends
    done: list[float] = []
    tab.updated.connect(lambda: done.append(time.perf_counter()))
    _settle(app, lambda: not tab.busy() and not window.queries.busy())
    t = time.perf_counter()
    window.tabs.setCurrentWidget(tab)
    _settle(app, lambda: bool(done))
    app.processEvents()  # the paint
    took = time.perf_counter() - t
    print(f"Trends tab first shown, painted        {_ms(took)}   (target < 1000 ms)")
    print(f"  of which drawing the charts          {tab.last_render_ms:7.1f} ms (GUI thread)")
    window.tabs.setCurrentWidget(window.quarantine)
    app.processEvents()
    return took


def mixed_filters(batch_id: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    return (
        ("class = code", {"error_class": "code"}),
        ("status = parked", {"status": "parked"}),
        ("transform = pesanan@2", {"transform": "pesanan@2"}),
        ("batch = <full id>", {"batch_id": batch_id}),
        ("batch + class = code", {"batch_id": batch_id, "error_class": "code"}),
        ("class = code, all statuses", {"error_class": "code", "status": "all"}),
        ("attempts >= 3", {"min_attempts": 3}),
        ("search 'Budi'", {"search": "Budi"}),
        ("back to open", {}),
    )


def measure_window(folder: Path, rows: int, batch_rows: int, tmp: Path) -> None:
    app, window = open_measured(folder, tmp)
    _settle(app, lambda: bool(window.batches))
    measure_filters(app, window, mixed_filters(window.batches[-1].batch_id))
    measure_jumps(app, window, (("open", {}), ("class = code", {"error_class": "code"})))
    measure_trends_first(app, window)
    measure_batch(app, window, batch_rows, tmp)
    window.close()


def measure_batch(app, window, batch_rows: int, tmp: Path) -> None:  # type: ignore[no-untyped-def]
    """The event loop while a batch runs from the window: a 10 ms heartbeat."""
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
    heartbeat = Heartbeat()
    window.work.run_batch()
    dialog = window.dialogs()[-1]
    dialog.set_path(source)
    dialog.set_transform("pesanan@1")
    done: list[object] = []
    dialog.jobFinished.connect(done.append)
    heartbeat.start()
    t = time.perf_counter()
    dialog.run()
    _settle(app, lambda: bool(done) and not dialog.is_running(), timeout=1800)
    took = time.perf_counter() - t
    _settle(app, lambda: window.model.total() is not None and not window.queries.busy())
    heartbeat.stop()
    summary = done[0]
    print(
        f"batch from the window: {summary.rows:,} rows in {took:.1f} s "
        f"({summary.rows / took:,.0f} rows/s), {summary.quarantined:,} quarantined"
    )
    heartbeat.report("batch", took)
    print(f"  second lane started by: {', '.join(lane_starts) or 'none (one lane)'}")


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


def bad_day_filters() -> tuple[tuple[str, dict[str, Any]], ...]:
    target = bad_day_batch_id(BAD_BATCHES - 1)
    _cls, sig, _err = NULL_DISCOUNT
    return (
        ("class = code", {"error_class": "code"}),
        ("class = data (the few)", {"error_class": "data"}),
        ("status = parked", {"status": "parked"}),
        ("status = resolved", {"status": "resolved"}),
        ("transform = pesanan@1", {"transform": "pesanan@1"}),
        ("signature = the bug", {"signature": sig}),
        ("batch = <full id>", {"batch_id": target}),
        ("batch + class = code", {"batch_id": target, "error_class": "code"}),
        ("batch + class = data", {"batch_id": target, "error_class": "data"}),
        ("class = code, all statuses", {"error_class": "code", "status": "all"}),
        ("attempts >= 3", {"min_attempts": 3}),
        ("search 'Budi'", {"search": "Budi"}),
        ("search 'kolom'", {"search": "kolom"}),
        ("back to open", {}),
    )


def measure_bad_day(folder: Path, redrive_rows: int, tmp: Path, screenshot: Path | None) -> None:
    app, window = open_measured(folder, tmp)
    _settle(app, lambda: bool(window.batches))
    measure_filters(app, window, bad_day_filters())
    measure_jumps(
        app,
        window,
        (
            ("open", {}),
            ("class = code", {"error_class": "code"}),
            ("signature", {"signature": NULL_DISCOUNT[1]}),
        ),
    )
    measure_trends_first(app, window)
    measure_idle(app)
    measure_redrive(app, window, redrive_rows, screenshot)
    # The same filters once the broken batch's rows are resolved: an open filter on that
    # batch now passes over 200,000 rows that no longer match.
    target = bad_day_batch_id(BAD_BATCHES - 1)
    print("after the re-drive:")
    measure_filters(
        app,
        window,
        (
            ("back to open", {}),
            ("batch + class = code (none left)", {"batch_id": target, "error_class": "code"}),
            ("batch = <full id>", {"batch_id": target}),
            ("status = resolved", {"status": "resolved"}),
            ("signature = the bug", {"signature": NULL_DISCOUNT[1]}),
        ),
        sorts=False,
    )
    window.close()


def measure_idle(app, seconds: float = 2.0) -> None:  # type: ignore[no-untyped-def]
    """The heartbeat with nothing running: what the machine's load alone costs."""
    heartbeat = Heartbeat()
    heartbeat.start()
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        app.processEvents()
        time.sleep(0.001)
    heartbeat.stop()
    heartbeat.report(f"{seconds:.0f} s with nothing running (the machine's noise)", seconds)


def measure_redrive(app, window, rows: int, screenshot: Path | None) -> None:  # type: ignore[no-untyped-def]
    """A steward's re-drive of the broken batch's code rows through pesanan@2, from the
    window: the filter, Re-drive…, Preview (a dry run), Re-drive; a heartbeat through
    both."""
    from triage_app.core.deadletters import DeadLetterFilter

    target = bad_day_batch_id(BAD_BATCHES - 1)
    # As a user picks it: the batch, then the class, in the filter bar (status: open).
    bar = window.filter_bar
    bar.show_batch(target)  # the spike banner's "show batch": every status
    bar.status_combo.setCurrentIndex(bar.status_combo.findData("open"))
    bar.class_combo.setCurrentIndex(bar.class_combo.findData("code"))
    _settle(app, lambda: window.model.total() is not None)
    assert window.model.filter == DeadLetterFilter(batch_id=target, error_class="code"), (
        window.model.filter
    )
    matching = window.model.total()
    print(f"re-drive scope: batch {target[:8]}, class code, open: {matching:,} rows")
    window.work.redrive()
    dialog = window.dialogs()[-1]
    assert dialog.scope_filter.isChecked()
    dialog.transform_combo.setCurrentIndex(dialog.transform_combo.findData("pesanan@2"))
    heartbeat = Heartbeat()

    heartbeat.start()
    t = time.perf_counter()
    dialog.preview()
    _settle(app, lambda: not dialog.is_running(), timeout=1800)
    took = time.perf_counter() - t
    heartbeat.stop()
    assert dialog.run_button.isEnabled(), dialog.summary.text()
    print(f"preview (dry run) from the window: {took:.1f} s ({matching / took:,.0f} rows/s)")
    heartbeat.report("preview", took)

    redriven: list[Any] = []
    dialog.redriven.connect(redriven.append)
    shot: list[float] = []

    def maybe_shoot(report: Any) -> None:
        if screenshot is not None and not shot and report.fraction >= 0.4:
            shot.append(report.fraction)
            _save_screenshot(window, dialog, screenshot)

    heartbeat.start()
    t = time.perf_counter()
    dialog.run()
    dialog._runner.progress.connect(maybe_shoot)
    _settle(app, lambda: bool(redriven) and not dialog.is_running(), timeout=1800)
    took = time.perf_counter() - t
    # The window reads the store again after the run: part of what the user waits for.
    _settle(app, lambda: window.model.total() is not None and not window.queries.busy())
    settled = time.perf_counter() - t
    heartbeat.stop()
    s = redriven[0]
    print(
        f"re-drive from the window: {s.attempted:,} rows in {took:.1f} s "
        f"({s.attempted / took:,.0f} rows/s), {s.succeeded:,} resolved, {s.failed:,} failed; "
        f"table read again by {settled:.1f} s"
    )
    heartbeat.report("re-drive", took)
    print(f"  live refreshes during it: {window.live.refreshes}")
    if shot:
        print(f"  screenshot at {shot[0]:.0%}: {screenshot}")


def _save_screenshot(window, dialog, path: Path) -> None:  # type: ignore[no-untyped-def]
    """The window with the re-drive dialog over it, as a user sees them."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QPainter

    image = window.grab()
    if dialog.isVisible():
        painter = QPainter(image)
        at = dialog.pos() - window.pos()
        painter.drawPixmap(QPoint(max(0, at.x()), max(0, at.y())), dialog.grab())
        painter.end()
    image.save(str(path))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="dead letters in the store")
    ap.add_argument("--batch-rows", type=int, default=1_000_000, help="rows in the timed batch")
    ap.add_argument("--store", type=Path, help="reuse (or create) the store in this folder")
    ap.add_argument("--bad-day", action="store_true", help="the bad-day store and a re-drive")
    ap.add_argument("--redrive-rows", type=int, default=200_000, help="rows re-driven (bad day)")
    ap.add_argument("--screenshot", type=Path, help="save the window mid re-drive (bad day)")
    args = ap.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        folder = args.store or tmp / "ws"
        if not (folder / "dead_letter.db").exists():
            t = time.perf_counter()
            if args.bad_day:
                fill_bad_day(folder, args.rows, args.redrive_rows)
            else:
                fill_store(folder, args.rows)
            print(f"generated {args.rows:,} dead letters in {time.perf_counter() - t:.1f} s")
        if args.bad_day and args.store:
            # The re-drive changes the store: it runs on a copy, the kept one stays as made.
            shutil.copytree(folder, tmp / "ws")
            folder = tmp / "ws"
        if args.bad_day:
            measure_bad_day(folder, args.redrive_rows, tmp, args.screenshot)
        else:
            measure_window(folder, args.rows, args.batch_rows, tmp)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
