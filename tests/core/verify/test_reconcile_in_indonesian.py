"""Reconcile speaks the user's language (issue 28): a problem is read in Bahasa Indonesia,
with Indonesian numbers and counted words, while ``--json`` writes it in English, the same
bytes whatever the language."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.support import cli, gen_batch
from triage_app.core import messages
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.deadletters import list_dead_letters
from triage_app.core.verify import reconcile


@pytest.fixture
def broken(workspace: Workspace, tmp_path: Path) -> str:
    """A batch one of whose dead letters was deleted behind the desk's back."""
    src = gen_batch(tmp_path / "b.jsonl", 3_000, bad=0.05)
    batch = run_batch(workspace, src, "pesanan@2", chunk_size=500).batch_id
    victim = list_dead_letters(workspace)[3]
    with workspace.store.begin() as conn:
        conn.execute(text("DELETE FROM audit_events WHERE dead_letter_id = :i"), {"i": victim.id})
        conn.execute(text("DELETE FROM dead_letters WHERE id = :i"), {"i": victim.id})
    return batch


def test_a_problem_is_read_in_indonesian_and_written_in_english(
    workspace: Workspace, broken: str
) -> None:
    english = reconcile(workspace, broken)
    messages.use_language("id")
    try:
        r = reconcile(workspace, broken)
    finally:
        messages.use_language("en")
    assert not r.ok and len(r.problems) == len(english.problems)
    assert any("dead letter tersimpan" in p and "dihitung dikarantina" in p for p in r.problems)
    assert any("dead letters stored" in p for p in english.problems)
    assert r.to_json() == english.to_json()
    assert r.to_json()["problems"] == english.problems
    assert "problems_english" not in r.to_json()


def test_the_command_line_reads_indonesian_and_writes_the_same_json(
    workspace: Workspace, broken: str
) -> None:
    folder = str(workspace.config.folder)
    env = {lang: {**os.environ, "TRIAGE_LANG": lang} for lang in ("en", "id")}
    said = {
        lang: cli("--workspace", folder, "--json", "reconcile", broken, env=env[lang])
        for lang in ("en", "id")
    }
    assert said["en"].returncode == 1, said["en"].stderr
    assert said["en"].stdout == said["id"].stdout
    assert json.loads(said["id"].stdout)["problems"]
    shown = cli("--workspace", folder, "reconcile", broken, env=env["id"])
    assert "dead letter tersimpan" in shown.stdout
