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
from triage_app.gui.i18n import fill, translate
from triage_app.gui.window.opening import gone_note, gone_tip

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
        title = QLabel(
            translate("WelcomePage", "Welcome to Triage Desk"), objectName="welcomeTitle"
        )
        title.setStyleSheet("font-size: 20px; font-weight: 600; padding-top: 24px;")
        intro = QLabel(
            translate(
                "WelcomePage",
                "Rows a nightly batch could not load wait here with the evidence of why: fix "
                "them, re-drive them through a transform version, and watch the trends.",
            )
        )
        intro.setWordWrap(True)
        intro.setStyleSheet(f"color: {style.SECONDARY}; padding-bottom: 12px;")
        v.addWidget(title)
        v.addWidget(intro)
        self.buttons: dict[str, QCommandLinkButton] = {}
        for key, text, line, signal in (
            (
                "demo",
                translate("WelcomePage", "Open the demo"),
                translate(
                    "WelcomePage",
                    "A workspace from a small sample batch, with rows to fix and re-drive.",
                ),
                self.demoChosen,
            ),
            (
                "open",
                translate("WelcomePage", "Open a workspace folder…"),
                translate(
                    "WelcomePage",
                    "A folder on this computer with warehouse.db and dead_letter.db; a folder "
                    "without them becomes a new workspace if you say so. (Ctrl+O)",
                ),
                self.openChosen,
            ),
            (
                "connect",
                translate("WelcomePage", "Connect to a team store…"),
                translate(
                    "WelcomePage",
                    "The PostgreSQL warehouse and dead-letter store your team shares.",
                ),
                self.connectChosen,
            ),
            (
                "new",
                translate("WelcomePage", "Start an empty workspace"),
                fill(
                    translate(
                        "WelcomePage",
                        "In your data folder (%1); then Batch → Run batch… (Ctrl+B).",
                    ),
                    default_folder,
                ),
                self.newChosen,
            ),
        ):
            button = QCommandLinkButton(text, line, objectName=f"welcome_{key}")
            button.setAccessibleName(text.rstrip("…"))
            button.setAccessibleDescription(line)
            button.clicked.connect(signal)
            v.addWidget(button)
            self.buttons[key] = button
        self.recent_title = QLabel(
            translate("WelcomePage", "Recent workspaces"), objectName="welcomeRecentTitle"
        )
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
            note = gone_note() if folder in gone else ""
            button = QCommandLinkButton(folder, note, objectName="welcomeRecent")
            button.setAccessibleName(
                fill(translate("WelcomePage", "Open recent workspace %1"), folder)
            )
            if note:
                button.setAccessibleDescription(note)
                button.setToolTip(gone_tip(gone[folder]))
            button.clicked.connect(lambda _=False, f=folder: self.recentChosen.emit(f))
            self.recent_box.addWidget(button)
