"""Re-drive > Fix rows… and Store > Change-sets… (issue 13): a fix built from the form,
previewed with a transform (per row: before and after, or why not), applied as one
change-set that the table shows at once, and reverted from the change-sets dialog."""

from __future__ import annotations

import orjson
from PySide6.QtCore import Qt

from triage_app.core import deadletters as dls
from triage_app.core.db import open_workspace

NULL_DISKON = 4  # the demo's row whose diskon is null (pesanan@1 fails it: code class)


def _fix_dialog(qtbot, window):  # type: ignore[no-untyped-def]
    window.menu.fix_action.trigger()
    dialog = window.dialogs()[-1]
    assert dialog.objectName() == "fixDialog"
    return dialog


def test_a_fix_from_the_form_is_previewed_applied_and_reverted(qtbot, window, demo_workspace):
    dialog = _fix_dialog(qtbot, window)
    assert dialog.scope_filter.isChecked()  # nothing selected: the filter's rows
    assert dialog.transform_combo.currentData() == "pesanan@2"  # newest of what is in use

    # A step the form cannot take is said in one line, and adds nothing.
    dialog.step_kind.setCurrentIndex(dialog.step_kind.findData("map"))
    dialog.step_field.setText("status")
    dialog.step_value.setText("paid")
    qtbot.mouseClick(dialog.add_step_button, Qt.MouseButton.LeftButton)
    assert "must be a JSON object" in dialog.step_error.text() and dialog.steps_list.count() == 0

    dialog.step_kind.setCurrentIndex(dialog.step_kind.findData("default"))
    dialog.step_field.setText("diskon")
    dialog.step_value.setText("0")
    qtbot.mouseClick(dialog.add_step_button, Qt.MouseButton.LeftButton)
    assert [dialog.steps_list.item(i).text() for i in range(dialog.steps_list.count())] == [
        "default diskon = 0"
    ]
    dialog.transform_combo.setCurrentIndex(dialog.transform_combo.findData("pesanan@1"))

    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.apply_button.isEnabled(), timeout=30_000)
    text = dialog.summary.text()
    assert text.startswith("1 of 4 would change (through pesanan@1: 1 would load")
    assert "Not applicable to 3: diskon already has a value (2)" in text
    model = dialog.results.model()
    assert model.rowCount() == 4
    outcomes = {model.index(r, 0).data(): model.index(r, 1).data() for r in range(4)}
    assert outcomes[str(NULL_DISKON)] == "would load"
    assert dialog.apply_button.text() == "Apply to 1 as a change-set"

    applied = []
    dialog.jobFinished.connect(applied.append)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(applied) and not dialog.is_running(), timeout=30_000)
    (report,) = applied
    assert report.changed == (NULL_DISKON,) and report.refused == ()
    assert dialog.summary.text().startswith("Change-set 1: 1 dead letter changed.")
    assert not dialog.apply_button.isEnabled()  # the preview is spent
    with open_workspace(demo_workspace) as ws:
        fixed = dls.get_dead_letter(ws, NULL_DISKON, reveal=True)
    assert orjson.loads(fixed.payload_bytes)["diskon"] == 0
    assert "Change-set 1" in window.statusBar().currentMessage()
    dialog.close()

    window.menu.change_sets_action.trigger()
    sets = window.dialogs()[-1]
    assert sets.objectName() == "changeSetsDialog"
    assert sets.table.rowCount() == 1 and sets.table.item(0, 4).text() == "default diskon = 0"
    sets.table.selectRow(0)
    assert sets.revert_button.isEnabled()
    sets.revert(1)  # Revert… asks first; the answer is the user's
    qtbot.waitUntil(lambda: not sets.is_running(), timeout=30_000)
    assert sets.summary.text() == "Change-set 1 reverted: 1 dead letter restored."
    assert sets.table.item(0, 5).text().endswith(f"by {fixed.events[-1].actor}")
    sets.table.selectRow(0)
    assert not sets.revert_button.isEnabled()  # reverted: nothing more to undo
    with open_workspace(demo_workspace) as ws:
        back = dls.get_dead_letter(ws, NULL_DISKON, reveal=True)
    assert orjson.loads(back.payload_bytes)["diskon"] is None
    sets.close()


def test_a_json_patch_that_is_not_one_is_said_before_anything_runs(qtbot, window):
    dialog = _fix_dialog(qtbot, window)
    dialog.how.setCurrentIndex(1)
    dialog.patch_edit.setPlainText('{"op": "add"}')
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    assert "a JSON Patch is a non-empty array of operations" in dialog.summary.text()
    assert not dialog.is_running() and not dialog.apply_button.isEnabled()
    dialog.close()
