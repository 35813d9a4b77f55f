"""Every command that writes, in a workspace this user may only read (issue 21): one line
naming the read-only folder (folder 0555) or the read-only file (files 0444, folder
writable), exit 2, and nothing in the workspace changed. It used to say "cannot reach the
warehouse", or "database error: attempt to write a readonly database". Commands that only
read still work there (tests/core/db/test_schema_read_only.py)."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import SEED_BATCH, cli
from tests.support.read_only import make_read_only, run_without_override

QTY = "DataError: kolom wajib hilang: qty"
WRITING_COMMANDS = [
    ["edit", "2", "--payload", "{}"],
    ["park", "2"],
    ["discard", "2", "--reason", "junk"],
    ["reopen", "2"],
    ["reclassify", "2", "--class", "code"],
    ["note", "2", "--text", "seen"],
    ["fix", "3", "--set", "qty=1"],
    ["group", QTY, "--owner", "ani"],
    ["redrive", "--all", "--transform", "pesanan@2"],
    ["run", "{batch}", "--transform", "pesanan@2"],
]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Path]:
    """A demo workspace, made read-only by the test, writable again after."""
    folder = tmp_path / "ws"
    assert cli("--workspace", str(folder), "demo").returncode == 0
    shutil.rmtree(folder / "incoming")
    yield folder
    folder.chmod(0o755)
    for p in folder.iterdir():
        p.chmod(0o644)


def _databases(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.db"))}


@pytest.mark.slow
@pytest.mark.parametrize("folder_too", [True, False], ids=["folder-read-only", "files-read-only"])
def test_a_write_names_what_is_read_only(demo: Path, tmp_path: Path, folder_too: bool) -> None:
    batch = tmp_path / SEED_BATCH.name  # outside the workspace: only the workspace is locked
    shutil.copyfile(SEED_BATCH, batch)
    make_read_only(demo, folder_too=folder_too)
    before, names = _databases(demo), sorted(p.name for p in demo.iterdir())
    if folder_too:
        told = f"the workspace folder {demo} is read-only for this user"
    else:
        told = f"the dead-letter store {demo / 'dead_letter.db'} is read-only for this user"
    for command in WRITING_COMMANDS:
        args = [a.replace("{batch}", str(batch)) for a in command]
        r = run_without_override("--workspace", str(demo), *args)
        assert (r.returncode, r.stdout) == (2, ""), (command, r.stderr)
        assert r.stderr == (
            f"triage-app: {told}, and this command writes there: ask for write access, or use "
            "a command that only reads (list, show, stats, report, audit)\n"
        ), command
    assert _databases(demo) == before
    after = sorted(p.name for p in demo.iterdir())
    # Files read-only in a writable folder: SQLite may add its (empty) log beside them to
    # read through; never a lock file or anything else.
    assert set(after) - set(names) <= {f"{db}-{x}" for db in before for x in ("wal", "shm")}


def test_migrate_and_a_new_workspace_in_a_read_only_folder(demo: Path, tmp_path: Path) -> None:
    make_read_only(demo, folder_too=True)
    tail = (
        "is read-only for this user, and this command writes there: ask for write access, "
        "or use a command that only reads (list, show, stats, report, audit)\n"
    )
    r = run_without_override("--workspace", str(demo), "migrate")
    assert (r.returncode, r.stderr) == (2, f"triage-app: the workspace folder {demo} {tail}")
    empty = tmp_path / "empty"
    empty.mkdir(mode=0o555)
    batch = tmp_path / SEED_BATCH.name
    shutil.copyfile(SEED_BATCH, batch)
    r = run_without_override(
        "--workspace", str(empty), "run", str(batch), "--transform", "pesanan@1"
    )
    assert (r.returncode, r.stderr) == (2, f"triage-app: the workspace folder {empty} {tail}")
    assert list(empty.iterdir()) == []
