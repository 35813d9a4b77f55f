"""Connect to databases…: a warehouse URL and a dead-letter store URL, with a Test button.

Passwords stay in the two fields: the dialog never writes them to settings or logs, and
the test's messages go through core's redaction.
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.jobs import ConnectionTest
from triage_app.gui import style
from triage_app.gui.workers import JobRunner


class ConnectDialog(QDialog):
    def __init__(
        self, warehouse_url: str = "", dead_letter_url: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect to databases")
        self.setMinimumWidth(620)
        self._runner: JobRunner | None = None
        self.warehouse = QLineEdit(warehouse_url, objectName="warehouseUrl")
        self.warehouse.setPlaceholderText("postgresql://user:password@host/warehouse")
        self.dead_letter = QLineEdit(dead_letter_url, objectName="deadLetterUrl")
        self.dead_letter.setPlaceholderText("postgresql://user:password@host/triage")
        hint = QLabel(
            "Any SQLAlchemy URL (sqlite or postgresql). A saved connection keeps the URL "
            "without its password; you type it again."
        )
        hint.setWordWrap(True)
        hint.setStyleSheet(style.HINT)
        self.result = QLabel(objectName="connectResult", wordWrap=True)
        form = QFormLayout()
        form.addRow("Warehouse", self.warehouse)
        form.addRow("Dead-letter store", self.dead_letter)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.test_button = self.buttons.addButton("Test", QDialogButtonBox.ButtonRole.ActionRole)
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.clicked.connect(self.test)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(hint)
        v.addWidget(self.result)
        v.addWidget(self.buttons)

    def urls(self) -> tuple[str, str]:
        return self.warehouse.text().strip(), self.dead_letter.text().strip()

    @Slot()
    def test(self) -> None:
        if self._runner is not None:
            return
        self.result.setText("testing…")
        self.test_button.setEnabled(False)
        self._runner = JobRunner(None, ConnectionTest(*self.urls()), self)
        self._runner.finished.connect(self._on_tested)
        self._runner.failed.connect(self._on_tested)
        self._runner.done.connect(self._on_done)
        self._runner.start()

    @Slot(object)
    def _on_tested(self, text: object) -> None:
        self.result.setText(str(text))

    @Slot()
    def _on_done(self) -> None:
        self._runner = None
        self.test_button.setEnabled(True)

    def done(self, result: int) -> None:
        if self._runner is not None:
            self._runner.stop()
        super().done(result)
