"""The Quarantine tab: the table beside the detail pane. Choosing a row shows it in the
pane; while the pane holds an unsaved edit, moving to another row asks first.

The pane always shows the table's chosen row (the current row while it is selected, or the
only selected row), or says that none is chosen: after a filter change, a re-drive that
moved the row out of view, or another steward's change, it follows the table. Only an
unsaved edit keeps a row the table no longer chooses, and the pane's title says so."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Slot
from PySide6.QtWidgets import QSplitter, QWidget

from triage_app.core.deadletters import DeadLetterRow
from triage_app.gui.i18n import fill, translate
from triage_app.gui.quarantine.detail_pane import DetailPane
from triage_app.gui.quarantine.model import DeadLetterTableModel
from triage_app.gui.quarantine.table import QuarantineTable
from triage_app.gui.quarantine.unsaved_edit import Doing, UnsavedEditGuard

_SELECT_ROW = (
    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
)


class QuarantinePane(QSplitter):
    def __init__(
        self,
        model: DeadLetterTableModel,
        detail: DetailPane,
        guard: UnsavedEditGuard,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("mainSplitter")
        self.model = model
        self.detail = detail
        self.guard = guard
        self.table = QuarantineTable(model)
        self.addWidget(self.table)
        self.addWidget(detail)
        self.setStretchFactor(0, 3)
        self.setStretchFactor(1, 2)
        self.setSizes([860, 540])
        self._change_pending = False  # a Save/Discard/Cancel question is on its way
        self._row_before_change = -1  # the table row of the edited dead letter
        self._restoring = False
        self._select_all_pending = False
        self._sync_pending = False
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.table.selectionModel().selectionChanged.connect(self._schedule_sync)
        for signal in (
            model.modelReset,
            model.layoutChanged,
            model.rowsRemoved,
            model.totalChanged,
            detail.editDropped,
        ):
            signal.connect(self._schedule_sync)

    def select_all_when_counted(self, select: bool) -> None:
        """Select every matching row once the count is in (a group chosen in Trends), or,
        with False, forget a selection still waiting for its count."""
        self._select_all_pending = select
        self.on_counted()

    def on_counted(self) -> None:
        # Only once the count is in: before, the table holds just its first page.
        if self._select_all_pending and self.model.total() is not None:
            self._select_all_pending = False
            self.table.selectAll()

    def refresh_live(self) -> None:
        """Someone else changed the store: the table reads its rows again in place (the
        selection follows its dead letters, the scroll stays) and the pane reads the open
        dead letter again (an unsaved edit stays)."""
        rows = self.model.rowCount()
        everything = rows > 0 and self.table.selected_count() == rows
        self.model.refresh_in_place()
        if everything and not self._select_all_pending:
            self.select_all_when_counted(True)  # all stays all, however many there are now
        self.detail.check_for_change()

    def chosen_row(self) -> DeadLetterRow | None:
        """The row the table has chosen: the current row while it is selected, else the
        only selected row; None when none (or several, none current) is."""
        sm = self.table.selectionModel()
        current = self.table.currentIndex()
        if current.isValid() and sm.isRowSelected(current.row(), QModelIndex()):
            return self.model.row(current.row())
        if self.table.selected_count() == 1:
            return self.model.row(sm.selectedRows()[0].row())
        return None

    @Slot()
    def _schedule_sync(self) -> None:
        # Once the table has settled: a reset, a selection and a count come in bursts.
        if not self._sync_pending:
            self._sync_pending = True
            QTimer.singleShot(0, self, self.sync_detail)

    @Slot()
    def sync_detail(self) -> None:
        """The pane shows the chosen row, or says that none is chosen."""
        self._sync_pending = False
        if self._change_pending or self._restoring:
            return  # the steward is being asked about an unsaved edit
        row = self.chosen_row()
        shown = self.detail.showing()
        if self.detail.is_dirty():
            self.detail.set_unlisted(row is None or row.id != shown)
            return
        if row is not None:
            if row.id != shown:
                self.detail.show_dead_letter(row.id)
            return
        if shown is None:
            return
        n = self.table.selected_count()
        if n > 1:
            why = translate(
                "QuarantinePane",
                "%Ln dead letter(s) are selected: choose one to see its payload and history.",
                "",
                n,
            )
        else:
            why = fill(
                translate(
                    "QuarantinePane",
                    "#%1 is not chosen in the table any more (a filter, a re-drive or "
                    "another steward's change moved it). Select a dead letter to see it.",
                ),
                str(shown),
            )
        self.detail.show_nothing(why)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if self._restoring:
            return
        row = self.model.row(current.row()) if current.isValid() else None
        if self.detail.is_dirty():
            # Never drop an edit silently. Ask once the click or key press that moved the
            # selection has finished (a dialog inside it would fight the view's handling).
            moved = row is not None and row.id != self.detail.current_id()
            if moved and not self._change_pending:
                self._change_pending = True
                self._row_before_change = previous.row() if previous.isValid() else -1
                QTimer.singleShot(0, self._confirm_row_change)
            return
        if row is None:
            self.detail.show_nothing()
        else:
            self.detail.show_dead_letter(row.id)

    @Slot()
    def _confirm_row_change(self) -> None:
        self._change_pending = False
        index = self.table.currentIndex()
        row = self.model.row(index.row()) if index.isValid() else None
        if row is None or row.id == self.detail.current_id():
            return  # back on the edited row
        # While the question is open the table shows the row being edited; Save or Discard
        # moves on to the row that was chosen, Cancel stays.
        self._reselect_edited_row()
        self.guard.then(
            Doing.SHOWING, partial(self._go_to_row, index.row(), row.id), dead_letter=row.id
        )

    def _go_to_row(self, r: int, dl_id: int) -> None:
        row = self.model.row(r)
        if row is None or row.id != dl_id:
            return  # the table changed meanwhile
        self.table.selectionModel().setCurrentIndex(self.model.index(r, 0), _SELECT_ROW)
        self.detail.show_dead_letter(dl_id)

    def _reselect_edited_row(self) -> None:
        """Cancel: the selection goes back to the row being edited (or to none, when that
        row is no longer in the table)."""
        sm = self.table.selectionModel()
        r = self._row_before_change
        row = self.model.row(r) if r >= 0 else None
        self._restoring = True
        try:
            if row is not None and row.id == self.detail.current_id():
                sm.setCurrentIndex(self.model.index(r, 0), _SELECT_ROW)
                self.table.scrollTo(self.model.index(r, 0))
            else:
                sm.clearSelection()
                sm.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
        finally:
            self._restoring = False
