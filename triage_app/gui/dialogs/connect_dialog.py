"""Connect to databases…: a warehouse URL and a dead-letter store URL, each with a password
field, and a Test button.

A remembered connection comes back with its passwords hidden (``user:***@``); the dialog
fills the password fields from the system keyring (core's ``db/secrets.py``). Where there
is no keyring, it says so in one line and the password is typed each time. A password
typed into the URL itself still works, and wins. The dialog never writes a password to
settings or logs, and the test's messages go through core's redaction.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.db import (
    complete_url,
    has_hidden_password,
    keyring_unavailable,
    recall_password,
)
from triage_app.core.jobs import ConnectionTest
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.workers import JobRunner

KEYRING_HINT = QT_TRANSLATE_NOOP(
    "ConnectDialog", "Passwords are kept in the system keyring, never in the app's settings."
)


def _password_field(name: str, spoken: str) -> QLineEdit:
    """``spoken``: the field's accessible name, translated."""
    field = QLineEdit(objectName=name)
    field.setAccessibleName(spoken)
    field.setEchoMode(QLineEdit.EchoMode.Password)
    field.setPlaceholderText(translate("ConnectDialog", "password, if the database asks for one"))
    return field


class ConnectDialog(QDialog):
    def __init__(
        self, warehouse_url: str = "", dead_letter_url: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("ConnectDialog", "Connect to databases"))
        self.setMinimumWidth(620)
        self._runner: JobRunner | None = None
        self.warehouse = QLineEdit(warehouse_url, objectName="warehouseUrl")
        self.warehouse.setPlaceholderText("postgresql://user@host/warehouse")
        self.warehouse.setAccessibleName(translate("ConnectDialog", "Warehouse URL"))
        self.warehouse_password = _password_field(
            "warehousePassword", translate("ConnectDialog", "Warehouse password")
        )
        self.dead_letter = QLineEdit(dead_letter_url, objectName="deadLetterUrl")
        self.dead_letter.setPlaceholderText("postgresql://user@host/triage")
        self.dead_letter.setAccessibleName(translate("ConnectDialog", "Dead-letter store URL"))
        self.dead_letter_password = _password_field(
            "deadLetterPassword", translate("ConnectDialog", "Dead-letter store password")
        )
        self.no_keyring = keyring_unavailable()
        # Without a keyring, one line says why the password field is empty every time.
        if self.no_keyring:
            why = f"{self.no_keyring.capitalize()}."  # core's sentence, ended
        else:
            why = translate("ConnectDialog", KEYRING_HINT)
        hint = QLabel(
            fill(translate("ConnectDialog", "Any SQLAlchemy URL (sqlite or postgresql). %1"), why),
            objectName="keyringHint",
        )
        hint.setWordWrap(True)
        hint.setStyleSheet(style.HINT)
        self.hint = hint
        self.result = QLabel(objectName="connectResult", wordWrap=True)
        form = QFormLayout()
        password = translate("ConnectDialog", "password")
        form.addRow(translate("ConnectDialog", "Warehouse"), self.warehouse)
        form.addRow(f"    {password}", self.warehouse_password)
        form.addRow(translate("ConnectDialog", "Dead-letter store"), self.dead_letter)
        form.addRow(f"    {password}", self.dead_letter_password)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.test_button = self.buttons.addButton(
            translate("ConnectDialog", "Test"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.clicked.connect(self.test)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(hint)
        v.addWidget(self.result)
        v.addWidget(self.buttons)
        self.fill_passwords()

    def fill_passwords(self) -> None:
        """Remembered URLs (``user:***@``): their passwords from the keyring, where kept."""
        for url, field in self._pairs():
            if field.text() or not has_hidden_password(url.text()):
                continue
            password = recall_password(url.text())
            if password is not None:
                field.setText(password)
                field.setToolTip(translate("ConnectDialog", "from the system keyring"))

    def _pairs(self) -> tuple[tuple[QLineEdit, QLineEdit], ...]:
        return (
            (self.warehouse, self.warehouse_password),
            (self.dead_letter, self.dead_letter_password),
        )

    def urls(self) -> tuple[str, str]:
        """The URLs to connect with: each with its password put back, and any other hidden
        secret (``sslpassword=***``) from the keyring (a password typed into the URL itself
        wins)."""
        wh, dl = (complete_url(url.text().strip(), field.text()) for url, field in self._pairs())
        return wh, dl

    @Slot()
    def test(self) -> None:
        if self._runner is not None:
            return
        self.result.setText(translate("ConnectDialog", "testing…"))
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
