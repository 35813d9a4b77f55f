"""The one base of the dialogs that run a long job (Run batch, Re-drive, Fix rows, Discard,
Change-sets, Retention): the runner, its progress bar, the summary line, Cancel, and a close
that hides the dialog while its job runs (the status bar goes on showing it).

Each dialog says what to start and what to do with a result; the runner's slots (progress,
failed, done) are written here once. A result that changed the store leaves by
``jobFinished``, and the window shows its ``describe()``, core's one sentence for it, through
one slot.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QWidget,
)

from triage_app.core.jobs import Job
from triage_app.gui import style
from triage_app.gui.i18n import translate
from triage_app.gui.workers import JobRunner, ProgressReport, describe_progress

StartJob = Callable[[Job], JobRunner]


def suffix_follows_count(spin: QSpinBox, suffix: Callable[[int], str]) -> None:
    """``spin``'s suffix in the form its value asks for, now and whenever it changes:
    ``suffix(n)`` is a counted ``translate`` (" day(s)": "1 day", "3 days")."""

    def follow(n: int) -> None:
        spin.setSuffix(suffix(n))

    spin.valueChanged.connect(follow)
    follow(spin.value())


class Described(Protocol):
    """A job's result as the window shows it: core's one sentence for it."""

    def describe(self) -> str: ...


class JobDialog(QDialog):
    """``name``: the prefix of the widgets' object names (``<name>Progress``,
    ``<name>Summary``). ``progress``: whether the dialog shows a progress bar; with
    ``progress_always`` it shows one while idle too (at its last value)."""

    jobFinished = Signal(object)  # a result that changed the store (has describe())

    def __init__(
        self,
        start_job: StartJob,
        parent: QWidget | None = None,
        *,
        name: str,
        progress: bool = True,
        progress_always: bool = False,
    ) -> None:
        super().__init__(parent)
        self._start_job = start_job
        self._runner: JobRunner | None = None
        self._progress_always = progress_always
        self.progress: QProgressBar | None = None
        if progress:
            self.progress = QProgressBar(objectName=f"{name}Progress", maximum=1000)
            self.progress.setVisible(progress_always)
        self.summary = QLabel(objectName=f"{name}Summary", wordWrap=True)
        self.cancel_button: QPushButton | None = None

    def add_cancel_button(self, buttons: QDialogButtonBox, text: str) -> QPushButton:
        """A Cancel for the running job among ``buttons``, shown only while one runs."""
        button = buttons.addButton(text, QDialogButtonBox.ButtonRole.ActionRole)
        button.clicked.connect(self.cancel)
        button.hide()
        self.cancel_button = button
        return button

    def set_progress(self, value: int, text_format: str | None = None) -> None:
        """The bar at ``value`` of 1000 (and its text's format), where the dialog has one."""
        if self.progress is not None:
            self.progress.setValue(value)
            if text_format is not None:
                self.progress.setFormat(text_format)

    def is_running(self) -> bool:
        return self._runner is not None

    def start(self, job: Job) -> JobRunner | None:
        """Start ``job`` unless one runs already; the dialog follows it to its end."""
        if self._runner is not None:
            return None
        runner = self._start_job(job)
        runner.progress.connect(self._on_progress)
        runner.finished.connect(self._on_finished)
        runner.failed.connect(self._on_failed)
        runner.done.connect(self._on_done)
        self._runner = runner
        if self.cancel_button is not None:
            self.cancel_button.show()
            self.cancel_button.setEnabled(True)
        if self.progress is not None:
            self.progress.setValue(0)
            self.progress.show()
        return runner

    @Slot()
    def cancel(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            if self.cancel_button is not None:
                self.cancel_button.setEnabled(False)
            self.say_progress(translate("JobDialog", "cancelling at the next chunk…"))

    def say_progress(self, text: str) -> None:
        """Where the running job's line goes: the summary, unless a dialog says otherwise."""
        self.summary.setText(text)

    def finished_job(self, result: Any) -> None:
        """What the dialog makes of its job's result (each dialog says)."""
        raise NotImplementedError

    def job_ended(self) -> None:
        """After the job, finished or failed: the dialog's buttons as they now apply."""

    @Slot(object)
    def _on_progress(self, report: ProgressReport) -> None:
        if self.progress is not None:
            self.progress.setValue(round(report.fraction * 1000))
        if self._runner is not None and not self._runner.cancel_requested():
            self.say_progress(describe_progress(self._runner.job, report))

    @Slot(object)
    def _on_finished(self, result: Any) -> None:
        self.finished_job(result)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        # Escaped: a message quotes the store's text ("<s>" in a signature shows as typed).
        self.summary.setText(style.coloured(html.escape(message), style.ERROR))

    @Slot()
    def _on_done(self) -> None:
        self._runner = None
        if self.cancel_button is not None:
            self.cancel_button.hide()
        if self.progress is not None and not self._progress_always:
            self.progress.hide()
        self.job_ended()

    def reject(self) -> None:
        if self._runner is not None:
            self.hide()  # the job goes on; the status bar shows it
            return
        super().reject()
