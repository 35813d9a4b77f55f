"""The ways into a workspace, from the File menu and the welcome page: the demo, a new one in
the default folder, a folder the steward chooses, a team store's connection, and the recent
ones of each. Each ends in the window's ``open_config``, once no job runs and an unsaved
edit is saved or discarded; what a folder that holds no workspace means is ``opening``'s.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from triage_app.core.db import WorkspaceConfig, open_config, resolve_config
from triage_app.core.errors import TriageError
from triage_app.core.jobs import DemoJob
from triage_app.core.places import default_workspace_dir, demo_workspace_dir
from triage_app.gui.dialogs.connect_dialog import ConnectDialog
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.unsaved_edit import Doing
from triage_app.gui.window import opening
from triage_app.gui.window.welcome import MAX_RECENT_SHOWN

if TYPE_CHECKING:
    from triage_app.gui.window.host import WindowHost


class WorkspaceMenu(QObject):
    """Wires File > Open…, Connect…, the recent ones and the welcome page's choices to the
    window it opens workspaces in."""

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        m, welcome = window.menu, window.welcome
        m.open_action.triggered.connect(self.choose_workspace)
        m.connect_action.triggered.connect(self.choose_connection)
        m.recentFolderChosen.connect(self.open_recent)
        m.recentConnectionChosen.connect(self.open_recent_connection)
        welcome.demoChosen.connect(self.open_demo)
        welcome.openChosen.connect(self.choose_workspace)
        welcome.connectChosen.connect(self.choose_connection)
        welcome.newChosen.connect(self.open_default_workspace)
        welcome.recentChosen.connect(self.open_recent)
        self.show_recent()

    @Slot()
    def open_demo(self) -> None:
        """The demo workspace in the data folder, made on first use, then opened."""
        config = resolve_config(demo_workspace_dir(), env={})
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            with open_config(config) as ws:
                DemoJob().run(ws)  # the seed's ten rows: a no-op once they are in
        except TriageError as exc:
            QMessageBox.warning(
                self.window, translate("WorkspaceMenu", "Cannot make the demo"), str(exc)
            )
            return
        finally:
            QApplication.restoreOverrideCursor()
        self.try_open(config)

    @Slot()
    def open_default_workspace(self) -> None:
        self.try_open(resolve_config(default_workspace_dir(), env={}))

    def try_open(self, config: WorkspaceConfig) -> None:
        """Open ``config`` once no job runs and the editor holds no unsaved edit."""
        w = self.window
        if w.jobs.running():
            w.show_message(translate("WorkspaceMenu", "wait for the running job to finish first"))
            return
        w.unsaved_edit.then(Doing.OPENING, partial(self.open_now, config))

    def open_now(self, config: WorkspaceConfig) -> None:
        try:
            self.window.open_config(config)
        except TriageError as exc:
            QMessageBox.warning(self.window, translate("WorkspaceMenu", "Cannot open"), str(exc))

    @Slot()
    def choose_workspace(self) -> None:
        config = self.window.config
        start = str(config.folder) if config and config.folder else ""
        folder = QFileDialog.getExistingDirectory(
            self.window, translate("WorkspaceMenu", "Open a workspace folder"), start
        )
        if folder:
            self.open_folder(folder)

    def open_folder(self, folder: str) -> None:
        """A folder the steward chose: its workspace, or a new one once they say so."""
        problem = opening.folder_problem(folder)
        if problem is None or opening.ask_create(self.window, folder, problem):
            self.try_open(resolve_config(folder, env={}))

    @Slot()
    def choose_connection(self) -> None:
        wh = dl = ""
        config = self.window.config
        if config is not None and config.folder is None:
            recent = self.window.settings.recent_connections()
            wh, dl = recent[0] if recent else ("", "")
        self.ask_connection(wh, dl)

    @Slot(str)
    def open_recent(self, folder: str) -> None:
        """A recent workspace: opened when it is there, never made anew when it is not."""
        problem = opening.folder_problem(folder)
        if problem is None:
            self.try_open(resolve_config(folder, env={}))
        elif opening.ask_remove_recent(self.window, folder, problem):
            self.window.settings.remove_recent_workspace(folder)
            self.show_recent()
            self.window.show_message(
                fill(translate("WorkspaceMenu", "removed %1 from the recent workspaces"), folder)
            )

    def show_recent(self) -> None:
        folders = self.window.settings.recent_workspaces()
        self.window.welcome.set_recent(folders, opening.gone_recent(folders[:MAX_RECENT_SHOWN]))

    @Slot(str, str)
    def open_recent_connection(self, wh: str, dl: str) -> None:
        self.ask_connection(wh, dl)  # passwords from the keyring, or typed again

    def ask_connection(self, wh: str, dl: str) -> None:
        dialog = ConnectDialog(wh, dl, self.window)
        accepted = dialog.exec() == ConnectDialog.DialogCode.Accepted
        urls = dialog.urls()
        dispose(dialog)  # one per connection: not kept as the window's child
        if accepted:
            self.try_open(resolve_config(None, *urls, env={}))
