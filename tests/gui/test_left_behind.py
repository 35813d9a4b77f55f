"""The guard against what a test leaves for the next one (``nothing_left_behind`` in
conftest.py) catches each kind of leftover, and the app's garbage collection runs only in
the GUI thread (gui/lifetime.py), the two halves of issue 20's native crash."""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QObject, Qt, QThread
from PySide6.QtWidgets import QWidget

from triage_app.gui import lifetime

CONFTEST = Path(__file__).with_name("conftest.py")

# Each test leaves one kind of leftover (or none); the guard must fail exactly those.
LEAKS = """
from PySide6.QtCore import QObject, QThread, QTimer
from PySide6.QtWidgets import QWidget

keeper = QObject()  # alive for the whole run: not a leak itself
kept = []


def test_a_delete_later_left_for_the_next_event_loop(qtbot):
    child = QObject(keeper, objectName="leakedChild")
    kept.append(child)
    child.deleteLater()


def test_a_timer_left_running(qtbot):
    timer = QTimer(keeper, objectName="leakedTimer", interval=60_000)
    kept.append(timer)
    timer.start()


def test_a_window_left_open(qtbot):
    window = QWidget(objectName="leakedWindow")
    kept.append(window)
    window.show()


def test_a_thread_left_running(qtbot):
    thread = QThread(objectName="leakedThread")
    kept.append(thread)
    thread.start()


def test_a_delete_later_the_event_loop_ran(qtbot):
    child = QObject(keeper, objectName="deletedChild")
    child.deleteLater()
    qtbot.wait(20)


def test_a_widget_given_to_qtbot(qtbot):
    window = QWidget(objectName="closedByQtbot")
    qtbot.addWidget(window)
    window.show()
"""


def _run_guarded(tmp_path: Path, source: str) -> str:
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text())
    (tmp_path / "test_leaks.py").write_text(source)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-q", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_guard_fails_each_kind_of_leftover_and_nothing_else(tmp_path: Path) -> None:
    out = _run_guarded(tmp_path, LEAKS)

    def outcome(name: str) -> str:
        """The short summary's verdicts on one test: PASSED for its call, ERROR for a
        teardown that failed."""
        found = re.findall(rf"^(PASSED|FAILED|ERROR) \S+::{name}\b", out, re.MULTILINE)
        return " ".join(sorted(found))

    # A leftover fails the test at teardown (ERROR), and says what and where.
    assert outcome("test_a_delete_later_left_for_the_next_event_loop") == "ERROR PASSED", out
    assert "pending: deleteLater() of QObject 'leakedChild' at test_leaks.py:12" in out
    assert outcome("test_a_timer_left_running") == "ERROR PASSED", out
    assert "active timer: QTimer 'leakedTimer' of QObject, every 60000 ms" in out
    assert outcome("test_a_window_left_open") == "ERROR PASSED", out
    assert "top-level widget: QWidget 'leakedWindow'" in out
    assert outcome("test_a_thread_left_running") == "ERROR PASSED", out
    assert "QThread left running after the test: leakedThread" in out
    # A deferred delete the test's own event loop ran, and a widget qtbot closes, are fine.
    assert outcome("test_a_delete_later_the_event_loop_ran") == "PASSED", out
    assert outcome("test_a_widget_given_to_qtbot") == "PASSED", out
    assert "deletedChild" not in out and "closedByQtbot" not in out


class _Tracked(QObject):
    """A QObject held only by a reference cycle, as much of pyqtgraph's and PySide's are."""

    def __init__(self) -> None:
        super().__init__()
        self.cycle = self


def _destroyed_in(obj: QObject, record: list[str]) -> None:
    obj.destroyed.connect(
        lambda *_: record.append(threading.current_thread().name),
        Qt.ConnectionType.DirectConnection,
    )


def _allocate_in_a_thread() -> None:
    """What a query thread does: allocate, enough to cross every collector threshold."""

    def churn() -> None:
        for _ in range(200_000):
            a: list[object] = []
            a.append(a)

    worker = threading.Thread(target=churn, name="worker")
    worker.start()
    worker.join()


def test_only_the_gui_thread_collects_qt_garbage(qtbot) -> None:  # type: ignore[no-untyped-def]
    assert lifetime.collects_in_gui_thread()
    assert not gc.isenabled()
    died: list[str] = []
    obj = _Tracked()
    _destroyed_in(obj, died)
    del obj
    _allocate_in_a_thread()
    assert died == []  # the worker's allocations collected nothing
    qtbot.waitUntil(lambda: bool(died), timeout=5_000)  # the GUI thread's timer did
    assert died == [threading.main_thread().name]


def test_the_automatic_collector_would_delete_it_in_the_worker(qtbot) -> None:  # type: ignore[no-untyped-def]
    """What the rule prevents (a plain QObject, safe to lose in another thread; a widget or
    a timer so deleted corrupts the GUI thread and crashes the next event loop)."""
    died: list[str] = []
    gc.collect()
    obj = _Tracked()
    _destroyed_in(obj, died)
    del obj
    gc.enable()
    try:
        _allocate_in_a_thread()
    finally:
        gc.disable()
    assert died == ["worker"]


def test_dispose_deletes_now_and_refuses_another_threads_object(qtbot) -> None:  # type: ignore[no-untyped-def]
    parent = QWidget()
    child = QWidget(parent)
    lifetime.dispose(parent)
    assert not shiboken6.isValid(parent) and not shiboken6.isValid(child)
    lifetime.dispose(None)  # nothing to do

    thread = QThread()
    elsewhere = QObject()
    elsewhere.moveToThread(thread)
    thread.start()
    try:
        with pytest.raises(RuntimeError, match="another thread"):
            lifetime.dispose(elsewhere)
    finally:
        thread.quit()
        thread.wait()
