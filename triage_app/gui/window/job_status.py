"""The long jobs the window started, in its status bar: what runs, how far it is, its rows
per second and the time left ("Re-driving 84,000 of 200,000 rows · 12,300 rows/s · about
9 s left"), and one Cancel for all of them; on closing, the question whether to stop them."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QLabel, QMessageBox, QProgressBar, QPushButton, QStatusBar, QWidget

from triage_app.core.db import WorkspaceConfig
from triage_app.core.jobs import Job
from triage_app.gui.i18n import fill, translate
from triage_app.gui.workers import JobRunner, ProgressReport, describe_progress


def _widest() -> str:
    """How wide the job's line is made: the start of a long one ("Re-driving 84,000 of
    200,000 rows · 12,300 rows/s · about 9 s left" shows up to its pace), in the language
    it is said in."""
    n = 1_000_000
    head = fill(translate("workers", "Re-driving %1 of %Ln row(s)", "", n), n)
    return head + " · " + fill(translate("workers", "%1 rows/s"), 123_456)


class JobStatus(QObject):
    """Starts jobs on their own threads and follows them in ``status_bar``."""

    message = Signal(str)

    def __init__(self, status_bar: QStatusBar, parent: QObject) -> None:
        super().__init__(parent)
        self.runners: list[JobRunner] = []
        self._lines: dict[JobRunner, str] = {}  # each running job's latest line
        self._fractions: dict[JobRunner, float] = {}
        self.label = QLabel(objectName="jobLabel")
        # A fixed size, the line elided to it (whole in the tooltip): a label whose size
        # follows its text asks the status bar for a new layout at every report (ten a
        # second), which blocked the event loop 70-170 ms at a time during a re-drive of a
        # million rows (issue 23). No wider than this: with the counts and the last batch
        # beside it, the status bar must still fit a 1280-pixel screen while a job runs.
        self.label.setFixedSize(
            self.label.fontMetrics().horizontalAdvance(_widest()) + 8,
            self.label.sizeHint().height(),
        )
        self.progress = QProgressBar(objectName="jobProgress", maximum=1000)
        self.progress.setFixedWidth(120)
        self.progress.setTextVisible(False)  # the line says how far; no text to relayout
        self.cancel_button = QPushButton(
            translate("JobStatus", "Cancel"), objectName="jobCancelButton"
        )
        self.cancel_button.setToolTip(
            translate("JobStatus", "Stop the running work at its next chunk")
        )
        self.cancel_button.clicked.connect(self.cancel_all)
        for w in (self.label, self.progress, self.cancel_button):
            status_bar.addPermanentWidget(w)
            w.hide()

    def start(self, config: WorkspaceConfig | None, job: Job) -> JobRunner:
        """Run ``job`` on its own thread; the status bar follows it until it ends."""
        runner = JobRunner(config, job, self)
        # Bound methods of this QObject: the slots run in the GUI thread.
        runner.progress.connect(self._on_progress)
        runner.done.connect(self._on_done)
        self.runners.append(runner)
        self._lines[runner] = fill(translate("JobStatus", "%1: starting…"), job.title)
        self._fractions[runner] = 0.0
        for w in (self.label, self.progress, self.cancel_button):
            w.show()
        self.cancel_button.setEnabled(True)
        self._show()
        runner.start()
        return runner

    def running(self) -> list[JobRunner]:
        return [r for r in self.runners if r.is_running()]

    def text(self) -> str:
        """What the status bar says about the running jobs: the newest job's line, whole
        (the label may show it elided), and how many more run."""
        if not self._lines:
            return ""
        newest = next(reversed(self._lines))
        more = len(self._lines) - 1
        if not more:
            return self._lines[newest]
        return fill(translate("JobStatus", "%1  (+%2 more)"), self._lines[newest], more)

    @Slot()
    def cancel_all(self) -> None:
        for r in self.running():
            r.cancel()
            self._lines[r] = fill(
                translate("JobStatus", "%1: cancelling at the next chunk…"), r.job.title
            )
        self.cancel_button.setEnabled(False)
        self._show()
        self.message.emit(translate("JobStatus", "cancelling at the next chunk boundary…"))

    def may_stop(self, parent: QWidget) -> bool:
        """Whether the window may close: nothing runs, or the steward agreed to stop it."""
        running = self.running()
        if not running:
            return True
        titles = ", ".join(r.job.title for r in running)
        answer = QMessageBox.question(
            parent,
            translate("JobStatus", "Work is running"),
            fill(
                translate(
                    "JobStatus",
                    "Still running: %1.\n\nStop it at the next chunk and close? "
                    "A batch resumes where it stopped when you run the same file again.",
                ),
                titles,
            ),
        )
        return answer == QMessageBox.StandardButton.Yes

    def stop_all(self) -> None:
        """Stop every job at its next chunk and wait for it (closing the window)."""
        running = self.running()
        for r in running:
            r.cancel()
        for r in running:
            r.stop()

    @Slot(object)
    def _on_progress(self, report: ProgressReport) -> None:
        runner = self.sender()
        if not isinstance(runner, JobRunner) or runner not in self._lines:
            return
        self._fractions[runner] = report.fraction
        if not runner.cancel_requested():
            self._lines[runner] = describe_progress(runner.job, report)
        self._show()

    def _show(self) -> None:
        """The newest job's line (and how many more run); the bar follows that job."""
        if not self._lines:
            return
        newest = next(reversed(self._lines))
        line = self.text()
        shown = self.label.fontMetrics().elidedText(
            line, Qt.TextElideMode.ElideRight, self.label.width()
        )
        if shown != self.label.text():
            self.label.setText(shown)
        titles = "\n".join(r.job.title for r in self._lines)
        if titles != self.label.toolTip():
            self.label.setToolTip(titles)
        self.progress.setValue(round(self._fractions[newest] * 1000))
        self.progress.setToolTip(line)

    @Slot()
    def _on_done(self) -> None:
        runner = self.sender()
        self._lines.pop(runner, None)  # type: ignore[call-overload]
        self._fractions.pop(runner, None)  # type: ignore[call-overload]
        self.runners = [r for r in self.runners if r.is_running()]
        if self._lines:
            self._show()
        elif not self.runners:
            for w in (self.label, self.progress, self.cancel_button):
                w.hide()
            self.label.clear()
