"""Export from the window: the selection to CSV and the filter to JSON Lines, through the
File menu, on the job thread. A CSV cell that a spreadsheet would evaluate (it begins with
= + - @, a tab or a carriage return) is neutralised with a leading apostrophe."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from triage_app.core.db import open_workspace
from triage_app.core.demo import StoreFiller

# (payload, error) pairs: each begins with a character a spreadsheet would act on.
DANGEROUS = [
    (b'=HYPERLINK("http://evil.example","click")', "=1+1"),
    (b"+SUM(A1:A9)", "+cmd|' /C calc'!A0"),
    (b"-2+3", "-1 is not a quantity"),
    (b"@SUM(1,2)", "@import"),
    (b"\t=1+2", "\ttab first"),
    (b"\r=1+2", "\rcarriage return first"),
]
PLAIN = (b'{"pesanan_id": 7, "qty": 1}', "DataError: plain")


def _store(folder: Path) -> None:
    with open_workspace(folder) as ws, StoreFiller(ws) as filler:
        filler.batch("exportexport0001", source_name="x.jsonl", source_sha256="1" * 64)
        for i, (payload, error) in enumerate([*DANGEROUS, PLAIN], start=1):
            filler.dead_letter("exportexport0001", i, payload=payload, error=error)


@pytest.fixture
def export_window(open_main_window, tmp_path):  # type: ignore[no-untyped-def]
    folder = tmp_path / "ws"
    _store(folder)
    return open_main_window(folder)


def _export_through_menu(qtbot, window, action, monkeypatch, path: Path, chosen: str) -> None:  # type: ignore[no-untyped-def]
    # The file dialog is the platform's own; it is answered at the module boundary.
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), chosen))
    assert action.isEnabled()
    action.trigger()
    qtbot.waitUntil(lambda: "exported" in window.statusBar().currentMessage(), timeout=10_000)
    qtbot.waitUntil(lambda: not window.jobs.running())
    assert path.is_file()


def test_export_selection_to_csv_neutralises_formula_cells(
    qtbot, export_window, tmp_path, monkeypatch
):
    window = export_window
    assert window.model.total() == len(DANGEROUS) + 1
    window.table.selectAll()
    qtbot.waitUntil(lambda: window.selected_count() == len(DANGEROUS) + 1)
    out = tmp_path / "selected.csv"
    _export_through_menu(
        qtbot, window, window.menu.export_selection_action, monkeypatch, out, "CSV (*.csv)"
    )
    assert "exported 7 dead letters" in window.statusBar().currentMessage()
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(DANGEROUS) + 1
    by_line = {int(r["line"]): r for r in rows}
    for line, (payload, error) in enumerate(DANGEROUS, start=1):
        r = by_line[line]
        assert r["payload"] == "'" + payload.decode(), r["payload"]
        assert r["error"] == "'" + error
        assert r["signature"] == "'" + error
    plain = by_line[len(DANGEROUS) + 1]
    assert plain["payload"] == PLAIN[0].decode() and plain["error"] == PLAIN[1]
    # No cell anywhere in the file starts with a character a spreadsheet acts on.
    for r in rows:
        for value in r.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value


def test_export_filter_to_jsonl_keeps_values_exact(qtbot, export_window, tmp_path, monkeypatch):
    window = export_window
    window.table.selectRow(0)  # the selection does not matter: the whole filter goes
    out = tmp_path / "filter.jsonl"
    _export_through_menu(
        qtbot, window, window.menu.export_filter_action, monkeypatch, out, "JSON Lines (*.jsonl)"
    )
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(DANGEROUS) + 1
    by_line = {r["line"]: r for r in records}
    for line, (payload, error) in enumerate(DANGEROUS, start=1):
        assert by_line[line]["payload"] == payload.decode()  # JSON is data, not a formula
        assert by_line[line]["error"] == error


def test_export_follows_the_filter(qtbot, export_window, tmp_path, monkeypatch):
    window = export_window
    window.filter_bar.search.setText("plain")
    qtbot.waitUntil(lambda: window.model.total() == 1, timeout=3_000)
    out = tmp_path / "one.csv"
    _export_through_menu(qtbot, window, window.menu.export_filter_action, monkeypatch, out, "CSV")
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = list(csv.DictReader(f))
    assert row["error"] == "DataError: plain"


def test_export_names_its_rows_and_says_when_the_store_moved_meanwhile(
    qtbot, export_window, tmp_path, monkeypatch
):
    """The save dialog names what is exported (the ids, or the filter and its count); the
    rows named are the rows written, or the status bar says the store changed meanwhile."""
    window = export_window
    captions: list[str] = []
    window.table.selectRow(0)
    window.table.selectRow(1)  # one row: the last chosen
    qtbot.waitUntil(lambda: window.selected_ids() == [2])
    out = tmp_path / "named.csv"

    def save_as(_parent, caption, *_a, **_k):  # type: ignore[no-untyped-def]
        captions.append(caption)
        # Another steward's batch adds a row while the save dialog is open.
        batch = f"exportexport{len(captions) + 1:04d}"
        with open_workspace(window.config.folder) as ws, StoreFiller(ws) as filler:
            filler.batch(batch, source_name="y.jsonl", source_sha256=f"{len(captions)}" * 64)
            filler.dead_letter(batch, 1, payload=b"{}", error="DataError: late")
        return str(out), "CSV (*.csv)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window.menu.export_selection_action.trigger()
    qtbot.waitUntil(lambda: "exported" in window.statusBar().currentMessage(), timeout=10_000)
    assert captions == ["Export the 1 selected dead letter: #2"]
    # By id: exactly the row named, the late one is not in the file.
    assert window.statusBar().currentMessage().startswith("exported 1 dead letter to ")
    qtbot.waitUntil(lambda: not window.jobs.running())

    # The filter's export names the filter and its count; the late row matches it too.
    qtbot.waitUntil(lambda: window.model.total() == len(DANGEROUS) + 2, timeout=5_000)
    n = window.model.total()
    window.statusBar().clearMessage()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window.menu.export_filter_action.trigger()
    qtbot.waitUntil(lambda: "exported" in window.statusBar().currentMessage(), timeout=10_000)
    assert captions[-1] == f"Export all {n} dead letters matching status open"
    assert f"({n} matched when you chose: the store changed meanwhile)" in (
        window.statusBar().currentMessage()
    )
    qtbot.waitUntil(lambda: not window.jobs.running())
