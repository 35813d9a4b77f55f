"""The window data stewards live in: filter → select → read the error → fix the payload →
try it → save → re-drive. It wires widgets to core calls; the logic lives in core."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from triage_app.core import (
    BatchInfo,
    BatchSummary,
    DeadLetterFilter,
    ErrorClass,
    RedriveSummary,
    Status,
    TriageError,
    add_note,
    count_dead_letters,
    default_registry,
    list_batches,
    reclassify,
    set_status,
)
from triage_app.core.export import ExportSummary
from triage_app.core.workspace import Workspace, WorkspaceConfig
from triage_app.gui.batch_dialog import BatchDialog, describe_batch, describe_progress
from triage_app.gui.connect_dialog import ConnectDialog
from triage_app.gui.dead_letter_model import COL_ERROR, HEADERS, DeadLetterTableModel
from triage_app.gui.detail_pane import DetailPane
from triage_app.gui.filter_bar import FilterBar
from triage_app.gui.jobs import ExportJob
from triage_app.gui.redrive_dialog import RedriveDialog, describe_redrive
from triage_app.gui.settings import Settings, app_icon
from triage_app.gui.trends import Link, SpikeBanner, TrendsTab
from triage_app.gui.workers import JobRunner, ProgressReport, QueryThread, open_config

# Acting on more rows than this by id is refused; acting on "all matching" goes by filter.
MAX_SELECTED_IDS = 10_000


def _count(f: DeadLetterFilter) -> Callable[[Workspace], int]:
    def run(ws: Workspace) -> int:
        return count_dead_letters(ws, f)

    return run


def _batches(ws: Workspace) -> list[BatchInfo]:
    return list_batches(ws, limit=200)


def _action(fn: Callable[..., int], ids: Sequence[int], *args: Any, **kw: Any) -> Any:
    def run(ws: Workspace) -> int:
        return fn(ws, list(ids), *args, **kw)

    return run


class MainWindow(QMainWindow):
    def __init__(self, config: WorkspaceConfig | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowIcon(app_icon())
        self.settings = Settings()
        self.ws: Workspace | None = None
        self.config: WorkspaceConfig | None = None
        self.queries: QueryThread | None = None
        self.runners: list[JobRunner] = []
        self.batches: list[BatchInfo] = []
        self._dialogs: list[QWidget] = []
        self._row_change_pending = False  # a Save/Discard/Cancel question is on its way
        self._row_before_change = -1  # the table row of the edited dead letter
        self._restoring_row = False

        self.model = DeadLetterTableModel(self)
        self.filter_bar = FilterBar()
        self.detail = DetailPane()
        self._build_actions()
        self._build_menus()
        self._build_central()
        self._build_status_bar()
        self.model.totalChanged.connect(self._on_total_changed)
        self.model.loadFailed.connect(self.show_message)
        self.model.modelReset.connect(self._on_model_reset)
        self.filter_bar.filterChanged.connect(self._on_filter_changed)
        self._select_all_pending = False  # a group chosen in Trends: select its rows
        self.trends.linked.connect(self.apply_link)
        self.trends.spikeChanged.connect(self.spike_banner.show_spike)
        self.trends.message.connect(self.show_message)
        self.spike_banner.showBatch.connect(self.show_spike_batch)
        self.detail.message.connect(self.show_message)
        self.detail.saveFailed.connect(self._on_save_failed)
        self.filter_bar.set_transforms([t.ref for t in default_registry().all()])
        self._restore_state()
        self._update_title()
        self._update_actions()
        if config is not None:
            self.open_config(config)
        else:
            self._on_total_changed()

    # -- building ---------------------------------------------------------------------------
    def _act(
        self, text: str, slot: Callable[[], None], shortcut: Any = None, tip: str = ""
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._act
        self.open_action = a(
            "&Open workspace…", self.choose_workspace, QKeySequence.StandardKey.Open
        )
        self.connect_action = a("&Connect to databases…", self.choose_connection)
        self.export_selection_action = a(
            "Export &selection…", self.export_selection, "Ctrl+E", "Export the selected rows"
        )
        self.export_filter_action = a(
            "Export &filter…", self.export_filter, "Ctrl+Shift+E", "Export every matching row"
        )
        self.quit_action = a("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.batch_action = a(
            "&Run batch…", self.run_batch, "Ctrl+B", "Run a file through a transform"
        )
        self.redrive_action = a("&Re-drive…", self.redrive, "Ctrl+R", "Re-drive dead letters")
        self.refresh_action = a("&Refresh", self.refresh, "F5", "Read the store again")
        self.find_action = a("&Find", self.focus_search, QKeySequence.StandardKey.Find)
        self.as_data_action = a("Reclassify as &data", partial(self.reclassify, ErrorClass.DATA))
        self.as_code_action = a("Reclassify as &code", partial(self.reclassify, ErrorClass.CODE))
        self.park_action = a("&Park", self.park, tip="Set aside: needs a person")
        self.discard_action = a("&Discard…", self.discard, tip="Junk: kept for the audit")
        self.reopen_action = a("Re&open", self.reopen, tip="Back to open")
        self.note_action = a("Add &note…", self.add_note)
        self.about_action = a("&About Triage Desk", self.about)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        file_menu = mb.addMenu("&File")
        file_menu.addAction(self.open_action)
        file_menu.addAction(self.connect_action)
        self.recent_menu = file_menu.addMenu("Recent &workspaces")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.export_selection_action)
        file_menu.addAction(self.export_filter_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        mb.addMenu("&Batch").addAction(self.batch_action)
        dl_menu = mb.addMenu("&Re-drive")
        dl_menu.addAction(self.redrive_action)
        dl_menu.addSeparator()
        for action in self._row_actions():
            dl_menu.addAction(action)
        view_menu = mb.addMenu("&View")
        view_menu.addAction(self.refresh_action)
        view_menu.addAction(self.find_action)
        mb.addMenu("&Help").addAction(self.about_action)

    def _row_actions(self) -> list[QAction]:
        return [
            self.as_data_action,
            self.as_code_action,
            self.park_action,
            self.discard_action,
            self.reopen_action,
            self.note_action,
        ]

    def _build_central(self) -> None:
        top = QHBoxLayout()
        top.setContentsMargins(4, 4, 4, 0)
        self.run_batch_button = QPushButton("Run batch…", objectName="runBatchButton")
        self.run_batch_button.clicked.connect(self.run_batch)
        self.redrive_button = QPushButton("Re-drive…", objectName="redriveButton")
        self.redrive_button.clicked.connect(self.redrive)
        self.refresh_button = QPushButton("Refresh", objectName="refreshButton")
        self.refresh_button.clicked.connect(self.refresh)
        for b, tip in (
            (self.run_batch_button, "Run a file through a transform (Ctrl+B)"),
            (self.redrive_button, "Re-drive the selected or matching rows (Ctrl+R)"),
            (self.refresh_button, "Read the store again (F5)"),
        ):
            b.setToolTip(tip)
            top.addWidget(b)
        top.addStretch(1)
        self.workspace_label = QLabel(objectName="workspaceLabel")
        self.workspace_label.setStyleSheet("color: #4b5563")
        top.addWidget(self.workspace_label)

        self.table = QTableView(objectName="deadLetterTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        vh = self.table.verticalHeader()
        vh.hide()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 8)
        hh = self.table.horizontalHeader()
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(COL_ERROR, QHeaderView.ResizeMode.Stretch)
        # Ids and line numbers run to millions: room for seven digits without eliding.
        digits = self.table.fontMetrics().horizontalAdvance("0000000") + 16
        for col, width in enumerate((digits, 72, digits, 64, 300, 64, 70, 116, 84)):
            if col != COL_ERROR:
                self.table.setColumnWidth(col, width)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._table_menu)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.empty_label = QLabel(self.table.viewport(), objectName="emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet("color: #6b7280; font-size: 14px; padding: 32px;")
        self.empty_label.hide()
        self.table.viewport().installEventFilter(self)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([860, 540])

        central = QWidget()
        v = QVBoxLayout(central)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(2)
        v.addLayout(top)
        v.addWidget(self.filter_bar)
        # The steward's table and the lead's charts share the window; the spike banner
        # sits above both tabs, so it is seen from either.
        self.spike_banner = SpikeBanner()
        self.trends = TrendsTab()
        self.tabs = QTabWidget(objectName="mainTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.splitter, "Quarantine")
        self.tabs.addTab(self.trends, "Trends")
        v.addWidget(self.spike_banner)
        v.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.count_label = QLabel(objectName="countLabel")
        self.batch_label = QLabel(objectName="lastBatchLabel")
        self.job_label = QLabel(objectName="jobLabel")
        self.job_progress = QProgressBar(objectName="jobProgress", maximum=1000)
        self.job_progress.setMaximumWidth(180)
        self.job_cancel = QPushButton("Cancel", objectName="jobCancelButton")
        self.job_cancel.clicked.connect(self.cancel_jobs)
        # Permanent: a passing message must not hide how many rows match.
        sb.addPermanentWidget(self.count_label)
        sb.addPermanentWidget(self.batch_label)
        sb.addPermanentWidget(self.job_label)
        sb.addPermanentWidget(self.job_progress)
        sb.addPermanentWidget(self.job_cancel)
        for w in (self.job_label, self.job_progress, self.job_cancel):
            w.hide()

    # -- the workspace ----------------------------------------------------------------------
    def open_config(self, config: WorkspaceConfig) -> None:
        """Open a workspace (raises TriageError when it cannot be reached)."""
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            ws = open_config(config)
        finally:
            QApplication.restoreOverrideCursor()
        self.close_workspace()
        self.ws, self.config = ws, config
        self.queries = QueryThread(config, self)
        self.detail.set_queries(self.queries)
        self.model.set_workspace(ws, self._count_async)
        self.trends.open_workspace(config)
        self._load_batches()
        if config.folder is not None:
            self.settings.add_recent_workspace(str(config.folder))
        else:
            self.settings.add_recent_connection(config.warehouse_url, config.dead_letter_url)
        self._update_title()
        self._update_actions()

    def close_workspace(self) -> None:
        if self.queries is not None:
            self.queries.shutdown()
            self.queries.deleteLater()
            self.queries = None
        self.detail.set_queries(None)
        self.trends.close_workspace()
        self.spike_banner.show_spike(None)
        self.model.set_workspace(None)
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        self.config = None

    def _try_open(self, config: WorkspaceConfig) -> None:
        if self._running():
            self.show_message("wait for the running job to finish first")
            return
        self.with_edit_resolved("opening another workspace", partial(self._open_now, config))

    def _open_now(self, config: WorkspaceConfig) -> None:
        try:
            self.open_config(config)
        except TriageError as exc:
            QMessageBox.warning(self, "Cannot open", str(exc))

    @Slot()
    def choose_workspace(self) -> None:
        start = str(self.config.folder) if self.config and self.config.folder else ""
        folder = QFileDialog.getExistingDirectory(self, "Open a workspace folder", start)
        if folder:
            from triage_app.core import resolve_config

            self._try_open(resolve_config(folder, env={}))

    @Slot()
    def choose_connection(self) -> None:
        wh = dl = ""
        if self.config is not None and self.config.folder is None:
            recent = self.settings.recent_connections()
            wh, dl = recent[0] if recent else ("", "")
        dialog = ConnectDialog(wh, dl, self)
        if dialog.exec() == ConnectDialog.DialogCode.Accepted:
            from triage_app.core import resolve_config

            wh, dl = dialog.urls()
            self._try_open(resolve_config(None, wh, dl, env={}))

    @Slot()
    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        folders = self.settings.recent_workspaces()
        for folder in folders:
            act = self.recent_menu.addAction(folder)
            act.triggered.connect(partial(self._open_recent, folder))
        for wh, dl in self.settings.recent_connections():
            act = self.recent_menu.addAction(f"{wh}  +  {dl}")
            act.triggered.connect(partial(self._open_recent_connection, wh, dl))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    def _open_recent(self, folder: str, _checked: bool = False) -> None:
        from triage_app.core import resolve_config

        self._try_open(resolve_config(folder, env={}))

    def _open_recent_connection(self, wh: str, dl: str, _checked: bool = False) -> None:
        dialog = ConnectDialog(wh, dl, self)  # the password was not kept: type it again
        if dialog.exec() == ConnectDialog.DialogCode.Accepted:
            from triage_app.core import resolve_config

            self._try_open(resolve_config(None, *dialog.urls(), env={}))

    # -- reading ----------------------------------------------------------------------------
    def _count_async(self, f: DeadLetterFilter, generation: int) -> None:
        if self.queries is not None:
            self.queries.submit(
                _count(f), partial(self.model.set_total, generation), self.show_message, key="count"
            )

    def _load_batches(self) -> None:
        if self.queries is not None:
            self.queries.submit(_batches, self._on_batches, self.show_message, key="batches")

    def _on_batches(self, batches: list[BatchInfo]) -> None:
        self.batches = batches
        self.filter_bar.set_batches(batches)
        refs = {t.ref for t in default_registry().all()} | {b.transform for b in batches}
        self.filter_bar.set_transforms(sorted(refs))
        self._update_batch_label()
        self._on_total_changed()

    @Slot()
    def refresh(self) -> None:
        """F5: read the store again, once an unsaved edit is saved or discarded."""
        self.with_edit_resolved("refreshing", self.reload)

    def reload(self) -> None:
        """Read the store again; an unsaved edit stays in the editor."""
        current = self.detail.current_id()
        self.model.refresh()
        self._load_batches()
        self.trends.refresh()  # after every batch, re-drive and status change
        if current is not None:
            self.detail.reload()

    @Slot(object)
    def _on_filter_changed(self, f: DeadLetterFilter) -> None:
        self.model.set_filter(f)
        self.trends.set_filter(f)

    @Slot(object)
    def apply_link(self, link: Link) -> None:
        """A click in Trends: the table shows the rows the chart counted; a group's rows
        are selected too, ready for one fix and one re-drive."""
        self._select_all_pending = link.select_all
        self.filter_bar.apply_link(link)
        self.tabs.setCurrentWidget(self.splitter)
        self.show_message(f"Trends: {link.label}")
        self._select_all_when_counted()

    @Slot(str)
    def show_spike_batch(self, batch_id: str) -> None:
        self.filter_bar.show_batch(batch_id)
        self.tabs.setCurrentWidget(self.splitter)

    def _select_all_when_counted(self) -> None:
        # Only once the count is in: before, the table holds just its first page.
        if self._select_all_pending and self.model.total() is not None:
            self._select_all_pending = False
            self.table.selectAll()

    @Slot()
    def focus_search(self) -> None:
        self.filter_bar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_bar.search.selectAll()

    # -- selection --------------------------------------------------------------------------
    def selected_count(self) -> int:
        return sum(r.height() for r in self.table.selectionModel().selection())

    def selected_ids(self, limit: int = MAX_SELECTED_IDS) -> list[int] | None:
        """Ids of the selected rows, or None when more than ``limit`` are selected."""
        if self.selected_count() > limit:
            return None
        ids: list[int] = []
        for rng in self.table.selectionModel().selection():
            for r in range(rng.top(), rng.bottom() + 1):
                row = self.model.row(r)
                if row is not None:
                    ids.append(row.id)
        return sorted(set(ids))

    def _selected_transforms(self) -> list[str]:
        index = self.table.currentIndex()
        row = self.model.row(index.row()) if index.isValid() else None
        out = [row.transform] if row is not None else []
        out += [b.transform for b in self.batches[:1]]
        return out

    @Slot(QItemSelection, QItemSelection)
    def _on_selection_changed(self, *_: Any) -> None:
        self._update_count_label()
        self._update_actions()

    @Slot(QModelIndex, QModelIndex)
    def _on_current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if self._restoring_row:
            return
        row = self.model.row(current.row()) if current.isValid() else None
        if self.detail.is_dirty():
            # Never drop an edit silently. Ask once the click or key press that moved the
            # selection has finished (a dialog inside it would fight the view's handling).
            moved = row is not None and row.id != self.detail.current_id()
            if moved and not self._row_change_pending:
                self._row_change_pending = True
                self._row_before_change = previous.row() if previous.isValid() else -1
                QTimer.singleShot(0, self._confirm_row_change)
            return
        if row is None:
            self.detail.show_nothing()
        else:
            self.detail.show_dead_letter(row.id)

    @Slot()
    def _confirm_row_change(self) -> None:
        self._row_change_pending = False
        index = self.table.currentIndex()
        row = self.model.row(index.row()) if index.isValid() else None
        if row is None or row.id == self.detail.current_id():
            return  # back on the edited row
        # While the question is open the table shows the row being edited; Save or Discard
        # moves on to the row that was chosen, Cancel stays.
        self._reselect_edited_row()
        self.with_edit_resolved(f"showing #{row.id}", partial(self._go_to_row, index.row(), row.id))

    def _go_to_row(self, r: int, dl_id: int) -> None:
        row = self.model.row(r)
        if row is None or row.id != dl_id:
            return  # the table changed meanwhile
        self.table.selectionModel().setCurrentIndex(
            self.model.index(r, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.detail.show_dead_letter(dl_id)

    def _reselect_edited_row(self) -> None:
        """Cancel: the selection goes back to the row being edited (or to none, when that
        row is no longer in the table)."""
        sm = self.table.selectionModel()
        r = self._row_before_change
        row = self.model.row(r) if r >= 0 else None
        self._restoring_row = True
        try:
            if row is not None and row.id == self.detail.current_id():
                sm.setCurrentIndex(
                    self.model.index(r, 0),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.table.scrollTo(self.model.index(r, 0))
            else:
                sm.clearSelection()
                sm.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
        finally:
            self._restoring_row = False

    # -- an unsaved edit ----------------------------------------------------------------------
    def ask_about_unsaved_edit(self, doing: str) -> QMessageBox.StandardButton:
        """Save / Discard / Cancel for the edit in the payload editor, before ``doing``.
        An edit that is not valid JSON cannot be saved: Discard / Cancel only."""
        self.detail.validate_now()
        b = QMessageBox.StandardButton
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Unsaved edit",
            f"The payload of dead letter #{self.detail.current_id()} was edited and not saved.",
            b.NoButton,
            self,
        )
        box.setObjectName("unsavedEditDialog")
        if self.detail.can_save():
            box.setInformativeText(f"Save the edit before {doing}? (The original is kept.)")
            box.setStandardButtons(b.Save | b.Discard | b.Cancel)
            box.setDefaultButton(b.Save)
        else:
            box.setInformativeText(
                f"It cannot be saved: {self.detail.problem() or 'not valid'}.\n"
                f"Discard it before {doing}, or Cancel and fix it?"
            )
            box.setStandardButtons(b.Discard | b.Cancel)
            box.setDefaultButton(b.Cancel)
        box.setEscapeButton(b.Cancel)
        box.exec()
        clicked = box.clickedButton()
        answer = box.standardButton(clicked) if clicked is not None else b.Cancel
        box.deleteLater()
        return answer if answer in (b.Save, b.Discard) else b.Cancel

    def with_edit_resolved(self, doing: str, then: Callable[[], None]) -> bool:
        """Run ``then`` now when the editor holds no unsaved edit; otherwise ask. Save runs
        it once the edit is stored, Discard at once; Cancel (False) does not run it."""
        if not self.detail.is_dirty():
            then()
            return True
        answer = self.ask_about_unsaved_edit(doing)
        if answer == QMessageBox.StandardButton.Save:
            return self.detail.save_then(then)
        if answer == QMessageBox.StandardButton.Discard:
            self.detail.discard_edit()
            then()
            return True
        return False

    @Slot(str)
    def _on_save_failed(self, message: str) -> None:
        QMessageBox.warning(self, "Not saved", f"{message}\n\nThe edit is still in the editor.")

    @Slot()
    def _on_model_reset(self) -> None:
        # The detail pane keeps showing its dead letter (refresh() reloads it), so that a
        # save or a re-drive shows its outcome where the steward is looking.
        self._update_actions()

    # -- the status bar and empty state ----------------------------------------------------
    @Slot(str)
    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    @Slot()
    def _on_total_changed(self) -> None:
        self._select_all_when_counted()
        self._update_count_label()
        self._update_empty_state()

    def _update_count_label(self) -> None:
        total = self.model.total()
        status = self.model.filter.status
        one = total == 1
        noun = ("dead letter" if one else "dead letters") + (" matches" if one else " match")
        if status != "all":
            noun = f"{status} {noun}"
        matched = "counting…" if total is None else f"{total:,} {noun}"
        if self.ws is None:
            matched = "no workspace open"
        selected = self.selected_count()
        self.count_label.setText(f"{matched} · {selected:,} selected")

    def _update_batch_label(self) -> None:
        if not self.batches:
            self.batch_label.setText("")
            return
        b = self.batches[0]
        self.batch_label.setText(
            f"· last batch {b.source_name}: {b.loaded:,} loaded / {b.quarantined:,} quarantined"
        )

    def _update_empty_state(self) -> None:
        empty = self.model.total() == 0 or self.ws is None
        if not empty:
            self.empty_label.hide()
            return
        if self.ws is None:
            text = "No workspace open.\nFile → Open workspace… (Ctrl+O) or Connect to databases…"
        elif not self.filter_bar.is_default():
            text = "No dead letters match these filters."
        elif self.batches and self.batches[0].quarantined == 0:
            text = "No dead letters: every row of the last batch loaded."
        elif self.batches:
            text = "No open dead letters: everything quarantined has been dealt with."
        else:
            text = "No dead letters yet.\nRun a batch (Ctrl+B) to load a file."
        self.empty_label.setText(text)
        self.empty_label.resize(self.table.viewport().size())
        self.empty_label.show()

    def eventFilter(self, obj: Any, event: Any) -> bool:
        if obj is self.table.viewport() and event.type() == event.Type.Resize:
            self.empty_label.resize(self.table.viewport().size())
        return super().eventFilter(obj, event)

    def _update_title(self) -> None:
        where = self.config.description if self.config else "no workspace"
        self.setWindowTitle(f"Triage Desk — {where}")
        self.workspace_label.setText(f"workspace: {where}" if self.config else "no workspace open")

    def _update_actions(self) -> None:
        has_ws = self.ws is not None
        has_sel = self.selected_count() > 0
        for w in (
            self.run_batch_button,
            self.batch_action,
            self.refresh_action,
            self.refresh_button,
        ):
            w.setEnabled(has_ws)
        for w in (self.redrive_button, self.redrive_action, self.export_filter_action):
            w.setEnabled(has_ws)
        for action in (*self._row_actions(), self.export_selection_action):
            action.setEnabled(has_ws and has_sel)

    # -- row actions ------------------------------------------------------------------------
    def _table_menu(self, pos: Any) -> None:
        menu = QMenu(self)
        menu.addAction(self.redrive_action)
        menu.addSeparator()
        for action in self._row_actions():
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.export_selection_action)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def _ids_or_complain(self) -> list[int] | None:
        ids = self.selected_ids()
        if ids is None:
            self.show_message(
                f"more than {MAX_SELECTED_IDS:,} rows selected: narrow the filter, "
                "or use Re-drive / Export on the whole filter"
            )
            return None
        if not ids:
            self.show_message("select one or more dead letters first")
            return None
        return ids

    def _run_action(self, fn: Callable[[Workspace], int], verb: str) -> None:
        if self.queries is not None:
            self.queries.submit(fn, partial(self._after_action, verb), self._action_failed)

    def _after_action(self, verb: str, n: int) -> None:
        self.show_message(f"{n:,} dead letter{'s' if n != 1 else ''} {verb}")
        self.reload()

    def _action_failed(self, message: str) -> None:
        QMessageBox.warning(self, "Not done", message)

    def reclassify(self, error_class: ErrorClass, _checked: bool = False) -> None:
        ids = self._ids_or_complain()
        if ids:
            self._run_action(
                _action(reclassify, ids, error_class), f"reclassified as {error_class}"
            )

    @Slot()
    def park(self) -> None:
        ids = self._ids_or_complain()
        if ids:
            self._run_action(
                _action(set_status, ids, Status.PARKED, reason="parked by hand"), "parked"
            )

    @Slot()
    def discard(self) -> None:
        ids = self._ids_or_complain()
        if not ids:
            return
        reason, ok = QInputDialog.getText(
            self, "Discard", f"Why are these {len(ids):,} dead letters junk? (kept for the audit)"
        )
        if ok and reason.strip():
            self._run_action(_action(set_status, ids, Status.DISCARDED, reason=reason), "discarded")
        elif ok:
            self.show_message("discarding needs a reason")

    @Slot()
    def reopen(self) -> None:
        ids = self._ids_or_complain()
        if ids:
            self._run_action(_action(set_status, ids, Status.OPEN, reason="reopened"), "reopened")

    @Slot()
    def add_note(self) -> None:
        ids = self._ids_or_complain()
        if not ids:
            return
        note, ok = QInputDialog.getMultiLineText(self, "Add a note", "Note for the history:")
        if ok and note.strip():
            self._run_action(_action(add_note, ids, note), "noted")

    # -- long jobs --------------------------------------------------------------------------
    def start_job(self, job: Any) -> JobRunner:
        """Run ``job`` on its own thread; the status bar follows it until it ends."""
        assert self.config is not None
        runner = JobRunner(self.config, job, self)
        runner.progress.connect(self._on_job_progress)
        runner.done.connect(self._on_job_done)
        self.runners.append(runner)
        self.job_label.setText(job.title)
        self.job_progress.setValue(0)
        for w in (self.job_label, self.job_progress, self.job_cancel):
            w.show()
        self.job_cancel.setEnabled(True)
        runner.start()
        return runner

    def _running(self) -> list[JobRunner]:
        return [r for r in self.runners if r.is_running()]

    @Slot(object)
    def _on_job_progress(self, report: ProgressReport) -> None:
        self.job_progress.setValue(round(report.fraction * 1000))
        self.job_progress.setToolTip(describe_progress(report))

    @Slot()
    def _on_job_done(self) -> None:
        self.runners = [r for r in self.runners if r.is_running()]
        if not self.runners:
            for w in (self.job_label, self.job_progress, self.job_cancel):
                w.hide()

    @Slot()
    def cancel_jobs(self) -> None:
        for r in self._running():
            r.cancel()
        self.job_cancel.setEnabled(False)
        self.show_message("cancelling at the next chunk boundary…")

    @Slot()
    def run_batch(self) -> None:
        if self.config is None:
            return
        start_dir = str(self.config.folder / "incoming") if self.config.folder else ""
        dialog = BatchDialog(self.start_job, start_dir, self)
        dialog.setObjectName("batchDialog")
        dialog.showBatch.connect(self.show_batch)
        dialog.batchFinished.connect(self._on_batch_finished)
        self._keep(dialog)
        dialog.show()

    @Slot(object)
    def _on_batch_finished(self, summary: BatchSummary) -> None:
        self.show_message(describe_batch(summary))
        self.reload()

    @Slot(str)
    def show_batch(self, batch_id: str) -> None:
        self.filter_bar.show_batch(batch_id)

    @Slot()
    def redrive(self) -> None:
        if self.config is not None:
            # A re-drive runs the stored payloads, not what the editor holds.
            self.with_edit_resolved("re-driving (a re-drive uses stored payloads)", self._redrive)

    def _redrive(self) -> None:
        if self.config is None:
            return
        ids = self.selected_ids() or []
        dialog = RedriveDialog(
            self.start_job,
            selected_ids=ids,
            where=self.model.filter,
            matching=self.model.total(),
            transforms_in_use=self._selected_transforms(),
            parent=self,
        )
        dialog.setObjectName("redriveDialog")
        dialog.redriven.connect(self._on_redriven)
        self._keep(dialog)
        dialog.show()

    @Slot(object)
    def _on_redriven(self, summary: RedriveSummary) -> None:
        self.show_message(describe_redrive(summary))
        self.reload()

    def _keep(self, dialog: QWidget) -> None:
        self._dialogs = [d for d in self._dialogs if d.isVisible()]
        self._dialogs.append(dialog)

    def dialogs(self) -> list[QWidget]:
        return list(self._dialogs)

    @Slot()
    def export_selection(self) -> None:
        ids = self._ids_or_complain()
        if ids:
            self._export(self.model.filter.with_(ids=tuple(ids)), f"{len(ids)} selected")

    @Slot()
    def export_filter(self) -> None:
        self._export(self.model.filter, "matching")

    def _export(self, where: DeadLetterFilter, what: str) -> None:
        path, chosen = QFileDialog.getSaveFileName(
            self,
            f"Export {what} dead letters",
            "dead_letters.csv",
            "CSV (*.csv);;JSON Lines (*.jsonl)",
        )
        if path:
            self.export_to(
                where,
                Path(path),
                "jsonl" if "jsonl" in chosen or path.endswith(".jsonl") else "csv",
            )

    def export_to(self, where: DeadLetterFilter, path: Path, fmt: str) -> JobRunner:
        runner = self.start_job(ExportJob(where, path, fmt))
        runner.finished.connect(self._on_exported)
        runner.failed.connect(self._action_failed)
        return runner

    @Slot(object)
    def _on_exported(self, s: ExportSummary) -> None:
        if s.cancelled:
            self.show_message("export cancelled; no file written")
        else:
            self.show_message(f"exported {s.rows:,} dead letters to {s.path}")

    @Slot()
    def about(self) -> None:
        from triage_app import __version__

        QMessageBox.about(
            self,
            "About Triage Desk",
            f"Triage Desk {__version__}\n\nQuarantine, fix and re-drive the rows a nightly "
            "batch could not load.",
        )

    # -- remembering ------------------------------------------------------------------------
    def _restore_state(self) -> None:
        geometry = self.settings.bytes_value("window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1400, 900)
        for key, target in (
            ("window/state", self.restoreState),
            ("window/splitter", self.splitter.restoreState),
            ("window/columns", self.table.horizontalHeader().restoreState),
        ):
            value = self.settings.bytes_value(key)
            if value is not None:
                target(value)

    def save_state(self) -> None:
        self.settings.set_value("window/geometry", self.saveGeometry())
        self.settings.set_value("window/state", self.saveState())
        self.settings.set_value("window/splitter", self.splitter.saveState())
        self.settings.set_value("window/columns", self.table.horizontalHeader().saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.detail.is_dirty():
            answer = self.ask_about_unsaved_edit("closing")
            if answer == QMessageBox.StandardButton.Cancel:
                event.ignore()
                return
            if answer == QMessageBox.StandardButton.Save:
                event.ignore()  # closes again once the edit is stored
                self.detail.save_then(self.close)
                return
            self.detail.discard_edit()
        running = self._running()
        if running:
            titles = ", ".join(r.job.title for r in running)
            answer = QMessageBox.question(
                self,
                "Work is running",
                f"Still running: {titles}.\n\nStop it at the next chunk and close? "
                "A batch resumes where it stopped when you run the same file again.",
            )
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
            for r in running:
                r.cancel()
            for r in running:
                r.stop()
        for dialog in self._dialogs:
            dialog.close()
        self.save_state()
        self.close_workspace()
        event.accept()


__all__ = ["HEADERS", "MainWindow"]
