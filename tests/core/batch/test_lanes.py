"""Lanes: how many processes run a batch, the frames they pass each other, the second lane's
turns, and the same result with one lane or two."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from tests.support import gen_batch
from triage_app.core.batch import BatchSummary, run_batch
from triage_app.core.batch.lanes import (
    TWO_LANES_FROM_BYTES,
    LaneTask,
    Partner,
    _read_frame,
    _write_frame,
    lanes_for,
    serve,
)
from triage_app.core.db import BatchChunk, DeadLetter, Workspace, open_workspace, table_sha256
from triage_app.core.demo import StoreFiller
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import open_file
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import BatchState

PESANAN_2 = default_registry().get("pesanan@2")
BATCH = "00000000000001a2"


# lanes_for


def test_one_lane_below_the_threshold_two_from_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRIAGE_LANES", raising=False)
    assert lanes_for(0, custom_registry=False) == 1
    assert lanes_for(TWO_LANES_FROM_BYTES - 1, custom_registry=False) == 1
    assert lanes_for(TWO_LANES_FROM_BYTES, custom_registry=False) == 2
    assert TWO_LANES_FROM_BYTES == 8 * 1024 * 1024


@pytest.mark.parametrize(("forced", "lanes"), [("1", 1), ("2", 2)])
def test_triage_lanes_forces_the_number(
    monkeypatch: pytest.MonkeyPatch, forced: str, lanes: int
) -> None:
    monkeypatch.setenv("TRIAGE_LANES", forced)
    assert lanes_for(10, custom_registry=False) == lanes
    assert lanes_for(TWO_LANES_FROM_BYTES * 4, custom_registry=False) == lanes


@pytest.mark.parametrize("value", ["", "0", "3", "two", " 2"])
def test_another_triage_lanes_value_is_ignored(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("TRIAGE_LANES", value)
    assert lanes_for(10, custom_registry=False) == 1
    assert lanes_for(TWO_LANES_FROM_BYTES, custom_registry=False) == 2


@pytest.mark.parametrize("forced", [None, "2"])
def test_a_custom_registry_runs_one_lane(
    monkeypatch: pytest.MonkeyPatch, forced: str | None
) -> None:
    if forced is None:
        monkeypatch.delenv("TRIAGE_LANES", raising=False)
    else:
        monkeypatch.setenv("TRIAGE_LANES", forced)
    big = TWO_LANES_FROM_BYTES * 2
    assert lanes_for(big, custom_registry=True) == 1
    # A frozen app runs two: it starts its lane as `APP -m ...` (packaging/launcher.py).
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert lanes_for(big, custom_registry=False) == (1 if os.name == "nt" else 2)


# Frames


def test_frames_round_trip_in_order() -> None:
    messages: list[dict[str, Any]] = [
        {"w": True},
        {"stored": True, "records": 20_000, "position": 123_456_789},
        {"error": "Überlauf: ünïcödé \n and a newline", "transient": False},
        {},
    ]
    buf = io.BytesIO()
    for m in messages:
        _write_frame(buf, m)
    buf.seek(0)
    assert [_read_frame(buf) for _ in messages] == messages
    assert _read_frame(buf) is None  # the stream ended


def test_a_frame_is_its_length_then_its_json() -> None:
    buf = io.BytesIO()
    _write_frame(buf, {"end": True})
    assert buf.getvalue() == b"\x0c\x00\x00\x00" + b'{"end":true}'


@pytest.mark.parametrize("cut", [0, 1, 3, 4, 5, 15])
def test_a_truncated_frame_reads_as_none(cut: int) -> None:
    buf = io.BytesIO()
    _write_frame(buf, {"task": {"path": "x.jsonl"}})
    whole = buf.getvalue()
    assert len(whole) > 16
    assert _read_frame(io.BytesIO(whole[:cut])) is None
    assert _read_frame(io.BytesIO(whole)) == {"task": {"path": "x.jsonl"}}


# The second lane, served in this process over in-memory pipes


def task_for(path: Path, chunk_size: int) -> LaneTask:
    """The task as the parent sends it, the source to be opened again by its path (as
    where no descriptor can be passed on)."""
    with open_file(path) as opened:
        fingerprint = opened.fingerprint()
    return LaneTask(
        path=str(path),
        fd=None,
        size=fingerprint.size,
        mtime_ns=opened.stamp.mtime_ns,
        sha256=fingerprint.sha256,
        steps=list(fingerprint.steps),
        fmt="jsonl",
        transform="pesanan@2",
        batch_id=BATCH,
        resume_after=0,
        chunk_size=chunk_size,
        actor="lane-test",
        retry_attempts=3,
        retry_base=0.0,
        retry_max=0.0,
    )


def frames(*messages: dict[str, Any]) -> io.BytesIO:
    buf = io.BytesIO()
    for m in messages:
        _write_frame(buf, m)
    buf.seek(0)
    return buf


def replies(out: io.BytesIO) -> list[dict[str, Any]]:
    out.seek(0)
    got = []
    while (m := _read_frame(out)) is not None:
        got.append(m)
    return got


def header(ws: Workspace, task: LaneTask, warehouse: str | None = None) -> dict[str, Any]:
    return {
        "warehouse": warehouse or ws.warehouse.url.render_as_string(hide_password=False),
        "store": ws.store.url.render_as_string(hide_password=False),
        "task": task.__dict__,
    }


def ledger(ws: Workspace) -> list[tuple[int, int, int, int, int, int]]:
    with ws.store.connect() as conn:
        rows = conn.execute(select(BatchChunk.__table__).order_by(BatchChunk.first_line))
        return [
            (c.first_line, c.last_line, c.records, c.loaded, c.superseded, c.quarantined)
            for c in rows
        ]


def warehouse_lines(ws: Workspace) -> list[int]:
    with ws.warehouse.connect() as conn:
        return sorted(conn.execute(text("SELECT _line FROM pesanan")).scalars())


def dead_lines(ws: Workspace) -> list[int]:
    with ws.store.connect() as conn:
        return sorted(conn.execute(select(DeadLetter.line)).scalars())


@pytest.fixture
def lane_ws(workspace: Workspace) -> Workspace:
    with StoreFiller(workspace) as filler:
        filler.batch(BATCH, transform="pesanan@2", state=BatchState.RUNNING)
    return workspace


def test_the_second_lane_takes_the_odd_chunks_turn_by_turn(
    lane_ws: Workspace, seed_batch: Path
) -> None:
    # 10 lines in chunks of 3: the lane's are lines 4-6 and line 10.
    task = task_for(seed_batch, 3)
    out = io.BytesIO()
    turns = [{"w": True}, {"s": True}] * 2
    # The warehouse turn after its last chunk: it says it ended.
    stdin = frames(header(lane_ws, task), *turns, {"w": True})
    assert serve(stdin, out) == 0
    got = replies(out)
    size_to_6 = len(b"".join(seed_batch.read_bytes().splitlines(keepends=True)[:6]))
    assert got == [
        {"wrote": True},
        {"stored": True, "records": 3, "position": size_to_6},
        {"wrote": True},
        {"stored": True, "records": 1, "position": seed_batch.stat().st_size},
        {"end": True},
    ]
    assert warehouse_lines(lane_ws) == [5, 10]
    assert dead_lines(lane_ws) == [4, 6]
    assert ledger(lane_ws) == [(4, 6, 3, 1, 0, 2), (10, 10, 1, 1, 0, 0)]


def test_a_stop_after_the_warehouse_turn_leaves_the_chunk_unstored(
    lane_ws: Workspace, seed_batch: Path
) -> None:
    task = task_for(seed_batch, 3)
    out = io.BytesIO()
    assert serve(frames(header(lane_ws, task), {"w": True}, {"stop": True}), out) == 0
    assert replies(out) == [{"wrote": True}]
    assert warehouse_lines(lane_ws) == [5]  # written: replayed on resume
    assert dead_lines(lane_ws) == [] and ledger(lane_ws) == []


def test_no_turn_means_no_write(lane_ws: Workspace, seed_batch: Path) -> None:
    task = task_for(seed_batch, 3)
    out = io.BytesIO()
    assert serve(frames(header(lane_ws, task), {"stop": True}), out) == 0
    assert replies(out) == []
    assert ledger(lane_ws) == [] and dead_lines(lane_ws) == []
    assert serve(io.BytesIO(b""), out) == 0  # no header at all: the parent went away


def test_a_lane_that_cannot_open_the_databases_says_why(
    lane_ws: Workspace, seed_batch: Path
) -> None:
    out = io.BytesIO()
    bad = header(lane_ws, task_for(seed_batch, 3), warehouse="mysql://u@localhost/db")
    assert serve(frames(bad), out) == 1
    (reply,) = replies(out)
    assert reply["transient"] is False
    assert "mysql is not supported" in reply["error"]


def test_the_parent_reports_a_lane_that_stopped(workspace: Workspace) -> None:
    partner = Partner(workspace)
    try:
        partner.stdin.close()  # no header: the lane ends without a word
        with pytest.raises(TriageError, match=r"second lane stopped unexpectedly.*run the same"):
            partner.receive()
    finally:
        partner.close()
    assert partner.closed


def test_the_parent_reports_a_lane_error_in_one_line(
    workspace: Workspace, seed_batch: Path
) -> None:
    partner = Partner(workspace)
    try:
        partner.send(header(workspace, task_for(seed_batch, 3), warehouse="mysql://u@h/db"))
        with pytest.raises(TriageError, match="warehouse: mysql is not supported") as raised:
            partner.receive()
        assert "\n" not in str(raised.value)
    finally:
        partner.close()


# One lane or two: the same result


@pytest.fixture(scope="module")
def batch_8k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return gen_batch(tmp_path_factory.mktemp("lanes") / "orders_8k.jsonl", 8_000, bad=0.05)


def outcome(ws: Workspace, s: BatchSummary) -> tuple[Any, ...]:
    summary = {k: v for k, v in s.to_json().items() if k != "seconds"}
    with ws.store.connect() as conn:
        dls = [
            (d.line, d.original_payload, d.error, d.error_class)
            for d in conn.execute(select(DeadLetter.__table__).order_by(DeadLetter.line))
        ]
    return summary, table_sha256(ws.warehouse, PESANAN_2), dls, ledger(ws)


def test_two_lanes_give_the_same_result_as_one(tmp_path: Path, batch_8k: Path) -> None:
    results = []
    for lanes in (1, 2):
        ws = open_workspace(tmp_path / f"lanes{lanes}")
        try:
            s = run_batch(ws, batch_8k, "pesanan@2", chunk_size=700, lanes=lanes)
            results.append(outcome(ws, s))
        finally:
            ws.close()
    one, two = results
    assert one == two
    summary, _hash, dls, chunks = one
    assert summary["rows"] == summary["loaded"] + summary["superseded"] + summary["quarantined"]
    assert summary["quarantined"] == len(dls) > 0 and summary["superseded"] > 0
    # Both lanes' chunks, contiguous: every line counted once.
    assert len(chunks) == 12
    assert [c[0] for c in chunks[1:]] == [c[1] + 1 for c in chunks[:-1]]
    assert chunks[0][0] == 1 and chunks[-1][1] == len(batch_8k.read_bytes().splitlines())
