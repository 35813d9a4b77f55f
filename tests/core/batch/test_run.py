"""run_batch: a batch is its content, format and transform; it refuses bad arguments in one
line, stops at a chunk boundary when cancelled and resumes there; list_batches and the
summary report what ran."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import inspect, select, text

from tests.support import SEED_ORDERS
from triage_app.core.batch import BatchSummary, list_batches, run_batch
from triage_app.core.batch.run import batch_identity
from triage_app.core.db import DeadLetter, Workspace, open_workspace, table_sha256
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import open_file
from triage_app.core.transforms import default_registry

PESANAN_1 = default_registry().get("pesanan@1")
PESANAN_2 = default_registry().get("pesanan@2")
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


class Recorder:
    """A progress sink that asks to stop after ``cancel_after`` updates (never: None)."""

    def __init__(self, cancel_after: int | None = None) -> None:
        self.cancel_after = cancel_after
        self.updates: list[tuple[int, int, int]] = []

    def update(self, done: int, total: int, rows: int = 0) -> None:
        self.updates.append((done, total, rows))

    def cancelled(self) -> bool:
        return self.cancel_after is not None and len(self.updates) >= self.cancel_after


def counts(s: BatchSummary) -> tuple[Any, ...]:
    return (s.rows, s.loaded, s.superseded, s.quarantined, s.by_class)


def dead_letters(ws: Workspace) -> list[tuple[Any, ...]]:
    with ws.store.connect() as conn:
        rows = conn.execute(select(DeadLetter.__table__).order_by(DeadLetter.line))
        return [(d.line, d.original_payload, d.error, d.error_class) for d in rows]


# Identity


def test_identity_is_the_hash_of_content_transform_and_format() -> None:
    sha = "ab" * 32
    want = hashlib.sha256(f"{sha}|pesanan@2|jsonl".encode()).hexdigest()[:16]
    assert batch_identity(sha, PESANAN_2, "jsonl") == want
    others = {
        batch_identity(sha, PESANAN_1, "jsonl"),
        batch_identity(sha, PESANAN_2, "csv"),
        batch_identity("cd" * 32, PESANAN_2, "jsonl"),
    }
    assert want not in others and len(others) == 3


def test_the_same_bytes_under_another_name_are_the_same_batch(
    workspace: Workspace, seed_batch: Path, tmp_path: Path
) -> None:
    first = run_batch(workspace, seed_batch, "pesanan@2")
    renamed = tmp_path / "elsewhere" / "pesanan_copy.ndjson"
    renamed.parent.mkdir()
    shutil.copyfile(seed_batch, renamed)
    again = run_batch(workspace, renamed, "pesanan@2")
    assert again.batch_id == first.batch_id
    assert again.already_loaded and not again.resumed and not again.cancelled
    assert counts(again) == counts(first) == (10, 7, 0, 3, {"data": 3})
    assert again.source_name == seed_batch.name  # the batch as it was first recorded
    assert len(list_batches(workspace)) == 1
    assert len(dead_letters(workspace)) == 3


def test_other_bytes_or_another_transform_are_another_batch(
    workspace: Workspace, seed_batch: Path, tmp_path: Path
) -> None:
    first = run_batch(workspace, seed_batch, "pesanan@2")
    edited = tmp_path / seed_batch.name.replace(".jsonl", "_b.jsonl")
    edited.write_bytes(seed_batch.read_bytes() + b"\n")  # one blank line more
    other_bytes = run_batch(workspace, edited, "pesanan@2")
    assert other_bytes.batch_id != first.batch_id and not other_bytes.already_loaded
    assert counts(other_bytes) == counts(first)  # a blank line is not a record
    other_transform = run_batch(workspace, seed_batch, "pesanan@1")
    assert other_transform.batch_id not in (first.batch_id, other_bytes.batch_id)
    assert not other_transform.already_loaded
    assert other_transform.by_class == {"data": 3, "code": 1}
    assert len(list_batches(workspace)) == 3


def test_the_batch_id_follows_the_hash_of_the_file_opened(
    workspace: Workspace, seed_batch: Path
) -> None:
    opened = open_file(seed_batch)
    sha = opened.sha256
    assert sha == hashlib.sha256(seed_batch.read_bytes()).hexdigest()
    s = run_batch(workspace, seed_batch, "pesanan@2", opened=opened)
    assert s.batch_id == batch_identity(sha, PESANAN_2, "jsonl")
    assert opened.closed  # the run closed the file it was given
    assert run_batch(workspace, seed_batch, "pesanan@2").already_loaded


# Refusals


@pytest.mark.parametrize("size", [0, -5])
def test_a_chunk_size_below_one_is_refused_in_one_line(
    workspace: Workspace, seed_batch: Path, size: int
) -> None:
    with pytest.raises(TriageError) as refused:
        run_batch(workspace, seed_batch, "pesanan@2", chunk_size=size)
    assert str(refused.value) == "the chunk size must be at least 1"
    assert list_batches(workspace) == []  # nothing recorded
    assert not inspect(workspace.warehouse).has_table("pesanan")


def test_a_chunk_of_one_line_gives_the_same_result(workspace: Workspace, seed_batch: Path) -> None:
    s = run_batch(workspace, seed_batch, "pesanan@2", chunk_size=1)
    assert counts(s) == (10, 7, 0, 3, {"data": 3})


# Cancel and resume


@pytest.mark.parametrize("lanes", [1, 2])
def test_a_cancelled_run_stops_at_a_chunk_boundary_and_resumes(
    tmp_path: Path, seed_batch: Path, lanes: int
) -> None:
    clean_ws = open_workspace(tmp_path / "clean")
    try:
        clean = run_batch(clean_ws, seed_batch, "pesanan@2", chunk_size=3, lanes=lanes)
        want = (table_sha256(clean_ws.warehouse, PESANAN_2), dead_letters(clean_ws))
    finally:
        clean_ws.close()

    ws = open_workspace(tmp_path / "ws")
    try:
        progress = Recorder(cancel_after=1)
        stopped = run_batch(
            ws, seed_batch, "pesanan@2", chunk_size=3, lanes=lanes, progress=progress
        )
        assert stopped.cancelled and not stopped.already_loaded and not stopped.resumed
        assert stopped.rows == 3  # the first chunk, lines 1-3, and no more
        (info,) = list_batches(ws)
        assert info.state == "running" and info.finished_at == ""
        assert [d[0] for d in dead_letters(ws)] == [3]
        with ws.warehouse.connect() as conn:
            lines = sorted(conn.execute(text("SELECT _line FROM pesanan")).scalars())
        # With two lanes the second had written its chunk (lines 4-6) but not stored it:
        # the warehouse is ahead of the store, and the resumed run replays that chunk.
        assert lines == ([1, 2] if lanes == 1 else [1, 2, 5])

        resumed = run_batch(ws, seed_batch, "pesanan@2", chunk_size=3, lanes=lanes)
        assert resumed.resumed and not resumed.cancelled and not resumed.already_loaded
        assert resumed.batch_id == clean.batch_id == stopped.batch_id
        assert counts(resumed) == counts(clean) == (10, 7, 0, 3, {"data": 3})
        assert (table_sha256(ws.warehouse, PESANAN_2), dead_letters(ws)) == want
        (info,) = list_batches(ws)
        assert info.state == "complete" and ISO.fullmatch(info.finished_at)
        assert run_batch(ws, seed_batch, "pesanan@2").already_loaded
    finally:
        ws.close()


def test_progress_reports_bytes_and_rows(workspace: Workspace, seed_batch: Path) -> None:
    progress = Recorder()
    run_batch(workspace, seed_batch, "pesanan@2", chunk_size=4, lanes=1, progress=progress)
    size = seed_batch.stat().st_size
    assert progress.updates[-1] == (size, size, 10)
    rows = [u[2] for u in progress.updates]
    assert rows == sorted(rows) and rows[:3] == [4, 8, 10]
    assert all(total == size and 0 < done <= size for done, total, _ in progress.updates)


# list_batches and the summary


def test_list_batches_newest_first_with_counters(
    workspace: Workspace, seed_batch: Path, tmp_path: Path
) -> None:
    orders = tmp_path / SEED_ORDERS.name
    shutil.copyfile(SEED_ORDERS, orders)
    a = run_batch(workspace, seed_batch, "pesanan@1")
    b = run_batch(workspace, orders, "orders@1")
    c = run_batch(workspace, seed_batch, "pesanan@2", chunk_size=2, progress=Recorder(1))
    got = list_batches(workspace)
    assert [i.batch_id for i in got] == [c.batch_id, b.batch_id, a.batch_id]
    newest, middle, oldest = got
    assert (oldest.source_name, oldest.transform, oldest.state) == (
        seed_batch.name,
        "pesanan@1",
        "complete",
    )
    assert (oldest.rows, oldest.loaded, oldest.superseded, oldest.quarantined) == (10, 6, 0, 4)
    assert (middle.source_name, middle.transform) == (SEED_ORDERS.name, "orders@1")
    assert (middle.rows, middle.loaded, middle.superseded, middle.quarantined) == (6, 4, 2, 0)
    assert (newest.state, newest.rows, newest.finished_at) == ("running", 2, "")
    for info in got:
        assert ISO.fullmatch(info.started_at)
    assert oldest.started_at <= middle.started_at <= newest.started_at
    assert [i.batch_id for i in list_batches(workspace, limit=2)] == [c.batch_id, b.batch_id]


def test_list_batches_of_an_empty_store(workspace: Workspace) -> None:
    assert list_batches(workspace) == []


def test_summary_to_json(workspace: Workspace, seed_batch: Path) -> None:
    s = run_batch(workspace, seed_batch, "pesanan@1")
    data = s.to_json()
    assert list(data) == [
        "batch_id",
        "source_name",
        "transform",
        "format",
        "rows",
        "loaded",
        "superseded",
        "quarantined",
        "by_class",
        "seconds",
        "already_loaded",
        "resumed",
        "cancelled",
        "source_kept",
        "source_problem",
        "held",
        "state",
    ]
    assert (data["source_kept"], data["source_problem"]) == (True, "")
    assert (data["held"], data["state"]) == (0, "complete")  # held: all-or-nothing batches
    assert data["by_class"] == {"data": 3, "code": 1}  # classes with none are left out
    assert (data["transform"], data["format"], data["source_name"]) == (
        "pesanan@1",
        "jsonl",
        seed_batch.name,
    )
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    assert orjson.loads(orjson.dumps(data)) == data  # plain types only
    assert BatchSummary(**data) == s
