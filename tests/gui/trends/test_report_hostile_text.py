"""Text from the store in the report and in an export (issue 21): a signature and an error
as a store from before the input checks (or a partner's file, or a plugin's message) holds
them, planted directly: a formula, HTML, a terminal's escape sequence, a backtick and a
pipe. The CSVs guard formulas, the HTML page escapes, the Markdown shows the controls as
``\\x1b`` (a terminal may ``cat`` it) and reads no HTML or code fence from them."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.support import cli
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, export_dead_letters

HOSTILE = '=HYPERLINK("http://x")<script>alert(1)</script>\x1b]0;T\x07 `a|b` \r\u202e'


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("hostile-report") / "ws"
    env = {**os.environ, "TRIAGE_WORKSPACE": str(ws)}
    assert cli("demo", env=env).returncode == 0
    engine = create_engine(f"sqlite:///{ws / 'dead_letter.db'}")
    with engine.begin() as conn:
        # Every group's signature made hostile (the largest is named in the findings too).
        conn.execute(text("UPDATE signatures SET text = :s || id"), {"s": HOSTILE})
        conn.execute(text("UPDATE dead_letters SET error = :e"), {"e": HOSTILE})
        # And who works on each: owner, tags and note as hostile (the report shows them).
        conn.execute(
            text(
                "INSERT INTO error_groups (signature_id, owner, tags, note, version, "
                "changed_at, changed_by) SELECT id, :h, :tags, :h, 1, 0, 'planted' "
                "FROM signatures"
            ),
            {"h": HOSTILE, "tags": json.dumps([HOSTILE])},
        )
    engine.dispose()
    return ws


def test_the_report_shows_it_and_obeys_none_of_it(planted: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "triage_app",
            "--workspace",
            str(planted),
            "report",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    md = (out / "summary.md").read_text(encoding="utf-8")
    page = (out / "summary.html").read_text(encoding="utf-8")
    for raw in ("\x1b", "\x07", "\r", "\u202e"):
        assert raw not in md and raw not in page, repr(raw)
    # HTML: escaped on the page; in the Markdown, literal inside code spans only, and
    # escaped in the sentences (a renderer would run it there).
    assert "<script>" not in page
    sentences = [ln for ln in md.splitlines() if ln.startswith("- ")]
    assert any("&lt;script&gt;" in ln for ln in sentences), sentences
    assert not any("<script>" in ln for ln in sentences), sentences
    assert "\\x1b]0;T\\x07" in md and "\\u202e" in md  # shown, not dropped
    assert "&lt;script&gt;" in page and "\\x1b]0;T\\x07" in page
    # In the groups tables, each signature one cell: its backticks and pipe fenced/escaped;
    # the owner, tags and note each one cell too, their pipes and backticks escaped: a row
    # has its table's columns, no more.
    lines = md.splitlines()
    rows = [ln for ln in lines if ln.startswith("| ``")]
    assert rows and all("`a\\|b`" in r for r in rows), md
    for i, row in enumerate(lines):
        if row.startswith("| ``"):
            header = next(h for h in reversed(lines[:i]) if h.startswith("| signature"))
            assert cells(row) == cells(header), (header, row)
    owned = [r for r in rows if r.count("\\`a\\|b\\`") == 3]  # owner, tags, note
    assert owned, rows
    for table in out.glob("*.csv"):
        with table.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                assert not any(c.startswith(("=", "+", "-", "@")) for c in row), (table, row)


def cells(row: str) -> int:
    """The cells of a Markdown table row: its pipes, less the escaped ones, less one."""
    return row.count("|") - row.count("\\|") - 1


def test_an_export_guards_formulas(planted: Path, tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    with open_workspace(planted) as ws:
        export_dead_letters(ws, DeadLetterFilter(), path, "csv")
    with path.open(encoding="utf-8", newline="") as fh:
        header, *rows = list(csv.reader(fh))
    error = header.index("error")
    assert rows and all(r[error] == "'" + HOSTILE for r in rows)
