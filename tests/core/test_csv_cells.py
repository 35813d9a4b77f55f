"""Every CSV the project writes is spreadsheet-safe, through one cell writer: exports, the
charts' numbers and the report."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from triage_app.core.csv_cells import safe_cell as neutralise_cell
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, export_dead_letters
from triage_app.core.demo import StoreFiller
from triage_app.core.trends import chart_tables, compute_trends, write_csv

HOSTILE_CELLS = ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]


@pytest.mark.parametrize("cell", HOSTILE_CELLS)
def test_formula_cells_are_neutralised(cell):
    assert neutralise_cell(cell) == "'" + cell


def test_other_cells_pass():
    assert neutralise_cell("Budi") == "Budi"
    assert neutralise_cell(-1) == -1  # numbers are numbers, not formulas
    assert neutralise_cell(None) is None


def test_exports_and_chart_tables_neutralise_the_same_cells(tmp_path: Path) -> None:
    """One signature per hostile cell, through both writers: each comes out with its
    apostrophe, in the export and in the error groups' CSV alike. (The charts' writer
    once missed the tab and the carriage return.)"""
    with open_workspace(tmp_path / "ws") as ws:
        with StoreFiller(ws) as filler:
            filler.batch(
                "cafecafecafe0001", rows=len(HOSTILE_CELLS), quarantined=len(HOSTILE_CELLS)
            )
            for line, cell in enumerate(HOSTILE_CELLS, 1):
                filler.dead_letter("cafecafecafe0001", line, error=cell, signature=cell)
        export_dead_letters(ws, DeadLetterFilter(status="all"), tmp_path / "dl.csv", "csv")
        write_csv(tmp_path / "groups.csv", chart_tables(compute_trends(ws))["error_groups"])
    with (tmp_path / "dl.csv").open(newline="", encoding="utf-8") as fh:
        exported = {row["signature"] for row in csv.DictReader(fh)}
    with (tmp_path / "groups.csv").open(newline="", encoding="utf-8") as fh:
        charted = {row["signature"] for row in csv.DictReader(fh)}
    expected = {"'" + cell for cell in HOSTILE_CELLS}
    assert exported == expected
    assert charted == expected
