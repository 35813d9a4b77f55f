"""The quarantine table: what an empty table says (why nothing shows, and the next step),
and what the selection holds, up to the limit beyond which rows are acted on by filter."""

from __future__ import annotations

from pathlib import Path

from triage_app.core.batch import BatchInfo
from triage_app.core.db import open_workspace
from triage_app.gui.quarantine.model import DeadLetterTableModel
from triage_app.gui.quarantine.table import QuarantineTable, empty_text


def batch(quarantined: int) -> BatchInfo:
    return BatchInfo("b", "night.jsonl", "pesanan@1", "complete", 10, 10 - quarantined, 0,
                     quarantined, "", "")  # fmt: skip


def test_an_empty_table_says_why_and_what_next() -> None:
    assert "Open workspace" in empty_text(has_workspace=False, default_filter=True, batches=[])
    assert "Run a batch" in empty_text(has_workspace=True, default_filter=True, batches=[])
    assert "match these filters" in empty_text(
        has_workspace=True, default_filter=False, batches=[batch(3)]
    )
    assert "every row of the last batch loaded" in empty_text(
        has_workspace=True, default_filter=True, batches=[batch(0)]
    )
    assert "dealt with" in empty_text(has_workspace=True, default_filter=True, batches=[batch(3)])


def test_selection_gives_ids_up_to_the_limit(qtbot, tmp_path: Path, bulk_store) -> None:  # type: ignore[no-untyped-def]
    bulk_store(tmp_path, 300)
    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(ws)
        table = QuarantineTable(model)
        qtbot.addWidget(table)
        table.selectRow(2)
        assert table.selected_count() == 1
        assert table.selected_ids(limit=10) == [model.row(2).id]
        assert table.current_row() == model.row(2)
        table.selectAll()
        assert table.selected_count() == 300
        assert table.selected_ids(limit=299) is None  # too many: act on the filter instead
        assert table.selected_ids(limit=300) == sorted(model.row(r).id for r in range(300))
        model.set_workspace(None)
