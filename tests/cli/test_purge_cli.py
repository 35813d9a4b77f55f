"""``triage-app purge``: a summary in text or JSON, a dry run that deletes nothing, bad values
in one line (exit 2), and the store's shared policy when --older-than is left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import cli
from tests.support.purge_store import counts, fill_purge_store
from triage_app.cli import main
from triage_app.core.db import open_workspace


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Rows closed on 2026-02-01: far more than 30 days before any real today."""
    with open_workspace(tmp_path / "ws") as ws:
        fill_purge_store(ws)
    return tmp_path / "ws"


def _run(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--workspace", str(folder), "purge", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _counts(folder: Path) -> dict[str, int]:
    with open_workspace(folder) as ws:
        return counts(ws)


def test_dry_run_then_purge_in_json(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    before = _counts(folder)
    code, out, _ = _run(capsys, folder, "--older-than", "30", "--dry-run", "--json")
    assert code == 0
    dry = json.loads(out)
    assert _counts(folder) == before
    assert dry["dry_run"] is True and dry["rows"] == 10
    assert dry["by_status"] == {"resolved": 6, "discarded": 4}
    code, out, _ = _run(capsys, folder, "--older-than", "30", "--json")
    real = json.loads(out)
    assert real["rows"] == 10 and real["purge_id"] == 1 and real["by_day"] == dry["by_day"]
    assert set(real) == {
        "cutoff",
        "statuses",
        "dry_run",
        "rows",
        "by_status",
        "by_day",
        "closed_by_day",
        "purge_id",
        "seconds",
        "cancelled",
        "sources",
    }
    assert real["sources"]["sources"] == [] and real["sources"]["days"] == 90
    assert {k: v for k, v in _counts(folder).items() if k != "events"} == {"open": 3, "parked": 2}


def test_text_summary_names_counts_and_days(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    code, out, _ = _run(capsys, folder, "--older-than", "30", "--status", "resolved")
    assert code == 0
    head, *more = out.strip().splitlines()
    assert head.startswith("Purged 6 dead letters (6 resolved), closed more than 30 days ago ")
    assert head.endswith(
        "Quarantined on 5 Jan 2026: 2 data; 6 Jan 2026: 2 code; 7 Jan 2026: 2 transient."
    )
    # The same run forgot the kept sources the store's policy let go (none here).
    assert more == ["Kept sources: none kept more than 90 days ago."]
    assert _counts(folder)["discarded"] == 4


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--older-than", "-5"], "cannot be negative"),
        (["--older-than", "30", "--status", "open"], "cannot purge open dead letters"),
        (["--older-than", "30", "--status", "parked"], "cannot purge parked dead letters"),
        (["--older-than", "30", "--status", "resolved", "--status", "open"], "only resolved"),
        (["--older-than", "soon"], "invalid int value"),
        ([], "no retention policy is set"),
    ],
)
def test_bad_values_get_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], folder: Path, args: list[str], says: str
) -> None:
    before = _counts(folder)
    code, out, err = _run(capsys, folder, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err
    assert _counts(folder) == before


def test_without_older_than_the_stores_policy_applies(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    code, out, _ = _run(
        capsys, folder, "--older-than", "30", "--status", "discarded", "--save-policy", "--dry-run"
    )
    assert code == 0 and "retention policy saved" in out
    assert _counts(folder)["discarded"] == 4  # a dry run: saved, nothing deleted
    code, out, _ = _run(capsys, folder, "--json")
    assert code == 0
    s = json.loads(out)
    assert (s["statuses"], s["rows"]) == (["discarded"], 4)


def test_as_a_child_process(folder: Path) -> None:
    r = cli("--workspace", str(folder), "purge", "--older-than", "30", "--status", "open")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("triage-app: cannot purge open") and "Traceback" not in r.stderr
    r = cli("--workspace", str(folder), "purge", "--older-than", "30")
    assert r.returncode == 0 and r.stdout.startswith("Purged 10 dead letters")
