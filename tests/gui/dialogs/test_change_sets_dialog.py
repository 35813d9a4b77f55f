"""Store > Change-sets…: a revert from the window, and text from the store shown as typed.
A change-set's description quotes the fix's values and a moved-on row names who changed it:
"<b>" there must show as typed, never as markup (issue 21)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.support import SEED_BATCH
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import Fix, Step
from triage_app.gui.dialogs.change_sets_dialog import ChangeSetsDialog

MARKUP = "<b>bold</b> & <i>x</i>"


def _store(folder: Path) -> None:
    with open_workspace(folder) as ws:
        run_batch(ws, SEED_BATCH, "pesanan@1")
        ids = dls.chosen_ids(ws, None, dls.DeadLetterFilter())
        fix = Fix(steps=(Step("set", "catatan", MARKUP),))
        p = dls.preview_fix(ws, fix, ids)
        dls.apply_fix(ws, fix, p.versions, actor="ani")
        # One row moves on after the fix: edited by hand by someone with markup in a name.
        d = dls.get_dead_letter(ws, ids[1], reveal=True)
        dls.edit_payload(ws, ids[1], '{"pesanan_id": 1}', if_version=d.version, actor="<b>eve</b>")


def test_a_revert_from_the_window_shows_store_text_as_typed(
    qtbot, open_main_window, tmp_path, dialogs
):
    folder = tmp_path / "ws"
    _store(folder)
    window = open_main_window(folder)
    window.menu.change_sets_action.trigger()
    dialog = window.dialogs()[-1]
    assert isinstance(dialog, ChangeSetsDialog)
    assert dialog.table.rowCount() == 1
    assert MARKUP in dialog.table.item(0, 4).text()  # a table cell is plain text
    dialog.table.selectRow(0)
    assert dialog.revert_button.isEnabled()
    dialogs.answer(QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.revert_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=20_000)
    (asked,) = dialogs.seen
    assert asked["name"] == "revertBox" and MARKUP in str(asked["text"])
    shown = dialog.summary.text()
    assert dialog.summary.textFormat() == Qt.TextFormat.RichText
    assert "&lt;b&gt;eve&lt;/b&gt;" in shown and "<b>eve</b>" not in shown
    assert "restored" in shown
