"""reconcile and verify-idempotent: the proofs as features users can run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.support import gen_batch
from triage_app.cli import main
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.deadletters import list_dead_letters
from triage_app.core.errors import TriageError
from triage_app.core.verify import reconcile


@pytest.fixture
def batch(workspace: Workspace, tmp_path: Path) -> str:
    src = gen_batch(tmp_path / "b.jsonl", 3_000, bad=0.05)
    return run_batch(workspace, src, "pesanan@2", chunk_size=500).batch_id


def test_a_clean_batch_reconciles(workspace: Workspace, batch: str) -> None:
    r = reconcile(workspace, batch[:6])
    assert r.ok and r.complete and r.chunks == 7  # 3,000 rows and a few re-sent lines
    assert r.rows == r.loaded + r.superseded + r.quarantined
    assert (r.missing_lines, r.doubled_lines, r.problems) == ([], [], [])


def test_a_lost_dead_letter_is_named(workspace: Workspace, batch: str) -> None:
    victim = list_dead_letters(workspace)[3]
    with workspace.store.begin() as conn:
        conn.execute(text("DELETE FROM audit_events WHERE dead_letter_id = :i"), {"i": victim.id})
        conn.execute(text("DELETE FROM dead_letters WHERE id = :i"), {"i": victim.id})
    r = reconcile(workspace, batch)
    assert not r.ok
    assert any(a <= victim.line <= b for a, b in r.missing_lines)
    assert any("dead letters stored" in p for p in r.problems)


def test_a_lost_chunk_is_named(workspace: Workspace, batch: str) -> None:
    with workspace.store.begin() as conn:
        conn.execute(text("DELETE FROM batch_chunks WHERE first_line = 1001"))
    r = reconcile(workspace, batch)
    assert not r.ok and [1001, 1500] in r.missing_lines


def test_a_line_loaded_and_quarantined_is_doubled(workspace: Workspace, batch: str) -> None:
    dl = list_dead_letters(workspace)[0]
    with workspace.warehouse.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO pesanan VALUES (999999, 'w', 'p', 'x', 1, 1, 1, :b, :l, 'pesanan@1')"
            ),
            {"b": batch, "l": dl.line},
        )
    r = reconcile(workspace, batch)
    assert not r.ok and [dl.line, dl.line] in r.doubled_lines


def test_unknown_batch(workspace: Workspace) -> None:
    with pytest.raises(TriageError, match="no batch"):
        reconcile(workspace, "ffff")


def test_reconcile_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = ["--workspace", str(tmp_path / "ws")]
    src = gen_batch(tmp_path / "c.jsonl", 500, bad=0.1)
    assert main([*ws, "run", str(src), "--transform", "pesanan@1", "--json"]) == 0
    batch_id = json.loads(capsys.readouterr().out)["batch_id"]
    assert main([*ws, "reconcile", batch_id, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True
    assert out["rows"] == out["loaded"] + out["superseded"] + out["quarantined"] > 500
    import sqlite3

    with sqlite3.connect(tmp_path / "ws" / "dead_letter.db") as c:
        c.execute("UPDATE batches SET loaded = loaded + 1")
    assert main([*ws, "reconcile", batch_id]) == 1
    assert "NOT consistent" in capsys.readouterr().out
