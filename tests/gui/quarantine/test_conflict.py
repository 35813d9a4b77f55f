"""Saving in the window is optimistic: a save names the version the editor loaded. When
another steward (another process) changed the row meanwhile, nothing is overwritten: the
pane offers Reload (theirs, the edit dropped only when the steward confirms) or Compare
(theirs and mine side by side; Keep mine saves over theirs, whose payload the edit event
keeps; Take theirs drops mine). A re-drive holding the row refuses in one line and the
edit stays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from sqlalchemy import select

from tests.support import cli
from triage_app.core.db import AuditEvent, open_workspace
from triage_app.core.deadletters import get_dead_letter
from triage_app.gui.quarantine.conflict_dialog import CHANGED, ConflictDialog, side_by_side

THEIRS = '{"pesanan_id": 3, "qty": 5, "note": "fixed by them"}'
MINE = '{"pesanan_id": 3, "qty": 2, "note": "fixed by me"}'


def _stored(folder: Path, dl_id: int) -> Any:
    with open_workspace(folder) as ws:
        return get_dead_letter(ws, dl_id, reveal=True)


def _edit_then_theirs(qtbot, window, folder: Path) -> int:  # type: ignore[no-untyped-def]
    """Row 0 open in the editor with my unsaved edit; then another process edits it."""
    window.table.selectRow(0)
    dl_id = window.model.row(0).id
    qtbot.waitUntil(lambda: window.detail.current_id() == dl_id)
    qtbot.waitUntil(lambda: not window.queries.busy())
    window.detail.payload.editor.setPlainText(MINE)
    assert window.detail.can_save()
    done = cli("--workspace", str(folder), "edit", str(dl_id), "--payload", THEIRS)
    assert done.returncode == 0, done.stderr
    return dl_id


def _when_modal(kind: type, act: Callable[[Any], None], seen: list[Any]) -> None:
    """Once a modal ``kind`` is up, record it and ``act`` on it (a real click)."""

    def look(tries: int = 0) -> None:
        w = QApplication.activeModalWidget()
        if not isinstance(w, kind) or not w.isVisible():
            if tries < 1_000:
                QTimer.singleShot(10, lambda: look(tries + 1))
            return
        seen.append(w)
        act(w)

    QTimer.singleShot(0, look)


def test_a_conflicting_save_offers_compare_and_keep_mine_keeps_theirs_in_history(
    qtbot, window, demo_workspace
):
    detail = window.detail
    dl_id = _edit_then_theirs(qtbot, window, demo_workspace)
    detail.save()
    qtbot.waitUntil(
        lambda: (
            "Not saved" in detail.payload.banner.text()
            or "Changed by" in detail.payload.banner.text()
        )
    )
    qtbot.waitUntil(lambda: not window.queries.busy())
    # Whether the watch or the save saw it first, the save did not go through.
    if "Not saved" not in detail.payload.banner.text():
        detail.save()
        qtbot.waitUntil(lambda: "Not saved" in detail.payload.banner.text())
    assert "changed after you opened it" in detail.payload.banner.text()
    assert detail.payload.banner.reload_button.isVisibleTo(detail)
    assert detail.payload.banner.compare_button.isVisibleTo(detail)
    assert detail.payload.editor.toPlainText() == MINE and detail.is_dirty()
    assert _stored(demo_workspace, dl_id).payload == THEIRS

    seen: list[Any] = []
    probe: dict[str, Any] = {}

    def keep_mine(d: ConflictDialog) -> None:
        probe["theirs"] = d.theirs_view.toPlainText()
        probe["mine"] = d.mine_view.toPlainText()
        probe["marked"] = (len(d.theirs_view.extraSelections()), len(d.mine_view.extraSelections()))
        probe["summary"] = d.summary.text()
        probe["keep_enabled"] = d.keep_mine.isEnabled()
        d.findChild(QPushButton, "keepMineButton").click()

    _when_modal(ConflictDialog, keep_mine, seen)
    detail.payload.banner.compare_button.click()
    assert seen
    # Side by side, both indented for reading; only the differing lines are marked.
    assert '"fixed by them"' in probe["theirs"] and '"fixed by me"' in probe["mine"]
    assert probe["marked"] == (2, 2)  # qty and note
    assert probe["summary"].startswith("2 lines differ")
    assert probe["keep_enabled"]

    qtbot.waitUntil(lambda: not detail.is_dirty() and not window.queries.busy())
    assert not detail.payload.banner.isVisibleTo(detail)
    stored = _stored(demo_workspace, dl_id)
    assert stored.payload == MINE and stored.version == 3  # quarantined, theirs, mine
    with open_workspace(demo_workspace) as ws, ws.store.connect() as conn:
        events = conn.execute(
            select(AuditEvent.action, AuditEvent.replaced_payload, AuditEvent.version)
            .where(AuditEvent.dead_letter_id == dl_id)
            .order_by(AuditEvent.id)
        ).all()
    # Stored: the two edits; its quarantine is its batch's set record (the History tab
    # below shows it, expanded).
    assert [e.action for e in events] == ["edited", "edited"]
    assert events[-1].replaced_payload == THEIRS.encode()  # nothing lost
    assert events[-1].version == 3
    # The History tab shows it: the last edit's tooltip holds the payload it replaced.
    qtbot.waitUntil(lambda: detail.history.topLevelItemCount() == 3)
    last = detail.history.topLevelItem(2)
    assert "The payload this edit replaced:" in last.toolTip(3)
    assert '"fixed by them"' in last.toolTip(3)


def test_take_theirs_drops_mine(qtbot, window, demo_workspace):
    detail = window.detail
    dl_id = _edit_then_theirs(qtbot, window, demo_workspace)
    qtbot.waitUntil(lambda: detail.theirs() is not None, timeout=2_000)  # the watch saw it
    seen: list[Any] = []
    _when_modal(ConflictDialog, lambda d: d.take_theirs.click(), seen)
    detail.conflicts.compare()
    assert seen
    assert detail.payload.editor.toPlainText() == THEIRS and not detail.is_dirty()
    assert detail.version() == 2 and detail.theirs() is None
    assert _stored(demo_workspace, dl_id).payload == THEIRS


def test_reload_drops_the_edit_only_when_confirmed(qtbot, window, demo_workspace):
    detail = window.detail
    _edit_then_theirs(qtbot, window, demo_workspace)
    qtbot.waitUntil(lambda: detail.payload.banner.reload_button.isVisibleTo(detail), timeout=2_000)
    seen: list[Any] = []
    shown: list[tuple[str, str]] = []  # read while it is up: once answered it is deleted

    def cancel(box: QMessageBox) -> None:
        shown.append((box.objectName(), box.text()))
        box.button(QMessageBox.StandardButton.Cancel).click()

    _when_modal(QMessageBox, cancel, seen)
    detail.payload.banner.reload_button.click()
    assert shown and shown[0][0] == "reloadTheirsDialog"
    assert "Drop your edit" in shown[0][1] and "edited by" in shown[0][1]
    assert detail.payload.editor.toPlainText() == MINE and detail.payload.banner.isVisibleTo(detail)

    def drop(box: QMessageBox) -> None:
        (button,) = [b for b in box.buttons() if b.text() == "Drop my edit and reload"]
        button.click()

    _when_modal(QMessageBox, drop, seen)
    detail.payload.banner.reload_button.click()
    assert len(seen) == 2
    assert detail.payload.editor.toPlainText() == THEIRS and not detail.is_dirty()
    assert not detail.payload.banner.isVisibleTo(detail)


def test_a_save_a_redrive_holds_is_refused_in_one_line_and_kept(
    qtbot, window, demo_workspace, dialogs
):
    from triage_app.core.deadletters.claims import claim
    from triage_app.core.deadletters.leases import new_token

    detail = window.detail
    window.table.selectRow(0)
    dl_id = window.model.row(0).id
    qtbot.waitUntil(lambda: detail.current_id() == dl_id)
    qtbot.waitUntil(lambda: not window.queries.busy())
    detail.payload.editor.setPlainText(MINE)
    with open_workspace(demo_workspace) as ws:  # a re-drive (this live process) holds it
        assert [r.id for r in claim(ws.store, [dl_id], new_token("redriver")).rows] == [dl_id]
    detail.save()
    qtbot.waitUntil(lambda: "held by a re-drive" in detail.payload.banner.text())
    text = detail.payload.banner.text()
    assert "Not saved" in text and "redriver" in text and "Your edit is kept" in text
    assert "\n" not in text
    assert not detail.payload.banner.reload_button.isVisibleTo(detail)
    assert detail.payload.editor.toPlainText() == MINE and detail.is_dirty()
    assert not detail.payload.editor.isReadOnly()
    assert not dialogs.seen  # a line, not a dialog


def test_side_by_side_pairs_changed_lines_and_pads_the_shorter_side():
    from triage_app.core.deadletters import payload_diff

    rows = side_by_side(payload_diff('{"a": 1, "b": 2}', '{"a": 1, "b": 3, "c": 4}'))
    assert [r.kind for r in rows] == ["same", "same", "changed", "mine", "same"]
    changed = rows[2]
    assert changed.kind == CHANGED and changed.theirs == '  "b": 2' and changed.mine == '  "b": 3,'
    assert rows[3].theirs is None and rows[3].mine == '  "c": 4'
