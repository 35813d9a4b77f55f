"""One is said in the singular (issue 20: "1 batches", "all 1 dead letters"): a batch of
one row that fails, as the CLI reports it, its stats and its reconciliation."""

from __future__ import annotations

from pathlib import Path

from tests.support import cli


def test_a_batch_of_one_row_is_said_in_the_singular(tmp_path: Path) -> None:
    ws = ["--workspace", str(tmp_path / "ws")]
    source = tmp_path / "one.jsonl"
    source.write_text('{"pesanan_id": 1, "qty": -1}\n')
    run = cli(*ws, "run", str(source), "--transform", "pesanan@1")
    assert run.returncode == 0, run.stderr
    assert ": 1 row, 0 loaded, 0 superseded, 1 quarantined" in run.stdout
    stats = cli(*ws, "stats")
    assert stats.stdout.splitlines()[0] == "1 dead letter", stats.stdout
    batch_id = run.stdout.split()[1].rstrip(":")
    check = cli(*ws, "reconcile", batch_id)
    assert "1 row = 0 loaded + 0 superseded + 1 quarantined over 1 chunk" in check.stdout
