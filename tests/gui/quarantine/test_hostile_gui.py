"""The hostile-input corpus through the JSON editor and the search box: no crash, Save
enabled exactly for valid JSON that differs, and search finding hostile payloads
literally."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QPushButton, QTableView

from tests.support import HOSTILE
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, list_dead_letters

CORPUS = HOSTILE
EXPECTED = json.loads((CORPUS / "expected.json").read_text())


def _valid(text: str) -> bool:
    try:
        orjson.loads(text.encode("utf-8", "surrogatepass"))
    except (orjson.JSONDecodeError, UnicodeEncodeError):
        return False
    return True


@pytest.mark.slow
def test_hostile_corpus_in_editor_and_search(qtbot, open_main_window, demo_workspace: Path) -> None:
    with open_workspace(demo_workspace) as ws:
        for name, want in EXPECTED.items():
            if "refused" not in want:
                run_batch(ws, CORPUS / name, str(want["transform"]), lanes=1)
        needles = {
            d.id: d.payload
            for d in list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
        }
    assert len(needles) > 30

    window = open_main_window(demo_workspace)
    table = window.findChild(QTableView, "deadLetterTable")
    editor = window.findChild(QPlainTextEdit, "payloadEditor")
    save = window.findChild(QPushButton, "saveEditButton")
    search = window.findChild(QLineEdit, "searchBox")
    status = window.findChild(QComboBox, "statusFilter")
    status.setCurrentIndex(status.findText("All"))
    qtbot.waitUntil(lambda: table.model().rowCount() == len(needles) and not window.queries.busy())

    table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() is not None)
    stored = editor.toPlainText()
    for name in sorted(EXPECTED):
        text = (CORPUS / name).read_bytes()[:400_000].decode("utf-8", errors="replace")
        editor.setPlainText(text)
        shown = editor.toPlainText()
        assert save.isEnabled() == (_valid(shown) and shown != stored), name
    window.detail.discard_edit()

    # Every hostile payload is found by searching for a piece of it, literally.
    misses = []
    for dl_id, payload in sorted(needles.items()):
        # Undecodable bytes are shown escaped (\\xNN) but stored raw, and the search matches
        # what is stored: search with the readable text before the first escape.
        piece = payload.split("\\x")[0][:40].replace("\x00", "")
        if not piece.strip():
            continue
        search.setText(piece)
        qtbot.waitUntil(lambda: not window.queries.busy(), timeout=10_000)
        qtbot.wait(350)  # the debounce
        qtbot.waitUntil(lambda: not window.queries.busy(), timeout=10_000)
        model = table.model()
        ids = {row.id for r in range(model.rowCount()) if (row := model.row(r)) is not None}
        if dl_id not in ids:
            misses.append((dl_id, piece))
    search.setText("")
    assert misses == []
