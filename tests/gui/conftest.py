"""GUI tests: the real window on a real temporary workspace, offscreen.

Every test fails when it leaves a QThread running, and settings go to a temporary folder
so that no test reads or writes the user's own.
"""

from __future__ import annotations

import datetime as dt
import os
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QSettings, QThread, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from triage_app.core.db import open_workspace
from triage_app.core.demo import StoreFiller, make_demo
from triage_app.core.places import SETTINGS_DIR_ENV

_started: list[weakref.ref[QThread]] = []
_original_start = QThread.start


def _recording_start(self: QThread, *args: object) -> None:
    _started.append(weakref.ref(self))
    _original_start(self, *args)


QThread.start = _recording_start  # type: ignore[method-assign]


def running_threads() -> list[str]:
    """Names of QThreads started since the last call that are still running."""
    names = []
    for ref in _started:
        t = ref()
        if t is not None and shiboken6.isValid(t) and t.isRunning():
            names.append(t.objectName() or repr(t))
    return names


@pytest.fixture(autouse=True)
def no_thread_left_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the test when it leaves a QThread running (autouse: torn down last)."""
    _started.clear()
    yield
    left = running_threads()
    for ref in _started:
        t = ref()
        if t is not None and shiboken6.isValid(t) and t.isRunning():
            t.quit()
            t.wait(5_000)
    _started.clear()
    if left:
        pytest.fail(f"QThread left running after the test: {', '.join(left)}")


@pytest.fixture(autouse=True)
def isolated_settings(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test starts with no settings: none reads what another test remembered. The
    app's own (gui/settings.py) and Qt's go to a folder of the test's."""
    folder = tmp_path_factory.mktemp("settings")
    monkeypatch.setenv(SETTINGS_DIR_ENV, str(folder))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    QCoreApplication.setOrganizationName("TriageDeskTests")
    QCoreApplication.setApplicationName("triage-desk-tests")


@pytest.fixture(autouse=True)
def no_system_keyring() -> Iterator[None]:
    """No test reads or writes the user's own keyring: none is there unless a test sets
    one (tests/gui/dialogs/test_connect_keyring.py sets an in-memory one)."""
    import keyring
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


@pytest.fixture
def demo_workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        make_demo(ws)
    return folder


def bulk_dead_letters(folder: Path, n: int, batch_id: str = "feedfacecafe0001") -> None:
    """``n`` open dead letters of one batch, classes, signatures and attempts in rotation,
    last failures spread out of id order (for sorting)."""
    classes = ("data", "code", "transient")
    t0 = dt.datetime(2026, 1, 1)
    with open_workspace(folder) as ws, StoreFiller(ws) as filler:
        filler.batch(batch_id, source_name="bulk.jsonl", source_sha256="0" * 64)
        for i in range(1, n + 1):
            filler.dead_letter(
                batch_id,
                i,
                payload=b'{"pesanan_id": %d, "qty": -1}' % i,
                error=f"DataError: qty tidak valid: -{i % 7}",
                error_class=classes[i % 3],
                signature=f"DataError: sig {i % 5}",
                attempts=1 + i % 3,
                failed_at=t0 + dt.timedelta(seconds=i),
                last_failed_at=t0 + dt.timedelta(seconds=(i * 7919) % n),
            )


@pytest.fixture
def bulk_store():  # type: ignore[no-untyped-def]
    """The ``bulk_dead_letters`` helper, for tests that need many rows."""
    return bulk_dead_letters


@pytest.fixture
def open_main_window(qtbot):  # type: ignore[no-untyped-def]
    """Opens the real window on a folder and waits until its first count is in."""
    from triage_app.gui import open_window

    windows = []

    def _open(folder: Path):  # type: ignore[no-untyped-def]
        w = open_window(str(folder))
        qtbot.addWidget(w, before_close_func=_forget_edit)
        windows.append(w)
        qtbot.waitUntil(lambda: w.model.total() is not None and w.queries is not None)
        qtbot.waitUntil(lambda: not w.queries.busy())
        return w

    yield _open
    for w in windows:
        _forget_edit(w)
        w.close()


def _forget_edit(window) -> None:  # type: ignore[no-untyped-def]
    """A test that leaves an edit in the editor would be asked about it on close."""
    if window.detail.is_dirty():
        window.detail.discard_edit()


@pytest.fixture
def window(open_main_window, demo_workspace):  # type: ignore[no-untyped-def]
    return open_main_window(demo_workspace)


class DialogAnswers:
    """Answers the real modal message boxes the window opens, one button per box, in order.

    Nothing about the box is faked: it is shown, its text read, its button clicked. A box
    that lacks the button is closed with Escape and recorded, so a test fails instead of
    hanging."""

    def __init__(self) -> None:
        self.seen: list[dict[str, object]] = []
        self._queue: list[QMessageBox.StandardButton] = []
        self._probe: Callable[[], object] | None = None

    def answer(
        self, *buttons: QMessageBox.StandardButton, probe: Callable[[], object] | None = None
    ) -> DialogAnswers:
        """Queue answers; ``probe()`` is recorded as "probe" while each box is shown."""
        self._probe = probe
        for b in buttons:
            self._queue.append(b)
            QTimer.singleShot(0, lambda: self._click(tries=0))
        return self

    def _click(self, tries: int) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            if tries < 1_000:  # 10 s
                QTimer.singleShot(10, lambda: self._click(tries + 1))
            return
        wanted = self._queue.pop(0)
        buttons = [box.standardButton(b) for b in box.buttons()]
        self.seen.append(
            {
                "name": box.objectName(),
                "text": box.text() + "\n" + box.informativeText(),
                "buttons": buttons,
                "answered": wanted,
                "probe": self._probe() if self._probe is not None else None,
            }
        )
        button = box.button(wanted)
        if button is None:
            box.reject()
        else:
            button.click()

    @property
    def pending(self) -> int:
        return len(self._queue)


@pytest.fixture
def dialogs() -> DialogAnswers:
    return DialogAnswers()
