"""One default workspace (issue 20): with none named, ``demo`` fills the workspace that
``list``, every other command and the window open; "no workspace at X" says how to make
one; the demo says what it did with every row (rows = loaded + superseded + quarantined)
and never puts its made-up orders into a workspace holding batches of its own."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import orjson
import pytest

from tests.support import SEED_BATCH, cli
from triage_app.core.places import APP_NAME, STORE_FILE, default_workspace_dir, is_first_run

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="XDG_DATA_HOME places the data folder on Linux"
)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A user whose data folder is empty: nothing named, nothing made yet."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("TRIAGE_WORKSPACE", raising=False)
    for name in ("TRIAGE_WAREHOUSE_URL", "TRIAGE_DEAD_LETTER_URL"):
        monkeypatch.delenv(name, raising=False)
    return dict(os.environ)


def test_demo_list_and_the_window_share_the_default_workspace(
    env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "data" / APP_NAME / "workspace"
    assert default_workspace_dir() == folder
    before = cli("list", env=env)
    assert (before.returncode, before.stdout) == (2, "")
    assert before.stderr == (
        f"triage-app: no workspace at {folder}; make one with: triage-app demo; "
        "or load a file: triage-app run FILE --transform NAME@VERSION\n"
    )
    assert is_first_run()  # the window would welcome
    demo = cli("demo", env=env)
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.splitlines() == [
        f"demo in the default workspace at {folder}: 10 rows = 6 loaded + 0 superseded + "
        "4 quarantined",
        "see it with: triage-app list, or triage-app gui",
    ]
    listed = cli("list", "--json", env=env)
    assert listed.returncode == 0 and len(orjson.loads(listed.stdout)) == 4
    assert (folder / STORE_FILE).is_file()
    # The window (``triage-app`` or ``gui`` with nothing named) opens this workspace now
    # instead of the welcome page: is_first_run is what gui/app.py asks.
    assert not is_first_run()
    again = cli("demo", env=env)
    assert again.stdout.startswith(f"demo in the default workspace at {folder}: 10 rows")
    assert "(already there: nothing to do)" in again.stdout
    assert len(orjson.loads(cli("list", "--json", env=env).stdout)) == 4


def test_the_demo_stays_out_of_a_workspace_with_batches_of_its_own(
    env: dict[str, str], tmp_path: Path
) -> None:
    own = tmp_path / "orders_tonight.jsonl"
    own.write_bytes(SEED_BATCH.read_bytes().replace(b"Dewi", b"Dewa"))
    assert cli("run", str(own), "--transform", "pesanan@1", env=env).returncode == 0
    demo = cli("demo", env=env)
    assert demo.returncode == 2 and demo.stdout == ""
    assert demo.stderr == (
        f"triage-app: the workspace at {default_workspace_dir()} holds batches of its own "
        "(orders_tonight.jsonl): the demo's made-up orders go into a workspace of their own: "
        "triage-app --workspace DIR demo\n"
    )
    assert len(orjson.loads(cli("list", "--json", env=env).stdout)) == 4  # its own rows only


def test_a_named_workspace_is_said_with_its_name(env: dict[str, str], tmp_path: Path) -> None:
    named = tmp_path / "my demo"
    demo = cli("--workspace", str(named), "demo", "--rows", "50", "--bad", "0.1", env=env)
    assert demo.returncode == 0, demo.stderr
    first, second = demo.stdout.splitlines()
    assert first.startswith(f"demo in the workspace at {named}: 50 rows = ")
    rows, rest = first.split(": ", 1)[1].split(" rows = ")
    counts = [int(part.split()[0].replace(",", "")) for part in rest.split(" + ")]
    assert int(rows) == sum(counts) == 50  # loaded + superseded + quarantined
    assert second == (
        f"see it with: triage-app --workspace '{named}' list, or "
        f"triage-app --workspace '{named}' gui"
    )
    assert not (tmp_path / "data").exists()  # the default workspace was left alone


def test_the_demo_needs_a_folder_for_its_files(env: dict[str, str], tmp_path: Path) -> None:
    urls = [
        "--warehouse",
        f"sqlite:///{tmp_path / 'wh.db'}",
        "--dead-letter",
        f"sqlite:///{tmp_path / 'dl.db'}",
    ]
    done = cli(*urls, "demo", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "copies its source files into a workspace folder" in done.stderr
