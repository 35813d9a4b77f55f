"""The bulk filler: batches, dead letters and audit events written straight into a store, ids
after the rows already there, every row written however many, and the batch counters by
class."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Row, select

from triage_app.core.batch import list_batches, run_batch
from triage_app.core.db import AuditEvent, Batch, Workspace, counts, open_workspace
from triage_app.core.deadletters import (
    DeadLetterFilter,
    count_dead_letters,
    get_dead_letter,
    list_dead_letters,
)
from triage_app.core.demo import StoreFiller, order_payload
from triage_app.core.demo.store import EPOCH, PAYLOAD
from triage_app.core.trends import compute_trends
from triage_app.core.vocabulary import AuditAction, ErrorClass, Status

ALL = DeadLetterFilter(status="all")
BID = "ab00000000000000"


def event_ids(ws: Workspace) -> list[int]:
    with ws.store.connect() as conn:
        return list(conn.execute(select(AuditEvent.id).order_by(AuditEvent.id)).scalars())


def stored_batch(ws: Workspace, batch_id: str) -> Row[Any]:
    with ws.store.connect() as conn:
        b = conn.execute(select(Batch.__table__).where(Batch.batch_id == batch_id)).one_or_none()
    assert b is not None
    return b


def test_writes_batches_dead_letters_and_events(workspace: Workspace) -> None:
    t = dt.datetime(2026, 2, 3, 4, 5, 6)
    with StoreFiller(workspace) as filler:
        filler.batch(
            BID,
            source_name="night.jsonl",
            transform="pesanan@2",
            rows=100,
            loaded=97,
            quarantined=3,
            started_at=t,
            finished_at=t + dt.timedelta(minutes=2),
            seconds=1.5,
        )
        dl_id = filler.dead_letter(
            BID,
            42,
            error="DataError: qty tidak valid: -1",
            signature="DataError: qty tidak valid: <n>",
            payload=order_payload(42),
            attempts=2,
            status=Status.PARKED,
            transform="pesanan@2",
            failed_at=t,
            last_failed_at=t + dt.timedelta(hours=6),
        )
        plain = filler.dead_letter(BID, 43, error="KeyError: 'diskon'", error_class="code")
        filler.event(dl_id, AuditAction.QUARANTINED, t, actor="demo", detail="first")
        filler.event(dl_id, AuditAction.PARKED, t + dt.timedelta(hours=6))
    b = stored_batch(workspace, BID)
    assert (b.source_name, b.transform, b.format, b.state) == (
        "night.jsonl",
        "pesanan@2",
        "jsonl",
        "complete",
    )
    assert (b.rows, b.lines_done, b.loaded, b.superseded, b.quarantined) == (100, 100, 97, 0, 3)
    assert (b.seconds, b.started_at, b.finished_at) == (1.5, t, t + dt.timedelta(minutes=2))
    assert b.source_sha256 == BID.ljust(64, "0")
    assert b.csv_header is None
    assert [x.batch_id for x in list_batches(workspace)] == [BID]

    d = get_dead_letter(workspace, dl_id, reveal=True)
    assert (d.batch_id, d.line, d.attempts, d.status, d.transform) == (
        BID,
        42,
        2,
        "parked",
        "pesanan@2",
    )
    assert d.original_bytes == d.payload_bytes == order_payload(42)
    assert d.payload_kind == "jsonl" and d.error_class == "data"
    assert d.signature == "DataError: qty tidak valid: <n>"
    assert (d.first_failed_at, d.last_failed_at) == ("2026-02-03T04:05:06Z", "2026-02-03T10:05:06Z")
    assert [(e.action, e.actor, e.detail) for e in d.events] == [
        ("quarantined", "demo", "first"),
        ("parked", "synthetic", ""),
    ]
    # What is not given takes the store's usual values; the signature is the error.
    p = get_dead_letter(workspace, plain, reveal=True)
    assert (p.signature, p.error_class, p.status, p.attempts) == (
        "KeyError: 'diskon'",
        "code",
        "open",
        1,
    )
    assert p.payload_bytes == PAYLOAD and p.first_failed_at == p.last_failed_at
    assert p.first_failed_at == EPOCH.isoformat() + "Z"
    # No event stored for it: its quarantine is its batch's set record (no actor given).
    assert [(e.action, e.actor, e.version) for e in p.events] == [("quarantined", "unknown", 1)]
    assert p.events[0].detail == "code via pesanan@2: KeyError: 'diskon'"


def test_order_payload_is_a_negative_quantity() -> None:
    rec = json.loads(order_payload(1234))
    assert rec["pesanan_id"] == 1234 and rec["qty"] == -1
    assert order_payload(1) != order_payload(2)


def test_ids_continue_after_rows_already_in_the_store(
    workspace: Workspace, seed_batch: Path
) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")  # dead letters 1 to 4; its set record
    assert event_ids(workspace) == []
    with StoreFiller(workspace) as filler:
        filler.batch(BID)
        ids = [filler.dead_letter(BID, line, error="E") for line in (1, 2)]
        for dl_id in ids:
            filler.event(dl_id, AuditAction.QUARANTINED, EPOCH)
    assert ids == [5, 6]
    assert event_ids(workspace) == [1, 2]
    with StoreFiller(workspace) as again:
        assert again.dead_letter(BID, 3, error="E") == 7
        again.event(7, AuditAction.NOTE, EPOCH)
    assert event_ids(workspace) == [1, 2, 3]
    assert [d.id for d in list_dead_letters(workspace, ALL)] == [1, 2, 3, 4, 5, 6, 7]
    # The seed's dead letters are untouched.
    assert get_dead_letter(workspace, 4, reveal=True).error.startswith("TypeError")


def test_more_rows_than_a_block_are_all_written(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import triage_app.core.demo.store as store

    monkeypatch.setattr(store, "FLUSH_EVERY", 7)
    with StoreFiller(workspace) as filler:
        filler.batch(BID, rows=1000, quarantined=30)
        for line in range(1, 31):
            dl_id = filler.dead_letter(BID, line, error=f"E{line}")
            filler.event(dl_id, AuditAction.QUARANTINED, EPOCH)
            if line == 7:
                # A full block is written at once, before the filler is closed.
                assert count_dead_letters(workspace, ALL) == 7
    assert count_dead_letters(workspace, ALL) == 30
    assert [d.line for d in list_dead_letters(workspace, ALL, limit=None)] == list(range(1, 31))
    assert event_ids(workspace) == list(range(1, 31))
    assert stored_batch(workspace, BID).quarantined == 30


def test_by_class_counters_land_in_the_batch_columns(workspace: Workspace) -> None:
    with StoreFiller(workspace) as filler:
        filler.batch(
            "aa00000000000000",
            rows=50,
            quarantined=6,
            by_class={"data": 1, "code": 2, "transient": 3},
        )
        filler.batch("bb00000000000000", rows=50, quarantined=4, by_class={ErrorClass.CODE: 4})
        filler.batch("cc00000000000000", rows=50)
    cols = {
        bid: (b.q_data, b.q_code, b.q_transient)
        for bid in ("aa00000000000000", "bb00000000000000", "cc00000000000000")
        for b in [stored_batch(workspace, bid)]
    }
    assert cols == {
        "aa00000000000000": (1, 2, 3),
        "bb00000000000000": (0, 4, 0),
        "cc00000000000000": (0, 0, 0),
    }
    # Trends reads them back per batch.
    per_batch = {p.batch_id: p.by_class for p in compute_trends(workspace).per_batch}
    assert per_batch["aa00000000000000"] == {"data": 1, "code": 2, "transient": 3}
    assert per_batch["bb00000000000000"] == {"data": 0, "code": 4, "transient": 0}


def test_a_filler_left_by_an_exception_writes_nothing_more(workspace: Workspace) -> None:
    with pytest.raises(RuntimeError), StoreFiller(workspace) as filler:
        filler.batch(BID)
        filler.dead_letter(BID, 1, error="E")
        raise RuntimeError("the scenario broke")
    assert list_batches(workspace) == []
    assert count_dead_letters(workspace, ALL) == 0


def test_times_are_stored_as_the_engine_stores_them(workspace: Workspace) -> None:
    """A time with no microseconds written by the raw driver would be text of another form
    ('2026-03-01 00:00:00' against the engine's '2026-03-01 00:00:00.000000'), and a dead
    letter failed at midnight would fall out of its own day."""
    day = dt.date(2026, 3, 1)
    with StoreFiller(workspace) as filler:
        filler.batch(BID, rows=10, quarantined=1, started_at=dt.datetime(2026, 3, 1))
        filler.dead_letter(BID, 1, error="E", failed_at=dt.datetime(2026, 3, 1))
    assert count_dead_letters(workspace, ALL.with_(failed_from=day, failed_to=day)) == 1
    assert [(d.day, d.total) for d in compute_trends(workspace).per_day] == [(day, 1)]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def either_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspace]:
    store = request.getfixturevalue("pg_urls")[1] if request.param == "postgresql" else None
    with open_workspace(tmp_path / "ws", dead_letter_url=store) as ws:
        yield ws


def _index_definitions(ws: Workspace) -> dict[str, str]:
    with ws.store.connect() as conn:
        if conn.dialect.name == "sqlite":
            sql = (
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                "AND tbl_name = 'dead_letters'"
            )
        else:
            sql = (
                "SELECT indexname, indexdef FROM pg_indexes "
                "WHERE schemaname = current_schema() AND tablename = 'dead_letters'"
            )
        return {str(name): str(d) for name, d in conn.exec_driver_sql(sql)}


def _fill_mixed(ws: Workspace, *, bulk: bool, flush_every: int) -> None:
    """Rows across two batches, three signatures, every status, two days."""
    t = dt.datetime(2026, 3, 1, 23, 0)
    with StoreFiller(ws, bulk=bulk) as filler:
        for b in ("aa00000000000000", "bb00000000000000"):
            filler.batch(b, rows=40, quarantined=20, actor="nightly@etl")
            for line in range(1, 21):
                filler.dead_letter(
                    b,
                    line,
                    error=f"E{line % 3}: {line}",
                    signature=f"E{line % 3}: <n>",
                    error_class=("data", "code", "transient")[line % 3],
                    status=list(Status)[line % 4],
                    attempts=1 + line % 2,
                    transform="pesanan@1" if b.startswith("a") else "pesanan@2",
                    failed_at=t + dt.timedelta(minutes=7 * line),  # past midnight: two days
                )
                if line % flush_every == 0:
                    filler.flush()


@pytest.mark.parametrize("bulk", [False, True])
def test_the_summary_of_the_rows_is_kept_with_them(either_store: Workspace, bulk: bool) -> None:
    """dead_letter_counts holds what a recount of the rows says, however the blocks fell,
    and a second filler adds to the cells the first left."""
    _fill_mixed(either_store, bulk=bulk, flush_every=6)
    with either_store.store.connect() as conn:
        cells = counts.stored(conn)
        assert cells == counts.recount(conn)
    assert sum(cells.values()) == 40
    assert {cell[4] for cell in cells} == {dt.date(2026, 3, 1), dt.date(2026, 3, 2)}
    with StoreFiller(either_store) as filler:
        filler.dead_letter("aa00000000000000", 99, error="E0: <n>", error_class="data")
    with either_store.store.connect() as conn:
        assert counts.stored(conn) == counts.recount(conn)
        assert sum(counts.stored(conn).values()) == 41


def test_bulk_makes_the_same_indexes_again(either_store: Workspace) -> None:
    before = _index_definitions(either_store)
    assert len(before) > 5  # the store's own set, whatever it is
    _fill_mixed(either_store, bulk=True, flush_every=100)
    assert _index_definitions(either_store) == before
    assert count_dead_letters(either_store, ALL) == 40


def test_bulk_makes_the_indexes_again_after_an_exception(either_store: Workspace) -> None:
    before = _index_definitions(either_store)
    with pytest.raises(RuntimeError), StoreFiller(either_store, bulk=True) as filler:
        assert _index_definitions(either_store) != before  # dropped while it fills
        filler.batch(BID)
        raise RuntimeError("the scenario broke")
    assert _index_definitions(either_store) == before


def test_a_batch_names_its_actor(either_store: Workspace) -> None:
    """A batch is the set record of its quarantine: who ran it, and no per-row event."""
    _fill_mixed(either_store, bulk=False, flush_every=100)
    assert stored_batch(either_store, "aa00000000000000").actor == "nightly@etl"
    assert event_ids(either_store) == []
    with StoreFiller(either_store) as filler:
        filler.batch("cc00000000000000")
    assert stored_batch(either_store, "cc00000000000000").actor is None
