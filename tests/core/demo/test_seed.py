"""The demo workspace: the demo files copied beside the databases and the seed batch run, or
a generated batch of any size; running it again changes nothing; it needs a folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from triage_app.core.db import Workspace, count_rows, open_workspace
from triage_app.core.deadletters import DeadLetterFilter, count_dead_letters, list_dead_letters
from triage_app.core.demo import make_demo, write_orders
from triage_app.core.errors import TriageError
from triage_app.core.places import resources_dir
from triage_app.core.transforms import default_registry

DEMO = resources_dir() / "demo"
ALL = DeadLetterFilter(status="all")


def test_make_demo_copies_the_files_and_loads_the_seed_batch(workspace: Workspace) -> None:
    incoming, s = make_demo(workspace)
    assert workspace.config.folder is not None
    assert incoming == workspace.config.folder / "incoming"
    shipped = sorted(p.name for p in DEMO.iterdir() if p.is_file())
    assert shipped == ["orders_2026-01-09.csv", "pesanan_2026-01-12.jsonl"]
    assert sorted(p.name for p in incoming.iterdir()) == shipped
    for name in shipped:
        assert (incoming / name).read_bytes() == (DEMO / name).read_bytes()
    assert (s.source_name, s.transform, s.format) == (
        "pesanan_2026-01-12.jsonl",
        "pesanan@1",
        "jsonl",
    )
    assert (s.rows, s.loaded, s.superseded, s.quarantined) == (10, 6, 0, 4)
    assert s.by_class == {"data": 3, "code": 1}
    assert not s.already_loaded
    assert [d.line for d in list_dead_letters(workspace)] == [3, 4, 6, 8]
    assert count_rows(workspace.warehouse, default_registry().get("pesanan@1")) == 6


def test_make_demo_again_is_already_loaded(workspace: Workspace) -> None:
    _, first = make_demo(workspace)
    _, again = make_demo(workspace)
    assert again.already_loaded and again.batch_id == first.batch_id
    assert (again.rows, again.loaded, again.quarantined) == (10, 6, 4)
    assert count_dead_letters(workspace, ALL) == 4


def test_make_demo_with_rows_writes_and_runs_a_generated_batch(
    workspace: Workspace, tmp_path: Path
) -> None:
    incoming, s = make_demo(workspace, 500)
    generated = incoming / "pesanan_generated_500.jsonl"
    oracle = write_orders(tmp_path / "oracle.jsonl", 500, 0.01, 43)
    assert generated.read_bytes() == oracle.read_bytes()  # the generator's defaults
    assert (incoming / "pesanan_2026-01-12.jsonl").is_file()  # the demo files as well
    assert s.source_name == generated.name and s.transform == "pesanan@1"
    assert s.rows == len(generated.read_bytes().splitlines()) >= 500
    assert s.rows == s.loaded + s.superseded + s.quarantined
    assert 0 < s.quarantined < 20  # about 1 % defective
    assert count_dead_letters(workspace, ALL) == s.quarantined  # the seed batch was not run
    assert make_demo(workspace, 500)[1].already_loaded


def test_make_demo_passes_the_share_and_seed_on(workspace: Workspace, tmp_path: Path) -> None:
    incoming, s = make_demo(workspace, 300, bad=0.2, seed=5)
    oracle = write_orders(tmp_path / "oracle.jsonl", 300, 0.2, 5)
    assert (incoming / "pesanan_generated_300.jsonl").read_bytes() == oracle.read_bytes()
    assert s.quarantined > 30  # a fifth defective, most of them quarantined


def test_a_workspace_without_a_folder_is_refused(tmp_path: Path) -> None:
    urls = {
        "warehouse_url": f"sqlite:///{tmp_path / 'wh.db'}",
        "dead_letter_url": f"sqlite:///{tmp_path / 'dl.db'}",
    }
    with open_workspace(None, **urls) as ws:
        assert ws.config.folder is None
        # A refusal the user can act on (the CLI's one line, exit 2), not a bug's traceback.
        with pytest.raises(TriageError, match="copies its source files into a workspace folder"):
            make_demo(ws)
        assert count_dead_letters(ws, ALL) == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == ["dl.db", "wh.db"]
    assert not (tmp_path / "incoming").exists()
