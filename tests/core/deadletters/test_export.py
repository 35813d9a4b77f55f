"""Export of dead letters to CSV and JSONL: formula cells neutralised, nothing half-written."""

from __future__ import annotations

import csv
import json

import pytest

from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, export_dead_letters
from triage_app.core.demo import make_demo
from triage_app.core.errors import TriageError


@pytest.fixture
def demo(tmp_path):  # type: ignore[no-untyped-def]
    with open_workspace(tmp_path / "ws") as ws:
        make_demo(ws)
        yield ws


def test_csv_export_of_a_filter(demo, tmp_path):
    out = tmp_path / "dl.csv"
    s = export_dead_letters(demo, DeadLetterFilter(error_class="data"), out, "csv")
    assert s.rows == 3 and not s.cancelled
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["error_class"] for r in rows] == ["data"] * 3
    assert rows[0]["payload"].startswith('{"pesanan_id": 3')
    assert not list(tmp_path.glob("*.part"))


def test_csv_export_neutralises_payload_that_starts_like_a_formula(demo, tmp_path):
    from triage_app.core.deadletters import edit_payload

    edit_payload(demo, 2, '  {"x": "=HYPERLINK(1)"}')
    out = tmp_path / "dl.csv"
    export_dead_letters(demo, DeadLetterFilter(ids=(2,)), out, "csv")
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = list(csv.DictReader(f))
    assert row["payload"] == '  {"x": "=HYPERLINK(1)"}'  # not at the start: untouched


def test_jsonl_export_of_selected_ids(demo, tmp_path):
    out = tmp_path / "dl.jsonl"
    s = export_dead_letters(demo, DeadLetterFilter(ids=(4, 1), status="all"), out, "jsonl")
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert s.rows == 2 and [x["id"] for x in lines] == [1, 4]
    assert lines[1]["error"].startswith("TypeError")


def test_cancelled_export_leaves_no_file(demo, tmp_path):
    class Cancel:
        def update(self, done, total, rows=0):  # type: ignore[no-untyped-def]
            pass

        def cancelled(self) -> bool:
            return True

    import triage_app.core.deadletters.export as export

    out = tmp_path / "dl.csv"
    old = export.CHUNK
    export.CHUNK = 1
    try:
        s = export_dead_letters(demo, DeadLetterFilter(), out, "csv", progress=Cancel())
    finally:
        export.CHUNK = old
    assert s.cancelled and not out.exists() and not list(tmp_path.glob("*.part"))


def test_unknown_format_is_refused(demo, tmp_path):
    with pytest.raises(TriageError):
        export_dead_letters(demo, DeadLetterFilter(), tmp_path / "x.xlsx", "xlsx")
