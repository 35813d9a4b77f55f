"""Retention keeps the books (issue 21): a batch whose closed dead letters were purged, in
any way a purge can take them (by age, by status, by batch, everything, in many chunks),
still reconciles, with the purged rows counted as what they were (resolved or discarded).
And a dead letter that went any other way is still named as missing. SQLite and
PostgreSQL."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select, update

from tests.support import gen_batch
from triage_app.core.batch import run_batch
from triage_app.core.clock import utcnow
from triage_app.core.db import AuditEvent, DeadLetter, Purge, Workspace, open_config, resolve_config
from triage_app.core.deadletters import (
    DeadLetterFilter,
    apply_change,
    discard,
    list_dead_letters,
    redrive,
)
from triage_app.core.deadletters import purge as purge_rows
from triage_app.core.verify import reconcile
from triage_app.core.vocabulary import AuditAction, Status

LATER = utcnow() + dt.timedelta(days=1)  # "now" for a purge: every row closed before it
OLD = dt.timedelta(days=20)


@pytest.fixture(params=["sqlite", "postgresql"])
def ws(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspace]:
    if request.param == "sqlite":
        config = resolve_config(tmp_path / "ws", env={})
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        config = resolve_config(tmp_path / "ws", wh, dl, env={})
    with open_config(config) as w:
        yield w


def _batch(ws: Workspace, src: Path) -> str:
    """A batch in 500-line chunks whose code failures are re-driven (resolved) and whose
    data failures are discarded, as in the issue."""
    batch_id = run_batch(ws, src, "pesanan@1", chunk_size=500).batch_id
    of = DeadLetterFilter(batch_id=batch_id, error_class="code")
    redrive(ws, "pesanan@2", where=of, actor="steward")
    data = [d.id for d in list_dead_letters(ws, DeadLetterFilter(batch_id=batch_id), limit=None)]
    # Data rows other than the last few: those stay open, a purge never takes them.
    apply_change(ws, data[:-3], discard("junk"), actor="steward")
    assert reconcile(ws, batch_id).ok
    return batch_id


def _statuses(ws: Workspace, batch_id: str) -> dict[str, int]:
    with ws.store.connect() as conn:
        rows = conn.execute(select(DeadLetter.status).where(DeadLetter.batch_id == batch_id))
        out: dict[str, int] = {}
        for (s,) in rows:
            out[s] = out.get(s, 0) + 1
    return out


def _age_half(ws: Workspace, batch_id: str) -> dict[str, int]:
    """Closed half of each status's rows 20 days earlier; how many of each were."""
    aged: dict[str, int] = {}
    with ws.store.begin() as conn:
        for status in (Status.RESOLVED, Status.DISCARDED):
            ids = (
                conn.execute(
                    select(DeadLetter.id)
                    .where(DeadLetter.batch_id == batch_id, DeadLetter.status == status)
                    .order_by(DeadLetter.id)
                )
                .scalars()
                .all()
            )[::2]
            aged[status.value] = len(ids)
            old = utcnow() - OLD
            if status == Status.RESOLVED:
                conn.execute(
                    update(DeadLetter).where(DeadLetter.id.in_(ids)).values(resolved_at=old)
                )
            else:
                conn.execute(
                    update(AuditEvent)
                    .where(
                        AuditEvent.dead_letter_id.in_(ids),
                        AuditEvent.action == AuditAction.DISCARDED,
                    )
                    .values(at=old)
                )
    return aged


WAYS = ["by-age", "resolved", "discarded", "by-batch", "everything"]


@pytest.mark.parametrize("way", WAYS)
def test_a_purged_batch_still_reconciles(ws: Workspace, tmp_path: Path, way: str) -> None:
    first = _batch(ws, gen_batch(tmp_path / "a.jsonl", 3_000, bad=0.06, seed=5))
    second = _batch(ws, gen_batch(tmp_path / "b.jsonl", 1_200, bad=0.06, seed=6))
    before = {b: _statuses(ws, b) for b in (first, second)}
    assert all(s["resolved"] and s["discarded"] and s["open"] for s in before.values())

    both = ["resolved", "discarded"]
    expect: dict[str, dict[str, int]]
    if way == "by-age":
        aged = {b: _age_half(ws, b) for b in (first, second)}
        purge_rows(ws, 10, both, chunk_size=9)
        expect = aged
    elif way in ("resolved", "discarded"):
        purge_rows(ws, 0, [way], now=LATER, chunk_size=9)
        expect = {b: {way: before[b][way]} for b in (first, second)}
    elif way == "by-batch":
        purge_rows(ws, 0, both, now=LATER, batch=first[:6], chunk_size=9)
        expect = {first: {s: before[first][s] for s in both}, second: {}}
    else:
        purge_rows(ws, 0, both, now=LATER, chunk_size=9)
        purge_rows(ws, 0, both, now=LATER)  # nothing left: writes nothing
        expect = {b: {s: before[b][s] for s in both} for b in (first, second)}

    for b in (first, second):
        r = reconcile(ws, b)
        assert r.ok and r.complete, r.to_json()
        assert (r.purged_resolved, r.purged_discarded) == (
            expect[b].get("resolved", 0),
            expect[b].get("discarded", 0),
        )
        left = _statuses(ws, b)
        assert left.get("open") == before[b]["open"]  # a purge never takes an open row
        for s in both:
            assert left.get(s, 0) == before[b][s] - expect[b].get(s, 0)
    # What reconcile adds back is what the purges recorded, per batch.
    with ws.store.connect() as conn:
        books = [orjson.loads(raw) for raw in conn.execute(select(Purge.by_batch)).scalars()]
    recorded = sum(
        n for book in books for chunks in book.values() for c in chunks.values() for n in c.values()
    )
    assert recorded == sum(sum(e.values()) for e in expect.values())


def test_a_dead_letter_gone_without_a_purge_is_still_missing(ws: Workspace, tmp_path: Path) -> None:
    """The purge's books explain only what a purge took: one more row deleted by hand
    turns the batch inconsistent, naming its chunk."""
    batch_id = _batch(ws, gen_batch(tmp_path / "a.jsonl", 3_000, bad=0.06, seed=5))
    purge_rows(ws, 0, ["resolved", "discarded"], now=LATER)
    victim = list_dead_letters(ws, DeadLetterFilter(batch_id=batch_id))[0]
    with ws.store.begin() as conn:
        conn.execute(AuditEvent.__table__.delete().where(AuditEvent.dead_letter_id == victim.id))
        conn.execute(DeadLetter.__table__.delete().where(DeadLetter.id == victim.id))
    r = reconcile(ws, batch_id)
    assert not r.ok
    assert any(a <= victim.line <= b for a, b in r.missing_lines)
    assert any("purged" in p and "stored" in p for p in r.problems)
