"""GUI tests: the real window on a real temporary workspace, offscreen.

Every test fails when it leaves behind a running QThread, a pending deferred delete, an
active timer or a top-level widget (``nothing_left_behind``): whatever a test leaves would
run inside the next test's event loop, which is how a deleted widget of one window once
crashed the next (issue 20). The widgets a test hands to ``qtbot.addWidget`` and the windows
``open_main_window`` opens are closed and deleted at once when it ends, not with pytest-qt's
``deleteLater()``, which waits for the next test's event loop. Settings go to a temporary
folder so that no test reads or writes the user's own.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import sys
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, QThread, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from triage_app.core.db import open_workspace
from triage_app.core.demo import StoreFiller, make_demo
from triage_app.core.places import SETTINGS_DIR_ENV
from triage_app.gui import lifetime

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


# -- what a test leaves behind ---------------------------------------------------------------
def _described(obj: QObject) -> str:
    name = obj.objectName()
    return type(obj).__name__ + (f" {name!r}" if name else "")


def _call_site() -> str:
    """Where the test or the app called: the first frame outside this file and PySide."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    if frame is None:
        return "?"
    return f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno}"


# deleteLater() called from Python: which object, from where (C++'s own calls, such as
# WA_DeleteOnClose's, are seen by the event filter below without a place).
_delete_later_calls: dict[int, tuple[weakref.ref[QObject], str]] = {}
_original_delete_later = QObject.deleteLater


def _recording_delete_later(self: QObject) -> None:
    _delete_later_calls[id(self)] = (weakref.ref(self), f"{_described(self)} at {_call_site()}")
    _original_delete_later(self)


QObject.deleteLater = _recording_delete_later  # type: ignore[method-assign]

# Every QTimer made from Python (the app's, pyqtgraph's, a test's), to find those still
# active after a test. (start() is not wrapped: a signal connected to it would then pass
# its own arguments to the wrapper.)
_started_timers: list[weakref.ref[QTimer]] = []
_original_timer_init = QTimer.__init__


def _recording_timer_init(self: QTimer, *args: object, **kwargs: object) -> None:
    _original_timer_init(self, *args, **kwargs)
    _started_timers.append(weakref.ref(self))


QTimer.__init__ = _recording_timer_init  # type: ignore[method-assign]


class _DeferredDeletes(QObject):
    """An application event filter that names the objects a DeferredDelete event reaches
    while ``pending()`` delivers them: those a test left for a later event loop."""

    def __init__(self) -> None:
        super().__init__()
        self.delivered: list[str] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.delivered is not None and event.type() == QEvent.Type.DeferredDelete:
            call = _delete_later_calls.get(id(watched))
            if call is not None and call[0]() is watched:
                self.delivered.append(f"deleteLater() of {call[1]}")
            else:
                parent = watched.parent()
                of = f" of {_described(parent)}" if parent is not None else ""
                self.delivered.append(f"a deferred delete of {_described(watched)}{of}")
        return False

    def pending(self) -> list[str]:
        """Deliver every pending deferred delete now (any loop level) and name each one."""
        self.delivered = []
        try:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            return self.delivered
        finally:
            self.delivered = None
            _delete_later_calls.clear()


_deferred: _DeferredDeletes | None = None


@pytest.fixture(scope="session", autouse=True)
def gui_thread_collector(qapp: QApplication) -> Iterator[None]:
    """The app's own rule, for every GUI test (also those that build a dialog without the
    window): the cyclic garbage collector runs only in the GUI thread (gui/lifetime.py)."""
    global _deferred
    lifetime.collect_in_gui_thread(qapp)
    # English, with its catalogue (a counted text's two forms), for every test, also those
    # that build a dialog without the window (whose start would install it).
    from triage_app.gui.app import application

    application()
    _deferred = _DeferredDeletes()
    qapp.installEventFilter(_deferred)
    yield
    qapp.removeEventFilter(_deferred)


def close_for_good(
    widget: QWidget, before_close: Callable[[QWidget], object] | None = None
) -> str | None:
    """Close a top-level widget the test opened and delete it now, as a widget on the C++
    stack would be: nothing of it waits for the next test's event loop. What went wrong, or
    None: a widget that refuses to close (an unsaved edit, a job the test forgot) or whose
    threads still run once closed is left alone (deleting a running QThread aborts)."""
    if not shiboken6.isValid(widget):
        return None
    if before_close is not None:
        before_close(widget)
    if not widget.close():
        return f"{_described(widget)} refused to close"
    running = [t.objectName() for t in widget.findChildren(QThread) if t.isRunning()]
    if running:
        return f"{_described(widget)} closed with threads running: {', '.join(running)}"
    lifetime.dispose(widget)
    return None


_QT_WIDGETS = pytest.StashKey[
    list[tuple[weakref.ref[QWidget], Callable[[QWidget], object] | None]]
]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """The widgets given to ``qtbot.addWidget`` are taken from pytest-qt before its own
    teardown, which would close them and call ``deleteLater()`` outside any event loop (run,
    then, by the next test's first loop): ``nothing_left_behind`` closes and deletes them
    once the test's fixtures are done with them."""
    item.stash[_QT_WIDGETS] = getattr(item, "qt_widgets", [])
    if hasattr(item, "qt_widgets"):
        del item.qt_widgets  # type: ignore[attr-defined]
    return (yield)


def pending_deferred_deletes() -> list[str]:
    """The deferred deletes waiting for a later event loop, delivered now and named: what a
    step of a test left (empty when it left nothing)."""
    assert _deferred is not None
    return _deferred.pending()


# What one test leaked is reported by that test, then left alone: deleting an unknown object
# (a window whose threads run) could bring the whole run down.
_reported: weakref.WeakSet[QObject] = weakref.WeakSet()


def left_behind(ignore: tuple[QObject, ...] = ()) -> list[str]:
    """What the finished test left: deferred deletes still pending, timers started from
    Python still active, top-level widgets still alive (after the GUI thread's garbage
    collection, which is the app's own; whatever the collector frees was not leaked)."""
    assert _deferred is not None
    found = [f"pending: {d}" for d in _deferred.pending()]
    gc.collect()
    if QApplication.topLevelWidgets():
        # open_window froze the heap it had built (gui/app.py): a window's own garbage, such
        # as pyqtgraph's menus, parentless and held in cycles, is collected only unfrozen.
        gc.unfreeze()
        gc.collect()
    for ref in _started_timers:
        t = ref()
        if t is None or t in ignore or t in _reported or not shiboken6.isValid(t):
            continue
        if t.isActive():
            parent = t.parent()
            owner = f" of {_described(parent)}" if parent is not None else ""
            found.append(f"active timer: {_described(t)}{owner}, every {t.interval()} ms")
            _reported.add(t)
    for w in QApplication.topLevelWidgets():
        if w not in _reported:
            found.append(f"top-level widget: {_described(w)}")
            _reported.add(w)
    return found


@pytest.fixture(autouse=True)
def nothing_left_behind(
    request: pytest.FixtureRequest, no_thread_left_running: None
) -> Iterator[None]:
    """Fails the test when, after its own teardown (its windows closed, its fixtures gone),
    it leaves a deferred delete pending, a timer active or a top-level widget alive; the
    threads are checked by ``no_thread_left_running``, torn down after this one. Checking
    delivers the pending deferred deletes, so that one leak does not fail the next test."""
    assert _deferred is not None
    _deferred.pending()  # nothing from before this test is counted against it
    _started_timers.clear()
    yield
    found = []
    for ref, before_close in request.node.stash.get(_QT_WIDGETS, []):
        w = ref()
        problem = close_for_good(w, before_close) if w is not None else None
        if problem is not None:
            found.append(problem)
    collector = lifetime.collector_timer()
    found += left_behind(ignore=(collector,) if collector is not None else ())
    _started_timers.clear()
    if found:
        pytest.fail("left behind after the test:\n  " + "\n  ".join(found))


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
        windows.append(w)
        qtbot.waitUntil(lambda: w.model.total() is not None and w.queries is not None)
        qtbot.waitUntil(lambda: not w.queries.busy())
        return w

    yield _open
    problems = [p for w in windows if (p := close_for_good(w, _forget_edit)) is not None]
    if problems:
        pytest.fail("; ".join(problems))


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
