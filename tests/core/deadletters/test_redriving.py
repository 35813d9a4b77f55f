"""Re-drive: a dry run writes nothing, failures count attempts until the row is parked, and
ids in any number."""

from __future__ import annotations

from pathlib import Path

import pytest

from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, table_sha256
from triage_app.core.deadletters import (
    DeadLetterFilter,
    get_dead_letter,
    list_dead_letters,
    redrive,
)
from triage_app.core.transforms.pesanan import TRANSFORMS

PESANAN = TRANSFORMS[1]


def test_redrive_dry_run_writes_nothing(workspace: Workspace, seed_batch: Path) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    h = table_sha256(workspace.warehouse, PESANAN)
    before = [(d.id, d.attempts, d.status) for d in list_dead_letters(workspace)]
    r = redrive(workspace, "pesanan@2", where=DeadLetterFilter(), dry_run=True)
    assert r.dry_run and r.attempted == 4 and r.succeeded == 1 and r.failed == 3
    assert {x.outcome for x in r.results} == {"would_succeed", "would_fail"}
    ok = next(x for x in r.results if x.outcome == "would_succeed")
    assert ok.row is not None and ok.row["total"] == 120000
    assert table_sha256(workspace.warehouse, PESANAN) == h
    assert [(d.id, d.attempts, d.status) for d in list_dead_letters(workspace)] == before


def test_parked_at_max_attempts(workspace: Workspace, seed_batch: Path) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    line4 = next(d for d in list_dead_letters(workspace) if d.line == 4)
    outcomes = [
        redrive(workspace, "pesanan@2", ids=[line4.id]).results[0].outcome for _ in range(2)
    ]
    assert outcomes == ["failed", "parked"]
    d = get_dead_letter(workspace, line4.id)
    assert (d.attempts, d.status) == (3, "parked")
    assert [e.action for e in d.events][-2:] == ["redrive_failed", "parked"]
    assert not any(x.line == 4 for x in list_dead_letters(workspace))
    # --all-open leaves parked rows alone; a person re-drives them by id.
    assert redrive(workspace, "pesanan@2", where=DeadLetterFilter(status="open")).attempted == 3
    assert redrive(workspace, "pesanan@2", ids=[line4.id], max_attempts=5).attempted == 1


def test_redrive_by_many_ids(workspace: Workspace, seed_batch: Path) -> None:
    """More ids than SQLite takes parameters in one statement."""
    from triage_app.core.errors import TriageError

    run_batch(workspace, seed_batch, "pesanan@1")
    with pytest.raises(TriageError, match="no dead letter with id 5, 6, 7"):
        redrive(workspace, "pesanan@2", ids=list(range(1, 40_001)))
