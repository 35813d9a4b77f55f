"""An edit in the payload editor is never dropped silently: selecting another row,
refreshing, re-driving, opening another workspace or closing the window asks Save /
Discard / Cancel first, like an editor does. The dialog is the real one, answered by
clicking its buttons."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from triage_app.core.db import open_workspace
from triage_app.core.deadletters import get_dead_letter

B = QMessageBox.StandardButton


def _stored(folder, dl_id: int) -> str:  # type: ignore[no-untyped-def]
    with open_workspace(folder) as ws:
        return get_dead_letter(ws, dl_id, reveal=True).payload


def _edit_first_row(qtbot, window):  # type: ignore[no-untyped-def]
    """Select row 0 and make a valid edit; returns (its id, the edited text)."""
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() == window.model.row(0).id)
    qtbot.waitUntil(lambda: not window.queries.busy())
    dl_id = window.detail.current_id()
    edited = '{"pesanan_id": 1, "edited": "by a test"}'
    window.detail.payload.editor.setPlainText(edited)
    assert window.detail.is_dirty() and window.detail.can_save()
    return dl_id, edited


def _click_row(qtbot, window, row: int) -> None:  # type: ignore[no-untyped-def]
    rect = window.table.visualRect(window.model.index(row, 0))
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_cancel_keeps_the_edit_and_the_selection(qtbot, window, demo_workspace, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    dialogs.answer(B.Cancel, probe=lambda: window.table.currentIndex().row())
    _click_row(qtbot, window, 1)
    qtbot.waitUntil(lambda: dialogs.pending == 0)
    (asked,) = dialogs.seen
    assert asked["probe"] == 0  # while asking, the table shows the row being edited
    assert asked["name"] == "unsavedEditDialog"
    assert f"#{dl_id}" in asked["text"] and "showing #" in asked["text"]
    assert set(asked["buttons"]) == {B.Save, B.Discard, B.Cancel}
    # The selection is back on the edited row; the edit is where it was; nothing stored.
    qtbot.waitUntil(lambda: window.table.currentIndex().row() == 0)
    assert window.selected_ids() == [dl_id]
    assert window.detail.current_id() == dl_id
    assert window.detail.payload.editor.toPlainText() == edited
    assert _stored(demo_workspace, dl_id) != edited


def test_discard_drops_the_edit_and_shows_the_other_row(qtbot, window, demo_workspace, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    other = window.model.row(1).id
    dialogs.answer(B.Discard)
    window.table.selectRow(1)  # by keyboard or code: the same question
    qtbot.waitUntil(lambda: window.detail.current_id() == other)
    assert dialogs.seen and dialogs.seen[0]["answered"] == B.Discard
    assert not window.detail.is_dirty()
    assert _stored(demo_workspace, dl_id) != edited


def test_save_stores_the_edit_then_shows_the_other_row(qtbot, window, demo_workspace, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    other = window.model.row(1).id
    dialogs.answer(B.Save)
    _click_row(qtbot, window, 1)
    qtbot.waitUntil(lambda: window.detail.current_id() == other)
    assert _stored(demo_workspace, dl_id) == edited
    assert not window.detail.is_dirty()
    with open_workspace(demo_workspace) as ws:
        assert get_dead_letter(ws, dl_id, reveal=True).events[-1].action == "edited"


def test_an_invalid_edit_can_only_be_discarded_or_kept(qtbot, window, dialogs):
    dl_id, _ = _edit_first_row(qtbot, window)
    window.detail.payload.editor.setPlainText('{"pesanan_id": 1,')
    dialogs.answer(B.Save)  # not offered: the box is closed with Escape, i.e. Cancel
    _click_row(qtbot, window, 2)
    qtbot.waitUntil(lambda: dialogs.pending == 0)
    (asked,) = dialogs.seen
    assert set(asked["buttons"]) == {B.Discard, B.Cancel}
    assert "cannot be saved" in asked["text"] and "line 1" in asked["text"]
    qtbot.waitUntil(lambda: window.table.currentIndex().row() == 0)
    assert window.detail.current_id() == dl_id
    assert window.detail.payload.editor.toPlainText() == '{"pesanan_id": 1,'


def test_a_filter_change_keeps_the_edit_without_asking(qtbot, window, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    window.filter_bar.class_combo.setCurrentText("Code")
    qtbot.waitUntil(lambda: window.model.total() == 1)
    qtbot.waitUntil(lambda: not window.queries.busy())
    assert not dialogs.seen
    assert window.detail.current_id() == dl_id
    assert window.detail.payload.editor.toPlainText() == edited


def test_refresh_asks_and_cancel_keeps_the_edit(qtbot, window, demo_workspace, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    dialogs.answer(B.Cancel)
    qtbot.mouseClick(window.refresh_button, Qt.MouseButton.LeftButton)
    assert dialogs.seen and "refreshing" in dialogs.seen[0]["text"]
    assert window.detail.payload.editor.toPlainText() == edited
    # F5 again, and Save: stored first, then the store is read again.
    dialogs.answer(B.Save)
    window.menu.refresh_action.trigger()
    qtbot.waitUntil(lambda: not window.detail.is_dirty())
    qtbot.waitUntil(lambda: not window.queries.busy())
    assert _stored(demo_workspace, dl_id) == edited
    assert window.detail.payload.editor.toPlainText() == edited


def test_redrive_asks_first_because_it_uses_the_stored_payload(qtbot, window, dialogs):
    _edit_first_row(qtbot, window)
    dialogs.answer(B.Cancel)
    window.menu.redrive_action.trigger()
    assert dialogs.seen and "re-driving" in dialogs.seen[0]["text"]
    assert not window.dialogs()  # no re-drive dialog opened
    dialogs.answer(B.Discard)
    window.menu.redrive_action.trigger()
    assert window.dialogs() and window.dialogs()[-1].objectName() == "redriveDialog"
    window.dialogs()[-1].close()


def test_opening_another_workspace_asks_first(qtbot, window, demo_workspace, tmp_path, dialogs):
    from triage_app.core.db import resolve_config

    dl_id, edited = _edit_first_row(qtbot, window)
    dialogs.answer(B.Cancel)
    window.workspaces.try_open(resolve_config(tmp_path / "other", env={}))
    assert "opening another workspace" in dialogs.seen[0]["text"]
    assert window.config.folder == demo_workspace
    assert window.detail.payload.editor.toPlainText() == edited
    dialogs.answer(B.Save)
    window.workspaces.try_open(resolve_config(tmp_path / "other", env={}))
    qtbot.waitUntil(lambda: window.config.folder == tmp_path / "other")
    assert _stored(demo_workspace, dl_id) == edited


def test_closing_asks_cancel_keeps_the_window_open(qtbot, window, demo_workspace, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    dialogs.answer(B.Cancel)
    assert not window.close()
    assert "closing" in dialogs.seen[0]["text"]
    assert window.isVisible() and window.detail.payload.editor.toPlainText() == edited
    # Save: the window closes once the edit is stored.
    dialogs.answer(B.Save)
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible())
    assert window.ws is None  # the workspace was closed after the save
    assert _stored(demo_workspace, dl_id) == edited


def test_closing_with_discard_closes_without_saving(qtbot, window, demo_workspace, dialogs):
    dl_id, edited = _edit_first_row(qtbot, window)
    dialogs.answer(B.Discard)
    assert window.close()
    assert not window.isVisible()
    assert _stored(demo_workspace, dl_id) != edited
