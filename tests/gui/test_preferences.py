"""File > Preferences…: the window's language, saved, applied on the next start, which the
dialog offers at once (issue 28)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from triage_app.core import language
from triage_app.gui.i18n import install_language, saved_language
from triage_app.gui.preferences_dialog import PreferencesDialog


def _answer_later(seen: list[str]) -> None:
    box = QApplication.activeModalWidget()
    if not isinstance(box, QMessageBox):
        QTimer.singleShot(10, lambda: _answer_later(seen))
        return
    seen.append(box.text())
    later = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole)
    later.click()


def test_choosing_indonesian_is_saved_and_offered_on_restart(qtbot, qapp) -> None:  # type: ignore[no-untyped-def]
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    assert dialog.language_box.currentData() == ""  # follows the system by default
    assert dialog.language_box.count() == 3
    dialog.language_box.setCurrentIndex(dialog.language_box.findData("id"))
    seen: list[str] = []
    QTimer.singleShot(0, lambda: _answer_later(seen))
    dialog.accept()
    assert seen == ["Triage Desk will speak Bahasa Indonesia after a restart."]
    assert saved_language() == "id"
    try:
        # The next start: the preference wins over TRIAGE_LANG=en (the suite's).
        assert install_language(qapp) == "id"
        assert language.current() == "id"
    finally:
        install_language(qapp, "en")


def test_keeping_the_language_offers_no_restart(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    dialog.language_box.setCurrentIndex(dialog.language_box.findData("en"))
    dialog.accept()  # English is what this process speaks: no box, nothing to wait for
    assert saved_language() == "en"
    assert QApplication.activeModalWidget() is None


def test_the_window_opens_it_from_the_file_menu(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    action = window.menu.preferences_action
    assert action.text() == "Pr&eferences…"
    assert action in window.menu.actions()[0].menu().actions()

    def close_it() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, PreferencesDialog):
            QTimer.singleShot(10, close_it)
            return
        dialog.reject()

    QTimer.singleShot(0, close_it)
    action.trigger()
