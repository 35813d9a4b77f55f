"""Run batch opens ready to run the next file (issue 20: it opened on orders@1 with an
empty field, so Enter ran nothing): on the last batch's transform, on the newest file in the
workspace's incoming folder (or the last file's folder) not loaded yet that the transform
reads; with none, Enter opens the file picker there."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from PySide6.QtGui import QTextDocument

from tests.support import SEED_BATCH
from triage_app.gui.dialogs.batch_dialog import BatchDialog


def plain(html: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


def open_dialog(window) -> BatchDialog:  # type: ignore[no-untyped-def]
    window.work.run_batch()
    dialog = window.dialogs()[-1]
    assert isinstance(dialog, BatchDialog)
    return dialog


def test_it_opens_on_the_last_batchs_transform_and_the_next_file(
    window, demo_workspace: Path
) -> None:  # type: ignore[no-untyped-def]
    incoming = demo_workspace / "incoming"
    night = incoming / "pesanan_2026-01-13.jsonl"
    shutil.copyfile(SEED_BATCH, night)  # tonight's file has arrived
    dialog = open_dialog(window)
    assert dialog.transform_combo.currentData() == "pesanan@1"  # the demo's batch ran with it
    assert dialog.path_edit.text() == str(night)
    assert "newest file in" in plain(dialog.detected.text())
    assert dialog.run_button.isEnabled() and dialog.run_button.isDefault()  # Enter runs it
    dialog.close()


def test_with_nothing_new_enter_browses_and_another_transform_offers_its_file(
    window, demo_workspace: Path
) -> None:  # type: ignore[no-untyped-def]
    dialog = open_dialog(window)  # the demo's JSONL is loaded, its CSV is not
    assert dialog.transform_combo.currentData() == "pesanan@1"
    assert dialog.path_edit.text() == ""
    assert "no new JSONL file in" in plain(dialog.detected.text())
    assert not dialog.run_button.isEnabled() and dialog.browse_button.isDefault()
    dialog.set_transform("orders@1")  # the CSV transform: the CSV waiting is offered
    assert dialog.path_edit.text() == str(demo_workspace / "incoming" / "orders_2026-01-09.csv")
    assert dialog.run_button.isDefault()
    completer = dialog.path_edit.completer()
    listed = {completer.model().index(r, 0).data() for r in range(completer.model().rowCount())}
    assert listed == {str(p) for p in (demo_workspace / "incoming").iterdir()}
    dialog.close()


def test_it_opens_on_the_folder_of_the_last_file_run(window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    elsewhere = tmp_path / "drop"
    elsewhere.mkdir()
    first = elsewhere / "pesanan_a.jsonl"
    first.write_bytes(SEED_BATCH.read_bytes().replace(b'"Rina"', b'"Rani"'))  # a new batch
    dialog = open_dialog(window)
    dialog.set_path(first)
    with qtbot.waitSignal(dialog.jobFinished, timeout=20_000):
        dialog.run()
    qtbot.waitUntil(lambda: not dialog.is_running())
    dialog.close()
    second = elsewhere / "pesanan_b.jsonl"
    second.write_bytes(first.read_bytes().replace(b'"Rina"', b'"Rini"'))
    os.utime(second, (first.stat().st_mtime + 10,) * 2)
    qtbot.waitUntil(lambda: bool(window.batches) and window.batches[0].source_name == first.name)
    again = open_dialog(window)
    assert again.path_edit.text() == str(second)  # from the folder last used, not incoming
    again.close()


def test_without_a_workspace_folder_it_still_opens_on_pesanan(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = BatchDialog(lambda job: None)
    qtbot.addWidget(dialog)
    assert dialog.transform_combo.currentData() == "pesanan@2"
    assert dialog.path_edit.text() == "" and dialog.detected.text() == ""
