"""The long jobs the command line and the window both run: each does its work through the
engine, leaves the stats cache warm where it changed the store, and refuses to run without
the workspace it needs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from tests.support import SEED_ORDERS
from triage_app.core import quick_stats
from triage_app.core.db import Workspace, count_rows
from triage_app.core.deadletters import DeadLetterFilter, get_dead_letter, list_dead_letters
from triage_app.core.demo import write_orders
from triage_app.core.jobs import (
    BatchJob,
    ConnectionTest,
    DemoJob,
    ExportJob,
    Job,
    RedriveJob,
    VerifyJob,
)
from triage_app.core.progress import NoProgress
from triage_app.core.transforms import default_registry
from triage_app.core.trends import stats_json

ALL = DeadLetterFilter(status="all")
UNREACHABLE = "postgresql://u:secret@127.0.0.1:1/x"


class Recorder:
    """A progress sink that keeps what it is told."""

    def __init__(self) -> None:
        self.updates: list[tuple[int, int, int]] = []

    def update(self, done: int, total: int, rows: int = 0) -> None:
        self.updates.append((done, total, rows))

    def cancelled(self) -> bool:
        return False


def cache_of(ws: Workspace) -> bytes | None:
    """What ``triage-app stats`` would answer without the engine (None: no fresh cache)."""
    db = quick_stats.store_path(None, ws.config.dead_letter_url)
    assert db is not None and db.is_file()
    return quick_stats.cached_answer(db)


def snapshot(ws: Workspace) -> list[tuple[object, ...]]:
    """Every dead letter as a steward could see it, with its history."""
    return [
        (d.id, d.status, d.attempts, d.payload_bytes, d.error, d.events)
        for d in (
            get_dead_letter(ws, v.id, reveal=True) for v in list_dead_letters(ws, ALL, limit=None)
        )
    ]


def pesanan_rows(ws: Workspace) -> int:
    return count_rows(ws.warehouse, default_registry().get("pesanan@1"))


def test_batch_job_leaves_the_stats_cache_warm(workspace: Workspace, seed_batch: Path) -> None:
    assert cache_of(workspace) is None
    progress = Recorder()
    job = BatchJob(seed_batch, "pesanan@1")
    assert job.title == f"batch {seed_batch.name} with pesanan@1"
    s = job.run(workspace, progress)
    assert (s.rows, s.loaded, s.quarantined, s.already_loaded) == (10, 6, 4, False)
    assert progress.updates and progress.updates[-1][0] == progress.updates[-1][1]
    warm = cache_of(workspace)
    assert warm is not None
    assert orjson.loads(warm) == stats_json(workspace)
    assert orjson.loads(warm)["total"] == 4
    # Again: already loaded, nothing changed, and the cache still answers.
    assert BatchJob(seed_batch, "pesanan@1").run(workspace).already_loaded
    assert cache_of(workspace) == warm


def test_batch_job_of_a_csv_file(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / SEED_ORDERS.name
    src.write_bytes(SEED_ORDERS.read_bytes())
    s = BatchJob(src, "orders@1").run(workspace)
    assert (s.format, s.rows, s.loaded, s.superseded, s.quarantined) == ("csv", 6, 4, 2, 0)
    warm = cache_of(workspace)
    assert warm is not None and orjson.loads(warm) == stats_json(workspace)


def test_demo_job_leaves_the_stats_cache_warm(workspace: Workspace) -> None:
    job = DemoJob()
    assert job.title == "demo workspace"
    incoming, s = job.run(workspace)
    assert (incoming / "pesanan_2026-01-12.jsonl").is_file()
    assert (s.rows, s.loaded, s.quarantined) == (10, 6, 4)
    warm = cache_of(workspace)
    assert warm is not None
    assert orjson.loads(warm) == stats_json(workspace)
    assert orjson.loads(warm)["by_class"] == {"data": 3, "code": 1}


def test_demo_job_of_generated_rows_passes_its_arguments_on(
    workspace: Workspace, tmp_path: Path
) -> None:
    incoming, s = DemoJob(rows=200, bad=0.1, seed=3).run(workspace)
    oracle = write_orders(tmp_path / "oracle.jsonl", 200, 0.1, 3)
    assert (incoming / "pesanan_generated_200.jsonl").read_bytes() == oracle.read_bytes()
    assert s.quarantined > 0
    warm = cache_of(workspace)
    assert warm is not None and orjson.loads(warm)["total"] == s.quarantined


def test_a_dry_run_redrive_job_writes_nothing(workspace: Workspace, seed_batch: Path) -> None:
    BatchJob(seed_batch, "pesanan@1").run(workspace)
    before, rows, warm = snapshot(workspace), pesanan_rows(workspace), cache_of(workspace)
    job = RedriveJob("pesanan@2", where=DeadLetterFilter(), dry_run=True)
    assert job.title == "preview of a re-drive with pesanan@2"
    r = job.run(workspace, Recorder())
    assert r.dry_run and (r.attempted, r.succeeded, r.failed) == (4, 1, 3)
    assert snapshot(workspace) == before
    assert pesanan_rows(workspace) == rows == 6
    assert cache_of(workspace) == warm  # the store did not change: the cache still holds


def test_a_redrive_job_resolves_and_warms_the_cache(workspace: Workspace, seed_batch: Path) -> None:
    BatchJob(seed_batch, "pesanan@1").run(workspace)
    null_diskon = next(d.id for d in list_dead_letters(workspace) if d.line == 8)
    job = RedriveJob("pesanan@2", ids=(null_diskon,))
    assert job.title == "re-drive with pesanan@2"
    r = job.run(workspace)
    assert not r.dry_run and (r.attempted, r.succeeded) == (1, 1)
    d = get_dead_letter(workspace, null_diskon, reveal=True)
    assert d.status == "resolved" and d.events[-1].action == "resolved"
    assert pesanan_rows(workspace) == 7
    warm = cache_of(workspace)
    assert warm is not None
    assert orjson.loads(warm) == stats_json(workspace)
    assert orjson.loads(warm)["by_status"] == {"open": 3, "resolved": 1}


def test_export_job_writes_the_file(workspace: Workspace, seed_batch: Path, tmp_path: Path) -> None:
    BatchJob(seed_batch, "pesanan@1").run(workspace)
    out = tmp_path / "out" / "dead.jsonl"
    out.parent.mkdir()
    job = ExportJob(DeadLetterFilter(error_class="data"), out, "jsonl")
    assert job.title == "export to dead.jsonl"
    s = job.run(workspace)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert s.rows == 3 == len(lines)
    assert [x["line"] for x in lines] == [3, 4, 6]
    assert {x["error_class"] for x in lines} == {"data"}
    csv_out = tmp_path / "dead.csv"
    assert ExportJob(ALL, csv_out, "csv").run(workspace).rows == 4
    assert csv_out.read_text(encoding="utf-8").count("\n") >= 5  # a header and four rows


def test_connection_test_reports_each_database(tmp_path: Path) -> None:
    wh, dl = f"sqlite:///{tmp_path / 'wh.db'}", f"sqlite:///{tmp_path / 'dl.db'}"
    test = ConnectionTest(wh, dl)
    assert test.title == "connection test"
    assert test.run() == "✓ warehouse: reachable\n✓ dead-letter store: reachable"
    assert test.run(None) == test.run()


def test_connection_test_hides_the_password_of_an_unreachable_database(
    tmp_path: Path,
) -> None:
    out = ConnectionTest(f"sqlite:///{tmp_path / 'wh.db'}", UNREACHABLE).run()
    ok, failed = out.split("\n")
    assert ok == "✓ warehouse: reachable"
    assert failed.startswith("✗ cannot reach the dead-letter store at ")
    assert "u:***@127.0.0.1:1/x" in failed
    assert "secret" not in out
    # Both unreachable, or of a kind the app does not support: one ✗ line each.
    both = ConnectionTest(UNREACHABLE, "mysql://u:secret@h/x").run().split("\n")
    assert [line[:2] for line in both] == ["✗ ", "✗ "]
    assert "warehouse" in both[0] and "dead-letter store" in both[1]
    assert not any("secret" in line for line in both)


NEEDS_A_WORKSPACE: dict[str, Callable[[Path], Job]] = {
    "batch": lambda tmp: BatchJob(tmp / "x.jsonl", "pesanan@1"),
    "demo": lambda tmp: DemoJob(rows=10),
    "redrive": lambda tmp: RedriveJob("pesanan@2"),
    "dry-run": lambda tmp: RedriveJob("pesanan@2", dry_run=True),
    "export": lambda tmp: ExportJob(DeadLetterFilter(), tmp / "x.csv", "csv"),
}


@pytest.mark.parametrize("name", list(NEEDS_A_WORKSPACE))
def test_a_job_that_needs_a_workspace_refuses_none(name: str, tmp_path: Path) -> None:
    job = NEEDS_A_WORKSPACE[name](tmp_path)
    with pytest.raises(ValueError, match="this job works on a workspace"):
        job.run(None, NoProgress())
    assert list(tmp_path.iterdir()) == []  # refused before any work: no file written


def test_verify_job_needs_no_workspace() -> None:
    job = VerifyJob(SEED_ORDERS, "orders@1")
    assert job.title == f"idempotence check of {SEED_ORDERS.name} with orders@1"
    proof = job.run(None)
    assert proof.identical and proof.same_dead_letters
