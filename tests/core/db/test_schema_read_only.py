"""Commands that only read never create: with a workspace folder that holds no store,
``list``, ``show``, ``stats``, ``report``, ``reconcile`` and ``audit`` say "no workspace at
<folder>" (exit 2) and leave no folder or file behind. A workspace this user cannot write
is still read by list, show, stats and report, and nothing in it changes; one at an older
schema says in one line that it cannot be upgraded read-only.

Tests run as root, whom file modes do not stop. The read-only cases therefore run the CLI
as root without the capabilities that override file modes (``setpriv``), where file modes
bind as they bind any other user; as another user they run the CLI as it is."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import cli
from tests.support.read_only import make_read_only, run_without_override
from triage_app.core.db import HEAD_REVISION

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
READ_ONLY_COMMANDS = [
    ["list"],
    ["show", "1"],
    ["stats"],
    ["report", "--out", "{tmp}/report"],
    ["reconcile", "bd137b91"],
    ["audit"],
]


@pytest.mark.parametrize("command", READ_ONLY_COMMANDS, ids=lambda c: c[0])
def test_a_missing_workspace_is_named_and_never_made(tmp_path: Path, command: list[str]) -> None:
    typo = tmp_path / "worksapce"
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    r = cli("--workspace", str(typo), *args)
    assert (r.returncode, r.stdout) == (2, "")
    # ... and how to make one (issue 20).
    assert r.stderr == (
        f"triage-app: no workspace at {typo}; make one with: triage-app --workspace {typo} "
        f"demo; or load a file: triage-app --workspace {typo} run FILE --transform "
        "NAME@VERSION\n"
    )
    assert list(tmp_path.iterdir()) == []  # no folder, no report folder, nothing


def test_a_missing_workspace_named_by_the_environment_is_not_made(tmp_path: Path) -> None:
    typo = tmp_path / "nested" / "typo"
    r = cli("list", env={**os.environ, "TRIAGE_WORKSPACE": str(typo)})
    assert r.returncode == 2
    assert r.stderr.startswith(f"triage-app: no workspace at {typo}; make one with: ")
    assert not (tmp_path / "nested").exists()


def test_a_writing_command_still_makes_a_new_workspace(tmp_path: Path) -> None:
    r = cli("--workspace", str(tmp_path / "new"), "demo")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "new" / "dead_letter.db").is_file()


def snapshot(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Path]:
    """A demo workspace with the stats cache emptied (so ``stats`` reads the store), every
    change folded into the files; made read-only by the test, writable again after."""
    folder = tmp_path / "ws"
    assert cli("--workspace", str(folder), "demo").returncode == 0
    conn = sqlite3.connect(folder / "dead_letter.db")
    conn.execute("DELETE FROM stats_cache")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for extra in folder.glob("*.db-*"):
        extra.unlink()
    shutil.rmtree(folder / "incoming", ignore_errors=True)
    yield folder
    folder.chmod(0o755)
    for p in folder.iterdir():
        p.chmod(0o644)


def test_the_test_user_really_cannot_write(demo: Path) -> None:
    """The premise: the CLI runs as a user these modes stop (or the next tests prove
    nothing)."""
    make_read_only(demo, folder_too=True)
    probe = run_without_override("--workspace", str(demo), "edit", "1", "--payload", "{}")
    assert probe.returncode == 2
    assert "readonly" in probe.stderr or "read-only" in probe.stderr, probe.stderr


@pytest.mark.slow
@pytest.mark.parametrize("folder_too", [True, False], ids=["folder-read-only", "files-read-only"])
def test_a_read_only_workspace_is_still_read(demo: Path, tmp_path: Path, folder_too: bool) -> None:
    make_read_only(demo, folder_too=folder_too)
    before = snapshot(demo)
    ws = ["--workspace", str(demo)]
    listed = run_without_override(*ws, "list", "--status", "all")
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.splitlines()) == 5
    shown = run_without_override(*ws, "show", "2")
    assert shown.returncode == 0 and shown.stdout.startswith("dead letter 2"), shown.stderr
    stats = run_without_override(*ws, "stats")
    assert stats.returncode == 0 and stats.stdout.startswith("4 dead letters"), stats.stderr
    report = run_without_override(*ws, "report", "--out", str(tmp_path / "report"))
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "report").is_dir()
    after = snapshot(demo)
    # A writable folder gets SQLite's shared-memory index and (empty) log to read through;
    # the store and the warehouse themselves are byte for byte as they were.
    assert {k: v for k, v in after.items() if k.endswith(".db")} == before
    sqlite_own = {
        f"{db}-{part}" for db in ("dead_letter.db", "warehouse.db") for part in ["shm", "wal"]
    }
    allowed = set() if folder_too else sqlite_own
    assert set(after) - set(before) <= allowed


def test_a_read_only_store_at_an_older_schema_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    shutil.copyfile(FIXTURES / "store-0001.db", folder / "dead_letter.db")
    sqlite3.connect(folder / "warehouse.db").close()
    make_read_only(folder, folder_too=True)
    try:
        r = run_without_override("--workspace", str(folder), "list")
        assert r.returncode == 2
        assert r.stderr == (
            f"triage-app: the dead-letter store at {folder / 'dead_letter.db'} is at schema "
            f"0001 and this version needs {HEAD_REVISION}, but it is read-only here: open it "
            "once with write access\n"
        )
        assert sorted(p.name for p in folder.iterdir()) == ["dead_letter.db", "warehouse.db"]
    finally:
        folder.chmod(0o755)
