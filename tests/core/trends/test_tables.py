"""The numbers behind each Trends chart as plain tables, on the crafted workspace, and their
CSV: a header row, spreadsheet-safe cells, read back as written."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from tests.support.crafted_trends import Crafted
from triage_app.core.db import Workspace
from triage_app.core.trends import CHART_TITLES, Trends, chart_tables, compute_trends, write_csv

BATCH = ["batch_id", "source_name", "transform", "started_at", "rows", "quarantined"]
HEADERS = {
    "failures_per_day": ["day", "data", "code", "transient", "total"],
    "failures_per_batch": [*BATCH, "data", "code", "transient"],
    "backlog": ["day", "open", "resolved", "arrived", "resolved_on_day", "discarded_on_day"],
    "quarantine_rate": [*BATCH, "rate", "baseline", "threshold", "spike"],
    "attempts": ["attempts", "dead_letters", "parked"],
    "error_groups": [
        "signature",
        "class",
        "count",
        "open",
        "resolved",
        "parked",
        "discarded",
        "first_seen",
        "last_seen",
        "owner",
        "tags",
        "note",
        "oldest_open",
        "first_batch",
        "first_source",
        "first_transform",
        "last_24h",
        "previous_24h",
        "trend",
    ],
}


def as_read(value: Any) -> str:
    """A cell as csv.reader gives it back."""
    return "" if value is None else str(value)


def test_every_chart_has_a_table_with_the_documented_headers(ws: Workspace) -> None:
    tables = chart_tables(compute_trends(ws))
    assert set(tables) == set(CHART_TITLES) == set(HEADERS)
    for name, (headers, rows) in tables.items():
        assert headers == HEADERS[name], name
        assert all(len(row) == len(headers) for row in rows), name


def test_row_counts_and_values_match_the_trends(
    ws: Workspace, crafted: tuple[Path, Crafted]
) -> None:
    t = compute_trends(ws)
    tables = chart_tables(t)
    counts = {name: len(rows) for name, (_, rows) in tables.items()}
    assert counts == {
        "failures_per_day": len(t.per_day),
        "failures_per_batch": len(t.per_batch),
        "backlog": len(t.backlog),
        "quarantine_rate": len(t.per_batch),
        "attempts": len(t.attempts),
        "error_groups": len(t.groups),
    }
    assert counts == {
        "failures_per_day": 4,
        "failures_per_batch": 3,
        "backlog": 4,
        "quarantine_rate": 3,
        "attempts": 2,
        "error_groups": 4,
    }
    b = crafted[1].batches
    assert tables["failures_per_day"][1] == [
        ["2026-03-01", 3, 1, 0, 4],
        ["2026-03-02", 1, 1, 0, 2],
        ["2026-03-03", 0, 0, 0, 0],
        ["2026-03-04", 1, 0, 0, 1],
    ]
    assert tables["failures_per_batch"][1] == [
        [b["b1"], "b1.jsonl", "pesanan@1", "2026-03-01T10:00:00Z", 10, 4, 3, 1, 0],
        [b["b2"], "b2.jsonl", "pesanan@1", "2026-03-02T10:00:00Z", 5, 2, 1, 1, 0],
        [b["b3"], "b3.jsonl", "pesanan@1", "2026-03-04T10:00:00Z", 4, 1, 1, 0, 0],
    ]
    assert tables["backlog"][1] == [
        ["2026-03-01", 4, 0, 4, 0, 0],
        ["2026-03-02", 6, 0, 2, 0, 0],
        ["2026-03-03", 5, 1, 0, 1, 0],
        ["2026-03-04", 5, 1, 1, 0, 1],
    ]
    # Three batches: too few for the rule to judge (no baseline, no threshold, no spike).
    assert [row[6:] for row in tables["quarantine_rate"][1]] == [
        [0.4, None, None, False],
        [0.4, None, None, False],
        [0.25, None, None, False],
    ]
    assert [row[:6] for row in tables["quarantine_rate"][1]] == [
        row[:6] for row in tables["failures_per_batch"][1]
    ]
    assert tables["attempts"][1] == [[1, 6, 0], [3, 1, 1]]
    groups = tables["error_groups"][1]
    assert groups[0] == [
        "DataError: qty tidak valid: <n>",
        "data",
        3,
        1,  # open
        1,  # resolved
        1,  # parked
        0,  # discarded
        "2026-03-01T10:00:00Z",
        "2026-03-03T15:00:00Z",
        "",  # owner: nobody
        "",  # tags
        "",  # note
        "2026-03-02T10:00:00Z",  # its oldest open row's first failure
        b["b1"],  # first seen in b1, its file, through pesanan@1
        "b1.jsonl",
        "pesanan@1",
        0,  # none in the last 24 h (March is long past)
        0,
        "quiet",
    ]
    assert [(g[0], g[2]) for g in groups] == [(g.signature, g.count) for g in t.groups]
    assert all(sum(g[3:7]) == g[2] for g in groups)  # the statuses add up to the count


def test_the_rate_table_carries_the_rule_verdicts(ws: Workspace) -> None:
    from triage_app.core.trends import SpikeRule

    t = compute_trends(ws, rule=SpikeRule(factor=0.7, window=1))
    rows = chart_tables(t)["quarantine_rate"][1]
    # b2 against b1: 0.4 > 0.7 x 0.4; b3 against b2: 0.25 is not above 0.28.
    assert [row[6:] for row in rows] == [
        [0.4, None, None, False],
        [0.4, 0.4, 0.28, True],
        [0.25, 0.4, 0.28, False],
    ]


def test_an_empty_trends_has_headers_and_no_rows() -> None:
    empty = Trends(None, (), (), (), (), (), ())
    tables = chart_tables(empty)
    assert {name: headers for name, (headers, _) in tables.items()} == HEADERS
    assert all(rows == [] for _, rows in tables.values())


def test_write_csv_round_trips_through_csv_reader(ws: Workspace, tmp_path: Path) -> None:
    tables = chart_tables(compute_trends(ws))
    for name, (headers, rows) in tables.items():
        path = tmp_path / f"{name}.csv"
        write_csv(path, (headers, rows))
        with path.open(newline="", encoding="utf-8") as fh:
            head, *body = list(csv.reader(fh))
        assert head == headers, name
        assert body == [[as_read(v) for v in row] for row in rows], name


def test_write_csv_keeps_awkward_text_and_neutralises_formulas(tmp_path: Path) -> None:
    rows: list[list[Any]] = [
        ['=HYPERLINK("http://x")', "+1", -1, None, True],
        ["@SUM(A1)", "-5 qty", 0.25, "", False],
        ["KeyError: 'diskon', \"harga\"", "two\nlines", 3, "Müller ✓", "\tTAB"],
    ]
    path = tmp_path / "t.csv"
    write_csv(path, (["a", "b", "c", "d", "e"], rows))
    with path.open(newline="", encoding="utf-8") as fh:
        head, *body = list(csv.reader(fh))
    assert head == ["a", "b", "c", "d", "e"]
    assert body == [
        ['\'=HYPERLINK("http://x")', "'+1", "-1", "", "True"],  # a number is no formula
        ["'@SUM(A1)", "'-5 qty", "0.25", "", "False"],
        ["KeyError: 'diskon', \"harga\"", "two\nlines", "3", "Müller ✓", "'\tTAB"],
    ]
