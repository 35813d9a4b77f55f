"""The batch dialog refuses what the engine would, with the engine's own line, before a job
starts: a JSONL file through a CSV transform, a named pipe; and allows Run again once the
choice fits."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtGui import QTextDocument

from triage_app.gui.dialogs.batch_dialog import BatchDialog


def plain(html: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


def test_a_format_the_transform_does_not_read_disables_run_with_the_engines_line(
    qtbot, tmp_path: Path
) -> None:
    src = tmp_path / "orders.jsonl"
    src.write_text('{"pesanan_id": 1}\n')
    started: list[object] = []
    dialog = BatchDialog(started.append)
    qtbot.addWidget(dialog)
    dialog.set_path(src)
    assert dialog.transform_combo.currentData() == "pesanan@2"  # suggested for JSONL
    assert dialog.detected.text() == "read as jsonl" and dialog.run_button.isEnabled()
    dialog.set_transform("orders@1")
    shown = plain(dialog.detected.text())
    assert shown == (
        "orders@1 reads csv and the file is jsonl: use jurnal@1 or pesanan@1 or pesanan@2 "
        "(or give the right format, if the file's name misleads)"
    )
    assert not dialog.run_button.isEnabled() and not dialog.verify_button.isEnabled()
    assert started == []
    dialog.set_transform("pesanan@1")
    assert dialog.detected.text() == "read as jsonl" and dialog.run_button.isEnabled()


def test_a_named_pipe_is_refused_in_the_dialog_pointing_to_standard_input(
    qtbot, tmp_path: Path
) -> None:
    fifo = tmp_path / "feed.jsonl"
    os.mkfifo(fifo)
    dialog = BatchDialog(lambda job: None)
    qtbot.addWidget(dialog)
    dialog.set_path(fifo)
    assert "is a pipe, not a file" in plain(dialog.detected.text())
    assert not dialog.run_button.isEnabled()
