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
    window.row_actions.park()
    qtbot.waitUntil(lambda: window.model.total() == 3)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("junk from a test", True))
    table.selectRow(0)
    window.row_actions.discard()
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
