"""The window data stewards live in: filter → select → read the error → fix the payload →
try it → save → re-drive.

It assembles parts that own their pieces (the menu bar and its actions, the quarantine
table and detail pane, the row actions, the job status, the status bar's counts, the
remembered layout, the Trends tab) and wires them to the workspace; the logic lives in core.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.batch import BatchInfo, list_batches
from triage_app.core.connectors import Connector, list_connectors
from triage_app.core.db import (
    Act,
    Role,
    Workspace,
    WorkspaceConfig,
    login_of,
    open_config,
    role_of,
    why_not,
)
from triage_app.core.deadletters import (
    DeadLetterFilter,
    count_dead_letters,
    refresh_after_upgrade,
    team_labels,
)
from triage_app.core.jobs import Job
from triage_app.core.places import default_workspace_dir, printable
from triage_app.core.transforms import default_registry
from triage_app.gui import style
from triage_app.gui.audit import AuditTab
from triage_app.gui.dialogs.scope import ScopeSource, TableScope
from triage_app.gui.elided_label import ElidedLabel
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.detail_pane import DetailPane
from triage_app.gui.quarantine.filter_bar import FilterBar
from triage_app.gui.quarantine.live_refresh import LiveRefresh
from triage_app.gui.quarantine.model import DeadLetterTableModel
from triage_app.gui.quarantine.pane import QuarantinePane
from triage_app.gui.quarantine.table import empty_text
from triage_app.gui.quarantine.unsaved_edit import Doing, UnsavedEditGuard
from triage_app.gui.settings import Settings, app_icon
from triage_app.gui.shortcuts import button_keys, with_keys
from triage_app.gui.trends import Link, SpikeBanner, TrendsTab
from triage_app.gui.window import help_pages
from triage_app.gui.window.job_menu import JobMenu
from triage_app.gui.window.job_status import JobStatus
from triage_app.gui.window.menu_bar import MenuBar
from triage_app.gui.window.remembered_layout import RememberedLayout
from triage_app.gui.window.retry_ladder import RetryLadder
from triage_app.gui.window.row_actions import MAX_SELECTED_IDS, RowActions
from triage_app.gui.window.status_bar import MessageBar, RowCounts, role_label
from triage_app.gui.window.welcome import WelcomePage
from triage_app.gui.window.workspace_menu import WorkspaceMenu
from triage_app.gui.workers import JobRunner, QueryThread


def _count(f: DeadLetterFilter) -> Callable[[Workspace], int]:
    def run(ws: Workspace) -> int:
        return count_dead_letters(ws, f)

    return run


def _batches(ws: Workspace) -> list[BatchInfo]:
    return list_batches(ws, limit=200)


class MainWindow(QMainWindow):
    connectorsChanged = Signal(list)  # the store's connectors, read again

    def __init__(self, config: WorkspaceConfig | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowIcon(app_icon())
        self.setStyleSheet(style.FOCUS_RING)  # where the keyboard is, seen (and in dialogs)
        self.settings = Settings()
        self.ws: Workspace | None = None
        self.config: WorkspaceConfig | None = None
        self.queries: QueryThread | None = None
        self.batches: list[BatchInfo] = []
        self.team: tuple[list[str], list[str]] = ([], [])  # owners and tags in use
        self.connectors: list[Connector] = []  # the queues and tables imported from
        self._dialogs: list[QWidget] = []

        self.model = DeadLetterTableModel(self)
        self.filter_bar = FilterBar()
        self.detail = DetailPane()
        self.unsaved_edit = UnsavedEditGuard(self.detail, self)
        self.quarantine = QuarantinePane(self.model, self.detail, self.unsaved_edit)
        self.table = self.quarantine.table
        self.row_actions = RowActions(self.selected_ids, self, self.table.selected_versions)
        # What the dialogs that act on many rows follow while they are open.
        self.scope = ScopeSource(self._table_scope, self)
        self.live = LiveRefresh(self.quarantine, self)  # other stewards' changes, in view
        self.menu = MenuBar(self, self.row_actions.actions(), self.settings)
        # What QMainWindow.setMenuBar does once nothing is to be replaced. PySide6's binding
        # of it first asks for menuBar(), which makes a default bar that Qt then drops with
        # deleteLater(): a deferred delete left by every window built outside an event loop.
        self.layout().setMenuBar(self.menu)
        self._build_central()
        self.setStatusBar(MessageBar())  # long messages cut at a word, whole in its tooltip
        self.jobs = JobStatus(self.statusBar(), self)
        self.live.busy = lambda: bool(self.jobs.running())
        self.counts = RowCounts(self.statusBar())  # how many match, the last batch
        self.ladder = RetryLadder(self, self.statusBar())  # retry passes while open
        self._set_tab_order()
        self._connect()
        self.workspaces = WorkspaceMenu(self)  # the ways in: File menu and welcome page
        self.work = JobMenu(self)  # the long work: job dialogs, group edits, exports
        self.filter_bar.set_transforms([t.ref for t in default_registry().all()])
        self.remembered = RememberedLayout(
            self, self.quarantine, self.table.horizontalHeader(), self.settings
        )
        self.remembered.restore()
        self._update_title()
        self._update_actions()
        if config is not None:
            self.open_config(config)
        else:
            self._on_total_changed()

    # -- building ---------------------------------------------------------------------------
    def _build_central(self) -> None:
        top = QHBoxLayout()
        top.setContentsMargins(4, 4, 4, 0)
        self.run_batch_button = QPushButton(
            translate("MainWindow", "Run batch…"), objectName="runBatchButton"
        )
        self.redrive_button = QPushButton(
            translate("MainWindow", "Re-drive…"), objectName="redriveButton"
        )
        self.refresh_button = QPushButton(
            translate("MainWindow", "Refresh"), objectName="refreshButton"
        )
        m = self.menu
        for b, tip, action in (
            (
                self.run_batch_button,
                translate("MainWindow", "Run a file through a transform"),
                m.batch_action,
            ),
            (
                self.redrive_button,
                translate("MainWindow", "Re-drive the selected or matching rows"),
                m.redrive_action,
            ),
            (
                self.refresh_button,
                translate("MainWindow", "Read the store again"),
                m.refresh_action,
            ),
        ):
            button_keys(b, tip, action.shortcut())  # the menu action's keys do the same
            top.addWidget(b)
        # Where the rows came from, once the store has connectors: here, where there is
        # room; the filter row below fills a 1280-pixel laptop already.
        top.addSpacing(16)
        top.addWidget(self.filter_bar.source_box)
        top.addStretch(1)
        # Cut in the middle when it does not fit: a team store's URLs are long.
        self.workspace_label = ElidedLabel(objectName="workspaceLabel")
        self.workspace_label.setStyleSheet(f"color: {style.SECONDARY}")
        top.addWidget(self.workspace_label)

        main = QWidget()
        v = QVBoxLayout(main)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(2)
        v.addLayout(top)
        v.addWidget(self.filter_bar)
        # The steward's table and the lead's charts share the window; the spike banner
        # sits above both tabs, so it is seen from either.
        self.spike_banner = SpikeBanner()
        self.trends = TrendsTab()
        self.tabs = QTabWidget(objectName="mainTabs")
        self.tabs.setAccessibleName(translate("MainWindow", "Views"))
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.quarantine, translate("MainWindow", "Quarantine"))
        self.tabs.addTab(self.trends, translate("MainWindow", "Trends"))
        self.audit = AuditTab()
        self.tabs.addTab(self.audit, translate("MainWindow", "Audit"))
        v.addWidget(self.spike_banner)
        v.addWidget(self.tabs, 1)
        # Before any workspace is open the window shows the ways in instead.
        self.welcome = WelcomePage(printable(default_workspace_dir()))
        self.pages = QStackedWidget(objectName="pages")
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(main)
        self.setCentralWidget(self.pages)

    def _set_tab_order(self) -> None:
        """Tab follows the steward's loop: the buttons above, the filters, the table, the
        detail pane, then the tabs that switch to Trends and Audit (left last: the loop
        does not need them, and each Tab on the way would cost a key press)."""
        chain: list[QWidget] = [
            self.run_batch_button,
            self.redrive_button,
            self.refresh_button,
            *self.filter_bar.focus_order(),
            self.spike_banner.show_button,
            self.spike_banner.close_button,
            self.table,
            *self.detail.focus_order(),
            self.tabs.tabBar(),
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    @Slot()
    def show_preferences(self) -> None:
        """File > Preferences…: the window's language (applied on the next start)."""
        from triage_app.gui.preferences_dialog import PreferencesDialog

        dialog = PreferencesDialog(self)
        dialog.exec()
        dialog.deleteLater()

    def _connect(self) -> None:
        m = self.menu
        for action, slot in (
            (m.quit_action, self.close),
            (m.preferences_action, self.show_preferences),
            (m.refresh_action, self.refresh),
            (m.find_action, self.focus_search),
            (m.table_action, self.focus_table),
            (m.error_action, self.focus_error),
            (m.editor_action, self.focus_editor),
            (m.about_action, lambda: help_pages.show_about(self)),
            (m.about_qt_action, lambda: QApplication.aboutQt()),
            (m.getting_started_action, lambda: self.keep(help_pages.show_getting_started(self))),
            (m.guide_action, lambda: self.keep(help_pages.show_user_guide(self))),
            (m.shortcuts_action, lambda: self.keep(help_pages.show_shortcuts(self))),
            (m.report_action, lambda: help_pages.report_problem(self)),
            (m.retry_now_action, lambda: self.ladder.run_pass(by_hand=True)),
        ):
            action.triggered.connect(slot)
        self.refresh_button.clicked.connect(self.refresh)
        self.model.totalChanged.connect(self._on_total_changed)
        self.model.loadFailed.connect(self.show_message)
        self.model.modelReset.connect(self._update_actions)
        self.filter_bar.filterChanged.connect(self._on_filter_changed)
        self.table.customContextMenuRequested.connect(self._table_menu)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.table.selectionModel().selectionChanged.connect(self.scope.table_changed)
        self.model.totalChanged.connect(self.scope.table_changed)
        self.model.modelReset.connect(self.scope.table_changed)
        self.trends.linked.connect(self.apply_link)
        self.trends.spikeChanged.connect(self.spike_banner.show_spike)
        self.trends.message.connect(self.show_message)
        self.spike_banner.showBatch.connect(self.show_spike_batch)
        self.audit.deadLetterChosen.connect(self.show_dead_letter)
        self.audit.message.connect(self.show_message)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.detail.message.connect(self.show_message)
        self.detail.saveFailed.connect(self._on_save_failed)
        self.row_actions.message.connect(self.show_message)
        self.row_actions.changed.connect(self.reload)
        self.jobs.message.connect(self.show_message)
        self.live.refreshed.connect(self._on_live_refresh)
        self.live.message.connect(self.show_message)

    # -- the workspace ----------------------------------------------------------------------
    def open_config(self, config: WorkspaceConfig) -> None:
        """Open a workspace (raises TriageError when it cannot be reached)."""
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            ws = open_config(config)
            try:
                # Upgraded as it opened (SQLite): older rows get their masked copies.
                refresh_after_upgrade(ws)
            except BaseException:
                ws.close()
                raise
        finally:
            QApplication.restoreOverrideCursor()
        self.close_workspace()
        self.ws, self.config = ws, config
        # What this login may do on the store: the database refuses the rest anyway; the
        # window greys it out and says why (core.db.why_not).
        team = ws.store.dialect.name == "postgresql"
        self.role: Role | None = role_of(ws.store) if team else None
        self.db_user: str | None = login_of(ws.store) if team else None
        self.queries = QueryThread(config, self)
        self.detail.set_queries(self.queries)
        self.row_actions.queries = self.queries
        self.live.start(ws, self.queries)  # before the first read: no change falls between
        self.ladder.start(config, self.queries)
        self.model.set_workspace(ws, self._count_async, self._read_async)
        self.trends.open_workspace(config)
        self.audit.open_workspace(config)
        self.load_batches()
        if config.folder is not None:
            self.settings.add_recent_workspace(str(config.folder))
        else:
            self.settings.add_recent_connection(config.warehouse_url, config.dead_letter_url)
        self.pages.setCurrentIndex(1)
        self._update_title()
        self._update_actions()

    def showing_welcome(self) -> bool:
        return self.pages.currentWidget() is self.welcome

    def close_workspace(self) -> None:
        """Let go of the workspace: its dialogs closed and deleted, its query threads joined
        and deleted, now; nothing of it is left for a later event loop. A dialog acts on the
        rows of the workspace it was opened on: it goes with it, so that a preview of one
        store's rows can never be confirmed on another's."""
        self._dispose_dialogs(self._dialogs)
        self.live.stop()
        self.ladder.stop()
        if self.queries is not None:
            self.queries.release()
            self.queries = None
        self.detail.set_queries(None)
        self.row_actions.queries = None
        self.trends.close_workspace()
        self.audit.close_workspace()
        self.spike_banner.show_spike(None)
        self._on_connectors([])
        self.model.set_workspace(None)
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        self.config = None
        self.role = None

    # -- reading ----------------------------------------------------------------------------
    def _count_async(self, f: DeadLetterFilter, generation: int) -> None:
        if self.queries is not None:
            self.queries.submit(
                _count(f), partial(self.model.set_total, generation), self.show_message, key="count"
            )

    def _read_async(
        self,
        fn: Callable[[Workspace], Any],
        on_done: Callable[[Any], None],
        on_failed: Callable[[str], None],
    ) -> None:
        if self.queries is not None:
            self.queries.submit(fn, on_done, on_failed, key="pages")

    def load_batches(self) -> None:
        """The batch, source and transform pickers' choices, and the owners and tags in
        use."""
        if self.queries is not None:
            self.queries.submit(_batches, self._on_batches, self.show_message, key="batches")
            self.queries.submit(team_labels, self._on_team, self.show_message, key="team")
            self.queries.submit(
                list_connectors, self._on_connectors, self.show_message, key="connectors"
            )

    def _on_connectors(self, connectors: list[Connector]) -> None:
        """The store's connectors: the Source picker and column are there once it has one."""
        self.connectors = connectors
        self.filter_bar.set_sources([c.name for c in connectors])
        self.table.show_sources(bool(connectors))
        self._update_actions()
        self.connectorsChanged.emit(connectors)

    def _on_team(self, labels: tuple[list[str], list[str]]) -> None:
        self.team = labels
        self.filter_bar.set_team(*labels)

    def _on_batches(self, batches: list[BatchInfo]) -> None:
        self.batches = batches
        self.filter_bar.set_batches(batches)
        refs = {t.ref for t in default_registry().all()} | {b.transform for b in batches}
        self.filter_bar.set_transforms(sorted(refs))
        self.counts.show_last_batch(batches)
        self._on_total_changed()

    @Slot()
    def refresh(self) -> None:
        """F5: read the store again, once an unsaved edit is saved or discarded."""
        self.unsaved_edit.then(Doing.REFRESHING, self.reload)

    def reload(self, in_place: bool = False) -> None:
        """Read the store again; an unsaved edit stays in the editor. ``in_place``: after a
        job, the table reads its rows again off the GUI thread, keeping the selection and
        the scroll (a re-drive of 200,000 rows changes rows all over a large table)."""
        self.live.seen()  # this read covers every change so far: no live refresh for them
        self.scope.store_changed()
        current = self.detail.current_id()
        if in_place:
            self.quarantine.refresh_live()
        else:
            self.model.refresh()
        self.load_batches()
        self.trends.refresh()  # after every batch, re-drive and status change
        self.audit.refresh()  # each of which is audited
        if current is not None and not in_place:  # in place, the pane read it already
            self.detail.reload()

    @Slot()
    def _on_live_refresh(self) -> None:
        """Another steward changed the store: the table and pane have read it again in
        place; the batches, charts and audit trail follow."""
        self.scope.store_changed()
        self.load_batches()
        self.trends.refresh()
        self.audit.refresh()

    @Slot(object)
    def _on_filter_changed(self, f: DeadLetterFilter) -> None:
        self.model.set_filter(f)
        self.trends.set_filter(f)

    @Slot(object)
    def apply_link(self, link: Link) -> None:
        """A click in Trends: the table shows the rows the chart counted; a group's rows
        are selected too, ready for one fix and one re-drive."""
        self.filter_bar.apply_link(link)
        self.tabs.setCurrentWidget(self.quarantine)
        self.show_message(fill(translate("MainWindow", "Trends: %1"), link.label))
        self.quarantine.select_all_when_counted(link.select_all)

    @Slot(str)
    def show_spike_batch(self, batch_id: str) -> None:
        self.filter_bar.show_batch(batch_id)
        self.tabs.setCurrentWidget(self.quarantine)

    @Slot(int)
    def _on_tab_changed(self, _index: int) -> None:
        # The dead-letter filters narrow the table and Trends; the audit trail has its own.
        self.filter_bar.show_with_filters(self.tabs.currentWidget() is not self.audit)

    @Slot(int)
    def show_dead_letter(self, dl_id: int) -> None:
        """From the Audit tab: that dead letter alone in the table, whatever its status,
        selected and in the detail pane (once an unsaved edit is saved or discarded)."""
        self.unsaved_edit.then(
            Doing.SHOWING, partial(self._show_dead_letter_now, dl_id), dead_letter=dl_id
        )

    def _show_dead_letter_now(self, dl_id: int) -> None:
        self.filter_bar.show_one(dl_id)
        self.tabs.setCurrentWidget(self.quarantine)
        self.show_message(fill(translate("MainWindow", "Audit: dead letter #%1"), str(dl_id)))
        self.quarantine.select_all_when_counted(True)
        self.detail.show_dead_letter(dl_id)

    @Slot()
    def focus_search(self) -> None:
        if self.filter_bar.isHidden():  # the Audit tab has its own filters
            self.tabs.setCurrentWidget(self.quarantine)
        self.filter_bar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_bar.search.selectAll()

    @Slot()
    def focus_table(self) -> None:
        """Ctrl+1: to the table, on the Quarantine tab; the arrows choose the row."""
        self.tabs.setCurrentWidget(self.quarantine)
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    @Slot()
    def focus_error(self) -> None:
        """Ctrl+2: the chosen row's error, to be read."""
        self.tabs.setCurrentWidget(self.quarantine)
        if not self.detail.focus_error():
            self._choose_a_row_first()

    @Slot()
    def focus_editor(self) -> None:
        """Ctrl+3: the chosen row's payload, in the editor."""
        self.tabs.setCurrentWidget(self.quarantine)
        if not self.detail.focus_payload():
            self._choose_a_row_first()

    def _choose_a_row_first(self) -> None:
        tip = translate("MainWindow", "choose a dead letter in the table first")
        self.show_message(with_keys(tip, self.menu.table_action.shortcut()))

    # -- selection --------------------------------------------------------------------------
    def selected_count(self) -> int:
        return self.table.selected_count()

    def selected_ids(self, limit: int = MAX_SELECTED_IDS) -> list[int] | None:
        return self.table.selected_ids(limit)

    def _table_scope(self) -> TableScope:
        ids = self.selected_ids()
        return TableScope(
            self.config.description if self.config is not None else "",
            self.model.filter,
            self.model.total(),
            tuple(ids) if ids is not None else None,
            self.selected_count(),
        )

    def transforms_in_use(self) -> list[str]:
        """The current row's transform, then the last batch's: the re-drive's default."""
        row = self.table.current_row()
        out = [row.transform] if row is not None else []
        out += [b.transform for b in self.batches[:1]]
        return out

    @Slot()
    def _on_selection_changed(self, *_: Any) -> None:
        self._update_count_label()
        self._update_actions()

    @Slot(str)
    def _on_save_failed(self, message: str) -> None:
        QMessageBox.warning(
            self,
            translate("MainWindow", "Not saved"),
            fill(translate("MainWindow", "%1\n\nThe edit is still in the editor."), message),
        )

    # -- the status bar and empty state ----------------------------------------------------
    @Slot(str)
    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    @Slot()
    def _on_total_changed(self) -> None:
        self.quarantine.on_counted()
        self._update_count_label()
        self._update_empty_state()

    def _update_count_label(self) -> None:
        self.counts.show_count(
            self.model.total(),
            self.model.filter.status,
            self.selected_count(),
            has_workspace=self.ws is not None,
            searching=self.model.searching(),
        )

    def _update_empty_state(self) -> None:
        empty = self.model.total() == 0 or self.ws is None
        self.table.show_empty(
            empty_text(
                has_workspace=self.ws is not None,
                default_filter=self.filter_bar.is_default(),
                batches=self.batches,
            )
            if empty
            else None
        )

    def _update_title(self) -> None:
        where = self.config.description if self.config else translate("MainWindow", "no workspace")
        # Qt adds " — Triage Desk" itself (the application's display name) where the
        # platform's title bars name the app (X11, Windows): the name once, at the end.
        role = getattr(self, "role", None)
        if role is not None:
            title = fill(translate("MainWindow", "%1 [%2]"), where, role_label(role.value))
        else:
            title = where
        self.setWindowTitle(title)
        self.workspace_label.setText(
            fill(translate("MainWindow", "workspace: %1"), where)
            if self.config
            else translate("MainWindow", "no workspace open")
        )
        may_not = [] if role is None else [w for a in Act if (w := why_not(role, a))]
        self.counts.show_role(None if role is None else role.value, may_not)

    def _update_actions(self) -> None:
        has_ws = self.ws is not None
        has_sel = has_ws and self.selected_count() > 0
        for button in (self.run_batch_button, self.refresh_button, self.redrive_button):
            button.setEnabled(has_ws)
        self.menu.enable_for(workspace=has_ws, selection=has_sel, connectors=bool(self.connectors))
        self.row_actions.set_enabled(has_sel)
        self.row_actions.discard_action.setEnabled(has_ws)  # the filter's rows, too
        self._grey_out_by_role()

    def _role_acts(self) -> list[tuple[Any, Act]]:
        """Each action and button of the window that writes, and what it is."""
        m, r = self.menu, self.row_actions
        return [
            (m.batch_action, Act.RUN),
            (m.reprocess_action, Act.RUN),
            (m.connect_queue_action, Act.RUN),
            (m.attach_table_action, Act.RUN),
            (m.redrive_action, Act.REDRIVE),
            (m.redrive_source_action, Act.REDRIVE),
            (m.load_whole_action, Act.REDRIVE),
            (m.fix_action, Act.FIX),
            (m.retention_action, Act.READ),  # the policy is shown; Save and Purge greyed
            (r.as_data_action, Act.RECLASSIFY),
            (r.as_code_action, Act.RECLASSIFY),
            (r.park_action, Act.PARK),
            (r.discard_action, Act.DISCARD),
            (r.reopen_action, Act.REOPEN),
            (r.note_action, Act.NOTE),
            (self.run_batch_button, Act.RUN),
            (self.redrive_button, Act.REDRIVE),
        ]

    def _grey_out_by_role(self) -> None:
        """What this login's role may not do: disabled, its tooltip and status tip saying
        why (the same sentence the CLI refuses with)."""
        role = getattr(self, "role", None)
        tips = self.__dict__.setdefault("_role_tips", {})
        for widget, act in self._role_acts():
            if widget not in tips:
                status = widget.statusTip() if hasattr(widget, "statusTip") else ""
                tips[widget] = (widget.toolTip(), status)
            why = None if role is None else why_not(role, act)
            tip, status = tips[widget]
            if why is not None:
                widget.setEnabled(False)
            widget.setToolTip(why or tip)
            widget.setStatusTip(why or status)
        self.detail.set_not_allowed(None if role is None else why_not(role, Act.EDIT))
        self.detail.set_reveal_not_allowed(None if role is None else why_not(role, Act.REVEAL))
        self.trends.groups.not_allowed = None if role is None else why_not(role, Act.NOTE)

    def _table_menu(self, pos: Any) -> None:
        menu = QMenu(self)
        menu.addAction(self.menu.redrive_action)
        if self.connectors:
            menu.addAction(self.menu.redrive_source_action)
        menu.addAction(self.menu.fix_action)
        menu.addAction(self.menu.load_whole_action)
        menu.addSeparator()
        for action in self.row_actions.actions():
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.menu.export_selection_action)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    # -- long jobs --------------------------------------------------------------------------
    def start_job(self, job: Job) -> JobRunner:
        assert self.config is not None
        return self.jobs.start(self.config, job)

    @Slot(str)
    def show_batch(self, batch_id: str) -> None:
        self.filter_bar.show_batch(batch_id)

    def keep(self, dialog: QWidget) -> None:
        """A modeless dialog, kept while it is shown or its job runs (a hidden re-drive
        dialog still relays its result); the closed ones are deleted now."""
        if not self.jobs.running():
            self._dispose_dialogs(
                [d for d in self._dialogs if d is not dialog and not d.isVisible()]
            )
        if dialog not in self._dialogs:  # a Help page shown again is the same dialog
            self._dialogs.append(dialog)

    def _dispose_dialogs(self, dialogs: list[QWidget]) -> None:
        for dialog in list(dialogs):
            if dialog in self._dialogs:
                self._dialogs.remove(dialog)
            if shiboken6.isValid(dialog):
                dialog.close()
                dispose(dialog)

    def dialogs(self) -> list[QWidget]:
        return list(self._dialogs)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.detail.is_dirty():
            answer = self.unsaved_edit.ask(Doing.CLOSING)
            if answer == QMessageBox.StandardButton.Cancel:
                event.ignore()
                return
            if answer == QMessageBox.StandardButton.Save:
                event.ignore()  # closes again once the edit is stored
                self.detail.save_then(self.close)
                return
            self.detail.discard_edit()
        if not self.jobs.may_stop(self):
            event.ignore()
            return
        self.remembered.save()
        self.shut_down()
        event.accept()

    @Slot()
    def shut_down(self) -> None:
        """Stop and join every job, delete the dialogs, close the workspace: what closing
        does once the steward agreed, and what quitting does without asking (the session
        ends). After it no thread of the window runs. Idempotent."""
        self.jobs.stop_all()
        self.close_workspace()
