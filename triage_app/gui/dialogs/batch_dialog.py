"""Run batch…: choose a file, its format and a transform; run it on a worker thread with
progress, rows/s, ETA and Cancel; end with a summary and a way to see its dead letters."""

from __future__ import annotations

import hashlib
import html
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QSignalBlocker, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.batch import (
    BatchInfo,
    BatchSummary,
    batch_files,
    detect_format,
    next_batch_file,
)
from triage_app.core.errors import TriageError
from triage_app.core.jobs import BatchJob, VerifyJob
from triage_app.core.messages import _
from triage_app.core.places import printable
from triage_app.core.transforms import default_registry
from triage_app.core.verify import IdempotenceProof
from triage_app.gui import style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob
from triage_app.gui.i18n import fill, translate
from triage_app.gui.settings import Settings

J = TypeVar("J", BatchJob, VerifyJob)
DEFAULT_TRANSFORM_NAME = "pesanan"


def describe_proof(p: IdempotenceProof) -> str:
    n = p.rows
    if p.identical:
        text = translate(
            "batch_dialog",
            "<b>Idempotent.</b> Two runs of %Ln row(s) through %1 left the same warehouse "
            "(SHA-256 %2…) and the same dead letters (%3): running it again is safe.",
            "",
            n,
        )
        return fill(text, p.transform, p.first_sha256[:16], p.quarantined)
    if p.same_dead_letters:
        text = translate(
            "batch_dialog",
            "<b>Not idempotent.</b> Two runs of %Ln row(s) through %1 differ: SHA-256 %2… "
            "then %3…. Do not retry this transform before fixing it.",
            "",
            n,
        )
    else:
        text = translate(
            "batch_dialog",
            "<b>Not idempotent.</b> Two runs of %Ln row(s) through %1 differ: SHA-256 %2… "
            "then %3…, and the dead letters differ. Do not retry this transform before "
            "fixing it.",
            "",
            n,
        )
    shown = fill(text, p.transform, p.first_sha256[:16], p.second_sha256[:16])
    return style.coloured(shown, style.ERROR)


def first_transform(batches: Sequence[BatchInfo]) -> str | None:
    """The transform the dialog opens on: the last batch's, else pesanan's newest version
    (the demo's and the nightly orders' transform), else the first there is."""
    registry = default_registry()
    refs = [t.ref for t in registry.all()]
    if batches and batches[0].transform in refs:
        return batches[0].transform
    try:
        return registry.newest(DEFAULT_TRANSFORM_NAME).ref
    except TriageError:
        return refs[0] if refs else None


class BatchDialog(JobDialog):
    """``start_dir``: where files arrive (the workspace's ``incoming``); ``batches``: those
    run so far, newest first; ``remember``: a key under which the folder of the last file
    run is kept for next time (the workspace's)."""

    showBatch = Signal(str)  # batch id: filter the table to it

    def __init__(
        self,
        start_job: StartJob,
        start_dir: str = "",
        parent: QWidget | None = None,
        *,
        batches: Sequence[BatchInfo] = (),
        remember: str = "",
    ) -> None:
        super().__init__(start_job, parent, name="batch", progress_always=True)
        self.setWindowTitle(translate("BatchDialog", "Run batch"))
        self.setMinimumWidth(560)
        self._summary: BatchSummary | None = None
        self._folder_key = (
            f"batch/last_folder/{hashlib.sha256(remember.encode()).hexdigest()[:16]}"
            if remember
            else ""
        )
        self._start_dir = self._remembered_folder() or start_dir
        self._proposed: Path | None = None

        self.path_edit = QLineEdit(objectName="batchPath")
        self.path_edit.setPlaceholderText(translate("BatchDialog", "a JSONL or CSV file"))
        self.path_edit.setAccessibleName(translate("BatchDialog", "Batch file"))
        self.path_edit.textChanged.connect(self._on_path_changed)
        self.browse_button = QPushButton(
            translate("BatchDialog", "Browse…"), objectName="batchBrowseButton"
        )
        self.browse_button.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(self.browse_button)
        self.format_combo = QComboBox(objectName="batchFormat")
        self.format_combo.setAccessibleName(translate("BatchDialog", "Batch file format"))
        self.format_combo.addItem(translate("BatchDialog", "detect from the name"), None)
        self.format_combo.addItem("JSONL", "jsonl")
        self.format_combo.addItem("CSV", "csv")
        self.format_combo.currentIndexChanged.connect(self._on_path_changed)
        self.detected = QLabel(objectName="batchDetected", wordWrap=True)
        self.detected.setStyleSheet(style.HINT)
        self.transform_combo = QComboBox(objectName="batchTransform")
        self.transform_combo.setAccessibleName(translate("BatchDialog", "Transform for the batch"))
        for t in default_registry().all():
            self.transform_combo.addItem(f"{t.ref}  ({_(t.description)})", t.ref)
        self.transform_combo.currentIndexChanged.connect(self._check)

        form = QFormLayout()
        form.addRow(translate("BatchDialog", "File"), path_row)
        form.addRow(translate("BatchDialog", "Format"), self.format_combo)
        form.addRow("", self.detected)
        form.addRow(translate("BatchDialog", "Transform"), self.transform_combo)

        self.set_progress(0, "%p%")
        self.rate = QLabel(objectName="batchRate")

        self.buttons = QDialogButtonBox()
        self.run_button = self.buttons.addButton(
            translate("BatchDialog", "Run"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.run_button.setObjectName("batchRunButton")
        self.add_cancel_button(
            self.buttons, translate("BatchDialog", "Cancel batch")
        ).setObjectName("batchCancelButton")
        self.show_button = self.buttons.addButton(
            translate("BatchDialog", "Show its dead letters"),
            QDialogButtonBox.ButtonRole.ActionRole,
        )
        self.show_button.setObjectName("showBatchButton")
        self.verify_button = self.buttons.addButton(
            translate("BatchDialog", "Verify idempotent"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.verify_button.setObjectName("verifyIdempotentButton")
        self.verify_button.setToolTip(
            translate(
                "BatchDialog",
                "Run this file twice into scratch databases and compare the warehouse's "
                "SHA-256: the proof that running it again is safe. Your workspace is not "
                "touched.",
            )
        )
        self.verify_button.clicked.connect(self.verify)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.run_button.clicked.connect(self.run)
        self.show_button.clicked.connect(self._show_batch)
        self.close_button.clicked.connect(self.reject)
        self.show_button.hide()

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(self.progress)
        v.addWidget(self.rate)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)
        self._offer(batches)

    def _offer(self, batches: Sequence[BatchInfo]) -> None:
        """Open on the last batch's transform and on the next file to load from the start
        folder (one that transform reads first), listing the folder's files as the path is
        typed; with nothing to offer, Enter browses instead of running nothing."""
        self._loaded = {b.source_name for b in batches}
        if self._start_dir:
            files = batch_files(Path(self._start_dir))
            completer = QCompleter([str(f) for f in files], self)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.popup().setAccessibleName(
                translate("BatchDialog", "Batch files in the folder")
            )
            self.path_edit.setCompleter(completer)
        first = first_transform(batches)
        if first is not None:
            self.set_transform(first)
        self._propose()
        self.transform_combo.currentIndexChanged.connect(self._on_transform_chosen)

    def _propose(self) -> None:
        """The newest file in the start folder not loaded yet that the transform reads."""
        reads = self._transform_format()
        folder = Path(self._start_dir) if self._start_dir else None
        found = None
        if folder is not None and reads is not None:
            found = next_batch_file(folder, self._loaded, {reads})
        self._proposed = found
        self.set_path(found or "")
        self._check()  # also when the field was empty and stays so

    @Slot()
    def _on_transform_chosen(self) -> None:
        """Another transform, while the field is empty or holds the file offered for the
        last one: offer the next file this one reads instead."""
        text = self.path_edit.text().strip()
        if self._runner is None and (not text or Path(text) == self._proposed):
            self._propose()

    def set_path(self, path: str | Path) -> None:
        self.path_edit.setText(str(path))

    def set_transform(self, ref: str) -> None:
        i = self.transform_combo.findData(ref)
        if i >= 0:
            self.transform_combo.setCurrentIndex(i)

    def _nothing_new(self) -> str:
        """What an empty field says: nothing new to offer, and how to choose a file."""
        if not self._start_dir:
            return ""
        reads = self._transform_format()
        where = html.escape(printable(self._start_dir))
        if reads:
            text = translate("BatchDialog", "no new %1 file in %2: Browse… (Enter) to choose one")
            return fill(text, reads.upper(), where)
        text = translate("BatchDialog", "no new file in %1: Browse… (Enter) to choose one")
        return fill(text, where)

    def _transform_format(self) -> str | None:
        ref = self.transform_combo.currentData()
        return default_registry().get(ref).input_format if ref else None

    def _remembered_folder(self) -> str:
        """The folder of the last file run in this workspace, while it is there."""
        if not self._folder_key:
            return ""
        folder = str(Settings().value(self._folder_key, "") or "")
        return folder if folder and Path(folder).is_dir() else ""

    @Slot()
    def _browse(self) -> None:
        text = self.path_edit.text().strip()
        start = str(Path(text).parent) if text and Path(text).parent.is_dir() else ""
        path, _chosen_filter = QFileDialog.getOpenFileName(
            self,
            translate("BatchDialog", "Choose a batch file"),
            start or self._start_dir,
            translate(
                "BatchDialog", "Batches (*.jsonl *.ndjson *.json *.csv *.tsv);;All files (*)"
            ),
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
            self.detected.setText(self._nothing_new())
        else:
            try:
                fmt = self._job(BatchJob).check()
            except TriageError as exc:
                self.detected.setText(style.coloured(html.escape(str(exc)), style.ERROR))
            else:
                ok = True
                said = fill(translate("BatchDialog", "read as %1"), fmt)
                if self._proposed is not None and Path(text) == self._proposed:
                    where = html.escape(printable(self._proposed.parent))
                    newest = translate(
                        "BatchDialog", "the newest file in %1 not loaded yet; read as %2"
                    )
                    said = fill(newest, where, fmt)
                self.detected.setText(said)
        # A refusal wraps over lines; a form row does not grow for it by itself.
        self.detected.setMinimumHeight(self.detected.heightForWidth(self.detected.width()))
        self.run_button.setEnabled(ok and self._runner is None)
        self.verify_button.setEnabled(ok and self._runner is None)
        # Enter runs a file that is there to run; with none, it opens the file picker.
        runnable = ok and self._runner is None
        self.run_button.setDefault(runnable)
        self.browse_button.setDefault(not runnable and self._runner is None)

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
        if self._folder_key:  # next time, the dialog opens on this file's folder
            Settings().set_value(self._folder_key, str(job.path.resolve().parent))
        self.summary.setText("")
        self.show_button.hide()
        self.start(job)
        self.run_button.setEnabled(False)
        self.rate.setText(translate("BatchDialog", "starting…"))

    @Slot()
    def verify(self) -> None:
        if self._runner is not None:
            return
        self.summary.setText(
            translate("BatchDialog", "running the file twice into scratch databases…")
        )
        self.start(self._job(VerifyJob))
        if self.cancel_button is not None:
            self.cancel_button.hide()  # the proof runs twice into scratch databases: no stop
        self.run_button.setEnabled(False)
        self.verify_button.setEnabled(False)

    def say_progress(self, text: str) -> None:
        self.rate.setText(text)

    def finished_job(self, result: BatchSummary | IdempotenceProof) -> None:
        if isinstance(result, IdempotenceProof):
            self.set_progress(1000)
            self.rate.setText("")
            self.summary.setText(describe_proof(result))
            return
        self._summary = result
        if not result.cancelled:
            self.set_progress(1000)
        self.summary.setText(result.describe())
        self.show_button.setVisible(result.quarantined > 0)
        self.run_button.setText(
            translate("BatchDialog", "Resume")
            if result.cancelled
            else translate("BatchDialog", "Run")
        )
        self.jobFinished.emit(result)

    def job_ended(self) -> None:
        self._check()

    @Slot()
    def _show_batch(self) -> None:
        if self._summary is not None:
            self.showBatch.emit(self._summary.batch_id)
            self.accept()
