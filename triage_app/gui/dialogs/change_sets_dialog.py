"""Store > Change-sets…: the fixes applied to many rows at once, newest first (who, when,
what, how many rows, reverted or not), and Revert, which puts every row it changed back to
its payload from before unless the row moved on since (then listed)."""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Callable, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QSize, Qt, Slot
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.deadletters import ChangeSetInfo, ChangeSetReport
from triage_app.core.jobs import RevertJob
from triage_app.core.locale_format import format_datetime, format_int
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.window.placement import dialog_size

HEADERS = (
    QT_TRANSLATE_NOOP("ChangeSetsDialog", "id"),
    QT_TRANSLATE_NOOP("ChangeSetsDialog", "when"),
    QT_TRANSLATE_NOOP("ChangeSetsDialog", "who"),
    QT_TRANSLATE_NOOP("ChangeSetsDialog", "rows"),
    QT_TRANSLATE_NOOP("ChangeSetsDialog", "fix"),
    QT_TRANSLATE_NOOP("ChangeSetsDialog", "reverted"),
)


def _when(t: dt.datetime) -> str:
    """A change-set's time for people, in UTC as the store keeps it: ``30 Nov 2026 14:05 UTC``."""
    if t.tzinfo is not None:
        t = t.astimezone(dt.UTC).replace(tzinfo=None)
    return fill(translate("ChangeSetsDialog", "%1 UTC"), format_datetime(t))


class ChangeSetsDialog(JobDialog):
    """Emits ``jobFinished`` with the ChangeSetReport of a revert."""

    def __init__(
        self,
        start_job: StartJob,
        load: Callable[[], Sequence[ChangeSetInfo]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(start_job, parent, name="changeSets", progress=False)
        self.setWindowTitle(translate("ChangeSetsDialog", "Change-sets"))
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(900, 420)))
        self._load = load
        self._shown: list[ChangeSetInfo] = []

        self.table = QTableWidget(0, len(HEADERS), objectName="changeSets")
        self.table.setAccessibleName(translate("ChangeSetsDialog", "Change-sets, newest first"))
        self.table.setHorizontalHeaderLabels([translate("ChangeSetsDialog", h) for h in HEADERS])
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        # Rich text always (an error is coloured), every text escaped: names and details
        # come from the store, and "<b>" in an owner's name must show as typed.
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.buttons = QDialogButtonBox()
        self.revert_button = self.buttons.addButton(
            translate("ChangeSetsDialog", "Revert…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.revert_button.setObjectName("revertButton")
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        v = QVBoxLayout(self)
        v.addWidget(self.table, 1)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)
        self.revert_button.clicked.connect(self.ask_revert)
        self.close_button.clicked.connect(self.reject)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.reload()

    @Slot()
    def reload(self) -> None:
        self._shown = list(self._load())
        self.table.setRowCount(len(self._shown))
        for row, c in enumerate(self._shown):
            reverted = ""
            if c.reverted_at:
                by = translate("ChangeSetsDialog", "%1 by %2")
                reverted = fill(by, _when(c.reverted_at), c.reverted_by)
            cells = (
                str(c.id),
                _when(c.at),
                c.actor,
                format_int(c.rows),
                c.description,
                reverted,
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col in (0, 3):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        if not self._shown:
            self.summary.setText(
                html.escape(
                    translate(
                        "ChangeSetsDialog", "No change-sets yet: Re-drive > Fix rows… makes one."
                    )
                )
            )
        self._selection_changed()

    def selected(self) -> ChangeSetInfo | None:
        rows = self.table.selectionModel().selectedRows()
        return self._shown[rows[0].row()] if rows else None

    # Why this login may not revert a change-set (its role; another's), or None: set by the
    # window (core.db.why_not over revert_own / revert_others).
    def why_not_revert(self, c: ChangeSetInfo) -> str | None:
        return None

    @Slot()
    def _selection_changed(self) -> None:
        c = self.selected()
        why = None if c is None else self.why_not_revert(c)
        self.revert_button.setEnabled(
            c is not None and c.reverted_at is None and self._runner is None and why is None
        )
        self.revert_button.setToolTip(
            why or translate("ChangeSetsDialog", "Put the rows this change-set changed back")
        )

    @Slot()
    def ask_revert(self) -> None:
        c = self.selected()
        if c is None:
            return
        n = c.rows
        question = translate(
            "ChangeSetsDialog",
            "Put the %Ln row(s) change-set %1 changed (%2) back to their payloads from before? "
            "Rows changed since are left as they are.",
            "",
            n,
        )
        box = QMessageBox(
            QMessageBox.Icon.Question,
            translate("ChangeSetsDialog", "Revert the change-set"),
            fill(question, c.id, c.description),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setObjectName("revertBox")
        box.setTextFormat(Qt.TextFormat.PlainText)  # the description comes from the store
        answer = box.exec()
        dispose(box)
        if answer == QMessageBox.StandardButton.Yes:
            self.revert(c.id)

    def revert(self, change_set_id: int) -> None:
        if self.start(RevertJob(change_set_id)) is None:
            return
        self.revert_button.setEnabled(False)
        self.summary.setText(
            fill(translate("ChangeSetsDialog", "reverting change-set %1…"), change_set_id)
        )

    def finished_job(self, report: ChangeSetReport) -> None:
        self.summary.setText(html.escape(report.describe()).replace("\n", "<br>"))
        self.jobFinished.emit(report)

    def job_ended(self) -> None:
        self.reload()
