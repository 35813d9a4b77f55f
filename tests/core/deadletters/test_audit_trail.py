"""The audit trail across the store (``audit_trail``, ``audit_page``): newest first, ties
in the order written; narrowed by since (a day or a time, with an offset), actor (a
substring in any case, its LIKE characters literal), action and dead letter; paged with a
count of what follows that runs only for a full page; each filter served by an index
(SQLite's plan says so); the same answers on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event, select

from triage_app.core.db import AuditEvent, Workspace, open_workspace
from triage_app.core.deadletters import (
    AuditFilter,
    audit_page,
    audit_trail,
    count_audit_events,
    parse_action,
    parse_since,
)
from triage_app.core.deadletters.trail import _where
from triage_app.core.demo import StoreFiller
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import AuditAction

T0 = dt.datetime(2026, 3, 1, 9, 0, 0)
BATCH = "feedfacecafe0001"


def fill(ws: Workspace) -> dict[str, int]:
    """Three dead letters and nine events by three actors over three days; two events
    share a second (the order written breaks the tie)."""
    with StoreFiller(ws) as f:
        f.batch(BATCH)
        a = f.dead_letter(BATCH, 1, error="DataError: qty tidak valid: -1")
        b = f.dead_letter(BATCH, 2, error="DataError: kolom wajib hilang: qty")
        c = f.dead_letter(BATCH, 3, error="TypeError: x")
        q = AuditAction.QUARANTINED
        for dl in (a, b, c):
            f.event(dl, q, T0, actor="batch@server", detail="quarantined")
        day = dt.timedelta(days=1)
        f.event(a, AuditAction.EDITED, T0 + day, actor="Ani@laptop", detail="edit 1")
        f.event(a, AuditAction.NOTE, T0 + day, actor="Ani@laptop", detail="same second")
        f.event(b, AuditAction.PARKED, T0 + day + dt.timedelta(hours=3), actor="budi_50%@desk")
        f.event(a, AuditAction.RESOLVED, T0 + 2 * day, actor="ani@laptop (db: steward1)")
        f.event(c, AuditAction.NOTE, T0 + 2 * day + dt.timedelta(hours=1), actor="budi@desk")
        f.event(b, AuditAction.EDITED, T0 + 2 * day + dt.timedelta(hours=2), actor="Ani@laptop")
    return {"a": a, "b": b, "c": c}


@pytest.fixture
def ws(workspace: Workspace) -> Workspace:
    return workspace


def details(records: object) -> list[tuple[str, str, int | None]]:
    return [(r.action, r.actor, r.dead_letter_id) for r in records]  # type: ignore[attr-defined]


def check_filters(ws: Workspace) -> None:
    """Every filter on a filled store; shared by SQLite and PostgreSQL."""
    ids = fill(ws)
    trail = audit_trail(ws)
    assert len(trail) == 9
    assert [r.at for r in trail] == sorted((r.at for r in trail), reverse=True)
    assert details(trail[:2]) == [
        ("edited", "Ani@laptop", ids["b"]),
        ("note", "budi@desk", ids["c"]),
    ]
    # Two events in one second: the later written comes first.
    same = [r for r in trail if r.at == "2026-03-02T09:00:00Z"]
    assert [r.action for r in same] == ["note", "edited"]
    assert same[0].id > same[1].id

    since_day = audit_trail(ws, AuditFilter(since=parse_since("2026-03-03")))
    assert [r.action for r in since_day] == ["edited", "note", "resolved"]
    # A time with an offset: 11:30+02:00 is 09:30 UTC, after the 09:00 resolve and
    # before the 10:00 note (read as 11:30 UTC, it would miss the note too).
    since_time = audit_trail(ws, AuditFilter(since=parse_since("2026-03-03T11:30+02:00")))
    assert [r.action for r in since_time] == ["edited", "note"]

    ani = audit_trail(ws, AuditFilter(actor="ANI"))
    assert len(ani) == 4 and all("ani" in r.actor.lower() for r in ani)
    # % and _ are plain characters: "_50%" finds budi_50%, not every budi.
    assert details(audit_trail(ws, AuditFilter(actor="_50%"))) == [
        ("parked", "budi_50%@desk", ids["b"])
    ]
    assert audit_trail(ws, AuditFilter(actor="db: steward1"))[0].action == "resolved"

    edits = audit_trail(ws, AuditFilter(action="edited"))
    assert [r.detail for r in edits] == ["", "edit 1"]
    assert count_audit_events(ws, AuditFilter(action="note", since=parse_since("2026-03-02"))) == 2

    of_a = audit_trail(ws, AuditFilter(dead_letter_id=ids["a"]))
    assert [r.action for r in of_a] == ["resolved", "note", "edited", "quarantined"]
    combined = AuditFilter(dead_letter_id=ids["a"], actor="ani", action="edited")
    assert details(audit_trail(ws, combined)) == [("edited", "Ani@laptop", ids["a"])]
    assert audit_trail(ws, AuditFilter(dead_letter_id=10**20)) == []  # beyond any id
    assert count_audit_events(ws, AuditFilter(dead_letter_id=10**20)) == 0
    assert audit_trail(ws, AuditFilter(actor="nobody")) == []


def test_filters_on_sqlite(ws: Workspace) -> None:
    check_filters(ws)


def test_filters_on_postgresql(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        check_filters(ws)


@pytest.fixture
def statements(ws: Workspace) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(_conn: object, _cur: object, sql: str, *_: object) -> None:
        seen.append(sql)

    event.listen(ws.store, "before_cursor_execute", record)
    yield seen
    event.remove(ws.store, "before_cursor_execute", record)


def test_pages_and_what_follows(ws: Workspace, statements: list[str]) -> None:
    fill(ws)
    everything = audit_trail(ws, limit=100)
    statements.clear()
    first = audit_page(ws, limit=4)
    assert first.records == tuple(everything[:4]) and first.more == 5
    assert first.next_offset == 4
    assert sum("count(" in s.lower() for s in statements) == 1  # full, and more follow
    statements.clear()
    last = audit_page(ws, limit=4, offset=8)
    assert last.records == (everything[8],) and last.more == 0
    assert not any("count(" in s.lower() for s in statements)  # a short page: no count
    statements.clear()
    exact = audit_page(ws, limit=9)
    assert len(exact.records) == 9 and exact.more == 0
    assert not any("count(" in s.lower() for s in statements)  # full, but nothing follows
    assert audit_page(ws, limit=4, offset=4).records == tuple(everything[4:8])
    assert audit_page(ws, limit=2**63 - 1).more == 0  # the largest limit a database takes


@pytest.mark.parametrize(("limit", "offset"), [(0, 0), (-1, 0), (1, -1)])
def test_a_page_needs_a_limit_and_an_offset(ws: Workspace, limit: int, offset: int) -> None:
    with pytest.raises(TriageError, match="limit >= 1 and offset >= 0"):
        audit_page(ws, limit=limit, offset=offset)


def test_records_as_json(ws: Workspace) -> None:
    ids = fill(ws)
    with ws.store.begin() as conn:
        conn.execute(
            AuditEvent.__table__.update().where(AuditEvent.action == "resolved").values(version=3)
        )
    trail = audit_trail(ws)
    resolved = next(r for r in trail if r.action == "resolved")
    assert resolved.to_json() == {
        "at": "2026-03-03T09:00:00Z",
        "actor": "ani@laptop (db: steward1)",
        "action": "resolved",
        "dead_letter_id": ids["a"],
        "detail": "",
        "version": 3,
    }
    assert "version" not in trail[0].to_json()  # no version recorded: no key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-03-01", dt.datetime(2026, 3, 1)),
        ("2026-03-01T10:15", dt.datetime(2026, 3, 1, 10, 15)),
        ("2026-03-01 10:15:30", dt.datetime(2026, 3, 1, 10, 15, 30)),
        ("2026-03-01T10:15:00Z", dt.datetime(2026, 3, 1, 10, 15)),
        ("2026-03-01T01:00+02:00", dt.datetime(2026, 2, 28, 23, 0)),
    ],
)
def test_since_is_a_day_or_a_time_in_utc(text: str, expected: dt.datetime) -> None:
    assert parse_since(text) == expected


@pytest.mark.parametrize("text", ["yesterday", "2026-13-01", "", "01/03/2026"])
def test_a_bad_since_is_one_line(text: str) -> None:
    with pytest.raises(TriageError, match="is not a date or time") as info:
        parse_since(text)
    assert "\n" not in str(info.value)


def test_actions_are_the_vocabularys(ws: Workspace) -> None:
    assert parse_action("Edited") == "edited"
    assert parse_action("purged") == AuditAction.PURGED
    with pytest.raises(TriageError, match="unknown action 'edit': use one of quarantined"):
        parse_action("edit")
    with pytest.raises(TriageError, match="unknown action 'bogus'"):
        audit_trail(ws, AuditFilter(action="bogus"))


FILTERS = {
    "everything": (AuditFilter(), "ix_event_at"),
    "since": (AuditFilter(since=T0), "ix_event_at"),
    "action": (AuditFilter(action="edited"), "ix_event_action_at"),
    "action and since": (AuditFilter(action="note", since=T0), "ix_event_action_at"),
    "dead letter": (AuditFilter(dead_letter_id=5), "ix_event_dl"),
    "actor": (AuditFilter(actor="USER3"), "ix_event_at"),
}


@pytest.mark.parametrize("name", list(FILTERS))
def test_each_filter_uses_an_index(tmp_path: Path, name: str) -> None:
    """On a store of 6,000 events, SQLite's plan walks the named index; only one dead
    letter's few events are sorted after the lookup."""
    f, index = FILTERS[name]
    with open_workspace(tmp_path / "ws") as ws:
        actions = list(AuditAction)
        with StoreFiller(ws) as filler:
            filler.batch(BATCH)
            for i in range(1, 1201):
                dl = filler.dead_letter(BATCH, i, error="x")
                for k in range(5):
                    filler.event(
                        dl,
                        actions[(i + k) % len(actions)],
                        T0 + dt.timedelta(minutes=5 * i + k),
                        actor=f"user{i % 7}@host",
                    )
        e = AuditEvent
        stmt = _where(select(e.id, e.at, e.actor, e.action, e.dead_letter_id, e.detail), f)
        stmt = stmt.order_by(e.at.desc(), e.id.desc()).limit(101)
        sql = str(stmt.compile(ws.store, compile_kwargs={"literal_binds": True}))
        with ws.store.connect() as conn:
            plan = " | ".join(r[-1] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))
        assert f"USING INDEX {index}" in plan, plan
        if name != "dead letter":
            assert "TEMP B-TREE" not in plan, plan  # the index gives the order: no sort
        assert len(audit_trail(ws, f, limit=100)) > 0
