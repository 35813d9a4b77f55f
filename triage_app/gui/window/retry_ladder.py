"""The retry ladder while the window is open (issue 27): a retry pass every minute on a
worker thread (``core.jobs.RetryJob``, what ``triage-app retry-due`` runs), when this user
may write the store and re-drive; the table read again after a pass that changed rows; and
in the status bar how many rows wait and when the next is due ("Retry ladder: 12 waiting,
next due 14:05"), with what the last pass did as its message ("Retried 5: 3 resolved, 2 wait
30 min"). Batch > Retry due rows now runs a pass at once."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QLabel, QStatusBar

from triage_app.core.db import Workspace, WorkspaceConfig
from triage_app.core.deadletters import LadderState, RetryPass, ladder_state
from triage_app.core.jobs import RetryJob
from triage_app.core.locale_format import format_datetime, format_time
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.workers import JobRunner, QueryThread

if TYPE_CHECKING:
    from triage_app.gui.window.host import WindowHost

EVERY_MS = 60_000  # a pass a minute: the ladder's shortest wait is a second, its default 5 min


def local_time(t: dt.datetime) -> str:
    """A stored (naive UTC) time as the steward's clock says it, the language's way:
    ``14:05`` (``14.05``), or with the day when it is not today's (``1 Dec 2026 14:05``)."""
    local = t.replace(tzinfo=dt.UTC).astimezone()
    if local.date() == dt.datetime.now().astimezone().date():
        return format_time(local)
    return format_datetime(local)


def ladder_line(state: LadderState) -> str:
    """``Retry ladder: 12 waiting, next due 14:05`` (``3 due now``); "" with nothing on it."""
    b = state.backlog
    if not b.waiting:
        return ""
    if b.due_now:
        return fill(
            translate("RetryLadder", "Retry ladder: %1 waiting, %2 due now"), b.waiting, b.due_now
        )
    if b.next_due is not None:
        return fill(
            translate("RetryLadder", "Retry ladder: %1 waiting, next due %2"),
            b.waiting,
            local_time(b.next_due),
        )
    return fill(translate("RetryLadder", "Retry ladder: %1 waiting"), b.waiting)


class RetryLadder(QObject):
    """Runs the window's retry passes and says where the ladder stands (see the module)."""

    def __init__(self, window: WindowHost, status_bar: QStatusBar) -> None:
        super().__init__(window)
        self.window = window
        self.label = QLabel(objectName="ladderLabel")
        status_bar.insertPermanentWidget(2, self.label)  # after the counts and last batch
        self.label.hide()
        self.timer = QTimer(self, objectName="retryLadderTimer")
        self.timer.setInterval(EVERY_MS)
        self.timer.timeout.connect(self.run_pass)
        self.config: WorkspaceConfig | None = None
        self.queries: QueryThread | None = None
        self.runner: JobRunner | None = None
        self.state: LadderState | None = None
        self.last: RetryPass | None = None
        self._by_hand = False
        self._opened = False

    # -- the workspace ----------------------------------------------------------------------
    def start(self, config: WorkspaceConfig, queries: QueryThread) -> None:
        """A workspace opened: read where the ladder stands; passes start once it is known
        that this user may run them."""
        self.stop()
        self.config, self.queries = config, queries
        self._opened = True  # the first state read: rows already due are retried at once
        self.read()

    def stop(self) -> None:
        """The workspace closes: no more passes; a running one stops at its next chunk and
        is joined."""
        self.timer.stop()
        self.config = self.queries = None
        self.state = self.last = None
        self._release_runner(wait=True)
        self.label.clear()
        self.label.hide()

    def read(self) -> None:
        if self.queries is not None:
            self.queries.submit(_state, self._on_state, self._on_failed, key="ladder")

    # -- passes -----------------------------------------------------------------------------
    @Slot()
    def run_pass(self, by_hand: bool = False) -> bool:
        """One pass now (unless one runs). ``by_hand``: Batch > Retry due rows now, which
        says what it did even when nothing was due."""
        if self.config is None or self.running():
            return False
        if self.state is not None and self.state.refusal is not None:
            if by_hand:
                self.window.show_message(
                    fill(translate("RetryLadder", "No retry pass: %1"), self.state.refusal)
                )
            return False
        self._release_runner(wait=False)
        self._by_hand = by_hand
        runner = JobRunner(self.config, RetryJob(), self)
        runner.finished.connect(self._on_pass)
        runner.failed.connect(self._on_failed)
        self.runner = runner
        runner.start()
        return True

    def running(self) -> bool:
        return self.runner is not None and self.runner.is_running()

    @Slot(object)
    def _on_pass(self, done: RetryPass) -> None:
        self.last = done
        if done.retried or done.not_retried:
            self.window.show_message(done.outcome_words())
            self.window.reload(in_place=True)
        elif self._by_hand:
            if done.next_due is None:
                if not done.due:
                    text = translate("RetryLadder", "Retry pass: nothing due")
                else:
                    text = fill(translate("RetryLadder", "Retry pass: %1"), done.outcome_words())
            elif not done.due:
                text = fill(
                    translate("RetryLadder", "Retry pass: nothing due; the next is due at %1"),
                    local_time(done.next_due),
                )
            else:
                text = fill(
                    translate("RetryLadder", "Retry pass: %1; the next is due at %2"),
                    done.outcome_words(),
                    local_time(done.next_due),
                )
            self.window.show_message(text)
        self.read()

    @Slot(object)
    def _on_state(self, state: LadderState) -> None:
        self.state = state
        first, self._opened = self._opened, False
        if state.refusal is None and self.config is not None and not self.timer.isActive():
            self.timer.start()
        elif state.refusal is not None:
            self.timer.stop()
        self._show()
        if first and state.refusal is None and state.backlog.due_now:
            self.run_pass()  # what fell due while the window was closed, not a minute later

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        if self._by_hand:
            self.window.show_message(
                fill(translate("RetryLadder", "Retry pass failed: %1"), message)
            )
        self.label.setToolTip(
            fill(translate("RetryLadder", "The last retry pass failed: %1"), message)
        )

    def _show(self) -> None:
        state = self.state
        line = ladder_line(state) if state is not None else ""
        tip = [line] if line else []
        if state is not None:
            b = state.backlog
            tip.append(fill(translate("RetryLadder", "Ladder: %1"), b.ladder.words()))
            for s in b.steps:
                tip.append(
                    fill(
                        translate("RetryLadder", "Before retry %1: %2 waiting"),
                        s.step + 1,
                        s.waiting,
                    )
                )
            if b.parked_at_end:
                tip.append(
                    fill(
                        translate("RetryLadder", "Parked at the ladder's end: %1"), b.parked_at_end
                    )
                )
            if state.refusal is not None:
                tip.append(
                    fill(
                        translate("RetryLadder", "This window runs no retry pass: %1"),
                        state.refusal,
                    )
                )
            elif b.waiting:
                tip.append(translate("RetryLadder", "The window runs a retry pass every minute"))
        if self.last is not None and self.last.retried:
            tip.append(fill(translate("RetryLadder", "Last pass: %1"), self.last.outcome_words()))
        if line and state is not None and state.refusal is not None:
            line = fill(translate("RetryLadder", "%1 (not retried here)"), line)
        self.label.setText(f"· {line}" if line else "")
        self.label.setToolTip("\n".join(tip))
        self.label.setVisible(bool(line))

    def _release_runner(self, *, wait: bool) -> None:
        runner = self.runner
        if runner is None or not shiboken6.isValid(runner):
            self.runner = None
            return
        if runner.is_running():
            if not wait:
                return
            runner.stop()
        self.runner = None
        dispose(runner)


def _state(ws: Workspace) -> LadderState:
    return ladder_state(ws)
