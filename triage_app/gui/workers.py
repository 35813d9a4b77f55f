"""Database work off the GUI thread.

Two shapes of work, both on a QThread with a worker QObject that opens its own workspace:

- ``JobRunner``: one long job (a batch, a re-drive, an export) with progress and Cancel.
  The job is one of core's jobs (``core/jobs.py``), the same the command line runs.
- ``QueryThread``: a long-lived thread for short calls (a count, one dead letter, an
  audited edit). Calls with the same key coalesce: only the newest one runs.

Results cross threads as frozen dataclasses or plain values, never ORM objects.

Each QThread is its owner's C++ child, and once it has stopped its worker is deleted at once
in the GUI thread (``lifetime.dispose``): when the window is done with a workspace, nothing of
it waits for a later event loop, and no Qt object is ever deleted in a worker thread.
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections.abc import Callable
from functools import partial
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from triage_app.core.db import Workspace, WorkspaceConfig, open_config, user_message
from triage_app.core.jobs import (
    BatchJob,
    ExportJob,
    ImportJob,
    Job,
    PurgeJob,
    RedriveJob,
    ReprocessJob,
)
from triage_app.core.locale_format import format_percent
from triage_app.core.progress import Pace, PaceMeter, describe_left
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose

# What a job's progress signal carries: where it is, its rows per second and the time left,
# measured in the worker thread (``core/progress.py`` does the arithmetic).
ProgressReport = Pace


def describe_progress(job: Job, report: ProgressReport) -> str:
    """The line the window shows for a running job: "Re-driving 84,000 of 200,000 rows ·
    12,300 rows/s · about 9 s left". A batch counts bytes, so it says rows and a share.
    Each job's line is one whole sentence for a translator; the time left is core's."""
    done, total, rows = report.done, report.total, report.rows
    if isinstance(job, RedriveJob):
        if job.dry_run:
            head = translate("workers", "Previewing %1 of %Ln row(s)", "", total)
        else:
            head = translate("workers", "Re-driving %1 of %Ln row(s)", "", total)
        return _with_pace(fill(head, done), report)
    if isinstance(job, BatchJob):
        head = translate("workers", "Loading %1: %Ln row(s), %2", "", rows)
        return _with_pace(fill(head, job.path.name, format_percent(report.fraction, 0)), report)
    if isinstance(job, ExportJob):
        head = translate("workers", "Exporting %1 of %Ln row(s)", "", total)
        return _with_pace(fill(head, done), report)
    if isinstance(job, ReprocessJob):
        if job.dry_run:
            head = translate("workers", "Checking %1 of %Ln row(s)", "", total)
        else:
            head = translate("workers", "Reprocessing %1 of %Ln row(s)", "", total)
        return _with_pace(fill(head, done), report)
    if isinstance(job, PurgeJob):
        head = translate("workers", "Purging %1 of %Ln row(s)", "", total)
        return _with_pace(fill(head, done), report)
    if isinstance(job, ImportJob):
        source = (
            job.kept or job.name or job.options.get("queue") or job.options.get("table") or job.kind
        )
        if job.limit is not None:
            head = translate("workers", "Importing from %1: %2 of %Ln row(s)", "", total)
            return _with_pace(fill(head, source, done), report)
        # No limit: a queue's length is not known ahead, so no share and no time left.
        head = translate("workers", "Importing from %1: %Ln dead letter(s) so far", "", done)
        line = fill(head, source)
        if report.rows_per_second:
            line += " · " + _rate(report.rows_per_second)
        return line
    head = translate("workers", "%1: %Ln row(s), %2", "", rows)
    title = job.title[:1].upper() + job.title[1:]
    return _with_pace(fill(head, title, format_percent(report.fraction, 0)), report)


def _rate(rows_per_second: float) -> str:
    rate = round(rows_per_second)
    return fill(translate("workers", "%1 rows/s"), rate)


def _with_pace(head: str, report: ProgressReport) -> str:
    """``head``, then the rows per second and the time left once they are known."""
    parts = [head]
    if report.rows_per_second is not None:
        parts.append(_rate(report.rows_per_second))
    if report.seconds_left is not None and report.done < report.total:
        parts.append(describe_left(report.seconds_left))
    return " · ".join(parts)


REPORT_EVERY = 0.1  # seconds between progress reports to the window


# Every thread a window started, to be joined at the latest when the interpreter exits.
_threads: list[tuple[weakref.ref[QThread], threading.Event]] = []


def _joined_at_the_latest(owner: QObject, thread: QThread, stop: threading.Event) -> None:
    """Safety nets for a thread its owner did not stop (a window never closed). Deleting a
    running QThread aborts the process ("QThread: Destroyed while thread ... is still
    running"): the owner's ``destroyed`` comes before its children are deleted, and stops and
    joins the thread first; and when the interpreter exits, every thread still running is
    stopped and joined before anything is torn down (a thread running Python while the
    interpreter finalizes crashed it)."""
    owner.destroyed.connect(partial(_join, weakref.ref(thread), stop))
    _threads[:] = [(t, s) for t, s in _threads if t() is not None]
    _threads.append((weakref.ref(thread), stop))


def _join(thread_ref: weakref.ref[QThread], stop: threading.Event, *_: object) -> None:
    thread = thread_ref()
    if thread is not None and shiboken6.isValid(thread) and thread.isRunning():
        stop.set()  # a job stops at its next chunk; queued queries are skipped
        thread.quit()
        thread.wait()


@atexit.register
def _join_all() -> None:
    for thread_ref, stop in _threads:
        _join(thread_ref, stop)


def _dispose_worker(worker: QObject | None) -> None:
    """A worker whose thread has finished, deleted now if it went home as its last act;
    else (its thread ended before it ran) left to Python, which deletes it in the GUI thread
    too. Never raises: this runs inside closeEvent, where an exception crashed PySide6."""
    if worker is not None and QObject.thread(worker) is QThread.currentThread():
        dispose(worker)


def _go_home(worker: QObject) -> None:
    """The worker's last act in its thread: hand itself back to the GUI thread, where it is
    deleted once the thread has finished (only an object's own thread can move it)."""
    app = QCoreApplication.instance()
    if app is not None:
        worker.moveToThread(app.thread())


class _SignalProgress:
    """Core's progress contract, forwarded as a Qt signal from the worker thread."""

    def __init__(self, worker: JobWorker) -> None:
        self._worker = worker
        self._started = time.perf_counter()
        self._meter = PaceMeter()
        self._emitted: float | None = None  # when the last report was sent

    def update(self, done: int, total: int, rows: int = 0) -> None:
        now = time.perf_counter()
        pace = self._meter.update(now - self._started, done, total, rows)
        # The first report and the last always go; in between at most REPORT_EVERY: a
        # preview reports every 500 rows, and each report is a few calls in the GUI thread.
        if self._emitted is None or done >= total or now - self._emitted >= REPORT_EVERY:
            self._emitted = now
            self._worker.progress.emit(pace)

    def cancelled(self) -> bool:
        return self._worker.cancel_requested.is_set()


class JobWorker(QObject):
    progress = Signal(object)  # ProgressReport
    finished = Signal(object)  # the job's result
    failed = Signal(str)

    def __init__(self, config: WorkspaceConfig | None, job: Job) -> None:
        super().__init__()
        self.config = config
        self.job = job
        self.cancel_requested = threading.Event()

    @Slot()
    def run(self) -> None:
        try:
            if self.config is None:  # a job that needs no workspace (a connection test)
                result = self.job.run(None, _SignalProgress(self))
            else:
                with open_config(self.config) as ws:
                    result = self.job.run(ws, _SignalProgress(self))
        except Exception as exc:  # every failure becomes one line for the user
            self.failed.emit(user_message(exc))
        else:
            self.finished.emit(result)
        _go_home(self)
        # Quit from here, not from a slot in the GUI thread: that one may be blocked in
        # JobRunner.stop(), waiting for this very thread.
        thread = QThread.currentThread()
        if thread is not None:
            thread.quit()


class JobRunner(QObject):
    """Runs one ``Job`` on its own QThread and relays its signals to the GUI thread."""

    progress = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    done = Signal()  # after finished or failed, once the thread has stopped

    def __init__(
        self, config: WorkspaceConfig | None, job: Job, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.job = job
        self.thread = QThread(self)
        self.thread.setObjectName(f"job: {job.title}")
        worker = JobWorker(config, job)
        worker.moveToThread(self.thread)
        self.thread.started.connect(worker.run)
        worker.progress.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(self._on_failed)
        self.thread.finished.connect(self._on_thread_finished)
        self.worker: JobWorker | None = worker  # deleted once the thread has finished
        self._cancel_requested = worker.cancel_requested
        _joined_at_the_latest(self, self.thread, self._cancel_requested)
        self._outcome: tuple[str, Any] | None = None

    def start(self) -> None:
        self.thread.start()

    def cancel(self) -> None:
        self._cancel_requested.set()

    def cancel_requested(self) -> bool:
        return self._cancel_requested.is_set()

    def is_running(self) -> bool:
        return self.thread.isRunning()

    def stop(self, timeout_ms: int = 60_000) -> bool:
        """Ask the job to stop at its next chunk and wait for the thread; True if it did."""
        self.cancel()
        stopped = self.thread.wait(timeout_ms) if self.thread.isRunning() else True
        if stopped and self.thread.isFinished():
            self._release_worker()
        return stopped

    def _release_worker(self) -> None:
        """The worker, a QObject of the finished thread, deleted now in the GUI thread."""
        self.thread.wait()
        _dispose_worker(self.worker)
        self.worker = None

    @Slot(object)
    def _on_progress(self, report: ProgressReport) -> None:
        self.progress.emit(report)

    @Slot(object)
    def _on_finished(self, result: Any) -> None:
        self._outcome = ("finished", result)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._outcome = ("failed", message)

    @Slot()
    def _on_thread_finished(self) -> None:
        # ``finished`` comes from the thread just before it ends: wait for the end.
        self._release_worker()
        outcome, self._outcome = self._outcome, None
        if outcome is not None:
            kind, value = outcome
            (self.finished if kind == "finished" else self.failed).emit(value)
        self.done.emit()


class _QueryWorker(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)

    def __init__(
        self,
        config: WorkspaceConfig,
        latest: dict[str, int],
        lock: threading.Lock,
        closing: threading.Event,
    ):
        super().__init__()
        self.config = config
        self._ws: Workspace | None = None
        self._latest = latest
        self._lock = lock
        self._closing = closing

    @Slot(int, str, object)
    def call(self, call_id: int, key: str, fn: Callable[[Workspace], Any]) -> None:
        if self._closing.is_set():  # calls still queued when the window let go: not run
            return
        with self._lock:
            stale = bool(key) and self._latest.get(key, call_id) != call_id
        if stale:
            return
        try:
            if self._ws is None:
                self._ws = open_config(self.config)
            result = fn(self._ws)
        except Exception as exc:
            self.failed.emit(call_id, user_message(exc))
        else:
            self.done.emit(call_id, result)

    @Slot()
    def close(self) -> None:
        """The last call: the workspace closed, the worker handed back to the GUI thread,
        and the thread told to end (from here: a quit() from the GUI thread could end the
        loop before this call, queued behind a running query, was reached)."""
        if self._ws is not None:
            self._ws.close()
            self._ws = None
        _go_home(self)
        thread = QThread.currentThread()
        if thread is not None:
            thread.quit()


class QueryThread(QObject):
    """Short database calls, one at a time, off the GUI thread.

    ``submit(fn, on_done, on_error, key=...)``: ``fn(ws)`` runs in the worker thread with
    the worker's own workspace; ``on_done(result)`` or ``on_error(message)`` runs in the
    GUI thread. A call superseded by a newer one with the same ``key`` is skipped.
    """

    _request = Signal(int, str, object)
    _close = Signal()
    idle = Signal()

    def __init__(self, config: WorkspaceConfig, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._callbacks: dict[int, tuple[Callable[[Any], None], Callable[[str], None] | None]] = {}
        self._next_id = 0
        self._dispatching = 0  # how deep in on_done / on_error callbacks the GUI thread is
        self._closing = threading.Event()
        self.thread = QThread(self)
        self.thread.setObjectName("queries")
        worker = _QueryWorker(config, self._latest, self._lock, self._closing)
        worker.moveToThread(self.thread)
        self._request.connect(worker.call)
        self._close.connect(worker.close)
        worker.done.connect(self._on_done)
        worker.failed.connect(self._on_failed)
        self.worker: _QueryWorker | None = worker  # deleted by shutdown()
        _joined_at_the_latest(self, self.thread, self._closing)
        self.thread.start()

    def submit(
        self,
        fn: Callable[[Workspace], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[str], None] | None = None,
        *,
        key: str = "",
    ) -> int:
        self._next_id += 1
        call_id = self._next_id
        if key:
            with self._lock:
                superseded = self._latest.get(key)
                self._latest[key] = call_id
            if superseded is not None:
                self._callbacks.pop(superseded, None)
        self._callbacks[call_id] = (on_done, on_error)
        self._request.emit(call_id, key, fn)
        return call_id

    def busy(self) -> bool:
        return bool(self._callbacks)

    def release(self) -> None:
        """Done with it: the thread joined, the worker and this object deleted. Now, unless
        one of this object's own callbacks is on the stack (a save's on_done closed the
        window): then by the event loop that is running it, once the callback has returned.
        Never left for a later event loop (``deleteLater`` outside one would be)."""
        self.shutdown()
        if self._dispatching:
            self.deleteLater()
        else:
            dispose(self)

    def shutdown(self) -> None:
        """Close the worker's workspace and join the thread; the worker is deleted now."""
        self._callbacks.clear()
        if self.worker is None:
            return
        self._closing.set()  # the calls still queued return at once
        self._close.emit()  # the running call ends, then close() ends the thread
        self.thread.wait()
        _dispose_worker(self.worker)
        self.worker = None

    @Slot(int, object)
    def _on_done(self, call_id: int, result: Any) -> None:
        callbacks = self._callbacks.pop(call_id, None)
        if callbacks is not None:
            self._dispatch(callbacks[0], result)
        if not self._callbacks:
            self.idle.emit()

    @Slot(int, str)
    def _on_failed(self, call_id: int, message: str) -> None:
        callbacks = self._callbacks.pop(call_id, None)
        if callbacks is not None and callbacks[1] is not None:
            self._dispatch(callbacks[1], message)
        if not self._callbacks:
            self.idle.emit()

    def _dispatch(self, callback: Callable[[Any], None], value: Any) -> None:
        self._dispatching += 1
        try:
            callback(value)
        finally:
            self._dispatching -= 1
