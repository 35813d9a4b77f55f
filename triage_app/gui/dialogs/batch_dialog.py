"""Run batch…: choose a file, its format and a transform; run it on a worker thread with
progress, rows/s, ETA and Cancel; end with a summary and a way to see its dead letters."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QSignalBlocker, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.batch import BatchSummary, detect_format
from triage_app.core.errors import TriageError
from triage_app.core.jobs import BatchJob, Job, VerifyJob
from triage_app.core.transforms import default_registry
from triage_app.core.verify import IdempotenceProof
from triage_app.core.vocabulary import plural
from triage_app.gui import style
from triage_app.gui.workers import JobRunner, ProgressReport, describe_progress

StartJob = Callable[[Job], JobRunner]
J = TypeVar("J", BatchJob, VerifyJob)


def describe_batch(s: BatchSummary) -> str:
    if s.already_loaded:
        return (
            f"Batch {s.batch_id[:8]} was already loaded: nothing to do "
            f"({plural(s.rows, 'row')}: {s.loaded:,} loaded, {s.quarantined:,} quarantined)."
        )
    classes = ", ".join(f"{n:,} {c}" for c, n in s.by_class.items()) or "none"
    head = "Cancelled" if s.cancelled else ("Resumed batch" if s.resumed else "Batch")
    text = (
        f"{head} {s.batch_id[:8]}: {plural(s.rows, 'row')}, {s.loaded:,} loaded, "
        f"{s.superseded:,} superseded, {s.quarantined:,} quarantined ({classes}) "
        f"in {s.seconds:.1f} s."
    )
    if s.cancelled:
        text += " Run the same file again to resume where it stopped."
    return text


def describe_proof(p: IdempotenceProof) -> str:
    if p.identical:
        return (
            f"<b>Idempotent.</b> Two runs of {plural(p.rows, 'row')} through {p.transform} "
            f"left the same warehouse (SHA-256 {p.first_sha256[:16]}…) and the same dead letters "
            f"({p.quarantined:,}): running it again is safe."
        )
    return style.coloured(
        f"<b>Not idempotent.</b> Two runs of {plural(p.rows, 'row')} "
        f"through {p.transform} differ: SHA-256 {p.first_sha256[:16]}… then "
        f"{p.second_sha256[:16]}…"
        + ("" if p.same_dead_letters else ", and the dead letters differ")
        + ". Do not retry this transform before fixing it.",
        style.ERROR,
    )


class BatchDialog(QDialog):
    showBatch = Signal(str)  # batch id: filter the table to it
    batchFinished = Signal(object)  # BatchSummary

    def __init__(
        self, start_job: StartJob, start_dir: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Run batch")
        self.setMinimumWidth(560)
        self._start_job = start_job
        self._runner: JobRunner | None = None
        self._summary: BatchSummary | None = None
        self._start_dir = start_dir

        self.path_edit = QLineEdit(objectName="batchPath")
        self.path_edit.setPlaceholderText("a JSONL or CSV file")
        self.path_edit.setAccessibleName("Batch file")
        self.path_edit.textChanged.connect(self._on_path_changed)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        self.format_combo = QComboBox(objectName="batchFormat")
        self.format_combo.setAccessibleName("Batch file format")
        self.format_combo.addItem("detect from the name", None)
        self.format_combo.addItem("JSONL", "jsonl")
        self.format_combo.addItem("CSV", "csv")
        self.format_combo.currentIndexChanged.connect(self._on_path_changed)
        self.detected = QLabel(objectName="batchDetected", wordWrap=True)
        self.detected.setStyleSheet(style.HINT)
        self.transform_combo = QComboBox(objectName="batchTransform")
        self.transform_combo.setAccessibleName("Transform for the batch")
        for t in default_registry().all():
            self.transform_combo.addItem(f"{t.ref}  ({t.description})", t.ref)
        self.transform_combo.currentIndexChanged.connect(self._check)

        form = QFormLayout()
        form.addRow("File", path_row)
        form.addRow("Format", self.format_combo)
        form.addRow("", self.detected)
        form.addRow("Transform", self.transform_combo)

        self.progress = QProgressBar(objectName="batchProgress", maximum=1000)
        self.progress.setFormat("%p%")
        self.progress.setValue(0)
        self.rate = QLabel(objectName="batchRate")
        self.summary = QLabel(objectName="batchSummary", wordWrap=True)

        self.buttons = QDialogButtonBox()
        self.run_button = self.buttons.addButton("Run", QDialogButtonBox.ButtonRole.AcceptRole)
        self.run_button.setObjectName("batchRunButton")
        self.cancel_button = self.buttons.addButton(
            "Cancel batch", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.cancel_button.setObjectName("batchCancelButton")
        self.show_button = self.buttons.addButton(
            "Show its dead letters", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.show_button.setObjectName("showBatchButton")
        self.verify_button = self.buttons.addButton(
            "Verify idempotent", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.verify_button.setObjectName("verifyIdempotentButton")
        self.verify_button.setToolTip(
            "Run this file twice into scratch databases and compare the warehouse's SHA-256: "
            "the proof that running it again is safe. Your workspace is not touched."
        )
        self.verify_button.clicked.connect(self.verify)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.show_button.clicked.connect(self._show_batch)
        self.close_button.clicked.connect(self.reject)
        self.cancel_button.hide()
        self.show_button.hide()

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(self.progress)
        v.addWidget(self.rate)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)
        self._on_path_changed()

    def set_path(self, path: str | Path) -> None:
        self.path_edit.setText(str(path))

    def set_transform(self, ref: str) -> None:
        i = self.transform_combo.findData(ref)
        if i >= 0:
            self.transform_combo.setCurrentIndex(i)

    def is_running(self) -> bool:
        return self._runner is not None

    @Slot()
    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Choose a batch file",
            self._start_dir,
            "Batches (*.jsonl *.ndjson *.json *.csv *.tsv);;All files (*)",
        )
        if path:
            self.set_path(path)

    @Slot()
    def _on_path_changed(self) -> None:
        """A new file or format: suggest a transform that reads it, then check the lot."""
        text = self.path_edit.text().strip()
        if text:
            try:
                fmt = detect_format(Path(text), self.format_combo.currentData())
            except TriageError:
                pass  # said by the check below
            else:
                with QSignalBlocker(self.transform_combo):
                    self._suggest_transform(fmt)
        self._check()

    @Slot()
    def _check(self) -> None:
        """Say what the batch would refuse (the engine's own line: a format the transform
        does not read, a pipe, no such file) and allow Run only when it would start."""
        text = self.path_edit.text().strip()
        ok = False
        if not text:
            self.detected.setText("")
        else:
            try:
                fmt = self._job(BatchJob).check()
            except TriageError as exc:
                self.detected.setText(style.coloured(html.escape(str(exc)), style.ERROR))
            else:
                ok = True
                self.detected.setText(f"read as {fmt}")
        # A refusal wraps over lines; a form row does not grow for it by itself.
        self.detected.setMinimumHeight(self.detected.heightForWidth(self.detected.width()))
        self.run_button.setEnabled(ok and self._runner is None)
        self.verify_button.setEnabled(ok and self._runner is None)

    def _job(self, kind: type[J]) -> J:
        return kind(
            Path(self.path_edit.text().strip()),
            self.transform_combo.currentData(),
            self.format_combo.currentData(),
        )

    def _suggest_transform(self, fmt: str) -> None:
        current = default_registry().get(self.transform_combo.currentData())
        if current.input_format == fmt:
            return
        for t in reversed(default_registry().all()):
            if t.input_format == fmt:
                self.set_transform(t.ref)
                return

    @Slot()
    def run(self) -> None:
        if self._runner is not None:
            return
        job = self._job(BatchJob)
        self.summary.setText("")
        self.show_button.hide()
        self.progress.setValue(0)
        self._runner = self._start_job(job)
        self._runner.progress.connect(self._on_progress)
        self._runner.finished.connect(self._on_finished)
        self._runner.failed.connect(self._on_failed)
        self._runner.done.connect(self._on_done)
        self.run_button.setEnabled(False)
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.rate.setText("starting…")

    @Slot()
    def verify(self) -> None:
        if self._runner is not None:
            return
        job = self._job(VerifyJob)
        self.summary.setText("running the file twice into scratch databases…")
        self.progress.setValue(0)
        self._runner = self._start_job(job)
        self._runner.progress.connect(self._on_progress)
        self._runner.finished.connect(self._on_verified)
        self._runner.failed.connect(self._on_failed)
        self._runner.done.connect(self._on_done)
        self.run_button.setEnabled(False)
        self.verify_button.setEnabled(False)

    @Slot(object)
    def _on_verified(self, proof: IdempotenceProof) -> None:
        self.progress.setValue(1000)
        self.rate.setText("")
        self.summary.setText(describe_proof(proof))

    @Slot()
    def cancel(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            self.cancel_button.setEnabled(False)
            self.rate.setText("cancelling at the next chunk…")

    @Slot(object)
    def _on_progress(self, report: ProgressReport) -> None:
        self.progress.setValue(round(report.fraction * 1000))
        if self._runner is not None and not self._runner.cancel_requested():
            self.rate.setText(describe_progress(self._runner.job, report))

    @Slot(object)
    def _on_finished(self, summary: BatchSummary) -> None:
        self._summary = summary
        if not summary.cancelled:
            self.progress.setValue(1000)
        self.summary.setText(describe_batch(summary))
        self.show_button.setVisible(summary.quarantined > 0)
        self.run_button.setText("Resume" if summary.cancelled else "Run")
        self.batchFinished.emit(summary)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.summary.setText(style.coloured(message, style.ERROR))

    @Slot()
    def _on_done(self) -> None:
        self._runner = None
        self.cancel_button.hide()
        self._check()

    @Slot()
    def _show_batch(self) -> None:
        if self._summary is not None:
            self.showBatch.emit(self._summary.batch_id)
            self.accept()

    def reject(self) -> None:
        if self._runner is not None:
            # Closing the dialog does not stop the batch; the status bar keeps showing it.
            self.hide()
            return
        super().reject()
