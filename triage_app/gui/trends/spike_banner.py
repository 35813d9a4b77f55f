"""The banner above the window's tabs when a recent batch quarantined far more than the
batches before it: it names the batch and its transform version, which is usually what a
sudden jump means (a release broke the transform)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton

from triage_app.core.text_input import shown
from triage_app.core.trends import Spike
from triage_app.gui import style
from triage_app.gui.i18n import translate


class SpikeBanner(QFrame):
    showBatch = Signal(str)

    def __init__(self) -> None:
        super().__init__(objectName="spikeBanner")
        self.setStyleSheet(style.SPIKE_BANNER)
        h = QHBoxLayout(self)
        h.setContentsMargins(10, 6, 6, 6)
        icon = QLabel("▲", objectName="spikeIcon")
        icon.setStyleSheet(f"color: {style.ALERT}; font-weight: bold;")
        self.text = QLabel(objectName="spikeText")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # a signature may hold "<n>"
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_button = QPushButton(
            translate("SpikeBanner", "Show its dead letters"), objectName="spikeShowButton"
        )
        self.show_button.clicked.connect(self._on_show)
        self.close_button = QToolButton(objectName="spikeDismissButton", text="✕")
        self.close_button.setToolTip(
            translate("SpikeBanner", "Dismiss: this batch will not raise the banner again")
        )
        # ✕ says nothing aloud.
        self.close_button.setAccessibleName(translate("SpikeBanner", "Dismiss the spike"))
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.dismiss)
        h.addWidget(icon)
        h.addWidget(self.text, 1)
        h.addWidget(self.show_button)
        h.addWidget(self.close_button)
        self.spike: Spike | None = None
        self.dismissed: set[str] = set()
        self.hide()

    @Slot(object)
    def show_spike(self, spike: Spike | None) -> None:
        """Show ``spike`` (unless dismissed before), or hide when there is none."""
        if spike is None or spike.batch.batch_id in self.dismissed:
            self.spike = None
            self.hide()
            return
        self.spike = spike
        self.text.setText(shown(spike.short_message()))
        self.text.setToolTip(shown(spike.message()))  # the evidence in full
        self.show()

    @Slot()
    def dismiss(self) -> None:
        if self.spike is not None:
            self.dismissed.add(self.spike.batch.batch_id)
        self.spike = None
        self.hide()

    @Slot()
    def _on_show(self) -> None:
        if self.spike is not None:
            self.showBatch.emit(self.spike.batch.batch_id)
