"""The Audit tab: every audited change in the store, newest first, with the filters of
``triage-app audit`` (since a day, an actor, an action, one dead letter).

The trail is read on the tab's own query thread, a page at a time, so that neither a long
trail nor a slow team database holds up the window. A double-click on an event shows its
dead letter in the Quarantine tab (``deadLetterChosen``) when the store still has it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QDate, QModelIndex, QTimer, Signal, Slot
from PySide6.QtGui import QRegularExpressionValidator, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.clock import today
from triage_app.core.db import Workspace, WorkspaceConfig
from triage_app.core.deadletters import (
    ACTIONS,
    AuditFilter,
    AuditPage,
    DeadLetterFilter,
    audit_page,
    count_dead_letters,
)
from triage_app.core.vocabulary import ALL
from triage_app.gui import style
from triage_app.gui.audit.model import (
    COL_ACTION,
    COL_ACTOR,
    COL_AT,
    COL_DEAD_LETTER,
    COL_DETAIL,
    COL_VERSION,
    AuditTableModel,
    action_label,
)
from triage_app.gui.i18n import fill, translate
from triage_app.gui.workers import QueryThread

PAGE = 200
TYPING_DEBOUNCE_MS = 300
DEFAULT_SINCE_DAYS = 7  # what the date shows before anyone picks one


def _page_call(f: AuditFilter, offset: int) -> Callable[[Workspace], AuditPage]:
    def run(ws: Workspace) -> AuditPage:
        return audit_page(ws, f, limit=PAGE, offset=offset)

    return run


def _exists_call(dl_id: int) -> Callable[[Workspace], bool]:
    def run(ws: Workspace) -> bool:
        return count_dead_letters(ws, DeadLetterFilter(status=ALL, ids=(dl_id,))) > 0

    return run


class AuditTab(QWidget):
    deadLetterChosen = Signal(int)  # a double-clicked event's dead letter, still stored
    message = Signal(str)
    updated = Signal()  # the table shows a fresh first page

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("auditTab")
        self.queries: QueryThread | None = None
        self.model = AuditTableModel(self)
        self.model.moreWanted.connect(self._load_more)
        self._stale = False  # refreshed while off screen: read again when shown
        self._generation = 0  # bumped by every first page asked for
        self._build()

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(8, 6, 8, 2)
        self.since_check = QCheckBox(translate("AuditTab", "Since"), objectName="auditSinceOn")
        self.since_check.setToolTip(translate("AuditTab", "Only events from this UTC day on"))
        self.since_date = QDateEdit(objectName="auditSince", calendarPopup=True)
        self.since_date.setDisplayFormat("d MMM yyyy")  # 30 Nov 2026, in its language
        start = today() - dt.timedelta(days=DEFAULT_SINCE_DAYS)
        self.since_date.setDate(QDate(start.year, start.month, start.day))
        self.since_date.setEnabled(False)
        self.actor_edit = QLineEdit(objectName="auditActor")
        self.actor_edit.setPlaceholderText(translate("AuditTab", "who: any part of the name"))
        self.actor_edit.setClearButtonEnabled(True)
        self.action_combo = QComboBox(objectName="auditAction")
        self.action_combo.addItem(translate("AuditTab", "any"), None)
        for action in ACTIONS:
            self.action_combo.addItem(action_label(action), action)
        self.id_edit = QLineEdit(objectName="auditDeadLetter")
        self.id_edit.setPlaceholderText(translate("AuditTab", "any"))
        self.id_edit.setClearButtonEnabled(True)
        self.id_edit.setValidator(QRegularExpressionValidator(r"#?\d{1,19}", self.id_edit))
        self.id_edit.setMaximumWidth(110)
        self.count_label = QLabel(objectName="auditCount")
        self.count_label.setStyleSheet(style.HINT)

        for widget, name in (
            (self.since_date, translate("AuditTab", "Audit events since")),
            (self.actor_edit, translate("AuditTab", "Audit actor filter")),
            (self.action_combo, translate("AuditTab", "Audit action filter")),
            (self.id_edit, translate("AuditTab", "Audit dead letter filter")),
        ):
            widget.setAccessibleName(name)
        bar.addWidget(self.since_check)
        bar.addWidget(self.since_date)
        bar.addSpacing(12)
        for label, widget, stretch in (
            (translate("AuditTab", "Who"), self.actor_edit, 1),
            (translate("AuditTab", "Action"), self.action_combo, 0),
            (translate("AuditTab", "Dead letter #"), self.id_edit, 0),
        ):
            bar.addWidget(QLabel(label))
            bar.addSpacing(4)
            bar.addWidget(widget, stretch)
            bar.addSpacing(12)
        bar.addStretch(1)
        bar.addWidget(self.count_label)
        self.actor_edit.setMinimumWidth(220)

        self.table = QTableView(objectName="auditTable")
        self.table.setAccessibleName(translate("AuditTab", "Audit trail"))
        self.table.setTabKeyNavigation(False)  # Tab moves on; the arrows move in the trail
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(COL_DETAIL, QHeaderView.ResizeMode.Stretch)
        for col, width in (
            (COL_AT, 150),
            (COL_ACTOR, 240),
            (COL_ACTION, 120),
            (COL_DEAD_LETTER, 90),
            (COL_VERSION, 64),
        ):
            self.table.setColumnWidth(col, width)
        self.table.setToolTip(
            translate("AuditTab", "Double-click an event: its dead letter in the Quarantine tab")
        )
        self.table.doubleClicked.connect(self._on_double_clicked)

        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(0)
        v.addLayout(bar)
        v.addWidget(self.table, 1)

        self._debounce = QTimer(self, singleShot=True, interval=TYPING_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.refresh)
        self.since_check.toggled.connect(self.since_date.setEnabled)
        self.since_check.toggled.connect(self.refresh)
        self.since_date.dateChanged.connect(self._on_date_changed)
        self.action_combo.currentIndexChanged.connect(self.refresh)
        self.actor_edit.textChanged.connect(self._debounce.start)
        self.id_edit.textChanged.connect(self._debounce.start)

    # -- the workspace --------------------------------------------------------------------
    def open_workspace(self, config: WorkspaceConfig | None) -> None:
        """Its own query thread: a long trail never delays the quarantine table."""
        self.close_workspace()
        if config is not None:
            self.queries = QueryThread(config, self)
            self.queries.thread.setObjectName("audit queries")
            self.refresh()

    def close_workspace(self) -> None:
        if self.queries is not None:
            self.queries.release()
            self.queries = None
        self._debounce.stop()
        self.model.clear()
        self.count_label.setText("")

    def current_filter(self) -> AuditFilter:
        since = None
        if self.since_check.isChecked():
            d = self.since_date.date()
            since = dt.datetime(d.year(), d.month(), d.day())
        digits = self.id_edit.text().strip().lstrip("#")
        return AuditFilter(
            since=since,
            actor=self.actor_edit.text().strip() or None,
            action=self.action_combo.currentData(),
            dead_letter_id=int(digits) if digits else None,
        )

    def set_filter(self, f: AuditFilter) -> None:
        """Show ``f`` in the pickers (and read it): for a caller that knows what it wants,
        such as a test or a link from elsewhere."""
        widgets = (self.since_check, self.since_date, self.actor_edit, self.action_combo)
        for w in (*widgets, self.id_edit):
            w.blockSignals(True)
        try:
            self.since_check.setChecked(f.since is not None)
            self.since_date.setEnabled(f.since is not None)
            if f.since is not None:
                self.since_date.setDate(QDate(f.since.year, f.since.month, f.since.day))
            self.actor_edit.setText(f.actor or "")
            self.action_combo.setCurrentIndex(max(self.action_combo.findData(f.action), 0))
            self.id_edit.setText("" if f.dead_letter_id is None else str(f.dead_letter_id))
        finally:
            for w in (*widgets, self.id_edit):
                w.blockSignals(False)
        self.refresh()

    # -- reading --------------------------------------------------------------------------
    @Slot()
    def refresh(self) -> None:
        """Read the first page again (the filter changed, or the store did). Off screen
        nothing is read until the tab is shown."""
        self._debounce.stop()
        if self.queries is None:
            return
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self._generation += 1
        self.count_label.setText(translate("AuditTab", "reading…"))
        self.queries.submit(
            _page_call(self.current_filter(), 0),
            partial(self._on_first_page, self._generation),
            self._failed,
            key="audit",
        )

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def busy(self) -> bool:
        return self.queries is not None and self.queries.busy()

    def _on_first_page(self, generation: int, page: AuditPage) -> None:
        if generation != self._generation:
            return
        self.model.show_page(page)
        self._show_count()
        self.updated.emit()

    @Slot(int)
    def _load_more(self, offset: int) -> None:
        if self.queries is None:
            self.model.page_failed()
            return
        self.queries.submit(
            _page_call(self.current_filter(), offset),
            partial(self._on_next_page, self._generation),
            self._next_failed,
            key="audit-more",
        )

    def _on_next_page(self, generation: int, page: AuditPage) -> None:
        if generation != self._generation:
            self.model.page_failed()  # asked under an older filter: free to ask again
            return
        self.model.append_page(page)
        self._show_count()

    def _show_count(self) -> None:
        n = self.model.matching()
        shown = len(self.model.records)
        if not n:
            text = translate("AuditTab", "no events match")
        elif shown < n:
            text = fill(
                translate("AuditTab", "%Ln event(s) · %1 shown, scroll for more", "", n), shown
            )
        else:
            text = translate("AuditTab", "%Ln event(s)", "", n)
        self.count_label.setText(text)

    def _failed(self, message: str) -> None:
        self.count_label.setText("")
        self.message.emit(fill(translate("AuditTab", "audit: %1"), message))

    def _next_failed(self, message: str) -> None:
        self.model.page_failed()
        self._failed(message)

    @Slot(QDate)
    def _on_date_changed(self, _date: QDate) -> None:
        if self.since_check.isChecked():
            self.refresh()

    # -- to the Quarantine tab ------------------------------------------------------------
    @Slot(QModelIndex)
    def _on_double_clicked(self, index: QModelIndex) -> None:
        self.choose(index.row())

    def choose(self, row: int) -> None:
        """Show the dead letter of the event in ``row``, if the store still has it."""
        e = self.model.record(row)
        if e is None or self.queries is None:
            return
        dl_id = e.dead_letter_id
        if dl_id is None:
            self.message.emit(
                fill(
                    translate("AuditTab", "%1: an event about the store, not one dead letter"),
                    action_label(e.action),
                )
            )
            return
        self.queries.submit(
            _exists_call(dl_id), partial(self._on_exists, dl_id), self._failed, key="audit-show"
        )

    def _on_exists(self, dl_id: int, exists: bool) -> None:
        if exists:
            self.deadLetterChosen.emit(dl_id)
        else:
            self.message.emit(
                fill(
                    translate("AuditTab", "dead letter #%1 is no longer in the store (purged)"),
                    str(dl_id),
                )
            )
