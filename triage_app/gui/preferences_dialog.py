"""File > Preferences…: what the window remembers as the user's own choice, for now the
language it speaks (issue 28).

The language follows the system's locale unless chosen here. Every text of the window is
fixed when its widget is made, so a new language takes effect on the next start: the dialog
says so and offers to restart now. The command line does not read this choice: it follows
``--lang``, ``TRIAGE_LANG`` and the locale.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QProcess, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from triage_app.core import language
from triage_app.gui.i18n import LANGUAGE_SETTING, fill, translate
from triage_app.gui.settings import settings_store

SYSTEM = ""  # the setting's value for "follow the system"


class PreferencesDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("PreferencesDialog", "Preferences"))
        self.language_box = QComboBox()
        system = language.LANGUAGES[language.from_environment()]
        self.language_box.addItem(
            fill(translate("PreferencesDialog", "Follow the system (%1)"), system), SYSTEM
        )
        for code, name in language.LANGUAGES.items():
            self.language_box.addItem(name, code)  # each language by its own name
        saved = str(settings_store().value(LANGUAGE_SETTING, SYSTEM) or SYSTEM)
        index = self.language_box.findData(saved)
        self.language_box.setCurrentIndex(max(index, 0))
        self._saved = self.language_box.currentData()
        note = QLabel(
            translate(
                "PreferencesDialog",
                "The window speaks the new language when Triage Desk starts again. "
                "The command line follows --lang, TRIAGE_LANG or the system.",
            )
        )
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(translate("PreferencesDialog", "&Language:"), self.language_box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)

    def chosen(self) -> str:
        """The setting's value: "" (the system's), "en" or "id"."""
        return str(self.language_box.currentData())

    @Slot()
    def accept(self) -> None:
        changed = self.chosen() != self._saved
        settings = settings_store()
        settings.setValue(LANGUAGE_SETTING, self.chosen())
        settings.sync()
        super().accept()
        if changed and self.chosen_language() != language.current():
            self._offer_restart()

    def chosen_language(self) -> str:
        return language.choose(self.chosen() or None)

    def _offer_restart(self) -> None:
        name = language.LANGUAGES.get(self.chosen_language(), self.chosen_language())
        box = QMessageBox(self.parentWidget())
        box.setIcon(QMessageBox.Icon.Information)
        box.setWindowTitle(translate("PreferencesDialog", "Language"))
        box.setText(
            fill(translate("PreferencesDialog", "Triage Desk will speak %1 after a restart."), name)
        )
        restart = box.addButton(
            translate("PreferencesDialog", "&Restart now"), QMessageBox.ButtonRole.AcceptRole
        )
        box.addButton(translate("PreferencesDialog", "&Later"), QMessageBox.ButtonRole.RejectRole)
        box.exec()
        if box.clickedButton() is restart:
            restart_app()


def restart_app() -> None:
    """A new window process with the same arguments, then this one quits (closing its
    window as a quit does: what it remembers is saved)."""
    if getattr(sys, "frozen", False):
        program, arguments = sys.executable, sys.argv[1:]
    else:
        program, arguments = sys.executable, sys.argv
    started = QProcess.startDetached(program, arguments)
    if started[0] if isinstance(started, tuple) else started:
        QCoreApplication.quit()
