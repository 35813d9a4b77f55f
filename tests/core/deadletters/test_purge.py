"""Retention purges: only closed rows go (resolved by resolved_at, discarded by the time of
their discarded event), with their audit events; open and parked never; a dry run counts
what the real run deletes; a row reopened by another process meanwhile stays; one
``purges`` row and a ``purged`` event per chunk record it; the policy is kept in the store. On
SQLite and PostgreSQL, and 100,000 rows in seconds."""

from __future__ import annotations

import datetime as dt
import multiprocessing as mp
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import insert, select, update

from tests.support.purge_store import CLOSED_AT, counts, fill_purge_store
from triage_app.core.db import (
    AuditEvent,
    DeadLetter,
    Purge,
    Workspace,
    WorkspaceConfig,
    open_config,
    open_workspace,
    resolve_config,
    summary,
)
from triage_app.core.deadletters import (
    RetentionPolicy,
    purge,
    retention_policy,
    set_retention_policy,
)
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import AuditAction, Status

NOW = CLOSED_AT + dt.timedelta(days=40)  # every closed row was closed 40 days before


@pytest.fixture(params=["sqlite", "postgresql"])
def config(request: pytest.FixtureRequest, tmp_path: Path) -> WorkspaceConfig:
    if request.param == "sqlite":
        return resolve_config(tmp_path / "ws", env={})
    wh, dl = request.getfixturevalue("pg_urls")
    return resolve_config(tmp_path / "ws", wh, dl, env={})


@pytest.fixture
def ws(config: WorkspaceConfig) -> Iterator[Workspace]:
    with open_config(config) as w:
        yield w


def _events_of(ws: Workspace, ids: list[int]) -> list[tuple[int, str]]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(AuditEvent.dead_letter_id, AuditEvent.action)
            .where(AuditEvent.dead_letter_id.in_(ids))
            .order_by(AuditEvent.id)
        )
        return [(int(i), str(a)) for i, a in rows]


# -- what goes, what stays -----------------------------------------------------------------
def test_purges_closed_rows_with_their_events_and_never_open_or_parked(ws: Workspace) -> None:
    store = fill_purge_store(ws)
    assert counts(ws) == {
        "resolved": 6,
        "discarded": 4,
        "open": 3,
        "parked": 2,
        "events": 6 * 2 + 4 * 2 + 3 + 2 * 2,
    }
    s = purge(ws, 30, ["resolved", "discarded"], actor="lead", now=NOW)
    assert (s.rows, s.by_status) == (10, {"resolved": 6, "discarded": 4})
    assert counts(ws) == {"open": 3, "parked": 2, "events": 3 + 2 * 2}
    # The open and parked rows keep every event they had.
    kept = store.ids["open"] + store.ids["parked"]
    assert len(_events_of(ws, kept)) == 3 + 2 * 2
    assert _events_of(ws, store.ids["resolved"] + store.ids["discarded"]) == []


def test_even_zero_days_never_takes_open_or_parked(ws: Workspace) -> None:
    fill_purge_store(ws)
    purge(ws, 0, ["resolved", "discarded"])
    assert {k: v for k, v in counts(ws).items() if k != "events"} == {"open": 3, "parked": 2}


@pytest.mark.parametrize("status", ["open", "parked", "OPEN", "all", "junk"])
def test_open_parked_or_unknown_statuses_are_refused_in_one_line(
    ws: Workspace, status: str
) -> None:
    fill_purge_store(ws)
    before = counts(ws)
    with pytest.raises(TriageError) as exc:
        purge(ws, 0, ["resolved", status])
    assert "\n" not in str(exc.value) and "only resolved and discarded" in str(exc.value)
    assert counts(ws) == before  # refused before anything was touched


def test_a_discarded_row_reopened_is_no_longer_purged_and_a_new_discard_restarts_its_clock(
    ws: Workspace,
) -> None:
    """A discarded row can be reopened (issue 20): open again, a purge leaves it and its
    history; discarded again, it closed at that newest discard, not the first one."""
    from triage_app.core.clock import utcnow
    from triage_app.core.deadletters import apply_change, discard, reopen

    store = fill_purge_store(ws)
    back, again = store.ids["discarded"][:2]
    assert len(apply_change(ws, [back, again], reopen("not junk"), actor="ani").changed) == 2
    assert len(apply_change(ws, [again], discard("junk after all")).changed) == 1
    s = purge(ws, 30, ["discarded"], now=NOW)
    # The two others discarded 40 days before NOW went; ``again`` was discarded just now.
    assert (s.rows, s.by_status) == (2, {"discarded": 2})
    assert _events_of(ws, [back]) == [
        (back, "quarantined"),
        (back, "discarded"),
        (back, "reopened"),
    ]
    assert [a for _, a in _events_of(ws, [again])][-2:] == ["reopened", "discarded"]
    later = utcnow() + dt.timedelta(days=31)
    assert purge(ws, 30, ["discarded"], now=later).rows == 1  # ``again``; ``back`` is open
    assert counts(ws)["open"] == 3 + 1


@pytest.mark.parametrize("days", [-1, 1.5, "30", True])
def test_bad_days_are_refused_in_one_line(workspace: Workspace, days: Any) -> None:
    with pytest.raises(TriageError) as exc:
        purge(workspace, days, ["resolved"])
    assert "\n" not in str(exc.value)


def test_no_status_is_refused(workspace: Workspace) -> None:
    with pytest.raises(TriageError, match="resolved and/or discarded"):
        purge(workspace, 30, [])


def test_older_than_means_closed_before_the_cutoff(ws: Workspace) -> None:
    """Closed 40 days before ``NOW``: kept at 40 days or more, purged below."""
    fill_purge_store(ws)
    for days in (41, 40):
        assert purge(ws, days, ["resolved", "discarded"], now=NOW).rows == 0
    assert purge(ws, 39, ["resolved"], now=NOW).rows == 6
    assert counts(ws)["discarded"] == 4  # only the statuses asked for


def test_a_discarded_row_goes_by_its_discard_event_not_its_failure(ws: Workspace) -> None:
    store = fill_purge_store(ws, resolved=0, open_=0, parked=0, discarded=2)
    recent, old = store.ids["discarded"]
    with ws.store.begin() as conn:
        conn.execute(
            update(AuditEvent)
            .where(AuditEvent.dead_letter_id == recent, AuditEvent.action == "discarded")
            .values(at=NOW - dt.timedelta(days=2))
        )
    s = purge(ws, 10, ["discarded"], now=NOW)
    assert s.rows == 1
    assert s.closed_by_day == {"discarded": {"2026-02-01": 1}}
    with ws.store.connect() as conn:
        left = list(conn.execute(select(DeadLetter.id)).scalars())
    assert left == [recent] and old not in left


def test_dry_run_writes_nothing_and_counts_what_the_real_run_deletes(ws: Workspace) -> None:
    fill_purge_store(ws, resolved=40, discarded=25, open_=5, parked=5, days=7)
    before = counts(ws)
    dry = purge(ws, 30, ["resolved", "discarded"], dry_run=True, now=NOW)
    assert counts(ws) == before
    with ws.store.connect() as conn:
        assert conn.execute(select(Purge.id)).first() is None
        assert (
            conn.execute(select(AuditEvent.id).where(AuditEvent.action == "purged")).first() is None
        )
    real = purge(ws, 30, ["resolved", "discarded"], now=NOW, chunk_size=7)
    assert dry.dry_run and not real.dry_run
    assert (dry.rows, dry.by_status, dry.by_day, dry.closed_by_day) == (
        real.rows,
        real.by_status,
        real.by_day,
        real.closed_by_day,
    )
    assert real.rows == 65 and sum(sum(c.values()) for c in real.by_day.values()) == 65
    assert len(real.by_day) == 7  # seven days of first failures


def test_one_purges_row_and_a_purged_event_per_chunk_record_it(ws: Workspace) -> None:
    store = fill_purge_store(ws)
    s = purge(ws, 30, ["discarded", "resolved"], actor="lead", now=NOW, chunk_size=3)
    with ws.store.connect() as conn:
        p = conn.execute(select(Purge.__table__)).one()
        evs = conn.execute(
            select(AuditEvent.__table__)
            .where(AuditEvent.action == "purged")
            .order_by(AuditEvent.id)
        ).all()
    assert s.purge_id == p.id
    assert (p.actor, p.statuses, p.rows, p.cutoff) == (
        "lead",
        "resolved,discarded",
        10,
        NOW - dt.timedelta(days=30),
    )
    by_day = orjson.loads(p.by_day)
    assert by_day == s.by_day
    assert sum(n for day in by_day.values() for n in day.values()) == 10
    assert all(len(day) == 10 for day in by_day)  # keyed YYYY-MM-DD
    # 6 resolved in chunks of 3, then 4 discarded in 3 + 1: one event per chunk, committed
    # with it, naming its rows; together they are the purge.
    assert [orjson.loads(e.detail)["rows"] for e in evs] == [3, 3, 3, 1]
    assert all(e.dead_letter_id is None and e.actor == "lead" for e in evs)
    details = [orjson.loads(e.detail) for e in evs]
    assert {d["purge_id"] for d in details} == {p.id}
    named = [i for d in details for a, b in d["ids"] for i in range(a, b + 1)]
    assert sorted(named) == sorted(store.ids["resolved"] + store.ids["discarded"])
    totals: dict[str, int] = {}
    for d in details:
        for st, n in d["by_status"].items():
            totals[st] = totals.get(st, 0) + n
    assert totals == {"resolved": 6, "discarded": 4}


def test_nothing_to_purge_writes_no_record(ws: Workspace) -> None:
    fill_purge_store(ws, resolved=0, discarded=0)
    assert purge(ws, 0, ["resolved", "discarded"]).rows == 0
    with ws.store.connect() as conn:
        assert conn.execute(select(Purge.id)).first() is None


class _CancelAfter:
    def __init__(self, chunks: int) -> None:
        self.updates = 0
        self.chunks = chunks

    def update(self, done: int, total: int, rows: int = 0) -> None:
        self.updates += 1

    def cancelled(self) -> bool:
        return self.updates > self.chunks  # the first update is the plan, before any chunk


def test_cancel_stops_between_chunks_and_records_what_went(ws: Workspace) -> None:
    fill_purge_store(ws, resolved=20, discarded=0)
    s = purge(ws, 30, ["resolved"], now=NOW, chunk_size=5, progress=_CancelAfter(2))
    assert s.cancelled and s.rows == 10
    assert counts(ws)["resolved"] == 10
    with ws.store.connect() as conn:
        assert conn.execute(select(Purge.rows)).scalar_one() == 10


# -- the shared policy ---------------------------------------------------------------------
def test_the_policy_is_kept_in_the_store_for_every_workspace_on_it(
    ws: Workspace, config: WorkspaceConfig
) -> None:
    assert retention_policy(ws) is None
    set_retention_policy(ws, RetentionPolicy.of(90, ["discarded", "resolved"]))
    with open_config(config) as other:  # another steward's window, the same store
        assert retention_policy(other) == RetentionPolicy(90, ("resolved", "discarded"))
    set_retention_policy(ws, RetentionPolicy.of(7, ["resolved"]))
    assert retention_policy(ws) == RetentionPolicy(7, ("resolved",))
    set_retention_policy(ws, None)
    assert retention_policy(ws) is None


def test_a_policy_for_open_rows_cannot_be_made() -> None:
    with pytest.raises(TriageError):
        RetentionPolicy.of(30, ["parked"])


# -- racing another process ----------------------------------------------------------------
def _purge_in_child(config: WorkspaceConfig, listed: Any, go: Any, result: Any, chunk: int) -> None:
    """Purge in its own process; after choosing its rows it waits for the test to reopen
    one, so that the reopen lands between the choice and the delete."""

    class Pause:
        def __init__(self) -> None:
            self.first = True

        def update(self, done: int, total: int, rows: int = 0) -> None:
            if self.first:
                self.first = False
                listed.set()
                go.wait(60)

        def cancelled(self) -> bool:
            return False

    with open_config(config) as ws:
        s = purge(ws, 30, ["resolved", "discarded"], progress=Pause(), chunk_size=chunk, now=NOW)
    result.put((s.rows, s.by_status))


def _reopen(ws: Workspace, dl_id: int, status: str) -> int:
    """What a steward's reopen does: the status back to open, one event; 1 if it applied."""
    with ws.store.begin() as conn:
        # As every writer does, the summary too (``db/counts.py``), with the row locked
        # first: SQLite's write lock from the start (as ``write_transaction`` takes it), or
        # the row's on PostgreSQL.
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        row = [DeadLetter.id == dl_id, DeadLetter.status == status]
        conn.execute(select(DeadLetter.id).where(*row).with_for_update())
        before = summary.cells_of(conn, row)
        n = conn.execute(
            update(DeadLetter)
            .where(DeadLetter.id == dl_id, DeadLetter.status == status)
            .values(status=Status.OPEN, resolved_at=None)
        ).rowcount
        summary.moved_to(conn, before, status=Status.OPEN.value)
        if n:
            conn.execute(
                insert(AuditEvent).values(
                    dead_letter_id=dl_id,
                    at=NOW,
                    actor="steward",
                    action=AuditAction.REOPENED.value,
                    detail="not junk after all",
                )
            )
    return int(n)


def test_a_row_reopened_by_another_process_meanwhile_is_not_purged(
    ws: Workspace, config: WorkspaceConfig
) -> None:
    store = fill_purge_store(ws)
    victim = store.ids["resolved"][2]
    other = store.ids["discarded"][1]
    ctx = mp.get_context("spawn")
    listed, go, result = ctx.Event(), ctx.Event(), ctx.Queue()
    child = ctx.Process(target=_purge_in_child, args=(config, listed, go, result, 4))
    child.start()
    try:
        assert listed.wait(60), "the purge never chose its rows"
        # The purge has chosen both rows; now another process reopens them.
        assert _reopen(ws, victim, Status.RESOLVED) == 1
        assert _reopen(ws, other, Status.DISCARDED) == 1
        go.set()
        rows, by_status = result.get(timeout=60)
    finally:
        go.set()
        child.join(60)
    assert child.exitcode == 0
    assert (rows, by_status) == (8, {"resolved": 5, "discarded": 3})
    with ws.store.connect() as conn:
        left = dict(conn.execute(select(DeadLetter.id, DeadLetter.status)).all())
        recorded = conn.execute(select(Purge.rows)).scalar_one()
    assert left[victim] == left[other] == "open"
    assert recorded == 8  # the record counts what went, not what was chosen
    # Both keep their whole history, the reopen included.
    assert [a for _, a in _events_of(ws, [victim])] == ["quarantined", "resolved", "reopened"]
    assert [a for _, a in _events_of(ws, [other])] == ["quarantined", "discarded", "reopened"]


def _reopen_many(
    config: WorkspaceConfig, ids: list[int], started: Any, go: Any, result: Any
) -> None:
    """Reopen rows one by one while a purge runs; report the ones that were reopened. The
    purge goes on once the first reopen is in (``go``): on a fast machine it otherwise
    finished before this process had started, and nothing raced."""
    done = []
    with open_config(config) as ws:
        started.wait(60)
        for dl_id in ids:
            if _reopen(ws, dl_id, Status.RESOLVED):
                done.append(dl_id)
            go.set()
    result.put(done)


def test_racing_reopens_all_survive_and_nothing_else_stays(
    ws: Workspace, config: WorkspaceConfig
) -> None:
    """No pause this time: a process reopens rows while another purges in small chunks.
    Every reopen that applied kept its row and history; every other resolved row went."""
    store = fill_purge_store(ws, resolved=600, discarded=0, open_=0, parked=0)
    targets = store.ids["resolved"][::-3]  # from the end: some before the purge gets there
    ctx = mp.get_context("spawn")
    listed, go, q1, q2 = ctx.Event(), ctx.Event(), ctx.Queue(), ctx.Queue()
    # The purger lists its rows, then waits for the reopener's first reopen; from there on
    # both run free.
    purger = ctx.Process(target=_purge_in_child, args=(config, listed, go, q1, 20))
    reopener = ctx.Process(target=_reopen_many, args=(config, targets, listed, go, q2))
    reopener.start()
    purger.start()
    rows, _ = q1.get(timeout=120)
    reopened = q2.get(timeout=120)
    for p in (purger, reopener):
        p.join(60)
        assert p.exitcode == 0
    with ws.store.connect() as conn:
        left = dict(conn.execute(select(DeadLetter.id, DeadLetter.status)).all())
    assert set(left) == set(reopened)  # the reopened survive, nothing else
    assert all(s == "open" for s in left.values())
    assert rows + len(reopened) == 600
    for dl_id in reopened:
        assert [a for _, a in _events_of(ws, [dl_id])] == ["quarantined", "resolved", "reopened"]
    with ws.store.connect() as conn:  # the summary followed both processes
        assert summary.differences(conn) == []
        assert sum(summary.stored(conn).values()) == len(reopened) > 0


# -- a large store -------------------------------------------------------------------------
@pytest.mark.slow
def test_a_100k_row_purge_takes_seconds(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        fill_purge_store(ws, resolved=70_000, discarded=30_000, open_=1_000, parked=0, days=30)
        started = time.perf_counter()
        s = purge(ws, 30, ["resolved", "discarded"], now=NOW)
        seconds = time.perf_counter() - started
        assert s.rows == 100_000
        assert counts(ws) == {"open": 1_000, "events": 1_000}
    print(f"purged 100,000 dead letters and 200,000 events in {seconds:.1f} s")
    assert seconds < 60
