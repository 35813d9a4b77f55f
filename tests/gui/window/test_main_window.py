"""The steward's loop on the real window: filter to code, select, a broken edit keeps
Save disabled, a valid edit saves and shows in History, re-drive with v2 resolves it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QPushButton, QTableView

from tests.support import history_actions
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import get_dead_letter


def test_steward_fixes_a_code_failure_and_redrives_it_with_v2(qtbot, window, demo_workspace):
    table = window.findChild(QTableView, "deadLetterTable")
    class_filter = window.findChild(QComboBox, "classFilter")
    status_filter = window.findChild(QComboBox, "statusFilter")
    editor = window.findChild(QPlainTextEdit, "payloadEditor")
    save = window.findChild(QPushButton, "saveEditButton")
    assert [class_filter.itemText(i) for i in range(4)] == ["All", "Data", "Code", "Transient"]
    assert [status_filter.itemText(i) for i in range(5)] == [
        "Open",
        "Parked",
        "Resolved",
        "Discarded",
        "All",
    ]
    assert status_filter.currentText() == "Open"
    assert table.model().rowCount() == 4

    # Filter to code: the null-discount row only.
    class_filter.setCurrentIndex(class_filter.findText("Code"))
    qtbot.waitUntil(lambda: table.model().rowCount() == 1)
    assert "1 open dead letter matches" in window.counts.count_label.text()

    # Select it: the editor shows its payload; nothing changed yet, so Save is disabled.
    table.selectRow(0)
    qtbot.waitUntil(lambda: '"diskon": null' in editor.toPlainText())
    dl_id = window.detail.current_id()
    assert not save.isEnabled()
    assert "1 selected" in window.counts.count_label.text()

    # Invalid JSON keeps Save disabled and marks where the error is.
    editor.setPlainText('{"pesanan_id": 8,\n  "qty": 2,\n}')
    assert not save.isEnabled()
    assert editor.error_position() == (2, 11)  # orjson blames the trailing comma
    assert "line 2 col 11" in window.detail.payload.validation.text()
    assert window.detail.payload.validation.text().count("line") == 1  # said once (issue 20)

    # A valid edit enables Save; Ctrl+S saves it through core's audited edit.
    stored = get_dead_letter_text(demo_workspace, dl_id)
    edited = stored.replace('"qty": 1', '"qty": 2')
    editor.setPlainText(edited)
    assert save.isEnabled()
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: history_actions(window)[-1:] == ["edited"])
    assert not save.isEnabled()  # saved: the editor holds the stored payload again
    assert get_dead_letter_text(demo_workspace, dl_id) == edited

    # Try with pesanan@1: the null discount still fails; nothing is written.
    window.detail.payload.try_combo.setCurrentText("pesanan@1")
    qtbot.mouseClick(window.detail.payload.try_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "still fails" in window.detail.payload.try_result.toPlainText())
    assert "TypeError" in window.detail.payload.try_result.toPlainText()
    window.detail.payload.try_combo.setCurrentText("pesanan@2")
    qtbot.mouseClick(window.detail.payload.try_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "would load" in window.detail.payload.try_result.toPlainText())
    assert '"total": 240000' in window.detail.payload.try_result.toPlainText()

    # Re-drive: the dialog previews first (dry run), then runs with the default, v2.
    qtbot.mouseClick(window.findChild(QPushButton, "redriveButton"), Qt.MouseButton.LeftButton)
    dialog = window.dialogs()[-1]
    assert dialog.transform_combo.currentData() == "pesanan@2"
    assert dialog.scope_selected.isChecked()
    assert not dialog.run_button.isEnabled()
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=10_000)
    assert "1 would succeed" in dialog.summary.text()
    assert dialog.results.model().index(0, 2).data() == "would succeed"
    assert get_dead_letter(_ws(demo_workspace), dl_id).status == "open"  # nothing written
    with qtbot.waitSignal(dialog.jobFinished, timeout=10_000):
        qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running())
    assert "1 resolved" in dialog.summary.text()
    dialog.close()

    # The row has left Open: the table no longer shows it, so the pane no longer does
    # either, and says why (issue 20: it showed a row nothing in the table chose).
    qtbot.waitUntil(lambda: table.model().rowCount() == 0)
    qtbot.waitUntil(lambda: window.table.empty_label.isVisible())
    assert "match these filters" in window.table.empty_label.text()
    qtbot.waitUntil(lambda: window.detail.current_id() is None)
    assert f"#{dl_id} is not chosen in the table any more" in window.detail.placeholder.text()
    # Shown again where it is now: resolved, with the re-drive in its history.
    status_filter.setCurrentText("Resolved")
    qtbot.waitUntil(lambda: table.model().rowCount() == 1)
    table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() == dl_id)
    assert history_actions(window)[-1:] == ["resolved"]
    assert " · resolved · " in window.detail.title.text()


def test_search_is_literal(qtbot, window):
    search = window.findChild(QLineEdit, "searchBox")
    for text, expected in (("Dewi", 1), ("%", 0), ("_", 0), ("'", 1), ('"qty": -1', 1)):
        search.setText(text)
        qtbot.waitUntil(lambda e=expected: window.model.total() == e, timeout=3_000)
    search.clear()
    qtbot.waitUntil(lambda: window.model.total() == 4)


def _ws(folder):  # type: ignore[no-untyped-def]
    return open_workspace(folder)


def get_dead_letter_text(folder, dl_id: int) -> str:  # type: ignore[no-untyped-def]
    with open_workspace(folder) as ws:
        return get_dead_letter(ws, dl_id, reveal=True).payload


def test_the_title_names_the_app_once(window, demo_workspace):
    """Qt appends the application's display name to a window's title on X11 and Windows
    (unless the title already ends with it): the window's own title is the workspace alone,
    so the title bar reads "<workspace> — Triage Desk", never the name twice (issue 20)."""
    from triage_app.gui.app import DISPLAY_NAME

    assert window.windowTitle() == str(demo_workspace.resolve())
    shown = f"{window.windowTitle()} — {DISPLAY_NAME}"  # QPlatformWindow::formatWindowTitle
    assert shown.count("Triage Desk") == 1


LONG = (
    "Batch 1a2b3c4d: 10 rows, 6 loaded, 0 superseded, 4 quarantined (3 data, 1 code) in "
    "0.1 s. Run the same file again to resume where it stopped."
)


def test_a_long_status_message_is_cut_at_a_word_and_whole_in_the_tooltip(window, qtbot):
    """Issue 20: at 1280 px a message was cut mid-word ("...where it stopped. R")."""
    bar = window.statusBar()
    window.resize(1177, 662)  # the first window on a 1280x720 laptop
    qtbot.waitUntil(lambda: window.width() == 1177)
    window.show_message(LONG)
    shown = bar.shown_message()
    assert shown.endswith("…") and shown != LONG
    kept = shown[:-1]
    assert LONG.startswith(kept) and LONG[len(kept)] in " ,."  # a whole word, then "…"
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.message_room()
    assert bar.toolTip() == LONG and bar.currentMessage() == LONG

    window.resize(2400, 700)  # room for all of it: whole, and no tooltip
    qtbot.waitUntil(lambda: bar.shown_message() == LONG)
    assert bar.toolTip() == ""
    window.resize(1177, 662)  # narrow again: cut again
    qtbot.waitUntil(lambda: bar.shown_message().endswith("…"))

    bar.clearMessage()
    assert bar.currentMessage() == "" and bar.toolTip() == ""
