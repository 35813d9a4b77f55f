"""The payload editor against JSONTestSuite: accepts every y_ case, refuses every n_ case,
never crashes on any; highlighting switches off for very large payloads."""

from __future__ import annotations

import pytest

from triage_app.core.deadletters import editable_payload
from triage_app.gui.quarantine.json_editor import HIGHLIGHT_LIMIT, JsonEditor


@pytest.mark.slow
def test_editor_validation_follows_json_test_suite(qtbot, window, json_test_suite):
    table = window.table
    table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() is not None)
    pane = window.detail
    wrong = []
    for case in json_test_suite.cases:
        text = editable_payload(case.read_bytes(), "jsonl", None).text
        pane.payload.editor.setPlainText(text)
        pane._validate()
        if case.name.startswith("y_") and not pane.payload.save_button.isEnabled():
            wrong.append(f"refused {case.name}")
        if case.name.startswith("n_") and pane.payload.save_button.isEnabled():
            wrong.append(f"accepted {case.name}")
    assert not wrong, wrong


def test_highlighting_switches_off_for_large_payloads(qtbot):
    editor = JsonEditor()
    qtbot.addWidget(editor)
    editor.setPlainText('{"a": 1}')
    assert editor.highlighting()
    editor.setPlainText('"' + "x" * HIGHLIGHT_LIMIT + '"')
    assert not editor.highlighting()
    editor.setPlainText("{}")
    assert editor.highlighting()


def test_error_marker_and_line_numbers(qtbot):
    editor = JsonEditor()
    qtbot.addWidget(editor)
    editor.setPlainText('{\n  "a": 1,\n}')
    editor.mark_error(2, 10)
    assert editor.error_position() == (2, 10)
    assert len(editor.extraSelections()) == 2
    assert editor.line_number_width() > 0
    editor.clear_error()
    assert editor.error_position() is None and not editor.extraSelections()
