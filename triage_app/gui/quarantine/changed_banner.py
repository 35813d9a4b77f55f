"""The strip above the payload editor that says someone else changed the dead letter being
edited (or that a save was refused), with what the steward can do about it: Reload
(theirs) or Compare (theirs and mine side by side). It never replaces the edit itself."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from triage_app.gui import style
from triage_app.gui.i18n import translate

_STYLE = (
    f"#changedBanner {{ background: {style.NOTE_FILL}; border: 1px solid #f59e0b;"
    " border-radius: 4px; }"
    f"#changedBanner QLabel {{ color: {style.NOTE_TEXT}; }}"
)


class ChangedBanner(QFrame):
    reloadClicked = Signal()
    compareClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changedBanner")
        self.setStyleSheet(_STYLE)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        self.label = QLabel(objectName="changedBannerText", wordWrap=True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.label, 1)
        self.reload_button = QPushButton(
            translate("ChangedBanner", "Reload"), objectName="bannerReloadButton"
        )
        self.reload_button.setToolTip(
            translate("ChangedBanner", "Show the stored payload (theirs); your edit is dropped")
        )
        self.reload_button.clicked.connect(self.reloadClicked)
        self.compare_button = QPushButton(
            translate("ChangedBanner", "Compare…"), objectName="bannerCompareButton"
        )
        self.compare_button.setToolTip(
            translate("ChangedBanner", "Theirs and yours side by side; keep one of them")
        )
        self.compare_button.clicked.connect(self.compareClicked)
        self.close_button = QToolButton(objectName="bannerCloseButton", text="✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(
            translate("ChangedBanner", "Hide this message; your edit stays")
        )
        # ✕ says nothing aloud
        self.close_button.setAccessibleName(translate("ChangedBanner", "Hide this message"))
        self.close_button.clicked.connect(self.hide)
        for w in (self.reload_button, self.compare_button, self.close_button):
            row.addWidget(w)
        self.hide()

    def offer(self, text: str) -> None:
        """Someone changed the row: say who and when, and offer Reload and Compare."""
        self.label.setText(text)
        self.reload_button.show()
        self.compare_button.show()
        self.close_button.hide()  # the choice stays in view until it is made
        self.show()

    def say(self, text: str) -> None:
        """One line with nothing to choose (a save a re-drive refused); can be hidden."""
        self.label.setText(text)
        self.reload_button.hide()
        self.compare_button.hide()
        self.close_button.show()
        self.show()

    def text(self) -> str:
        """What it says while shown; '' when hidden."""
        return "" if self.isHidden() else self.label.text()
