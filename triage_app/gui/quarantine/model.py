"""The quarantine table: a window over the dead-letter store, never all of it.

Rows come in pages of ``PAGE`` from SQL, sorted and filtered there on indexed columns; a
few dozen pages stay cached. The next page is fetched after the last row of the one
before it (keyset), pages past the middle from the end, so scrolling and jumping to the
last row cost the same at any depth. The row count comes from SQL too: it is asked of
the query thread (a count over a million rows takes long enough to feel), and until it
arrives the table grows page by page as it is scrolled.

The Source column says where each row came from (a connector's name, or ``file <name>``):
a batch's source never changes, so it is read once per batch, with the page that first
shows the batch (``connectors.batch_sources``), and kept for as long as the workspace.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
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

from triage_app.core.clock import readable
from triage_app.core.connectors import batch_sources
from triage_app.core.db import Workspace, user_message
from triage_app.core.deadletters import (
    DeadLetterFilter,
    DeadLetterRow,
    count_dead_letters,
    fetch_rows,
)
from triage_app.core.locale_format import format_datetime, format_int
from triage_app.gui.i18n import translate
from triage_app.gui.labels import class_label, status_label
from triage_app.gui.style import CLASS_COLOURS

PAGE = 200
MAX_CACHED_PAGES = 64

COL_ID, COL_BATCH, COL_LINE, COL_CLASS, COL_ERROR = range(5)
COL_ATTEMPTS, COL_STATUS, COL_LAST_FAILED, COL_TRANSFORM, COL_SOURCE = range(5, 10)
# The headers as written in the source; ``headerData`` shows them translated.
HEADERS = (
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "id"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "batch"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "line"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "class"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "error"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "attempts"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "status"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "last failed"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "transform"),
    QT_TRANSLATE_NOOP("DeadLetterTableModel", "source"),
)
# The store's sort key of each column; None: not sortable (the source is the batch's).
SORT_KEYS: tuple[str | None, ...] = (
    "id",
    "batch_id",
    "line",
    "error_class",
    "signature",
    "attempts",
    "status",
    "last_failed_at",
    "transform",
    None,
)
_NUMERIC = (COL_ID, COL_LINE, COL_ATTEMPTS)

# Each batch's source in words, by batch id.
Sources = dict[str, str]

# A counter takes (filter, generation) and, later, calls model.set_total(generation, n).
Counter = Callable[[DeadLetterFilter, int], None]
# A reader runs fn(ws) off the GUI thread and, later, calls back with its result in it.
# Reads ``fn`` off the GUI thread: its result to the second callable, or a one-line
# failure to the third.
Reader = Callable[[Callable[[Workspace], Any], Callable[[Any], None], Callable[[str], None]], None]
Index = QModelIndex | QPersistentModelIndex


def shown_time(iso_text: str, *, seconds: bool = False) -> str:
    """A time stored as core's ``iso`` text (UTC), the language's way: ``1 Mar 2026 10:00``
    (``10.00`` in Indonesian); a text that is not one, as it is."""
    try:
        moment = dt.datetime.fromisoformat(iso_text.removesuffix("Z"))
    except ValueError:
        return readable(iso_text)
    return format_datetime(moment, seconds=seconds)


def _cell(row: DeadLetterRow, col: int) -> Any:
    """What a cell shows: numbers and times the language's way, classes and statuses in
    its words. The stored values stay the model's (``row``, UserRole) and the sort's."""
    if col == COL_ID:
        return format_int(row.id)
    if col == COL_BATCH:
        return row.batch_id[:8]
    if col == COL_LINE:
        return format_int(row.line)
    if col == COL_CLASS:
        return class_label(row.error_class)
    if col == COL_ERROR:
        return row.signature
    if col == COL_ATTEMPTS:
        return format_int(row.attempts)
    if col == COL_STATUS:
        return status_label(row.status)
    if col == COL_LAST_FAILED:
        return format_datetime(row.last_failed_at)
    if col == COL_TRANSFORM:
        return row.transform
    return None  # the source: the model's, by batch


class DeadLetterTableModel(QAbstractTableModel):
    totalChanged = Signal()  # the row count became known, or changed
    loadFailed = Signal(str)  # a page could not be read: one line for the status bar

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._ws: Workspace | None = None
        self._counter: Counter | None = None
        self._filter = DeadLetterFilter()
        self._sort = "id"
        self._descending = False
        self._rows = 0
        self._total: int | None = None
        self._pages: OrderedDict[int, list[DeadLetterRow]] = OrderedDict()
        self._anchors: dict[int, DeadLetterRow] = {}  # page -> its last row, for keyset
        self._generation = 0
        self._reader: Reader | None = None
        self._searching = False
        self._sources: Sources = {}  # batch id -> its source in words, for the workspace

    # -- what the window sets -------------------------------------------------------------
    def set_workspace(
        self, ws: Workspace | None, counter: Counter | None = None, reader: Reader | None = None
    ) -> None:
        """Show ``ws``; without a ``counter`` the row count is taken here, synchronously.
        With a ``reader``, a refresh in place reads off the GUI thread."""
        self._ws = ws
        self._counter = counter
        self._reader = reader
        self._sources = {}
        self.refresh()

    def set_filter(self, f: DeadLetterFilter) -> None:
        if f != self._filter:
            self._filter = f
            self.refresh()

    @property
    def filter(self) -> DeadLetterFilter:
        return self._filter

    def total(self) -> int | None:
        """How many rows match, once known."""
        return self._total

    def source_of(self, batch_id: str) -> str | None:
        """The batch's source in words, once a page showing it was read."""
        return self._sources.get(batch_id)

    def row(self, r: int) -> DeadLetterRow | None:
        if not 0 <= r < self._rows:
            return None
        rows = self._page(r // PAGE)
        i = r % PAGE
        return rows[i] if i < len(rows) else None

    def refresh(self) -> None:
        """Drop every cached page and read again: after a change, or F5."""
        self.beginResetModel()
        self._generation += 1
        self._pages.clear()
        self._anchors.clear()
        self._total = None
        self._rows = 0
        self._searching = False
        if self._ws is not None and self._filter.search and self._reader is not None:
            # A search reads payloads until it has a page: over ten million rows, seconds
            # when little matches (4.5 s when nothing does). Read off the GUI thread; the
            # table is empty and says it is searching until the page comes.
            self._searching = True
            self.endResetModel()
            self.totalChanged.emit()
            read = _FirstPage(self._filter, self._sort, self._descending, self._known())
            self._reader(
                read,
                partial(self._first_page_done, self._generation),
                partial(self._read_failed, self._generation),
            )
            return
        if self._ws is not None:
            first = self._page(0)
            self._rows = len(first)
            if len(first) < PAGE:
                self._total = len(first)
            elif self._counter is not None:
                self._counter(self._filter, self._generation)
            else:
                self._total = self._rows = self._count()
        self.endResetModel()
        self.totalChanged.emit()

    def searching(self) -> bool:
        """A search's first page is being read (``refresh``)."""
        return self._searching

    def _first_page_done(
        self, generation: int, result: tuple[list[DeadLetterRow], Sources]
    ) -> None:
        """A search's first page, read off the GUI thread: shown unless the filter, the
        sort or the workspace changed since; then the count, as ``refresh`` asks for it."""
        if generation != self._generation or self._ws is None:
            return
        first, sources = result
        self._sources.update(sources)
        self._searching = False
        self._pages[0] = first
        if first:
            self._anchors[0] = first[-1]
        self._resize(len(first))
        self._count_after(first)
        if self._total is None:  # counted later: say meanwhile that the search is over
            self.totalChanged.emit()

    def refresh_in_place(self) -> None:
        """Read again after someone else's change, keeping what the view holds: the row
        count stays until the new count comes (then rows come or go at the end), the view
        keeps its scroll position, and every persistent index (the selection, the current
        row) follows its dead letter by id when rows moved under it. A dead letter no longer
        near where it was (gone from the filter, or far away) drops out of the selection.

        With a reader, the count and the pages are read on its thread and swapped in when
        they come, so that the window never waits on them: a re-drive resolving rows under
        a filter on a million dead letters makes such reads slow, and often."""
        if self._ws is None:
            return
        self._generation += 1
        if self._reader is not None:
            self._reread_async()
            return
        self._reread_following()
        self._count_after(self._page(0))

    def _count_after(self, first: list[DeadLetterRow]) -> None:
        """The count, once the first page is read: that page's length when it is short,
        else from the counter (later) or here."""
        if len(first) < PAGE:
            self.set_total(self._generation, len(first))
        elif self._counter is not None:
            self._counter(self._filter, self._generation)
        else:
            self.set_total(self._generation, self._count())

    def _pages_in_view(self) -> tuple[int, ...]:
        """The pages a refresh reads again: the first, the few used last (what the view
        shows), and those around each persistent index (the selection, the current row)."""
        wanted = {0, *list(self._pages)[-4:]}
        for index in self.persistentIndexList():
            p = index.row() // PAGE
            wanted.update(q for q in (p - 1, p, p + 1) if q >= 0)
        return tuple(sorted(wanted))

    def _reread_async(self) -> None:
        assert self._reader is not None
        read = _Reread(
            self._filter, self._sort, self._descending, self._pages_in_view(), self._known()
        )
        self._reader(
            read,
            partial(self._reread_done, self._generation),
            partial(self._read_failed, self._generation),
        )

    def _read_failed(self, generation: int, message: str) -> None:
        """A read off the GUI thread failed: said in the status bar; a search no longer
        says it is searching (the rows it had stay, as after any failed read)."""
        if generation != self._generation or self._ws is None:
            return
        self._searching = False
        self.loadFailed.emit(message)
        self.totalChanged.emit()

    def _reread_done(
        self, generation: int, result: tuple[int, dict[int, list[DeadLetterRow]], Sources]
    ) -> None:
        """The pages and the count of an in-place read: swapped in at once, unless the
        filter, the sort or the workspace changed since it was asked for."""
        if generation != self._generation or self._ws is None:
            return
        total, pages, sources = result
        self._sources.update(sources)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        old_ids = [self._cached_id(i.row()) for i in persistent]
        self._pages = OrderedDict(sorted(pages.items()))
        self._anchors = {p: rows[-1] for p, rows in pages.items() if rows}
        self._total = total  # the pages were read with this count
        moved = [
            self._follow(index, dl_id, read=False)
            for index, dl_id in zip(persistent, old_ids, strict=True)
        ]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()
        self._resize(total)
        self.totalChanged.emit()

    def _reread_following(self) -> None:
        """Drop the cached pages; each persistent index moves to where its dead letter is
        in the pages read again."""
        # Views and selection models make their persistent indexes on this signal: after it.
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        old_ids = [self._cached_id(i.row()) for i in persistent]
        self._pages.clear()
        self._anchors.clear()
        moved = [
            self._follow(index, dl_id) for index, dl_id in zip(persistent, old_ids, strict=True)
        ]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    def _cached_id(self, r: int) -> int | None:
        """The id shown at row ``r``, from the cache only (None when not cached)."""
        rows = self._pages.get(r // PAGE)
        i = r % PAGE
        return rows[i].id if rows is not None and i < len(rows) else None

    def _follow(self, index: QModelIndex, dl_id: int | None, read: bool = True) -> QModelIndex:
        """Where ``index`` (showing ``dl_id`` before) is now: the same row when it still
        shows that dead letter, its new row when it moved by less than a page, else none.
        ``read=False``: only the cached pages are looked at (they were read off the GUI
        thread)."""
        r = index.row()
        if dl_id is None:  # never read (a corner of a large selection): stays where it is
            return index if r < self._rows else QModelIndex()
        p = r // PAGE
        for q in (p, p - 1, p + 1):
            if q < 0:
                continue
            rows = self._page(q) if read else self._pages.get(q, [])
            for i, row in enumerate(rows):
                if row.id == dl_id and q * PAGE + i < self._rows:
                    return self.index(q * PAGE + i, index.column())
        return QModelIndex()

    def set_total(self, generation: int, n: int) -> None:
        """The count asked for by ``refresh``; ignored when the filter has changed since."""
        if generation != self._generation:
            return
        # After an in-place refresh the pages were read with the old count; pages read from
        # the end are off by the difference, so they are read again (and the selection
        # follows its dead letters once more).
        stale = self._total is not None and n != self._total and bool(self._pages)
        self._total = n
        self._resize(n)
        if stale:
            self._reread_following()
        self.totalChanged.emit()

    def _resize(self, n: int) -> None:
        """Rows come or go at the end, to ``n``."""
        if n > self._rows:
            self.beginInsertRows(QModelIndex(), self._rows, n - 1)
            self._rows = n
            self.endInsertRows()
        elif n < self._rows:
            self.beginRemoveRows(QModelIndex(), n, self._rows - 1)
            self._rows = n
            self.endRemoveRows()

    # -- Qt's model API -------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return translate("DeadLetterTableModel", HEADERS[section])
            if role == Qt.ItemDataRole.ToolTipRole and section == COL_ERROR:
                return translate(
                    "DeadLetterTableModel",
                    "the error's signature: the message with its values masked",
                )
            if role == Qt.ItemDataRole.ToolTipRole and section == COL_SOURCE:
                return translate(
                    "DeadLetterTableModel",
                    "where the row came from: a connector (a queue or table), or a file",
                )
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.row(index.row())
        if row is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_SOURCE:
                return self._sources.get(row.batch_id, "")
            return _cell(row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_ERROR:
                return row.error
            if col == COL_BATCH:
                return row.batch_id
            if col == COL_SOURCE:
                return self._sources.get(row.batch_id)
            return None
        if role == Qt.ItemDataRole.UserRole:
            return row.id
        if role == Qt.ItemDataRole.TextAlignmentRole and col in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_CLASS:
            colour = CLASS_COLOURS.get(row.error_class)
            return QColor(colour) if colour else None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(SORT_KEYS):
            return
        key = SORT_KEYS[column]
        if key is None:
            return
        descending = order == Qt.SortOrder.DescendingOrder
        if (key, descending) != (self._sort, self._descending):
            self._sort, self._descending = key, descending
            self.refresh()

    def sorted_by(self) -> tuple[int, Qt.SortOrder]:
        """The column the rows are sorted by, and how."""
        order = Qt.SortOrder.DescendingOrder if self._descending else Qt.SortOrder.AscendingOrder
        return SORT_KEYS.index(self._sort), order

    def canFetchMore(self, parent: Index) -> bool:
        # Only while the count is unknown and the last page read was full.
        return (
            not parent.isValid()
            and self._total is None
            and self._rows > 0
            and self._rows % PAGE == 0
        )

    def fetchMore(self, parent: Index) -> None:
        if not self.canFetchMore(parent):
            return
        page = self._page(self._rows // PAGE)
        if not page:
            self._total = self._rows
            self.totalChanged.emit()
            return
        self.beginInsertRows(QModelIndex(), self._rows, self._rows + len(page) - 1)
        self._rows += len(page)
        self.endInsertRows()

    # -- paging ---------------------------------------------------------------------------
    def _count(self) -> int:
        assert self._ws is not None
        try:
            return count_dead_letters(self._ws, self._filter)
        except Exception as exc:
            self.loadFailed.emit(user_message(exc))
            return 0

    def _page(self, p: int) -> list[DeadLetterRow]:
        rows = self._pages.get(p)
        if rows is not None:
            self._pages.move_to_end(p)
            return rows
        try:
            rows = self._fetch(p)
        except Exception as exc:  # a lost connection must not take the window down
            self.loadFailed.emit(user_message(exc))
            return []
        self._pages[p] = rows
        if rows:
            self._anchors[p] = rows[-1]
            self._learn_sources(rows)
        while len(self._pages) > MAX_CACHED_PAGES:
            self._pages.popitem(last=False)
        return rows

    def _known(self) -> frozenset[str]:
        return frozenset(self._sources)

    def _learn_sources(self, rows: list[DeadLetterRow]) -> None:
        """The sources of the batches ``rows`` show first: one small read when a page
        shows a batch not seen before (a handful per store), none otherwise."""
        assert self._ws is not None
        try:
            self._sources.update(_sources_of(self._ws, rows, self._known()))
        except Exception as exc:  # the rows still show; the column waits for the next page
            self.loadFailed.emit(user_message(exc))

    def _fetch(self, p: int) -> list[DeadLetterRow]:
        assert self._ws is not None
        return _fetch_page(
            self._ws, self._filter, self._sort, self._descending, p, self._anchors, self._total
        )


def _fetch_page(
    ws: Workspace,
    f: DeadLetterFilter,
    sort: str,
    descending: bool,
    p: int,
    anchors: dict[int, DeadLetterRow],
    total: int | None,
) -> list[DeadLetterRow]:
    """Page ``p`` by the cheapest route: after a known row, from the end, or by offset."""
    offset = p * PAGE
    before = [q for q in anchors if q < p]
    nearest = max(before) if before else None
    skip_forward = offset if nearest is None else (p - 1 - nearest) * PAGE
    if total is not None:
        from_end = total - offset - PAGE
        if from_end < skip_forward:
            return fetch_rows(
                ws,
                f,
                sort=sort,
                descending=descending,
                limit=PAGE + min(0, from_end),
                offset=max(0, from_end),
                from_end=True,
            )
    after = None if nearest is None else anchors[nearest]
    return fetch_rows(
        ws,
        f,
        sort=sort,
        descending=descending,
        limit=PAGE,
        offset=skip_forward,
        after=after,
    )


def _sources_of(ws: Workspace, rows: list[DeadLetterRow], known: frozenset[str]) -> Sources:
    """The sources of the batches ``rows`` show that are not ``known`` yet (a batch not
    found, purged meanwhile, as "": not asked for again)."""
    new = {r.batch_id for r in rows} - known
    found = batch_sources(ws, new) if new else {}
    return {b: found.get(b, "") for b in new}


@dataclass(frozen=True)
class _FirstPage:
    """A search's first page, read on the query thread, and its new batches' sources."""

    f: DeadLetterFilter
    sort: str
    descending: bool
    known: frozenset[str] = frozenset()

    def __call__(self, ws: Workspace) -> tuple[list[DeadLetterRow], Sources]:
        rows = _fetch_page(ws, self.f, self.sort, self.descending, 0, {}, None)
        return rows, _sources_of(ws, rows, self.known)


@dataclass(frozen=True)
class _Reread:
    """An in-place read, done on the query thread: the count first, then the pages the view
    holds, each after the one before it where they follow on (keyset), with that count."""

    f: DeadLetterFilter
    sort: str
    descending: bool
    pages: tuple[int, ...]
    known: frozenset[str] = frozenset()

    def __call__(self, ws: Workspace) -> tuple[int, dict[int, list[DeadLetterRow]], Sources]:
        total = count_dead_letters(ws, self.f)
        anchors: dict[int, DeadLetterRow] = {}
        out: dict[int, list[DeadLetterRow]] = {}
        for p in self.pages:
            if p * PAGE >= total and p > 0:
                break
            rows = _fetch_page(ws, self.f, self.sort, self.descending, p, anchors, total)
            out[p] = rows
            if rows:
                anchors[p] = rows[-1]
        shown = [r for rows in out.values() for r in rows]
        return total, out, _sources_of(ws, shown, self.known)
