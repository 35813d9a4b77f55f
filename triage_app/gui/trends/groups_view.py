"""Error groups: dead letters sharing a signature, as a table and a bar chart. Choosing a
group filters the quarantine table to it and selects its rows, so one fix and one re-drive
deal with all of them."""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.clock import utcnow, waited
from triage_app.core.deadletters import ErrorGroup, sort_groups
from triage_app.core.locale_format import format_date, format_datetime, format_int
from triage_app.core.trends import Trends
from triage_app.core.vocabulary import NOBODY, GroupSort
from triage_app.gui import pickers, style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import CLASSES, class_label
from triage_app.gui.pickers import OWNER_CHOICES, TAG_CHOICES
from triage_app.gui.style import class_colour
from triage_app.gui.trends.link import Link

Index = QModelIndex | QPersistentModelIndex

# What a lead reads first comes first: how much waits and for how long, whose it is, is it
# still growing and since which release; the history's totals after, for sideways scrolling.
(
    COL_SIGNATURE,
    COL_CLASS,
    COL_OPEN,
    COL_WAITED,
    COL_OWNER,
    COL_TAGS,
    COL_NOTE,
    COL_TREND,
    COL_FIRST,
    COL_COUNT,
    COL_RESOLVED,
    COL_LAST,
) = range(12)
HEADERS = (
    QT_TRANSLATE_NOOP("GroupsModel", "signature"),
    QT_TRANSLATE_NOOP("GroupsModel", "class"),
    QT_TRANSLATE_NOOP("GroupsModel", "open"),
    QT_TRANSLATE_NOOP("GroupsModel", "oldest open"),
    QT_TRANSLATE_NOOP("GroupsModel", "owner"),
    QT_TRANSLATE_NOOP("GroupsModel", "tags"),
    QT_TRANSLATE_NOOP("GroupsModel", "note"),
    QT_TRANSLATE_NOOP("GroupsModel", "24 h"),
    QT_TRANSLATE_NOOP("GroupsModel", "first seen (release)"),
    QT_TRANSLATE_NOOP("GroupsModel", "count"),
    QT_TRANSLATE_NOOP("GroupsModel", "resolved"),
    QT_TRANSLATE_NOOP("GroupsModel", "last seen"),
)
# What the owner column says of a group nobody owns.
UNOWNED = QT_TRANSLATE_NOOP("GroupsModel", "unowned")
# What a steward can change of a group from its menu (the team backlog, issue 13).
EDITS = (
    ("owner", QT_TRANSLATE_NOOP("GroupsView", "Assign owner…")),
    ("tags", QT_TRANSLATE_NOOP("GroupsView", "Tags…")),
    ("note", QT_TRANSLATE_NOOP("GroupsView", "Note…")),
)
_NUMERIC = (COL_COUNT, COL_OPEN, COL_RESOLVED, COL_WAITED, COL_TREND)


def group_link(g: ErrorGroup) -> Link:
    return Link(
        fill(translate("groups_view", "group %1"), g.signature[:48]),
        (("signature", g.signature), ("error_class", g.error_class)),
        select_all=True,
    )


def owner_link(owner: str) -> Link:
    """The rows of every group ``owner`` works on (the team backlog)."""
    return Link(fill(translate("groups_view", "owner %1"), owner), (("owner", owner),))


def tag_link(tag: str) -> Link:
    return Link(fill(translate("groups_view", "tag %1"), tag), (("tag", tag),))


# What each column sorts by (deadletters.sort_groups: groups without a value last).
# Ascending by the oldest open row is the longest wait first.
_SORTS: dict[int, GroupSort] = {
    COL_SIGNATURE: GroupSort.SIGNATURE,
    COL_CLASS: GroupSort.CLASS,
    COL_COUNT: GroupSort.COUNT,
    COL_OPEN: GroupSort.OPEN,
    COL_RESOLVED: GroupSort.RESOLVED,
    COL_FIRST: GroupSort.FIRST_SEEN,
    COL_LAST: GroupSort.LAST_SEEN,
    COL_WAITED: GroupSort.OLDEST,
    COL_OWNER: GroupSort.OWNER,
    COL_TAGS: GroupSort.TAGS,
    COL_NOTE: GroupSort.NOTE,
    COL_TREND: GroupSort.GROWTH,
}


class GroupsModel(QAbstractTableModel):
    """Every error group; ``groups`` are those the filter row lets through, sorted."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.all_groups: tuple[ErrorGroup, ...] = ()
        self.groups: tuple[ErrorGroup, ...] = ()
        self.now = utcnow()  # the oldest open rows' waits are counted to this
        self._wanted: tuple[str | None, str | None, str] = (None, None, "")

    def set_groups(self, groups: tuple[ErrorGroup, ...]) -> None:
        self.beginResetModel()
        self.now = utcnow()
        self.all_groups = groups
        self.groups = self._sorted(self._chosen())
        self.endResetModel()

    def narrow(self, owner: str | None, tag: str | None, text: str) -> None:
        """Only the groups of ``owner`` (``NOBODY``: nobody's), tagged ``tag``, with
        ``text`` in their signature, class, owner, tags or note."""
        self._wanted = (owner, tag, text)
        self.set_groups(self.all_groups)

    def _chosen(self) -> tuple[ErrorGroup, ...]:
        owner, tag, text = self._wanted
        return tuple(g for g in self.all_groups if g.matches(owner, tag, text))

    _order: tuple[int, Qt.SortOrder] | None = None  # the column the steward sorted by

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column (a header click); kept across refreshes. Empty values last."""
        if column not in _SORTS:
            return
        self._order = (column, order)
        self.layoutAboutToBeChanged.emit()
        self.groups = self._sorted(self.groups)
        self.layoutChanged.emit()

    def _sorted(self, groups: tuple[ErrorGroup, ...]) -> tuple[ErrorGroup, ...]:
        if self._order is None:
            return groups  # as counted: largest first
        column, order = self._order
        return sort_groups(groups, _SORTS[column], order == Qt.SortOrder.DescendingOrder)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.groups)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return translate("GroupsModel", HEADERS[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.groups):
            return None
        g = self.groups[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                g.signature,
                class_label(g.error_class),
                format_int(g.open),
                _waited(g, self.now),
                g.owner or translate("GroupsModel", UNOWNED),
                ", ".join(g.tags),
                g.note.replace("\n", " "),
                _trend(g),
                _release(g),
                format_int(g.count),
                format_int(g.resolved),
                _when(g.last_seen),
            )[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(g, col)
        if role == Qt.ItemDataRole.ForegroundRole:
            if col == COL_CLASS:
                return QColor(class_colour(g.error_class))
            if col == COL_OWNER and g.owner is None:
                return QColor(style.MUTED)
            if col == COL_TREND and g.trend == "growing":
                return QColor(style.ALERT)
        if role == Qt.ItemDataRole.FontRole and col == COL_OWNER and g.owner is None:
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and col in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _when(t: Any) -> str:
    return "" if t is None else format_datetime(t)


def _trend(g: ErrorGroup) -> str:
    """``▲ +12``: new rows in the last 24 h, with the way they go."""
    if g.trend == "quiet":
        return ""
    return f"{g.trend_mark} +{format_int(g.last_24h)}"


def _release(g: ErrorGroup) -> str:
    """``9 Mar 2026 · pesanan@2 · 0123abcd``: since when, through which release, in which
    batch (its source file is in the tooltip)."""
    if g.first_seen is None:
        return ""
    parts = [format_date(g.first_seen.date())]
    if g.first_transform:
        parts.append(g.first_transform)
    if g.first_batch:
        parts.append(g.first_batch[:8])
    return " · ".join(parts)


def _waited(g: ErrorGroup, now: dt.datetime) -> str:
    age = g.age(now)
    return "" if age is None else waited(age)


def _tooltip(g: ErrorGroup, col: int) -> str | None:
    if col == COL_SIGNATURE:
        return g.signature
    if col == COL_WAITED:
        if g.oldest_open is None:
            return translate("groups_view", "no open row")
        return fill(
            translate("groups_view", "its oldest open row first failed %1 (UTC)"),
            format_datetime(g.oldest_open),
        )
    if col == COL_NOTE and g.note:
        return g.note
    if col == COL_OWNER and g.owner:
        return fill(translate("groups_view", "Click: the rows of every group %1 owns"), g.owner)
    if col == COL_OWNER:
        return translate("groups_view", "Nobody owns this group. Right-click: assign an owner")
    if col == COL_TREND:
        return g.trend_said()
    if col == COL_FIRST and g.first_seen is not None:
        return fill(translate("groups_view", "first failed %1 (UTC)"), g.first_said())
    if col == COL_TAGS and g.tags:
        return fill(translate("groups_view", "Click: the rows of every group tagged %1"), g.tags[0])
    return None


class GroupsView(QWidget):
    """The error groups' table under its filter row (owner, tag, text); a row chooses a
    group. Its bar chart (``GroupsChart``) is one of the tab's charts."""

    # Why this login may not change a group (its role on a team store), or None: set by the
    # window; the menu's edits are greyed out with it.
    not_allowed: str | None = None

    linked = Signal(object)  # Link
    editRequested = Signal(object, str)  # ErrorGroup, what (owner, tags, note)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("groupsView")
        self.model = GroupsModel(self)
        self.model.modelReset.connect(self._say_count)
        self.owner_combo = QComboBox(objectName="groupsOwner")
        self.owner_combo.setAccessibleName(translate("GroupsView", "Error groups of owner"))
        self.tag_combo = QComboBox(objectName="groupsTag")
        self.tag_combo.setAccessibleName(translate("GroupsView", "Error groups tagged"))
        for combo in (self.owner_combo, self.tag_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(self._narrow)
        pickers.refill(self.owner_combo, OWNER_CHOICES)
        pickers.refill(self.tag_combo, TAG_CHOICES)
        self.search = QLineEdit(objectName="groupsSearch")
        self.search.setPlaceholderText(translate("GroupsView", "signature, owner, tag or note"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(translate("GroupsView", "Search error groups"))
        self.search.textChanged.connect(self._narrow)
        self.count_label = QLabel(objectName="groupsCount")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 2)
        row.setSpacing(6)
        groups_title = translate("GroupsView", "Error groups")
        title = QLabel(f"<b>{groups_title}</b>", objectName="title_groups_table")
        row.addWidget(title)
        row.addSpacing(10)
        for label, widget in (
            (translate("GroupsView", "Owner"), self.owner_combo),
            (translate("GroupsView", "Tag"), self.tag_combo),
        ):
            shown = QLabel(label)
            shown.setBuddy(widget)
            row.addWidget(shown)
            row.addWidget(widget)
            row.addSpacing(8)
        row.addWidget(self.search, 1)
        row.addWidget(self.count_label)
        self.table = QTableView(objectName="groupsTable")
        self.table.setAccessibleName(groups_title)
        self.table.setTabKeyNavigation(False)  # Tab moves on; the arrows move in the groups
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        hh = self.table.horizontalHeader()
        # The signature keeps a readable width (scrolling sideways when the panel is
        # narrow); the last column takes what is left.
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        # Up to the release column, they fit a 1280-pixel window.
        widths = {
            COL_SIGNATURE: 280,
            COL_CLASS: 70,
            COL_OPEN: 56,
            COL_WAITED: 84,
            COL_OWNER: 90,
            COL_TAGS: 120,
            COL_NOTE: 150,
            COL_TREND: 64,
            COL_FIRST: 230,
            COL_COUNT: 64,
            COL_RESOLVED: 70,
            COL_LAST: 118,
        }
        # Never narrower than its header, nor the class column than its labels, whichever
        # language they are in ("cacat data" is twice "data").
        metrics = hh.fontMetrics()
        widths[COL_CLASS] = max(
            widths[COL_CLASS],
            *(self.fontMetrics().horizontalAdvance(class_label(c)) + 16 for c in CLASSES),
        )
        for col, width in widths.items():
            header = str(self.table.model().headerData(col, Qt.Orientation.Horizontal) or "")
            self.table.setColumnWidth(col, max(width, metrics.horizontalAdvance(header) + 20))
        self.table.setToolTip(
            translate(
                "GroupsView",
                "Click a group: the quarantine table shows it, its rows selected; its owner or "
                "tags: every group so owned or tagged. Right-click: assign an owner, tags, a note",
            )
        )
        self.table.clicked.connect(self._on_clicked)
        # No column yet (the largest group first, as counted); a header click sorts.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(False)  # until a header is clicked
        self.table.horizontalHeader().sectionClicked.connect(
            lambda _c: self.table.horizontalHeader().setSortIndicatorShown(True)
        )
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._menu)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addLayout(row)
        column.addWidget(self.table, 1)

    def wanted_height(self) -> int:
        """Room for the filter row, the header, every group shown and the scroll bar."""
        rows = self.table.verticalHeader().defaultSectionSize() * max(len(self.model.groups), 4)
        chrome = (
            self.table.horizontalHeader().sizeHint().height()
            + self.table.horizontalScrollBar().sizeHint().height()
            + 2 * self.table.frameWidth()
        )
        return self.search.sizeHint().height() + 2 + chrome + rows

    def show_unowned(self) -> None:
        """Only the groups nobody owns (the headline's count, clicked)."""
        self.owner_combo.setCurrentIndex(max(self.owner_combo.findData(NOBODY), 0))

    def show_trends(self, t: Trends) -> None:
        owners = sorted({g.owner for g in t.groups if g.owner}, key=str.casefold)
        tags = sorted({tag for g in t.groups for tag in g.tags}, key=str.casefold)
        pickers.refill(self.owner_combo, [*OWNER_CHOICES, *((n, n) for n in owners)])
        pickers.refill(self.tag_combo, [*TAG_CHOICES, *((t, t) for t in tags)])
        self.model.set_groups(t.groups)

    @Slot()
    def _narrow(self) -> None:
        self.model.narrow(
            self.owner_combo.currentData(), self.tag_combo.currentData(), self.search.text()
        )

    @Slot()
    def _say_count(self) -> None:
        shown, every = len(self.model.groups), len(self.model.all_groups)
        self.count_label.setText(
            translate("GroupsView", "%Ln group(s)", "", every)
            if shown == every
            else fill(translate("GroupsView", "%1 of %Ln group(s)", "", every), shown)
        )

    def choose(self, row: int) -> Link | None:
        if not 0 <= row < len(self.model.groups):
            return None
        link = group_link(self.model.groups[row])
        self.linked.emit(link)
        return link

    def _on_clicked(self, index: QModelIndex) -> None:
        """A group's row chooses the group; its owner or its tags choose every group so
        owned or tagged (the first tag, when there are several)."""
        row, col = index.row(), index.column()
        if 0 <= row < len(self.model.groups):
            g = self.model.groups[row]
            if col == COL_OWNER and g.owner:
                self.linked.emit(owner_link(g.owner))
                return
            if col == COL_TAGS and g.tags:
                self.linked.emit(tag_link(g.tags[0]))
                return
        self.choose(row)

    def _menu(self, pos: Any) -> None:
        row = self.table.indexAt(pos).row()
        if not 0 <= row < len(self.model.groups):
            return
        group = self.model.groups[row]
        menu = QMenu(self)
        for what, text in EDITS:
            action = menu.addAction(translate("GroupsView", text))
            action.triggered.connect(lambda _=False, w=what: self.editRequested.emit(group, w))
            if self.not_allowed is not None:  # this login's role may not change groups
                action.setEnabled(False)
                action.setToolTip(self.not_allowed)
                action.setStatusTip(self.not_allowed)
        menu.setToolTipsVisible(True)
        menu.popup(self.table.viewport().mapToGlobal(pos))
