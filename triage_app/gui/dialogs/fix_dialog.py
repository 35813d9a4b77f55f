"""Fix rows…: one fix for the selected rows or every row matching the filter (issue 13).
The steward builds it from the form's steps (set, default, rename, trim, to a number, map)
or writes a JSON Patch, previews it (per row: before and after, or why it does not apply,
and what a transform version would make of it), then applies it as one change-set, which
Store > Change-sets… can revert. The work is the engine's (``core/deadletters``), run on a
worker thread; this dialog only gathers the choices and shows the answers.

The scope follows the table while the dialog is open (``scope.py``); Apply changes exactly
the rows the preview showed, each only while it is at the version previewed."""

from __future__ import annotations

from typing import Any

import orjson
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    Slot,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.deadletters import (
    ChangeSetReport,
    Fix,
    FixPreview,
    RowPreview,
    Step,
    read_patch,
    step_from_text,
)
from triage_app.core.errors import TriageError
from triage_app.core.jobs import FixApplyJob, FixPreviewJob, Job
from triage_app.core.locale_format import format_int
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import named_ids
from triage_app.gui import labels, style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob
from triage_app.gui.dialogs.scope import RowsScope, ScopeSource
from triage_app.gui.i18n import fill, translate
from triage_app.gui.rows_model import RowsModel
from triage_app.gui.window.placement import dialog_size

# The form's steps as the combo shows them, and what the value box asks for (context
# "fix_dialog").
VALUE_HINT = QT_TRANSLATE_NOOP("fix_dialog", "value (JSON, or text)")
STEP_CHOICES = (
    ("set", QT_TRANSLATE_NOOP("fix_dialog", "Set"), VALUE_HINT),
    ("default", QT_TRANSLATE_NOOP("fix_dialog", "Default where missing or null"), VALUE_HINT),
    (
        "rename",
        QT_TRANSLATE_NOOP("fix_dialog", "Rename to"),
        QT_TRANSLATE_NOOP("fix_dialog", "new field name"),
    ),
    ("trim", QT_TRANSLATE_NOOP("fix_dialog", "Trim spaces"), ""),
    ("to_number", QT_TRANSLATE_NOOP("fix_dialog", "Text to number"), ""),
    (
        "map",
        QT_TRANSLATE_NOOP("fix_dialog", "Map values"),
        QT_TRANSLATE_NOOP("fix_dialog", 'JSON object, e.g. {"lunas": "paid"}'),
    ),
)
PREVIEW_HEADERS = (
    QT_TRANSLATE_NOOP("fix_dialog", "id"),
    QT_TRANSLATE_NOOP("fix_dialog", "outcome"),
    QT_TRANSLATE_NOOP("fix_dialog", "what changes, or why not"),
    QT_TRANSLATE_NOOP("fix_dialog", "what the transform makes of it"),
)
OUTCOME_FILLS = {
    "would_load": "#dcfce7",
    "applies": "#e0f2fe",
    "still_fails": "#fef3c7",
    "not_applicable": "#f3f4f6",
}


def describe_preview(p: FixPreview) -> str:
    """The preview's counts in one sentence: how many would change, what the transform
    would make of them, and why the others would not."""
    reasons = "; ".join(f"{why} ({format_int(n)})" for why, n in list(p.why_not.items())[:3])
    if p.transform and p.not_applicable:
        text = translate(
            "fix_dialog",
            "%1 of %2 would change (through %3: %4 would load, %5 would still fail). "
            "Not applicable to %6: %7. Nothing was written.",
        )
        values: tuple[object, ...] = (
            p.applies,
            p.rows,
            p.transform,
            p.would_load,
            p.still_fails,
            p.not_applicable,
            reasons,
        )
    elif p.transform:
        text = translate(
            "fix_dialog",
            "%1 of %2 would change (through %3: %4 would load, %5 would still fail). "
            "Nothing was written.",
        )
        values = (p.applies, p.rows, p.transform, p.would_load, p.still_fails)
    elif p.not_applicable:
        text = translate(
            "fix_dialog",
            "%1 of %2 would change. Not applicable to %3: %4. Nothing was written.",
        )
        values = (p.applies, p.rows, p.not_applicable, reasons)
    else:
        text = translate("fix_dialog", "%1 of %2 would change. Nothing was written.")
        values = (p.applies, p.rows)
    return fill(text, *values)


class _PreviewModel(RowsModel[RowPreview]):
    headers = PREVIEW_HEADERS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        text = super().headerData(section, orientation, role)
        return translate("fix_dialog", text) if isinstance(text, str) else text

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        if role == Qt.ItemDataRole.ToolTipRole and index.column() >= 2:
            if not r.after:
                return r.before
            return fill(translate("fix_dialog", "before: %1\nafter: %2"), r.before, r.after)
        if role == Qt.ItemDataRole.DisplayRole:
            made = r.error or (orjson.dumps(r.row).decode() if r.row else "")
            change = r.why or r.changes
            outcome = labels.shown(labels.FIX_OUTCOMES, r.outcome)
            return (str(r.id), outcome, change, made)[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole:
            return QColor(OUTCOME_FILLS.get(r.outcome, "#ffffff"))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(style.INK)
        return None


class FixDialog(JobDialog):
    """Emits ``jobFinished`` with the ChangeSetReport of a fix applied."""

    def __init__(
        self,
        start_job: StartJob,
        scope: ScopeSource,
        *,
        transform: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(start_job, parent, name="fix")
        self.setWindowTitle(translate("FixDialog", "Fix dead letters"))
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(1000, 640)))
        self._preview: FixPreview | None = None
        self._steps: list[Step] = []

        self.scope = RowsScope(scope, translate("FixDialog", "Apply"))
        self.scope_selected, self.scope_filter = self.scope.selected, self.scope.filter

        # The form: a step at a time, in order.
        self.step_kind = QComboBox(objectName="fixStepKind")
        self.step_kind.setAccessibleName(translate("FixDialog", "Kind of step"))
        for op, label, _hint in STEP_CHOICES:
            self.step_kind.addItem(translate("fix_dialog", label), op)
        self.step_field = QLineEdit(
            objectName="fixStepField", placeholderText=translate("FixDialog", "field, e.g. diskon")
        )
        self.step_field.setAccessibleName(translate("FixDialog", "Field the step changes"))
        self.step_value = QLineEdit(objectName="fixStepValue")
        self.step_value.setAccessibleName(translate("FixDialog", "Value for the step"))
        self.add_step_button = QPushButton(
            translate("FixDialog", "Add step"), objectName="fixAddStep"
        )
        self.remove_step_button = QPushButton(
            translate("FixDialog", "Remove step"), objectName="fixRemoveStep"
        )
        self.steps_list = QListWidget(objectName="fixSteps")
        self.steps_list.setAccessibleName(translate("FixDialog", "Steps of the fix, in order"))
        self.step_error = QLabel(objectName="fixStepError")
        adder = QHBoxLayout()
        for w, stretch in ((self.step_kind, 0), (self.step_field, 1), (self.step_value, 2)):
            adder.addWidget(w, stretch)
        adder.addWidget(self.add_step_button)
        form_page = QWidget()
        fv = QVBoxLayout(form_page)
        fv.addLayout(adder)
        fv.addWidget(self.step_error)
        fv.addWidget(self.steps_list, 1)
        fv.addWidget(self.remove_step_button, 0, Qt.AlignmentFlag.AlignLeft)

        self.patch_edit = QPlainTextEdit(objectName="fixPatch")
        self.patch_edit.setAccessibleName(translate("FixDialog", "JSON Patch"))
        self.patch_edit.setPlaceholderText(
            '[{"op": "replace", "path": "/status", "value": "paid"}]   (RFC 6902)'
        )
        self.how = QTabWidget(objectName="fixHow")
        self.how.setAccessibleName(
            translate("FixDialog", "How the fix is written: steps or a JSON Patch")
        )
        self.how.addTab(form_page, translate("FixDialog", "Steps"))
        self.how.addTab(self.patch_edit, translate("FixDialog", "JSON Patch"))
        self.how.setMaximumHeight(220)

        self.transform_combo = QComboBox(objectName="fixTransform")
        self.transform_combo.setAccessibleName(
            translate("FixDialog", "Transform to try the fixed payloads with")
        )
        self.transform_combo.addItem(
            translate("FixDialog", "(none: only the patched payloads)"), None
        )
        for t in default_registry().all():
            self.transform_combo.addItem(t.ref, t.ref)
        if transform:
            self.transform_combo.setCurrentIndex(max(0, self.transform_combo.findData(transform)))

        form = QFormLayout()
        form.addRow(translate("FixDialog", "Fix"), self.scope)
        form.addRow(translate("FixDialog", "Try with"), self.transform_combo)

        self.results = QTableView(objectName="fixPreview")
        self.results.setAccessibleName(translate("FixDialog", "Fix preview"))
        self.results.setTabKeyNavigation(False)
        self.results.setModel(_PreviewModel((), self.results))
        header = self.results.horizontalHeader()
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.results.verticalHeader().hide()
        self.results.setWordWrap(False)
        self.results.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.summary.setText(
            translate(
                "FixDialog",
                "Preview first: it shows each row before and after, and writes nothing.",
            )
        )

        self.buttons = QDialogButtonBox()
        self.preview_button = self.buttons.addButton(
            translate("FixDialog", "Preview"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.preview_button.setObjectName("fixPreviewButton")
        self.apply_button = self.buttons.addButton(
            translate("FixDialog", "Apply as a change-set"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.apply_button.setObjectName("fixApplyButton")
        self.apply_button.setEnabled(False)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(self.how)
        v.addWidget(self.results, 1)
        v.addWidget(self.progress)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)

        self.step_kind.currentIndexChanged.connect(self._kind_changed)
        self.add_step_button.clicked.connect(self.add_step)
        self.step_value.returnPressed.connect(self.add_step)
        self.remove_step_button.clicked.connect(self.remove_step)
        self.preview_button.clicked.connect(self.preview)
        self.apply_button.clicked.connect(self.apply)
        self.close_button.clicked.connect(self.reject)
        self.scope.previewDropped.connect(self._invalidate)
        for signal in (
            self.transform_combo.currentIndexChanged,
            self.patch_edit.textChanged,
            self.how.currentChanged,
        ):
            signal.connect(self._invalidate)
        self._kind_changed()

    # -- building the fix ------------------------------------------------------------------
    @Slot()
    def _kind_changed(self) -> None:
        hint = STEP_CHOICES[self.step_kind.currentIndex()][2]
        self.step_value.setEnabled(bool(hint))
        self.step_value.setPlaceholderText(translate("fix_dialog", hint) if hint else "")

    @Slot()
    def add_step(self) -> None:
        op = self.step_kind.currentData()
        try:
            step = step_from_text(op, self.step_field.text().strip(), self.step_value.text())
        except TriageError as exc:
            self.step_error.setText(style.coloured(str(exc), style.ERROR))
            return
        self.step_error.clear()
        self._steps.append(step)
        self.steps_list.addItem(Fix(steps=(step,)).description)
        self.step_field.clear()
        self.step_value.clear()
        self._invalidate()

    @Slot()
    def remove_step(self) -> None:
        row = self.steps_list.currentRow()
        if 0 <= row < len(self._steps):
            del self._steps[row]
            self.steps_list.takeItem(row)
            self._invalidate()

    def fix(self) -> Fix:
        """The fix as the dialog holds it; TriageError in one line when it is not one."""
        if self.how.currentIndex() == 1:
            return Fix(patch=read_patch(self.patch_edit.toPlainText()))
        if not self._steps:
            raise TriageError(
                translate("FixDialog", "add a step first (a kind, a field and, for most, a value)")
            )
        return Fix(steps=tuple(self._steps))

    # -- preview and apply -----------------------------------------------------------------
    @Slot()
    def _invalidate(self) -> None:
        if self._runner is not None and isinstance(self._runner.job, FixApplyJob):
            return  # applying what was previewed: the rows are fixed already
        if self._preview is not None or self.scope.frozen() is not None:
            self.summary.setText(
                translate("FixDialog", "Preview again: the fix or the rows to fix changed.")
            )
        self.scope.thaw()
        self._preview = None
        self.apply_button.setEnabled(False)
        self.apply_button.setText(translate("FixDialog", "Apply as a change-set"))
        self.results.setModel(_PreviewModel((), self.results))

    def acts_on(self) -> list[int]:
        """The ids Apply would change now: the preview's rows (empty before one)."""
        return sorted(self._preview.versions) if self._preview is not None else []

    @Slot()
    def preview(self) -> None:
        try:
            fix = self.fix()
        except TriageError as exc:
            self.summary.setText(style.coloured(str(exc), style.ERROR))
            return
        chosen = self.scope.freeze()
        if chosen is None:
            return
        self._start(
            FixPreviewJob(
                fix,
                ids=chosen.ids,
                where=chosen.where,
                transform=self.transform_combo.currentData(),
            )
        )

    @Slot()
    def apply(self) -> None:
        if self._preview is None or not self._preview.versions:
            return
        self._start(FixApplyJob(self._preview.fix, dict(self._preview.versions)))
        self.scope.thaw()  # the previewed rows are the change-set's now

    def _start(self, job: Job) -> None:
        if self.start(job) is None:
            return
        for w in (self.preview_button, self.apply_button, self.how):
            w.setEnabled(False)

    def finished_job(self, result: FixPreview | ChangeSetReport) -> None:
        if isinstance(result, FixPreview):
            if self.scope.frozen() is None:
                return  # the rows changed while it ran: the scope's note says so
            self._preview = result if not result.cancelled else None
            self.results.setModel(_PreviewModel(result.shown, self.results))
            self.results.resizeColumnToContents(0)
            self.results.resizeColumnToContents(1)
            text = describe_preview(result)
            if self._preview is not None and result.applies:
                self.scope.covered(result.applies)
                exactly = translate("FixDialog", "Apply changes exactly these: %1.")
                text += " " + fill(exactly, named_ids(self.acts_on()))
            self.summary.setText(text)
            applies = translate("FixDialog", "Apply to %1 as a change-set")
            self.apply_button.setText(fill(applies, result.applies))
        else:
            self._preview = None
            self.scope.thaw()
            self.apply_button.setText(translate("FixDialog", "Apply as a change-set"))
            self.summary.setText(result.describe())
            self.jobFinished.emit(result)

    def job_ended(self) -> None:
        self.preview_button.setEnabled(True)
        self.how.setEnabled(True)
        self.apply_button.setEnabled(self._preview is not None and self._preview.applies > 0)
