"""One window, one workspace after another (issue 20): each opened through the window's own
File > Open, each read, with nothing of the one before left running or waiting to be deleted;
and the real app, run as a steward runs it, opens five and quits without a native crash or a
thread destroyed while it runs, also with both cores busy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QFileDialog

from tests.gui.conftest import bulk_dead_letters, pending_deferred_deletes

SESSION = Path(__file__).parents[2] / "support" / "app_session.py"
# What Qt says when an object dies in the wrong thread or a running thread is destroyed.
NATIVE_TROUBLE = ("QThread: Destroyed", "different thread", "another thread", "Fatal Python")


# Qt's QMainWindow layout moves its central widget with a 0 ms QPropertyAnimation, a child of
# that widget, which Qt deletes later (QWidgetAnimator, whatever setAnimated says): Qt's own,
# and it lives and dies with the window.
QT_LAYOUT_ANIMATION = "a deferred delete of QPropertyAnimation of QStackedWidget 'pages'"


def _workspaces(root: Path, n: int = 5) -> list[tuple[Path, int]]:
    """``n`` workspaces, each with its own number of open dead letters (3, 5, 7, ...)."""
    out = []
    for i in range(n):
        folder = root / f"ws{i + 1}"
        rows = 3 + 2 * i
        bulk_dead_letters(folder, rows, batch_id=f"feedfacecafe{i:04d}")
        out.append((folder, rows))
    return out


def _running_threads(window) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(t.objectName() for t in window.findChildren(QThread) if t.isRunning())


def test_five_workspaces_one_after_another_in_one_window(
    qtbot, open_main_window, tmp_path, monkeypatch
):  # type: ignore[no-untyped-def]
    spaces = _workspaces(tmp_path)
    window = open_main_window(spaces[0][0])
    chosen: list[str] = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: chosen.pop(0))
    for i, (folder, rows) in enumerate(spaces):
        if i > 0:
            before = [window.queries, window.trends.queries, window.audit.queries]
            window.work.run_batch()  # a dialog of this workspace, left open
            dialog = window.dialogs()[-1]
            chosen.append(str(folder))
            window.menu.open_action.trigger()  # File > Open
            # Let go of at once: nothing left for the next event loop, nothing running.
            assert [d for d in pending_deferred_deletes() if QT_LAYOUT_ANIMATION not in d] == []
            assert not any(shiboken6.isValid(q) for q in before)
            assert not shiboken6.isValid(dialog) and window.dialogs() == []
        qtbot.waitUntil(
            lambda f=folder, n=rows: window.config.folder == f and window.model.total() == n,
            timeout=20_000,
        )
        qtbot.waitUntil(lambda: not window.queries.busy())
        # Each workspace's three query threads, no more: the table's, Trends', Audit's.
        assert _running_threads(window) == ["audit queries", "queries", "trend queries"]
        window.table.selectRow(0)
        qtbot.waitUntil(lambda: window.detail.current_id() is not None)
        window.tabs.setCurrentWidget(window.trends)
        qtbot.waitUntil(lambda: not window.trends.queries.busy(), timeout=20_000)
        window.tabs.setCurrentWidget(window.audit)
        qtbot.waitUntil(lambda: not window.audit.queries.busy(), timeout=20_000)
        window.tabs.setCurrentWidget(window.quarantine)
        assert f"workspace: {folder}" in window.workspace_label.text()
    window.close()
    assert _running_threads(window) == []


def _session(folders: list[Path], quit_by: str, tmp: Path) -> tuple[dict, str]:  # type: ignore[type-arg]
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        # The app remembers recent workspaces: in a folder of the test's, not the user's.
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "data"),
    }
    proc = subprocess.run(
        [sys.executable, str(SESSION), "--quit", quit_by, *map(str, folders)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


@pytest.mark.parametrize("quit_by", ["menu", "app"])
def test_the_app_opens_five_workspaces_and_quits_cleanly(tmp_path: Path, quit_by: str) -> None:
    spaces = _workspaces(tmp_path / "spaces")
    report, stderr = _session([f for f, _ in spaces], quit_by, tmp_path)
    assert report["error"] is None and report["code"] == 0
    assert [(s["folder"], s["total"]) for s in report["seen"]] == [(str(f), n) for f, n in spaces]
    trouble = [line for line in stderr.splitlines() if any(t in line for t in NATIVE_TROUBLE)]
    assert trouble == []


@contextmanager
def _both_cores_busy() -> Iterator[None]:
    """Two processes spinning for the block's length (each ends by itself after 10 minutes
    at most, should this one be killed)."""
    spin = "import time\nend = time.monotonic() + 600\nwhile time.monotonic() < end: pass"
    spinners = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()


@pytest.mark.slow
def test_the_app_opens_five_workspaces_with_both_cores_busy(tmp_path: Path) -> None:
    spaces = _workspaces(tmp_path / "spaces")
    with _both_cores_busy():
        for round_, quit_by in enumerate(("app", "menu", "app")):
            report, stderr = _session([f for f, _ in spaces], quit_by, tmp_path / str(round_))
            assert [s["total"] for s in report["seen"]] == [n for _, n in spaces]
            assert not any(t in stderr for t in NATIVE_TROUBLE), stderr[-3000:]


NEVER_CLOSED = """
import sys, time
from PySide6.QtWidgets import QApplication
from triage_app.gui import open_window
w = open_window(sys.argv[1])
app = QApplication.instance()
w.tabs.setCurrentWidget(w.trends)
deadline = time.monotonic() + 60
while w.model.total() is None or w.queries.busy() or w.trends.queries.busy():
    assert time.monotonic() < deadline, "the window did not load"
    app.processEvents()
    time.sleep(0.01)
w.trends.refresh()  # a query of Trends' thread in flight as the interpreter exits
print("exiting", flush=True)
"""


def test_a_window_never_closed_does_not_abort_the_exit(tmp_path: Path) -> None:
    """A script (open_window's callers) that exits without closing the window: its query
    threads are joined as it is deleted, not destroyed while they run ("QThread: Destroyed
    while thread 'trend queries' is still running", and Qt aborts)."""
    (folder, _rows), *_ = _workspaces(tmp_path / "spaces", 1)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", NEVER_CLOSED, str(folder)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "exiting", proc.stderr[-3000:]
    assert not any(t in proc.stderr for t in NATIVE_TROUBLE), proc.stderr[-3000:]
