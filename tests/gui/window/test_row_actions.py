"""Row actions on the real window: reclassify, park, discard with a reason, a note; each is
audited and shows in the History tab."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView

from tests.support import history_actions
from triage_app.core.vocabulary import ErrorClass


def test_row_actions_are_audited(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    table = window.findChild(QTableView, "deadLetterTable")
    table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() is not None)
    window.row_actions.reclassify(ErrorClass.CODE)
    qtbot.waitUntil(lambda: "reclassified" in history_actions(window))
    table.selectRow(0)
    parked = window.model.row(0).id
    window.row_actions.park()
    qtbot.waitUntil(lambda: window.model.total() == 3)
    # The status bar says core's sentence, as `triage-app park` prints it.
    assert window.statusBar().currentMessage() == f"Parked 1 dead letter: #{parked}."
    table.selectRow(0)
    window.row_actions.discard()  # the dialog previews the selected row, names it
    discard = window.dialogs()[-1]
    qtbot.waitUntil(lambda: discard.discard_button.text() == "Discard 1")
    discard.reason.setText("junk from a test")
    discard.discard_button.click()
    qtbot.waitUntil(lambda: window.model.total() == 2)
    monkeypatch.setattr(
        QInputDialog, "getMultiLineText", lambda *a, **k: ("asked the partner", True)
    )
    table.selectRow(0)
    qtbot.waitUntil(lambda: window.selected_count() == 1)
    window.row_actions.add_note()
    qtbot.waitUntil(lambda: "note" in history_actions(window))
    window.filter_bar.status_combo.setCurrentText("All")
    qtbot.waitUntil(lambda: window.model.total() == 4)
    statuses = sorted(window.model.row(r).status for r in range(4))
    assert statuses == ["discarded", "open", "open", "parked"]


def test_a_row_changed_since_the_table_showed_it_is_refused(qtbot, window, demo_workspace, dialogs):
    """The actions name the versions the table showed: another steward's edit in between
    refuses the park with who and when, writes nothing, and the table is read again."""
    from PySide6.QtWidgets import QMessageBox

    from tests.support import cli
    from triage_app.core.db import open_workspace
    from triage_app.core.deadletters import get_dead_letter

    window.table.selectRow(0)
    dl_id = window.model.row(0).id
    assert window.model.row(0).version == 1
    qtbot.waitUntil(lambda: window.detail.current_id() == dl_id)
    # Another process edits it; the window has not looked yet (this thread was waiting).
    done = cli("--workspace", str(demo_workspace), "edit", str(dl_id), "--payload", "{}")
    assert done.returncode == 0, done.stderr
    dialogs.answer(QMessageBox.StandardButton.Ok)
    window.row_actions.park()
    qtbot.waitUntil(lambda: dialogs.pending == 0)
    (box,) = dialogs.seen
    assert f"dead letter {dl_id} changed since version 1 (edited by " in str(box["text"])
    assert "Nothing was changed" in str(box["text"])
    with open_workspace(demo_workspace) as ws:
        assert get_dead_letter(ws, dl_id, reveal=True).status == "open"
    qtbot.waitUntil(lambda: window.model.row(0).version == 2)
    # With the version the table shows now, the same action goes through.
    window.table.selectRow(0)
    window.row_actions.park()
    qtbot.waitUntil(lambda: window.model.total() == 3)
