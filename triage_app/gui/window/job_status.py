"""The long jobs the window started, in its status bar: what runs, how far it is (rows per
second and ETA in the tooltip), and one Cancel for all of them."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from triage_app.core.db import WorkspaceConfig
from triage_app.core.jobs import Job
from triage_app.gui.workers import JobRunner, ProgressReport


class JobStatus(QObject):
    """Starts jobs on their own threads and follows them in ``status_bar``."""

    message = Signal(str)

    def __init__(self, status_bar: QStatusBar, parent: QObject) -> None:
        super().__init__(parent)
        self.runners: list[JobRunner] = []
        self.label = QLabel(objectName="jobLabel")
        self.progress = QProgressBar(objectName="jobProgress", maximum=1000)
        self.progress.setMaximumWidth(180)
        self.cancel_button = QPushButton("Cancel", objectName="jobCancelButton")
        self.cancel_button.clicked.connect(self.cancel_all)
        for w in (self.label, self.progress, self.cancel_button):
            status_bar.addPermanentWidget(w)
            w.hide()

    def start(self, config: WorkspaceConfig, job: Job) -> JobRunner:
        """Run ``job`` on its own thread; the status bar follows it until it ends."""
        runner = JobRunner(config, job, self)
        runner.progress.connect(self._on_progress)
        runner.done.connect(self._on_done)
        self.runners.append(runner)
        self.label.setText(job.title)
        self.progress.setValue(0)
        for w in (self.label, self.progress, self.cancel_button):
            w.show()
        self.cancel_button.setEnabled(True)
        runner.start()
        return runner

    def running(self) -> list[JobRunner]:
        return [r for r in self.runners if r.is_running()]

    @Slot()
    def cancel_all(self) -> None:
        for r in self.running():
            r.cancel()
        self.cancel_button.setEnabled(False)
        self.message.emit("cancelling at the next chunk boundary…")

    def stop_all(self) -> None:
        """Stop every job at its next chunk and wait for it (closing the window)."""
        running = self.running()
        for r in running:
            r.cancel()
        for r in running:
            r.stop()

    @Slot(object)
    def _on_progress(self, report: ProgressReport) -> None:
        self.progress.setValue(round(report.fraction * 1000))
        self.progress.setToolTip(report.describe())

    @Slot()
    def _on_done(self) -> None:
        self.runners = [r for r in self.runners if r.is_running()]
        if not self.runners:
            for w in (self.label, self.progress, self.cancel_button):
                w.hide()
