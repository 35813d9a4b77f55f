"""Suspect a version…: the warehouse rows a transform version last wrote, run through a
fixed version of the same table (issue 25). "Check" is a dry run: its counts (unchanged,
changed, now failing, no input) and its rows with their diffs or errors. "Apply…" asks,
naming the pair and the check's counts, then runs the reprocess, with progress and Cancel,
and says what it did.

The apply judges every row again when it starts and guards each update by the row's
lineage, so a warehouse changed since the check is safe; the dialog says its counts are the
check's until the apply's own come in, and then what differs from the check.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, QSize, Qt, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.db import Workspace
from triage_app.core.jobs import ReprocessJob
from triage_app.core.locale_format import format_datetime, format_int
from triage_app.core.messages import _
from triage_app.core.reprocess import ReprocessSummary, Verdict, VerdictKind, count_suspects
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.gui import labels, style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.rows_model import RowsModel
from triage_app.gui.window.placement import dialog_size
from triage_app.gui.workers import QueryThread

SIZED_FROM_ROWS = 200  # the table's columns fit the widest of this many rows
VERDICT_HEADERS = (
    QT_TRANSLATE_NOOP("reprocess_dialog", "key"),
    QT_TRANSLATE_NOOP("reprocess_dialog", "batch"),
    QT_TRANSLATE_NOOP("reprocess_dialog", "line"),
    QT_TRANSLATE_NOOP("reprocess_dialog", "verdict"),
    QT_TRANSLATE_NOOP("reprocess_dialog", "diff, or why it fails"),
)
FILLS = {
    VerdictKind.CHANGED: style.NOTE_FILL,
    VerdictKind.FAILING: style.REMOVED,
    VerdictKind.NO_INPUT: style.GREY_FILL,
}
# The four counts: (label, the label's accessible name, kind), in context "reprocess_dialog".
COUNTED = (
    (
        QT_TRANSLATE_NOOP("reprocess_dialog", "unchanged"),
        QT_TRANSLATE_NOOP("reprocess_dialog", "Rows unchanged"),
        VerdictKind.UNCHANGED,
    ),
    (
        QT_TRANSLATE_NOOP("reprocess_dialog", "changed"),
        QT_TRANSLATE_NOOP("reprocess_dialog", "Rows changed"),
        VerdictKind.CHANGED,
    ),
    (
        QT_TRANSLATE_NOOP("reprocess_dialog", "now failing"),
        QT_TRANSLATE_NOOP("reprocess_dialog", "Rows now failing"),
        VerdictKind.FAILING,
    ),
    (
        QT_TRANSLATE_NOOP("reprocess_dialog", "no input"),
        QT_TRANSLATE_NOOP("reprocess_dialog", "Rows with no input"),
        VerdictKind.NO_INPUT,
    ),
)


def rows(n: int) -> str:
    """``n`` rows, counted ("1 row", "3 rows"), for a sentence that counts two things."""
    return translate("reprocess_dialog", "%Ln row(s)", "", n)


def suspect_counts(ws: Workspace, transforms: Sequence[Transform]) -> dict[str, int]:
    """How many warehouse rows each version last wrote (a worker thread's call)."""
    return {t.ref: count_suspects(ws, t) for t in transforms}


def said(v: Verdict) -> str:
    """The row's last column: the diff of a changed row, the error of any other."""
    if v.kind is VerdictKind.CHANGED:
        return v.diff_said()
    return v.error or ""


class VerdictsModel(RowsModel[Verdict]):
    """The changed, failing and unreadable rows of a check (or an apply), a line each."""

    headers = VERDICT_HEADERS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        text = super().headerData(section, orientation, role)
        return translate("reprocess_dialog", text) if isinstance(text, str) else text

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        v = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            s = v.suspect
            verdict = labels.shown(labels.VERDICTS, v.kind.value)
            return (str(s.key), s.batch_id, str(s.line), verdict, said(v))[col]
        if role == Qt.ItemDataRole.ToolTipRole and col == 4:
            return said(v)
        if role == Qt.ItemDataRole.BackgroundRole:
            return QColor(FILLS.get(v.kind, "#ffffff"))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(style.INK)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ReprocessDialog(JobDialog):
    """Emits ``jobFinished`` with the ReprocessSummary of an apply (not of a check).

    ``queries``: where the rows each version last wrote are counted, off the GUI thread
    (None: not counted). ``registry``: the transforms offered and run (None: the app's)."""

    def __init__(
        self,
        start_job: StartJob,
        queries: QueryThread | None,
        *,
        registry: Registry | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(start_job, parent, name="reprocess")
        self.setWindowTitle(translate("ReprocessDialog", "Suspect a version"))
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(960, 600)))
        self.registry = registry
        self._transforms = list((registry or default_registry()).all())
        self._counts: dict[str, int] = {}
        self._check: ReprocessSummary | None = None  # the last check, while it holds
        self._checked_at = ""
        self._picked_by_hand = False

        self.suspect_combo = QComboBox(objectName="reprocessSuspect")
        self.suspect_combo.setAccessibleName(
            translate("ReprocessDialog", "The suspect version: its rows are judged again")
        )
        self.suspect_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.fixed_combo = QComboBox(objectName="reprocessFixed")
        self.fixed_combo.setAccessibleName(
            translate("ReprocessDialog", "The fixed version the rows are run through")
        )
        self.fixed_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.scope_edit = QLineEdit(objectName="reprocessScope")
        self.scope_edit.setPlaceholderText(
            translate("ReprocessDialog", "every batch (or a batch id: its start is enough)")
        )
        self.scope_edit.setAccessibleName(
            translate("ReprocessDialog", "Only the rows this batch wrote (optional)")
        )
        self.scope_edit.setClearButtonEnabled(True)
        self._fill_suspects()
        self.suspect_combo.activated.connect(self._picked)
        self.suspect_combo.currentIndexChanged.connect(self._suspect_changed)
        self.fixed_combo.currentIndexChanged.connect(self._invalidate_check)
        self.scope_edit.textChanged.connect(self._invalidate_check)

        form = QFormLayout()
        form.addRow(translate("ReprocessDialog", "Suspect version"), self.suspect_combo)
        form.addRow(translate("ReprocessDialog", "Fixed version"), self.fixed_combo)
        form.addRow(translate("ReprocessDialog", "Batch"), self.scope_edit)

        # The four counts, each its own label: read at a glance, and by a test.
        self.count_labels: dict[VerdictKind, QLabel] = {}
        self._shown: dict[VerdictKind, int | None] = {}
        counts = QHBoxLayout()
        for _name, spoken, kind in COUNTED:
            label = QLabel(objectName=f"reprocessCount{kind.name.title().replace('_', '')}")
            label.setAccessibleName(translate("reprocess_dialog", spoken))
            label.setTextFormat(Qt.TextFormat.RichText)
            self.count_labels[kind] = label
            counts.addWidget(label)
        counts.addStretch(1)
        self.counts_from = QLabel(objectName="reprocessCountsFrom", wordWrap=True)
        self.counts_from.setStyleSheet(style.HINT)
        self._show_counts(None)

        self.rows = QTableView(objectName="reprocessRows")
        self.rows.setAccessibleName(
            translate("ReprocessDialog", "The rows that change, now fail or have no input")
        )
        self.rows.setTabKeyNavigation(False)
        self.rows.setModel(VerdictsModel((), self.rows))
        header = self.rows.horizontalHeader()
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        header.setResizeContentsPrecision(SIZED_FROM_ROWS)
        self.rows.verticalHeader().hide()
        self.rows.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.rows.setWordWrap(False)
        self.rows.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.rows.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self._size_columns()
        self.summary.setText(
            translate(
                "ReprocessDialog",
                "Check first: a dry run judges every row the suspect version last wrote and "
                "writes nothing.",
            )
        )

        self.buttons = QDialogButtonBox()
        self.check_button = self.buttons.addButton(
            translate("ReprocessDialog", "Check (dry run)"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.check_button.setObjectName("reprocessCheckButton")
        self.apply_button = self.buttons.addButton(
            translate("ReprocessDialog", "Apply…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.apply_button.setObjectName("reprocessApplyButton")
        self.add_cancel_button(self.buttons, translate("ReprocessDialog", "Cancel"))
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.check_button.clicked.connect(self.check)
        self.apply_button.clicked.connect(self.apply)
        self.close_button.clicked.connect(self.reject)
        self.apply_button.setEnabled(False)
        self.check_button.setDefault(True)

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addLayout(counts)
        v.addWidget(self.counts_from)
        v.addWidget(self.rows, 1)
        v.addWidget(self.progress)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)

        self._queries = queries
        self._count_suspects()

    def _count_suspects(self) -> None:
        """The rows each version last wrote, counted on the query thread (a count of a
        large table's rows by version is a scan)."""
        queries = self._queries
        if queries is None or not shiboken6.isValid(queries) or queries.worker is None:
            return
        transforms = self._transforms
        queries.submit(
            lambda ws: suspect_counts(ws, transforms),
            self._on_counted,
            self._on_count_failed,
            key="reprocess-suspects",
        )

    # -- the versions ------------------------------------------------------------------------
    def _fill_suspects(self) -> None:
        current = self.suspect_combo.currentData()
        self.suspect_combo.blockSignals(True)
        self.suspect_combo.clear()
        for t in self._transforms:
            n = self._counts.get(t.ref)
            if n is None:
                text = fill(translate("ReprocessDialog", "%1  (counting…)"), t.ref)
            else:
                wrote = translate("ReprocessDialog", "%1  (last wrote %Ln row(s))", "", n)
                text = fill(wrote, t.ref)
            self.suspect_combo.addItem(text, t.ref)
        if current is not None:
            self.suspect_combo.setCurrentIndex(max(0, self.suspect_combo.findData(current)))
        self.suspect_combo.blockSignals(False)
        self._suspect_changed()

    def _fill_fixed(self) -> None:
        """The versions of the suspect's table, newest first, the suspect itself left out."""
        suspect = self.suspect()
        current = self.fixed_combo.currentData()
        self.fixed_combo.blockSignals(True)
        self.fixed_combo.clear()
        if suspect is not None:
            same = [
                t for t in self._transforms if t.table == suspect.table and t.ref != suspect.ref
            ]
            for t in sorted(same, key=lambda t: (t.name != suspect.name, -t.version)):
                self.fixed_combo.addItem(f"{t.ref}  ({_(t.description)})", t.ref)
        found = self.fixed_combo.findData(current) if current is not None else -1
        self.fixed_combo.setCurrentIndex(found if found >= 0 else 0)
        self.fixed_combo.blockSignals(False)

    def suspect(self) -> Transform | None:
        ref = self.suspect_combo.currentData()
        return next((t for t in self._transforms if t.ref == ref), None)

    def pair(self) -> tuple[str, str, str | None] | None:
        """(suspect, fixed, scope) as chosen; None until both versions are."""
        v, w = self.suspect_combo.currentData(), self.fixed_combo.currentData()
        if v is None or w is None:
            return None
        return v, w, self.scope_edit.text().strip() or None

    @Slot(int)
    def _picked(self, _index: int) -> None:
        self._picked_by_hand = True

    @Slot()
    def _suspect_changed(self) -> None:
        self._fill_fixed()
        self._invalidate_check()

    def _on_counted(self, counts: dict[str, int]) -> None:
        self._counts = counts
        if not self._picked_by_hand:
            # Opened on the first version that wrote rows and has another to compare with.
            for t in self._transforms:
                if counts.get(t.ref) and any(
                    o.table == t.table and o.ref != t.ref for o in self._transforms
                ):
                    self.suspect_combo.setCurrentIndex(self.suspect_combo.findData(t.ref))
                    break
        self._fill_suspects()

    def _on_count_failed(self, message: str) -> None:
        self.counts_from.setText(
            fill(
                translate(
                    "ReprocessDialog", "The rows each version wrote could not be counted: %1"
                ),
                message,
            )
        )

    # -- check and apply ---------------------------------------------------------------------
    @Slot()
    def _invalidate_check(self) -> None:
        if self._check is None:
            return
        self._check = None
        self.apply_button.setEnabled(False)
        self.rows.setModel(VerdictsModel((), self.rows))
        self._show_counts(None)
        self.summary.setText(
            translate("ReprocessDialog", "Check again: the versions or the batch changed.")
        )

    @Slot()
    def check(self) -> None:
        pair = self.pair()
        if pair is None:
            return
        v, w, scope = pair
        self._start(ReprocessJob(v, w, scope, dry_run=True, registry=self.registry))

    def apply_question(self, check: ReprocessSummary) -> str:
        """What Apply… asks: the pair, and what the check says it will change."""
        if check.scope:
            asked = translate(
                "ReprocessDialog", "Reprocess the rows %1 last wrote (batch %2) with %3?"
            )
            question = fill(asked, check.produced_by, check.scope, check.with_)
        else:
            asked = translate("ReprocessDialog", "Reprocess the rows %1 last wrote with %2?")
            question = fill(asked, check.produced_by, check.with_)
        found = translate(
            "ReprocessDialog",
            "The check at %1 found %2 to change and %3 now failing, to quarantine as dead "
            "letters of the run; %4 unchanged are not touched.",
        )
        counts = fill(
            found, self._checked_at, rows(check.changed), rows(check.failing), check.unchanged
        )
        caveat = translate(
            "ReprocessDialog",
            "These counts are the check's: the apply judges every row again, and leaves alone "
            "a row written since by a later batch or re-drive.",
        )
        return f"{question}\n\n{counts}\n\n{caveat}"

    def confirm_apply(self, check: ReprocessSummary) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            translate("ReprocessDialog", "Apply the reprocess"),
            self.apply_question(check),
            QMessageBox.StandardButton.Apply | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setObjectName("reprocessConfirm")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        try:
            return box.exec() == QMessageBox.StandardButton.Apply
        finally:
            dispose(box)  # one per apply, gone now

    @Slot()
    def apply(self) -> None:
        check = self._check
        if check is None or not (check.changed or check.failing):
            return
        if not self.confirm_apply(check):
            return
        self._start(
            ReprocessJob(
                check.produced_by, check.with_, check.scope, dry_run=False, registry=self.registry
            )
        )

    def _start(self, job: ReprocessJob) -> None:
        if self.start(job) is None:
            return
        for w in (
            self.check_button,
            self.apply_button,
            self.suspect_combo,
            self.fixed_combo,
            self.scope_edit,
        ):
            w.setEnabled(False)
        if job.dry_run:
            self.summary.setText(translate("ReprocessDialog", "checking…"))
        else:
            self.summary.setText(translate("ReprocessDialog", "reprocessing…"))

    def finished_job(self, s: ReprocessSummary) -> None:
        if s.dry_run:
            self._finished_check(s)
        else:
            self._finished_apply(s)

    def _finished_check(self, s: ReprocessSummary) -> None:
        if s.cancelled:
            self._check = None
            self._show_counts(None)
            self.rows.setModel(VerdictsModel((), self.rows))
            self.summary.setText(
                translate(
                    "ReprocessDialog",
                    "Check cancelled: nothing was written. Check again to see it.",
                )
            )
            return
        self._check = s
        self._checked_at = format_datetime(dt.datetime.now(), seconds=True)
        self._show_counts(s)
        self.counts_from.setText(
            fill(
                translate(
                    "ReprocessDialog",
                    "Counts from the check at %1. The warehouse may change before you apply: "
                    "the apply judges every row again and says what it did.",
                ),
                self._checked_at,
            )
        )
        self._show_rows(s)
        text = s.describe()
        if s.changed or s.failing:
            updates = translate("ReprocessDialog", "Apply… updates %1 and quarantines %2.")
            text += " " + fill(updates, rows(s.changed), rows(s.failing))
        self.summary.setText(text)

    def _finished_apply(self, s: ReprocessSummary) -> None:
        check, self._check = self._check, None
        self._show_counts(s)
        if s.run_id:
            judged = translate(
                "ReprocessDialog", "Counts from the apply, judged when it started (run %1)."
            )
            self.counts_from.setText(fill(judged, s.run_id))
        else:
            self.counts_from.setText(
                translate("ReprocessDialog", "Counts from the apply, judged when it started.")
            )
        self._show_rows(s)
        text = s.describe()
        if check is not None:
            text += " " + self.against_check(check, s)
        self.summary.setText(text.strip())
        self._count_suspects()  # the suspect version wrote fewer rows now
        self.jobFinished.emit(s)

    @staticmethod
    def against_check(check: ReprocessSummary, s: ReprocessSummary) -> str:
        """What the apply did beside what the check had said: the warehouse may have moved
        on between the two."""
        if s.cancelled:
            return ""
        if (s.applied, s.quarantined) == (check.changed, check.failing):
            return translate("ReprocessDialog", "As the check said.")
        had = translate(
            "ReprocessDialog",
            "The check had found %1 to change and %2 now failing; the apply updated %3 and "
            "quarantined %4.",
        )
        parts = [fill(had, check.changed, check.failing, s.applied, s.quarantined)]
        left = check.changed - s.applied
        if left > 0:
            parts.append(
                translate(
                    "ReprocessDialog",
                    "%Ln row(s) the check would have changed were left alone: written since the "
                    "check.",
                    "",
                    left,
                )
            )
        return " ".join(parts)

    def job_ended(self) -> None:
        for w in (self.check_button, self.suspect_combo, self.fixed_combo, self.scope_edit):
            w.setEnabled(True)
        ready = self._check is not None and bool(self._check.changed or self._check.failing)
        self.apply_button.setEnabled(ready)
        (self.apply_button if ready else self.check_button).setDefault(True)

    # -- what is shown -----------------------------------------------------------------------
    def _show_counts(self, s: ReprocessSummary | None) -> None:
        for name, _spoken, kind in COUNTED:
            n = None if s is None else int(getattr(s, kind.name.lower()))
            self._shown[kind] = n
            shown = "–" if n is None else format_int(n)
            colour = style.MUTED if not n else style.INK
            label = html.escape(translate("reprocess_dialog", name))
            self.count_labels[kind].setText(f"{label}: <b>{style.coloured(shown, colour)}</b>")
        if s is None:
            self.counts_from.setText(translate("ReprocessDialog", "No check yet."))

    def count_shown(self, kind: VerdictKind) -> int | None:
        """The count a label shows (None: none shown)."""
        return self._shown[kind]

    def _show_rows(self, s: ReprocessSummary) -> None:
        self.rows.setModel(VerdictsModel(s.verdicts, self.rows))
        self._size_columns()

    def _size_columns(self) -> None:
        # Sized once from the first rows (and never narrower than the headers), not on
        # every layout: a column sized to its contents asks the model for many cells.
        for col in range(4):
            self.rows.resizeColumnToContents(col)
