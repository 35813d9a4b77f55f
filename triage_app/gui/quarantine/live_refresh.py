"""Other stewards' changes, in the window within a second or so.

A ``StoreWatch`` (core) tells whether another connection committed to the store: on SQLite
a PRAGMA read (microseconds), on PostgreSQL the notifications already received (no round
trip). Either is cheap enough to poll on a QTimer in the GUI thread, so no thread is
needed and none can be left running. A change is acted on after a short settle, so that a
burst of commits (a batch's chunks, a re-drive's claims) makes one refresh, and so that the
window's own changes, which it reads again itself at once (``seen``), make none. Changes
that keep coming (another steward's 200,000-row re-drive) refresh at most once a second,
every three seconds while a job of this window runs; the reads run off the GUI thread.

The refresh keeps what the steward has: the table re-reads its rows in place (selection
and scroll stay), and the detail pane re-reads the open dead letter; an unsaved edit is
never replaced (the pane offers Reload / Compare instead).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from triage_app.core.db import StoreWatch, Workspace, watch_store
from triage_app.core.errors import TriageError
from triage_app.gui.i18n import fill, translate
from triage_app.gui.quarantine.pane import QuarantinePane
from triage_app.gui.workers import QueryThread

POLL_MS = 300  # a look costs microseconds; a change shows within POLL_MS + SETTLE_MS
SETTLE_MS = 150  # the window's own change is read again before this runs out
RETRY_MS = 5_000  # a lost watch is opened again this often
# Refreshes at most this often while changes keep coming: another steward's re-drive
# commits a chunk every few hundred ms, and each refresh repaints the table. While a job of
# this window runs (whose changes the window reads at its end anyway), less often still.
QUIET_GAP_MS = 1_000
BUSY_GAP_MS = 3_000


def _open_watch(ws: Workspace) -> StoreWatch:
    # The window reads its own changes again itself; on PostgreSQL their notices could
    # arrive after it did, and make a second refresh.
    return watch_store(ws.store, own_changes=False)


class LiveRefresh(QObject):
    refreshed = Signal()  # the store was read again after someone else's change
    message = Signal(str)  # one line for the status bar

    def __init__(self, pane: QuarantinePane, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pane = pane
        self._watch: StoreWatch | None = None
        self._queries: QueryThread | None = None
        self._poll = QTimer(self, interval=POLL_MS)
        self._poll.timeout.connect(self._look)
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self.refresh_now)
        self._retry = QTimer(self, singleShot=True, interval=RETRY_MS)
        self._retry.timeout.connect(self._reopen)
        self.refreshes = 0  # how many refreshes it made (the tests count them)
        self._last_refresh: float | None = None  # time.monotonic() of the last one
        self.busy: Callable[[], bool] = lambda: False  # a job of the window is running
        # The pane shows what it saved; the table reads the new version at once, so that
        # a change by hand right after names it, and the watch sees no news afterwards.
        pane.detail.saved.connect(self._after_own_save)

    def start(self, ws: Workspace, queries: QueryThread) -> None:
        """Watch the store of ``ws`` (opened here, before the window's first read, so that
        no change falls between the two); ``queries`` opens it again when it is lost."""
        self.stop()
        self._queries = queries
        try:
            self._watch = _open_watch(ws)
        except TriageError as exc:
            self._lost(str(exc))
        self._poll.start()

    def stop(self) -> None:
        for timer in (self._poll, self._settle, self._retry):
            timer.stop()
        self._queries = None
        self._close_watch()

    def is_watching(self) -> bool:
        return self._watch is not None

    def seen(self) -> None:
        """The window is about to read the store again itself (after its own change): the
        changes so far need no refresh of their own."""
        self._settle.stop()
        if self._watch is not None:
            try:
                self._watch.seen()
            except TriageError as exc:
                self._lost(str(exc))

    @Slot()
    def refresh_now(self) -> None:
        """Read the table and the open dead letter again, keeping selection, scroll and
        any unsaved edit."""
        self.seen()  # first: a change that commits during the reads is seen next time
        self.refreshes += 1
        self._last_refresh = time.monotonic()
        self._pane.refresh_live()
        self.refreshed.emit()

    # -- watching -------------------------------------------------------------------------
    @Slot()
    def _look(self) -> None:
        if self._watch is None or self._settle.isActive():
            return
        try:
            if self._watch.changed():
                self._settle.start(self._settle_ms())
        except TriageError as exc:
            self._lost(str(exc))

    def _settle_ms(self) -> int:
        """How long to wait before refreshing: the settle, or what is left of the gap since
        the last refresh."""
        if self._last_refresh is None:
            return SETTLE_MS
        gap = BUSY_GAP_MS if self.busy() else QUIET_GAP_MS
        since = round((time.monotonic() - self._last_refresh) * 1000)
        return max(SETTLE_MS, gap - since)

    @Slot(int)
    def _after_own_save(self, _dl_id: int) -> None:
        if self._watch is not None:
            self.refresh_now()

    def _lost(self, why: str) -> None:
        self._close_watch()
        self.message.emit(
            fill(translate("LiveRefresh", "live refresh paused (%1); F5 reads the store"), why)
        )
        self._retry.start()

    @Slot()
    def _reopen(self) -> None:
        if self._queries is not None and self._watch is None:
            # Off the GUI thread: reaching a server that is away can take seconds.
            queries = self._queries
            queries.submit(
                _open_watch, partial(self._reopened, queries), self._reopen_failed, key="watch"
            )

    def _reopened(self, queries: QueryThread, watch: StoreWatch) -> None:
        if queries is not self._queries or self._watch is not None:
            watch.close()  # another workspace by now
            return
        self._watch = watch
        self.message.emit(translate("LiveRefresh", "live refresh resumed"))
        self.refresh_now()  # what changed while it was lost

    def _reopen_failed(self, _message: str) -> None:
        if self._queries is not None:
            self._retry.start()

    def _close_watch(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:
            with contextlib.suppress(Exception):  # a connection that is already gone
                watch.close()
