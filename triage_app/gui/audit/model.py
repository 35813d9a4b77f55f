"""The audit trail as a table: newest first, a page at a time. The rows come from the tab
(read off the GUI thread); when the view scrolls to the end and more events match, the
model asks for the next page with ``moreWanted`` and appends it when it arrives."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from triage_app.core.deadletters import AuditPage, AuditRecord
from triage_app.core.vocabulary import AuditAction
from triage_app.gui import style
from triage_app.gui.i18n import translate
from triage_app.gui.quarantine.model import shown_time

Index = QModelIndex | QPersistentModelIndex

COL_AT, COL_ACTOR, COL_ACTION, COL_DEAD_LETTER, COL_VERSION, COL_DETAIL = range(6)
HEADERS = (
    QT_TRANSLATE_NOOP("AuditTableModel", "when (UTC)"),
    QT_TRANSLATE_NOOP("AuditTableModel", "who"),
    QT_TRANSLATE_NOOP("AuditTableModel", "action"),
    QT_TRANSLATE_NOOP("AuditTableModel", "dead letter"),
    QT_TRANSLATE_NOOP("AuditTableModel", "version"),
    QT_TRANSLATE_NOOP("AuditTableModel", "detail"),
)
_NUMERIC = (COL_DEAD_LETTER, COL_VERSION)
DETAIL_CHARS = 300  # the cell; the tooltip has it all

# The actions a reader looks for first keep the colours they have everywhere else.
ACTION_COLOURS = {
    AuditAction.RESOLVED.value: style.RESOLVED,
    AuditAction.PARKED.value: style.ALERT,
    AuditAction.REDRIVE_FAILED.value: style.ERROR,
    AuditAction.DISCARDED.value: style.MUTED,
    AuditAction.PURGED.value: style.MUTED,
}


# What a person reads for each audit action; the stored value (``--json``, the filter's
# data) stays the key. English says the stored word.
ACTION_LABELS = {
    AuditAction.QUARANTINED.value: QT_TRANSLATE_NOOP("AuditTableModel", "quarantined"),
    AuditAction.EDITED.value: QT_TRANSLATE_NOOP("AuditTableModel", "edited"),
    AuditAction.RESOLVED.value: QT_TRANSLATE_NOOP("AuditTableModel", "resolved"),
    AuditAction.REDRIVE_FAILED.value: QT_TRANSLATE_NOOP("AuditTableModel", "redrive_failed"),
    AuditAction.PARKED.value: QT_TRANSLATE_NOOP("AuditTableModel", "parked"),
    AuditAction.DISCARDED.value: QT_TRANSLATE_NOOP("AuditTableModel", "discarded"),
    AuditAction.REOPENED.value: QT_TRANSLATE_NOOP("AuditTableModel", "reopened"),
    AuditAction.RECLASSIFIED.value: QT_TRANSLATE_NOOP("AuditTableModel", "reclassified"),
    AuditAction.NOTE.value: QT_TRANSLATE_NOOP("AuditTableModel", "note"),
    AuditAction.PURGED.value: QT_TRANSLATE_NOOP("AuditTableModel", "purged"),
    AuditAction.GROUP.value: QT_TRANSLATE_NOOP("AuditTableModel", "group"),
    AuditAction.REPROCESSED.value: QT_TRANSLATE_NOOP("AuditTableModel", "reprocessed"),
    AuditAction.UNDELIVERED.value: QT_TRANSLATE_NOOP("AuditTableModel", "undelivered"),
    AuditAction.IMPORTED.value: QT_TRANSLATE_NOOP("AuditTableModel", "imported"),
    AuditAction.REVEALED.value: QT_TRANSLATE_NOOP("AuditTableModel", "revealed"),
    AuditAction.ROLE_GRANTED.value: QT_TRANSLATE_NOOP("AuditTableModel", "role_granted"),
    AuditAction.ROLE_REVOKED.value: QT_TRANSLATE_NOOP("AuditTableModel", "role_revoked"),
}


def action_label(action: str) -> str:
    """An audit action as a person reads it (an unknown one as stored)."""
    label = ACTION_LABELS.get(action)
    return translate("AuditTableModel", label) if label is not None else action


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class AuditTableModel(QAbstractTableModel):
    moreWanted = Signal(int)  # the offset of the page the view scrolled to

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.records: list[AuditRecord] = []
        self.more = 0  # events that match after the rows held
        self._waiting = False  # a next page was asked for and has not come

    # -- what the tab sets ----------------------------------------------------------------
    def show_page(self, page: AuditPage) -> None:
        """A first page: the table starts again."""
        self.beginResetModel()
        self.records = list(page.records)
        self.more = page.more
        self._waiting = False
        self.endResetModel()

    def append_page(self, page: AuditPage) -> None:
        """A next page; ignored unless it starts where the table ends (a page asked for
        before the filter changed)."""
        self._waiting = False
        if page.offset != len(self.records):
            return
        if page.records:
            first = len(self.records)
            self.beginInsertRows(QModelIndex(), first, first + len(page.records) - 1)
            self.records.extend(page.records)
            self.endInsertRows()
        self.more = page.more

    def page_failed(self) -> None:
        """The next page could not be read: scrolling asks again."""
        self._waiting = False

    def clear(self) -> None:
        self.show_page(AuditPage((), 0, 0))

    def record(self, row: int) -> AuditRecord | None:
        return self.records[row] if 0 <= row < len(self.records) else None

    def matching(self) -> int:
        """Events that match the filter: those held and those still to load."""
        return len(self.records) + self.more

    # -- Qt's model API -------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.records)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return translate("AuditTableModel", HEADERS[section])
            if role == Qt.ItemDataRole.ToolTipRole and section == COL_VERSION:
                return translate("AuditTableModel", "the dead letter's version after the change")
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        e = self.record(index.row())
        if e is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell(e, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_DETAIL:
                return e.detail or None
            if col == COL_DEAD_LETTER:
                if e.dead_letter_id is None:
                    return translate("AuditTableModel", "about the store, not one dead letter")
                return translate("AuditTableModel", "double-click: show it in the Quarantine tab")
            if col == COL_ACTOR:
                return e.actor
            return None
        if role == Qt.ItemDataRole.UserRole:
            return e.dead_letter_id
        if role == Qt.ItemDataRole.TextAlignmentRole and col in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_ACTION:
            colour = ACTION_COLOURS.get(e.action)
            return QColor(colour) if colour else None
        return None

    @staticmethod
    def _cell(e: AuditRecord, col: int) -> str:
        if col == COL_AT:
            return shown_time(e.at, seconds=True)
        if col == COL_ACTOR:
            return e.actor
        if col == COL_ACTION:
            return action_label(e.action)
        if col == COL_DEAD_LETTER:
            return "" if e.dead_letter_id is None else f"#{e.dead_letter_id}"
        if col == COL_VERSION:
            return "" if e.version is None else str(e.version)
        return _one_line(e.detail, DETAIL_CHARS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self.more > 0 and not self._waiting

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            self._waiting = True
            self.moreWanted.emit(len(self.records))
