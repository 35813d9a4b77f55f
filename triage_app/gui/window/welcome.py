"""What the window shows before any workspace is open: the ways in, one line on each,
instead of an empty table (a first run, or a workspace that could not be opened)."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCommandLinkButton,
    QFrame,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from triage_app.gui import style
from triage_app.gui.window.opening import GONE_NOTE

MAX_RECENT_SHOWN = 5


class WelcomePage(QWidget):
    demoChosen = Signal()
    openChosen = Signal()
    connectChosen = Signal()
    newChosen = Signal()
    recentChosen = Signal(str)

    def __init__(self, default_folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePage")
        outer = QVBoxLayout(self)
        outer.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        column = QFrame()
        column.setMinimumWidth(560)
        column.setMaximumWidth(680)
        v = QVBoxLayout(column)
        v.setSpacing(6)
        title = QLabel("Welcome to Triage Desk", objectName="welcomeTitle")
        title.setStyleSheet("font-size: 20px; font-weight: 600; padding-top: 24px;")
        intro = QLabel(
            "Rows a nightly batch could not load wait here with the evidence of why: fix "
            "them, re-drive them through a transform version, and watch the trends."
        )
        intro.setWordWrap(True)
        intro.setStyleSheet(f"color: {style.SECONDARY}; padding-bottom: 12px;")
        v.addWidget(title)
        v.addWidget(intro)
        self.buttons: dict[str, QCommandLinkButton] = {}
        for key, text, line, signal in (
            (
                "demo",
                "Open the demo",
                "A workspace from a small sample batch, with rows to fix and re-drive.",
                self.demoChosen,
            ),
            (
                "open",
                "Open a workspace folder…",
                "A folder on this computer with warehouse.db and dead_letter.db; a folder "
                "without them becomes a new workspace if you say so. (Ctrl+O)",
                self.openChosen,
            ),
            (
                "connect",
                "Connect to a team store…",
                "The PostgreSQL warehouse and dead-letter store your team shares.",
                self.connectChosen,
            ),
            (
                "new",
                "Start an empty workspace",
                f"In your data folder ({default_folder}); then Batch → Run batch… (Ctrl+B).",
                self.newChosen,
            ),
        ):
            button = QCommandLinkButton(text, line, objectName=f"welcome_{key}")
            button.setAccessibleName(text.rstrip("…"))
            button.setAccessibleDescription(line)
            button.clicked.connect(signal)
            v.addWidget(button)
            self.buttons[key] = button
        self.recent_title = QLabel("Recent workspaces", objectName="welcomeRecentTitle")
        self.recent_title.setStyleSheet("font-weight: 600; padding-top: 16px;")
        v.addWidget(self.recent_title)
        self.recent_box = QVBoxLayout()
        v.addLayout(self.recent_box)
        outer.addWidget(column)
        self.set_recent([])

    def set_recent(self, folders: list[str], gone: Mapping[str, str] | None = None) -> None:
        """The recent workspace folders, newest first, as buttons that open them; those in
        ``gone`` (folder -> why) say they are not there (a click offers to forget them)."""
        while (item := self.recent_box.takeAt(0)) is not None:
            if (w := item.widget()) is not None:
                w.deleteLater()
        shown = folders[:MAX_RECENT_SHOWN]
        self.recent_title.setVisible(bool(shown))
        gone = gone or {}
        for folder in shown:
            note = GONE_NOTE if folder in gone else ""
            button = QCommandLinkButton(folder, note, objectName="welcomeRecent")
            button.setAccessibleName(f"Open recent workspace {folder}")
            if note:
                button.setAccessibleDescription(note)
                button.setToolTip(f"{gone[folder]}: {note}")
            button.clicked.connect(lambda _=False, f=folder: self.recentChosen.emit(f))
            self.recent_box.addWidget(button)
