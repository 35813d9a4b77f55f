"""The quarantine table: the paged model in a view, what the selection holds, and the text it
shows when it is empty (which says why, and what to do)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QWidget

from triage_app.core.batch import BatchInfo
from triage_app.core.deadletters import DeadLetterRow
from triage_app.gui import labels, style
from triage_app.gui.i18n import translate
from triage_app.gui.labels import class_label, status_label
from triage_app.gui.quarantine.model import (
    COL_BATCH,
    COL_CLASS,
    COL_ERROR,
    COL_SOURCE,
    COL_STATUS,
    SORT_KEYS,
    DeadLetterTableModel,
)

# Widths of the columns but the error's, which takes the rest.
_WIDTHS = (72, 64, 300, 64, 70, 116, 84, 104)  # batch, class, (error), attempts … source
# The error is what a steward reads first: on a narrow screen (a laptop, the detail pane
# open beside the table) it keeps this much and the table scrolls sideways instead.
MIN_ERROR_WIDTH = 220
_KEYBOARD = (
    Qt.FocusReason.TabFocusReason,
    Qt.FocusReason.BacktabFocusReason,
    Qt.FocusReason.ShortcutFocusReason,
)


def empty_text(*, has_workspace: bool, default_filter: bool, batches: list[BatchInfo]) -> str:
    """What an empty table says: why nothing shows, and the next step."""
    if not has_workspace:
        return translate(
            "QuarantineTable",
            "No workspace open.\nFile → Open workspace… (Ctrl+O) or Connect to databases…",
        )
    if not default_filter:
        return translate("QuarantineTable", "No dead letters match these filters.")
    if batches and batches[0].quarantined == 0:
        return translate("QuarantineTable", "No dead letters: every row of the last batch loaded.")
    if batches:
        return translate(
            "QuarantineTable", "No open dead letters: everything quarantined has been dealt with."
        )
    return translate(
        "QuarantineTable", "No dead letters yet.\nRun a batch (Ctrl+B) to load a file."
    )


class QuarantineTable(QTableView):
    def __init__(self, model: DeadLetterTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deadLetterTable")
        self.setAccessibleName(translate("QuarantineTable", "Dead letters"))
        self.dead_letters = model
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setSortingEnabled(True)
        self.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        # Rows are chosen whole and nothing is edited in place: Tab leaves the table for
        # the detail pane instead of walking its cells (where the keyboard was trapped).
        self.setTabKeyNavigation(False)
        vh = self.verticalHeader()
        vh.hide()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 8)
        hh = self.horizontalHeader()
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(COL_ERROR, QHeaderView.ResizeMode.Stretch)
        # Ids and line numbers run to millions: room for seven digits without eliding.
        digits = self.fontMetrics().horizontalAdvance("0000000") + 16
        widths = (digits, _WIDTHS[0], digits, *_WIDTHS[1:])
        for col, width in enumerate(widths):
            if col != COL_ERROR:
                self.setColumnWidth(col, max(width, self._least_width(col)))
        # The status beside the class, before the error: on a laptop the table is narrower
        # than its columns and scrolls sideways, which cut the status to "stat" at its
        # right edge; what is left past the error (last failure, transform) can wait.
        hh.moveSection(hh.visualIndex(COL_STATUS), hh.visualIndex(COL_ERROR))
        # Where a row came from, beside its batch (which it names); hidden until the store
        # has a connector: a desk of files only has one source, and no room to spare.
        hh.moveSection(hh.visualIndex(COL_SOURCE), hh.visualIndex(COL_BATCH) + 1)
        hh.setSectionHidden(COL_SOURCE, True)
        hh.sortIndicatorChanged.connect(self._on_sort_indicator)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.empty_label = QLabel(self.viewport(), objectName="emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet(f"color: {style.MUTED}; font-size: 14px; padding: 32px;")
        self.empty_label.hide()
        self.viewport().installEventFilter(self)
        self._fit_error_column()

    def _least_width(self, col: int) -> int:
        """Never narrower than the header, nor (class, status) than the widest label, in the
        language they are said in ("cacat data" is longer than "data")."""
        label = str(self.dead_letters.headerData(col, Qt.Orientation.Horizontal) or "")
        least = self.horizontalHeader().fontMetrics().horizontalAdvance(label) + 12
        words = {COL_CLASS: labels.CLASSES, COL_STATUS: labels.STATUSES}.get(col, {})
        for value in words:
            shown = class_label(value) if col == COL_CLASS else status_label(value)
            least = max(least, self.fontMetrics().horizontalAdvance(shown) + 12)
        return least

    def show_sources(self, shown: bool) -> None:
        """The Source column, shown once the store has connectors."""
        hh = self.horizontalHeader()
        if hh.isSectionHidden(COL_SOURCE) == shown:
            hh.setSectionHidden(COL_SOURCE, not shown)
            self._fit_error_column()

    @Slot(int, Qt.SortOrder)
    def _on_sort_indicator(self, column: int, order: Qt.SortOrder) -> None:
        """A click on a column the store cannot sort by (the source): the rows stay as they
        are sorted, and so does the arrow that says how."""
        if 0 <= column < len(SORT_KEYS) and SORT_KEYS[column] is None:
            self.horizontalHeader().setSortIndicator(*self.dead_letters.sorted_by())

    # -- the selection --------------------------------------------------------------------
    def selected_count(self) -> int:
        return sum(r.height() for r in self.selectionModel().selection())

    def selected_ids(self, limit: int) -> list[int] | None:
        """Ids of the selected rows, or None when more than ``limit`` are selected."""
        versions = self.selected_versions(limit)
        return None if versions is None else sorted(versions)

    def selected_versions(self, limit: int) -> dict[int, int] | None:
        """Id -> the version the table shows, for each selected row; None when more than
        ``limit`` are selected. A change by hand names these versions, so that it is
        refused for a row someone changed after the table was read."""
        if self.selected_count() > limit:
            return None
        versions: dict[int, int] = {}
        for rng in self.selectionModel().selection():
            for r in range(rng.top(), rng.bottom() + 1):
                row = self.dead_letters.row(r)
                if row is not None:
                    versions[row.id] = row.version
        return dict(sorted(versions.items()))

    def current_row(self) -> DeadLetterRow | None:
        index = self.currentIndex()
        return self.dead_letters.row(index.row()) if index.isValid() else None

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        # Entering the table by keyboard makes a row current, and the detail pane shows
        # the current row: select it too, so that what the pane shows is what a re-drive
        # acts on. (A click selects what it clicks.)
        index = self.currentIndex()
        if (
            event.reason() in _KEYBOARD
            and index.isValid()
            and not self.selectionModel().hasSelection()
        ):
            self.selectRow(index.row())

    # -- the empty state ------------------------------------------------------------------
    def show_empty(self, text: str | None) -> None:
        """Say ``text`` over the empty table; None hides it."""
        if text is None:
            self.empty_label.hide()
            return
        self.empty_label.setText(text)
        self.empty_label.resize(self.viewport().size())
        self.empty_label.show()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.viewport() and event.type() == QEvent.Type.Resize:
            self.empty_label.resize(self.viewport().size())
            self._fit_error_column()
        return super().eventFilter(obj, event)

    def _fit_error_column(self) -> None:
        """The error column takes the room the others leave, but never less than
        MIN_ERROR_WIDTH: below that it keeps its width and the table scrolls sideways."""
        hh = self.horizontalHeader()
        others = sum(
            hh.sectionSize(c)
            for c in range(hh.count())
            if c != COL_ERROR and not hh.isSectionHidden(c)
        )
        room = self.viewport().width() - others
        mode = hh.sectionResizeMode(COL_ERROR)
        if room >= MIN_ERROR_WIDTH:
            if mode != QHeaderView.ResizeMode.Stretch:
                hh.setSectionResizeMode(COL_ERROR, QHeaderView.ResizeMode.Stretch)
        elif mode != QHeaderView.ResizeMode.Interactive:
            hh.setSectionResizeMode(COL_ERROR, QHeaderView.ResizeMode.Interactive)
            hh.resizeSection(COL_ERROR, MIN_ERROR_WIDTH)
