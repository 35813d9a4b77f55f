"""A held (all-or-nothing) batch in the window: a dead letter of it says so, and Re-drive >
Load the whole batch… confirms naming the batch and its counts, then loads every row of it
in one transaction through core, on a worker."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from sqlalchemy import select, text

from triage_app.core.batch import run_batch
from triage_app.core.db import Batch, DeadLetter, open_workspace
from triage_app.core.deadletters import edit_payload
from triage_app.core.demo import journal_lines, write_journals

UNBALANCED = "J-7"


def held_workspace(folder: Path) -> tuple[str, int, list[dict]]:
    """A workspace with one held journal batch: J-7 does not balance."""
    lines = journal_lines(24, unbalanced=[UNBALANCED])
    src = write_journals(folder.parent / "jurnal.jsonl", lines)
    with open_workspace(folder) as ws:
        s = run_batch(ws, src, "jurnal@1")
    assert s.state == "held"
    return s.batch_id, s.held, lines


def fix(folder: Path, batch_id: str, lines: list[dict]) -> None:
    journal = [(n, d) for n, d in enumerate(lines, 1) if d["jurnal_id"] == UNBALANCED]
    n, last = journal[-1]
    fixed = {**last, "kredit": sum(d.get("debit") or 0 for _, d in journal)}
    with open_workspace(folder) as ws:
        with ws.store.connect() as conn:
            dl = conn.execute(
                select(DeadLetter.id).where(DeadLetter.batch_id == batch_id, DeadLetter.line == n)
            ).scalar_one()
        edit_payload(ws, dl, json.dumps(fixed))


def test_a_held_batch_is_shown_and_loads_whole(qtbot, open_main_window, tmp_path, dialogs):
    folder = tmp_path / "ws"
    batch_id, held, lines = held_workspace(folder)
    window = open_main_window(folder)
    window.resize(1280, 720)
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() is not None)
    banner = window.detail.held_banner
    qtbot.waitUntil(banner.isVisible)
    assert f"batch {batch_id} is held" in banner.text()
    assert f"{held} rows wait" in banner.text() and "Load the whole batch" in banner.text()
    shot = os.environ.get("TRIAGE_HELD_SCREENSHOT")
    if shot:  # scripts/ and the reviewer look at it; the test never needs it
        window.grab().save(shot)
    # Not fixed yet: confirmed, nothing loads, the status bar says why.
    dialogs.answer(QMessageBox.StandardButton.Yes)
    window.menu.load_whole_action.trigger()
    qtbot.waitUntil(lambda: dialogs.pending == 0)
    assert f"Load batch {batch_id} whole" in str(dialogs.seen[0]["text"])
    assert f"{held} held rows" in str(dialogs.seen[0]["text"])
    qtbot.waitUntil(lambda: "Nothing loaded" in window.statusBar().currentMessage(), timeout=10_000)
    assert f"jurnal {UNBALANCED} tidak seimbang" in window.statusBar().currentMessage()
    # Fixed by another steward's edit; the window loads it whole.
    fix(folder, batch_id, lines)
    dialogs.answer(QMessageBox.StandardButton.Yes)
    window.menu.load_whole_action.trigger()
    qtbot.waitUntil(
        lambda: "whole with jurnal@1 in one transaction" in window.statusBar().currentMessage(),
        timeout=10_000,
    )
    with open_workspace(folder) as ws:
        with ws.warehouse.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM jurnal")).scalar_one() == len(lines)
        with ws.store.connect() as conn:
            state = conn.execute(select(Batch.state).where(Batch.batch_id == batch_id))
            assert state.scalar_one() == "complete"


def test_load_whole_asks_for_a_held_batchs_row(qtbot, window, dialogs):
    """On an orders batch's row it says what it needs, and asks nothing."""
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() is not None)
    assert not window.detail.held_banner.isVisible()
    window.menu.load_whole_action.trigger()
    assert "a dead letter of a held (all-or-nothing) batch" in (window.statusBar().currentMessage())
    assert dialogs.seen == []
