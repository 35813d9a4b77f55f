"""The main window as its parts see it: what the workspace menu and the job menu may ask of
it. A protocol, so that those parts need not import ``main_window``, which builds them: the
import arrows run one way (``farm-studio look`` found the circle)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QPushButton, QWidget

    from triage_app.core.batch import BatchInfo
    from triage_app.core.connectors import Connector
    from triage_app.core.db import Workspace, WorkspaceConfig
    from triage_app.core.jobs import Job
    from triage_app.gui.dialogs.scope import ScopeSource
    from triage_app.gui.quarantine.detail_pane import DetailPane
    from triage_app.gui.quarantine.model import DeadLetterTableModel
    from triage_app.gui.quarantine.table import QuarantineTable
    from triage_app.gui.quarantine.unsaved_edit import UnsavedEditGuard
    from triage_app.gui.settings import Settings
    from triage_app.gui.trends import TrendsTab
    from triage_app.gui.window.job_status import JobStatus
    from triage_app.gui.window.menu_bar import MenuBar
    from triage_app.gui.window.row_actions import RowActions
    from triage_app.gui.window.welcome import WelcomePage
    from triage_app.gui.workers import JobRunner, QueryThread


class WindowHost(Protocol):
    """The window's state and parts a menu reads, and the few things it asks the window to
    do; ``MainWindow`` has them all (and is the QWidget its dialogs are parented to)."""

    ws: Workspace | None
    config: WorkspaceConfig | None
    queries: QueryThread | None
    batches: list[BatchInfo]
    team: tuple[list[str], list[str]]
    connectors: list[Connector]
    connectorsChanged: SignalInstance
    settings: Settings
    menu: MenuBar
    welcome: WelcomePage
    jobs: JobStatus
    model: DeadLetterTableModel
    scope: ScopeSource
    unsaved_edit: UnsavedEditGuard
    detail: DetailPane
    row_actions: RowActions
    trends: TrendsTab
    table: QuarantineTable
    run_batch_button: QPushButton
    redrive_button: QPushButton

    def open_config(self, config: WorkspaceConfig) -> None: ...
    def start_job(self, job: Job) -> JobRunner: ...
    def keep(self, dialog: QWidget) -> None: ...
    def show_message(self, text: str) -> None: ...
    def show_batch(self, batch_id: str) -> None: ...
    def load_batches(self) -> None: ...
    def reload(self, in_place: bool = False) -> None: ...
    def transforms_in_use(self) -> list[str]: ...
