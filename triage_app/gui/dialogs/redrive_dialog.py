"""Re-drive…: the selected rows or every row matching the filter, through a transform
version (default: the newest). A dry-run preview comes first and writes nothing; then the
run, with progress and Cancel, and its summary."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import orjson
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.deadletters import DeadLetterFilter, RedriveSummary
from triage_app.core.errors import TriageError
from triage_app.core.jobs import Job, RedriveJob
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import RedriveOutcome
from triage_app.gui import style
from triage_app.gui.workers import JobRunner, ProgressReport

StartJob = Callable[[Job], JobRunner]
SHOWN_RESULTS = 2_000  # the preview lists this many rows; the counts cover all of them


def default_transform(transforms_in_use: Sequence[str]) -> str | None:
    """The newest version of the transform the rows were quarantined by."""
    reg = default_registry()
    for ref in transforms_in_use:
        try:
            return reg.newest(ref.split("@", 1)[0]).ref
        except TriageError:
            continue
    refs = [t.ref for t in reg.all()]
    return refs[-1] if refs else None


def describe_redrive(s: RedriveSummary) -> str:
    if s.dry_run:
        text = (
            f"Preview with {s.transform}: {s.succeeded:,} would succeed, "
            f"{s.failed:,} would still fail. Nothing was written."
        )
    else:
        text = (
            f"Re-drove {s.attempted:,} with {s.transform}: {s.succeeded:,} resolved, "
            f"{s.failed:,} failed ({s.parked:,} parked)."
        )
    skipped = sum(r.outcome == RedriveOutcome.SKIPPED for r in s.results)
    if skipped:
        text += f" {skipped:,} skipped (already resolved or discarded)."
    if s.taken:
        text += f" {s.taken:,} left to another re-drive that holds them."
    if s.cancelled:
        text += " Cancelled: the rest were not touched."
    return text


class RedriveDialog(QDialog):
    redriven = Signal(object)  # RedriveSummary of a real run

    def __init__(
        self,
        start_job: StartJob,
        *,
        selected_ids: Sequence[int],
        where: DeadLetterFilter,
        matching: int | None,
        transforms_in_use: Sequence[str] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Re-drive dead letters")
        self.resize(900, 560)
        self._start_job = start_job
        self._ids = tuple(selected_ids)
        self._where = where
        self._runner: JobRunner | None = None
        self._preview: RedriveSummary | None = None

        self.scope_selected = QRadioButton(
            f"the {len(self._ids):,} selected dead letter{'s' if len(self._ids) != 1 else ''}"
        )
        self.scope_selected.setObjectName("scopeSelected")
        n = "every" if matching is None else f"all {matching:,}"
        self.scope_filter = QRadioButton(f"{n} dead letters matching the filter")
        self.scope_filter.setObjectName("scopeFilter")
        self.scope_selected.setEnabled(bool(self._ids))
        (self.scope_selected if self._ids else self.scope_filter).setChecked(True)
        self.transform_combo = QComboBox(objectName="redriveTransform")
        for t in default_registry().all():
            self.transform_combo.addItem(f"{t.ref}  ({t.description})", t.ref)
        default = default_transform(transforms_in_use)
        if default:
            self.transform_combo.setCurrentIndex(self.transform_combo.findData(default))
        for w in (self.scope_selected, self.scope_filter):
            w.toggled.connect(self._invalidate_preview)
        self.transform_combo.currentIndexChanged.connect(self._invalidate_preview)

        form = QFormLayout()
        scope = QVBoxLayout()
        scope.addWidget(self.scope_selected)
        scope.addWidget(self.scope_filter)
        form.addRow("Re-drive", scope)
        form.addRow("Transform", self.transform_combo)

        self.results = QTableWidget(0, 4, objectName="redrivePreview")
        self.results.setHorizontalHeaderLabels(
            ["id", "line", "outcome", "error, or the row it loads"]
        )
        self.results.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.results.verticalHeader().hide()
        self.results.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.summary = QLabel(objectName="redriveSummary", wordWrap=True)
        self.summary.setText("Preview first: a dry run shows what would happen and writes nothing.")
        self.progress = QProgressBar(objectName="redriveProgress", maximum=1000)
        self.progress.hide()

        self.buttons = QDialogButtonBox()
        self.preview_button = self.buttons.addButton(
            "Preview (dry run)", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.preview_button.setObjectName("previewButton")
        self.run_button = self.buttons.addButton("Re-drive", QDialogButtonBox.ButtonRole.AcceptRole)
        self.run_button.setObjectName("redriveRunButton")
        self.cancel_button = self.buttons.addButton(
            "Cancel re-drive", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.cancel_button.hide()
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.preview_button.clicked.connect(self.preview)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.reject)
        self.run_button.setEnabled(False)

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(self.results, 1)
        v.addWidget(self.progress)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)

    def _job(self, dry_run: bool) -> RedriveJob:
        ref = self.transform_combo.currentData()
        if self.scope_selected.isChecked():
            return RedriveJob(ref, ids=self._ids, dry_run=dry_run)
        return RedriveJob(ref, where=self._where, dry_run=dry_run)

    def is_running(self) -> bool:
        return self._runner is not None

    @Slot()
    def _invalidate_preview(self) -> None:
        self._preview = None
        self.run_button.setEnabled(False)
        self.results.setRowCount(0)

    @Slot()
    def preview(self) -> None:
        self._start(self._job(dry_run=True))

    @Slot()
    def run(self) -> None:
        if self._preview is None:
            return
        self._start(self._job(dry_run=False))

    @Slot()
    def cancel(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            self.cancel_button.setEnabled(False)

    def _start(self, job: RedriveJob) -> None:
        if self._runner is not None:
            return
        self._runner = self._start_job(job)
        self._runner.progress.connect(self._on_progress)
        self._runner.finished.connect(self._on_finished)
        self._runner.failed.connect(self._on_failed)
        self._runner.done.connect(self._on_done)
        for w in (self.preview_button, self.run_button, self.transform_combo):
            w.setEnabled(False)
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.show()
        self.summary.setText("previewing…" if job.dry_run else "re-driving…")

    @Slot(object)
    def _on_progress(self, report: ProgressReport) -> None:
        self.progress.setValue(round(report.fraction * 1000))

    @Slot(object)
    def _on_finished(self, s: RedriveSummary) -> None:
        self._show_results(s)
        self.summary.setText(describe_redrive(s))
        if s.dry_run:
            self._preview = s if not s.cancelled else None
            n = s.attempted
            self.run_button.setText(f"Re-drive {n:,}")
        else:
            self._preview = None
            self.redriven.emit(s)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.summary.setText(style.coloured(message, style.ERROR))

    @Slot()
    def _on_done(self) -> None:
        self._runner = None
        self.cancel_button.hide()
        self.progress.hide()
        self.preview_button.setEnabled(True)
        self.transform_combo.setEnabled(True)
        self.run_button.setEnabled(self._preview is not None and self._preview.attempted > 0)

    def _show_results(self, s: RedriveSummary) -> None:
        shown = s.results[:SHOWN_RESULTS]
        self.results.setRowCount(len(shown))
        for i, r in enumerate(shown):
            detail = r.error or (orjson.dumps(r.row).decode() if r.row else "")
            cells = [str(r.id), str(r.line), r.outcome.replace("_", " "), detail]
            colour = QColor(style.OUTCOME_FILLS.get(r.outcome, "#ffffff"))
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setBackground(colour)
                item.setForeground(QColor(style.INK))
                if col < 2:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                item.setToolTip(detail if col == 3 else "")
                self.results.setItem(i, col, item)
        self.results.resizeColumnsToContents()
        self.results.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)

    def reject(self) -> None:
        if self._runner is not None:
            self.hide()  # the run goes on; the status bar shows it
            return
        super().reject()
