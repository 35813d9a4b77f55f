"""The Help menu has what a desktop tool's Help has (issue 20: it had only About): getting
started, the user guide, every keyboard shortcut read from the window itself, a problem
report with the versions copied to the clipboard, About Qt."""

from __future__ import annotations

import sys

from PySide6.QtCore import qVersion
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QDialog, QMessageBox

from triage_app import __version__
from triage_app.core.db import HEAD_REVISION
from triage_app.gui.shortcuts import keys_text, plain_text
from triage_app.gui.window.help_pages import shortcuts
from triage_app.gui.window.main_window import MainWindow

Ok = QMessageBox.StandardButton.Ok


def help_menu_texts(window) -> list[str]:  # type: ignore[no-untyped-def]
    (menu,) = [a.menu() for a in window.menuBar().actions() if plain_text(a) == "Help"]
    return [plain_text(a) for a in menu.actions() if not a.isSeparator()]


def test_the_help_menu_has_what_a_desktop_tool_has(window) -> None:  # type: ignore[no-untyped-def]
    assert help_menu_texts(window) == [
        "Getting started",
        "User guide",
        "Keyboard shortcuts",
        "Report a problem…",
        "About Qt",
        "About Triage Desk",
    ]


def test_the_shortcuts_listed_are_every_key_of_the_window(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.menu.shortcuts_action.trigger()
    dialog = window.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and dialog.isVisible()
    table = dialog.table
    listed = {(table.item(r, 1).text(), table.item(r, 2).text()) for r in range(table.rowCount())}
    # Every action in the window with keys is there, with the keys it has now.
    for action in window.findChildren(QAction):
        if not action.shortcut().isEmpty():
            assert (plain_text(action).rstrip("…"), keys_text(action.shortcut())) in listed
    assert ("Re-drive", "Ctrl+R") in listed and ("Keyboard shortcuts", "Ctrl+/") in listed
    # And the detail pane's own buttons, where they are.
    rows = {(s.where, s.keys) for s in shortcuts(window)}
    assert ("Dead letter details", "Ctrl+S") in rows
    assert ("Dead letter details", keys_text(window.detail.payload.try_button.shortcut())) in rows
    # Asked again: the same dialog, raised, not a second one.
    window.menu.shortcuts_action.trigger()
    assert len(window.findChildren(QDialog, "shortcutsDialog")) == 1
    dialog.close()


def test_getting_started_and_the_user_guide_open_offline(window) -> None:  # type: ignore[no-untyped-def]
    window.menu.getting_started_action.trigger()
    start = window.findChild(QDialog, "gettingStarted")
    assert "Re-drive" in start.text.toPlainText() and "Ctrl+R" in start.text.toPlainText()
    window.menu.guide_action.trigger()
    guide = window.findChild(QDialog, "userGuide")
    text = guide.text.toPlainText()
    assert "Triage Desk" in text and "triage-app" in text and len(text) > 5_000  # the user guide
    start.close()
    guide.close()


def test_report_a_problem_copies_the_versions_and_the_stores_schema(window, dialogs, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialogs.answer(Ok)
    window.menu.report_action.trigger()
    qtbot.waitUntil(lambda: bool(dialogs.seen), timeout=10_000)
    assert dialogs.seen[0]["name"] == "problemReportBox"
    copied = QGuiApplication.clipboard().text()
    assert f"Triage Desk {__version__}" in copied
    assert f"Python {sys.version.split()[0]}" in copied and f"Qt {qVersion()}" in copied
    assert f"Store: schema {HEAD_REVISION} (this version writes {HEAD_REVISION}), sqlite" in copied
    assert copied in str(dialogs.seen[0]["text"])  # what is copied is shown


def test_report_a_problem_with_no_workspace_open(qtbot, dialogs) -> None:  # type: ignore[no-untyped-def]
    w = MainWindow(None)
    qtbot.addWidget(w)
    dialogs.answer(Ok)
    w.menu.report_action.trigger()
    assert "Workspace: none open" in QGuiApplication.clipboard().text()
    assert "Store: not open" in QGuiApplication.clipboard().text()


def test_about_qt_is_there(window, dialogs) -> None:  # type: ignore[no-untyped-def]
    dialogs.answer(Ok)
    window.menu.about_qt_action.trigger()
    assert "Qt" in str(dialogs.seen[0]["text"])
