"""The detail pane always shows the table's chosen row, or says that none is chosen (issue
20): after a search, a re-drive or another steward's change it follows the table; only an
unsaved edit keeps a row the table no longer chooses, and the title says so. A row another
steward changed shows its new state in the pane's title, in team mode too."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel

from tests.support.live import other_steward

SELECT = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
DESELECT = QItemSelectionModel.SelectionFlag.Deselect | QItemSelectionModel.SelectionFlag.Rows


def _row_of(w: Any, dl_id: int) -> int:
    return next(r for r in range(w.model.rowCount()) if w.model.row(r).id == dl_id)


def _search(w: Any, qtbot: Any, text: str, rows: int) -> None:
    w.filter_bar.search.setText(text)
    qtbot.waitUntil(lambda: w.model.total() == rows, timeout=5_000)


def test_a_search_that_hides_the_row_empties_the_pane_and_says_why(qtbot, window):
    window.table.selectRow(_row_of(window, 2))
    qtbot.waitUntil(lambda: window.detail.current_id() == 2)

    _search(window, qtbot, "JSONDecode", 1)  # only #1 matches
    qtbot.waitUntil(lambda: window.detail.current_id() is None)
    assert "#2 is not chosen in the table any more" in window.detail.placeholder.text()
    assert window.detail.title.text() == ""

    # Cleared: nothing is chosen (the search reset the table), so nothing is shown, until
    # the steward chooses again.
    _search(window, qtbot, "", 4)
    qtbot.wait(50)
    assert window.detail.current_id() is None
    window.table.selectRow(_row_of(window, 3))
    qtbot.waitUntil(lambda: window.detail.current_id() == 3)
    assert window.detail.title.text().startswith("#3 · ")


def test_the_pane_follows_the_selection_not_a_deselected_current_row(qtbot, window):
    sm = window.table.selectionModel()
    window.table.selectRow(_row_of(window, 2))
    sm.setCurrentIndex(window.model.index(_row_of(window, 3), 0), SELECT)
    qtbot.waitUntil(lambda: window.detail.current_id() == 3)
    assert sorted(window.selected_ids()) == [2, 3]

    # Ctrl+click on the current row takes it out of the selection: the pane shows the one
    # row still selected, as Re-drive would act on it.
    sm.select(window.model.index(_row_of(window, 3), 0), DESELECT)
    qtbot.waitUntil(lambda: window.detail.current_id() == 2)
    sm.clearSelection()
    qtbot.waitUntil(lambda: window.detail.current_id() is None)


def test_an_unsaved_edit_keeps_its_row_and_the_title_says_it_is_not_chosen(qtbot, window):
    window.table.selectRow(_row_of(window, 2))
    qtbot.waitUntil(lambda: window.detail.current_id() == 2)
    window.detail.payload.editor.setPlainText('{"pesanan_id": 2, "qty": 1}')
    assert window.detail.is_dirty()

    _search(window, qtbot, "JSONDecode", 1)
    qtbot.waitUntil(lambda: window.detail.is_unlisted())
    assert window.detail.current_id() == 2  # the edit is never dropped silently
    assert "not the row chosen in the table" in window.detail.title.text()

    # Reverted: nothing holds the row any more, and the pane follows the table.
    window.detail.discard_edit()
    qtbot.waitUntil(lambda: window.detail.current_id() is None)


def test_another_stewards_resolution_shows_in_the_title(qtbot, live_window, store):
    w = live_window
    w.filter_bar.status_combo.setCurrentIndex(w.filter_bar.status_combo.findData("all"))
    qtbot.waitUntil(lambda: w.model.total() == 4)
    dl_id = 4  # the null-diskon row: pesanan@2 loads it
    w.table.selectRow(_row_of(w, dl_id))
    qtbot.waitUntil(lambda: w.detail.current_id() == dl_id)
    assert " · open · " in w.detail.title.text()

    other_steward(qtbot, store, "redrive", "--id", str(dl_id), "--transform", "pesanan@2")
    qtbot.waitUntil(lambda: " · resolved · " in w.detail.title.text(), timeout=3_000)
    assert w.detail.current_id() == dl_id


def test_with_an_unsaved_edit_the_title_says_the_row_as_stored_now(qtbot, live_window, store):
    w = live_window
    dl_id = 4
    w.table.selectRow(_row_of(w, dl_id))
    qtbot.waitUntil(lambda: w.detail.current_id() == dl_id)
    w.detail.payload.editor.setPlainText('{"pesanan_id": 8, "mine": true}')
    other_steward(qtbot, store, "redrive", "--id", str(dl_id), "--transform", "pesanan@2")
    qtbot.waitUntil(lambda: " · resolved · " in w.detail.title.text(), timeout=3_000)
    assert "changed by another steward: resolved by" in w.detail.title.text()
    assert w.detail.is_dirty()  # the edit stays, for the steward to decide
