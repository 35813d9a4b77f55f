"""The window's menus and their actions (File, Batch, Re-drive, View, Store, Help), with the
shortcuts a steward's loop uses: Ctrl+F to the search, then Ctrl+1, 2 and 3 in the loop's
order (the table, the row's error, its payload editor), Ctrl+R to re-drive. Saving and
trying are the detail pane's buttons (Ctrl+S, Ctrl+Return). Each tooltip shows the keys.
The window connects the actions to what they do."""

from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar, QWidget

from triage_app.gui.i18n import fill, translate
from triage_app.gui.settings import Settings
from triage_app.gui.shortcuts import show_keys
from triage_app.gui.window.opening import gone_recent, gone_tip


class MenuBar(QMenuBar):
    recentFolderChosen = Signal(str)
    recentConnectionChosen = Signal(str, str)

    def __init__(self, window: QWidget, row_actions: list[QAction], settings: Settings) -> None:
        super().__init__(window)
        self._window = window
        self.settings = settings
        a = self._action
        keys = QKeySequence.StandardKey
        self.open_action = a(translate("MenuBar", "&Open workspace…"), keys.Open)
        self.connect_action = a(translate("MenuBar", "&Connect to databases…"))
        # Dead letters another pipeline made (issue 26): a broker's dead-letter queue, or a
        # pipeline's own dead-letter table, imported into the open workspace.
        self.connect_queue_action = a(
            translate("MenuBar", "Connect a q&ueue…"),
            tip=translate("MenuBar", "Import the dead letters of a RabbitMQ dead-letter queue"),
        )
        self.attach_table_action = a(
            translate("MenuBar", "Attach a dead-letter &table…"),
            tip=translate(
                "MenuBar", "Import the dead letters a pipeline keeps in a table of its own"
            ),
        )
        self.export_selection_action = a(
            translate("MenuBar", "Export &selection…"),
            "Ctrl+E",
            translate("MenuBar", "Export the selected rows"),
        )
        self.export_filter_action = a(
            translate("MenuBar", "Export &filter…"),
            "Ctrl+Shift+E",
            translate("MenuBar", "Export every matching row"),
        )
        self.preferences_action = a(
            translate("MenuBar", "Pr&eferences…"),
            keys.Preferences,
            translate("MenuBar", "The window's language"),
        )
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.quit_action = a(translate("MenuBar", "&Quit"), keys.Quit)
        self.batch_action = a(
            translate("MenuBar", "&Run batch…"),
            "Ctrl+B",
            translate("MenuBar", "Run a file through a transform"),
        )
        self.reprocess_action = a(
            translate("MenuBar", "&Suspect a version…"),
            tip=translate(
                "MenuBar",
                "Run the rows a transform version wrote through a fixed one: check, then apply",
            ),
        )
        self.retry_now_action = a(
            translate("MenuBar", "Retry &due rows now"),
            tip=translate(
                "MenuBar",
                "One pass of the retry ladder: the transient dead letters due now, re-driven "
                "through the version that failed them (the window runs one every minute)",
            ),
        )
        self.redrive_action = a(
            translate("MenuBar", "&Re-drive…"),
            "Ctrl+R",
            translate("MenuBar", "Re-drive dead letters"),
        )
        self.redrive_source_action = a(
            translate("MenuBar", "Re-drive to the &source…"),
            tip=translate(
                "MenuBar",
                "Send imported dead letters back where they came from: their queue or table",
            ),
        )
        self.fix_action = a(
            translate("MenuBar", "Fi&x rows…"),
            "Ctrl+Shift+F",
            translate("MenuBar", "Fix many dead letters at once, as one change-set"),
        )
        self.load_whole_action = a(
            translate("MenuBar", "&Load the whole batch…"),
            tip=translate(
                "MenuBar",
                "An all-or-nothing batch held: load every row of it in one transaction, once "
                "every dead letter of it is fixed",
            ),
        )
        self.refresh_action = a(
            translate("MenuBar", "&Refresh"), "F5", translate("MenuBar", "Read the store again")
        )
        self.find_action = a(
            translate("MenuBar", "&Find"),
            keys.Find,
            translate("MenuBar", "Search the payloads and errors"),
        )
        # Where the keyboard goes next in the loop, from anywhere in the window.
        self.table_action = a(
            translate("MenuBar", "Go to the &table"),
            "Ctrl+1",
            translate("MenuBar", "Move to the dead-letter table"),
        )
        self.error_action = a(
            translate("MenuBar", "Go to the &error"),
            "Ctrl+2",
            translate("MenuBar", "Show the selected row's error"),
        )
        self.editor_action = a(
            translate("MenuBar", "Go to the &payload editor"),
            "Ctrl+3",
            translate("MenuBar", "Move to the selected row's payload"),
        )
        self.change_sets_action = a(
            translate("MenuBar", "&Change-sets…"),
            tip=translate("MenuBar", "The fixes applied to many rows at once; revert one"),
        )
        self.retention_action = a(
            translate("MenuBar", "R&etention…"),
            tip=translate(
                "MenuBar", "How long resolved and discarded dead letters are kept; purge"
            ),
        )
        self.getting_started_action = a(
            translate("MenuBar", "&Getting started"),
            keys.HelpContents,
            translate("MenuBar", "The steward's loop, in a page"),
        )
        self.guide_action = a(
            translate("MenuBar", "&User guide"),
            tip=translate("MenuBar", "The full guide to the window and the CLI"),
        )
        self.shortcuts_action = a(
            translate("MenuBar", "&Keyboard shortcuts"),
            "Ctrl+/",
            translate("MenuBar", "Every key the window answers to"),
        )
        self.report_action = a(
            translate("MenuBar", "&Report a problem…"),
            tip=translate(
                "MenuBar", "Copy the versions of the app, Qt, Python and the store's schema"
            ),
        )
        self.about_qt_action = a(translate("MenuBar", "About &Qt"))
        self.about_action = a(translate("MenuBar", "&About Triage Desk"))

        file_menu = self.addMenu(translate("MenuBar", "&File"))
        file_menu.addAction(self.open_action)
        file_menu.addAction(self.connect_action)
        file_menu.addAction(self.connect_queue_action)
        file_menu.addAction(self.attach_table_action)
        self.recent_menu = file_menu.addMenu(translate("MenuBar", "Recent &workspaces"))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.export_selection_action)
        file_menu.addAction(self.export_filter_action)
        file_menu.addSeparator()
        file_menu.addAction(self.preferences_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        batch_menu = self.addMenu(translate("MenuBar", "&Batch"))
        batch_menu.addAction(self.batch_action)
        batch_menu.addSeparator()
        batch_menu.addAction(self.reprocess_action)
        batch_menu.addSeparator()
        batch_menu.addAction(self.retry_now_action)
        redrive_menu = self.addMenu(translate("MenuBar", "&Re-drive"))
        redrive_menu.addAction(self.redrive_action)
        redrive_menu.addAction(self.redrive_source_action)
        redrive_menu.addAction(self.fix_action)
        redrive_menu.addAction(self.load_whole_action)
        redrive_menu.addSeparator()
        for action in row_actions:
            redrive_menu.addAction(action)
        view_menu = self.addMenu(translate("MenuBar", "&View"))
        view_menu.addAction(self.refresh_action)
        view_menu.addSeparator()
        for action in (self.find_action, self.table_action, self.error_action, self.editor_action):
            view_menu.addAction(action)
        store_menu = self.addMenu(translate("MenuBar", "&Store"))
        store_menu.addAction(self.change_sets_action)
        store_menu.addAction(self.retention_action)
        help_menu = self.addMenu(translate("MenuBar", "&Help"))
        for action in (self.getting_started_action, self.guide_action, self.shortcuts_action):
            help_menu.addAction(action)
        help_menu.addSeparator()
        help_menu.addAction(self.report_action)
        help_menu.addSeparator()
        help_menu.addAction(self.about_qt_action)
        help_menu.addAction(self.about_action)

    def enable_for(self, *, workspace: bool, selection: bool, connectors: bool = False) -> None:
        """The actions that need an open workspace, those that need selected rows, and
        those that need a connector kept in the store."""
        for action in (
            self.connect_queue_action,
            self.attach_table_action,
            self.batch_action,
            self.reprocess_action,
            self.retry_now_action,
            self.refresh_action,
            self.redrive_action,
            self.fix_action,
            self.load_whole_action,
            self.change_sets_action,
            self.export_filter_action,
            self.retention_action,
        ):
            action.setEnabled(workspace)
        self.export_selection_action.setEnabled(selection)
        self.redrive_source_action.setEnabled(workspace and connectors)

    def _action(self, text: str, shortcut: Any = None, tip: str = "") -> QAction:
        action = QAction(text, self._window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        show_keys(action, tip)
        # On the window too: its shortcut works wherever the focus is in it.
        self._window.addAction(action)
        return action

    @Slot()
    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        folders = self.settings.recent_workspaces()
        gone = gone_recent(folders)
        for folder in folders:
            # "(not found)" before it is chosen: a click offers to take it off the list.
            shown = (
                fill(translate("MenuBar", "%1  (not found)"), folder) if folder in gone else folder
            )
            act = self.recent_menu.addAction(shown)
            if folder in gone:
                act.setStatusTip(gone_tip(gone[folder]))
            act.triggered.connect(partial(self._chose_folder, folder))
        for wh, dl in self.settings.recent_connections():
            act = self.recent_menu.addAction(f"{wh}  +  {dl}")
            act.triggered.connect(partial(self._chose_connection, wh, dl))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(translate("MenuBar", "(none yet)")).setEnabled(False)

    def _chose_folder(self, folder: str, _checked: bool = False) -> None:
        self.recentFolderChosen.emit(folder)

    def _chose_connection(self, wh: str, dl: str, _checked: bool = False) -> None:
        self.recentConnectionChosen.emit(wh, dl)
