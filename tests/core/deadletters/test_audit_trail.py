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
from sqlalchemy import event

from triage_app.core.db import AuditEvent, Workspace, open_workspace
from triage_app.core.deadletters import (
    AuditFilter,
    audit_page,
    audit_trail,
    count_audit_events,
    expanded_events,
    parse_action,
    parse_since,
)
from triage_app.core.deadletters.trail import _branches
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
    # Full, and more follow: counted (a statement per count of a branch).
    assert sum("count(" in s.lower() for s in statements) >= 1
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


# Each filter, and what each branch of the trail walks: the stored events, then (where
# the action allows them) the quarantined rows a batch stands for, the resolved rows a
# re-drive stands for, and the rows change-sets and their reverts edited.
CHANGE_SETS = ("INDEX ix_change_sets_at", "INDEX ix_change_set_reverts_at")
BY_TIME = ("INDEX ix_event_at", "INDEX ix_dl_first_failed", "INDEX ix_dl_resolved", *CHANGE_SETS)
FILTERS = {
    "everything": (AuditFilter(), BY_TIME),
    "since": (AuditFilter(since=T0), BY_TIME),
    "action": (AuditFilter(action="edited"), ("INDEX ix_event_action_at", *CHANGE_SETS)),
    "action and since": (AuditFilter(action="note", since=T0), ("INDEX ix_event_action_at",)),
    "quarantined": (
        AuditFilter(action="quarantined"),
        ("INDEX ix_event_action_at", "INDEX ix_dl_first_failed"),
    ),
    "resolved": (
        AuditFilter(action="resolved"),
        ("INDEX ix_event_action_at", "INDEX ix_dl_resolved"),
    ),
    "dead letter": (
        AuditFilter(dead_letter_id=5),
        (
            "INDEX ix_event_dl",
            "INTEGER PRIMARY KEY",
            "INTEGER PRIMARY KEY",
            # Each change-set (a few hundred in a year) asked for the row by its key.
            "INDEX ix_change_sets_at",
            "INDEX ix_change_set_rows_dead_letter",
        ),
    ),
    "actor": (AuditFilter(actor="USER3"), BY_TIME),
}


def branch_plans(plan: list[tuple[int, int, str]]) -> list[list[str]]:
    """EXPLAIN QUERY PLAN's lines under each ``branch_N`` co-routine, in branch order."""
    heads = {node: text for node, _parent, text in plan if text.startswith("CO-ROUTINE branch_")}
    out: dict[str, list[str]] = {text: [] for text in heads.values()}
    parent_of = {node: parent for node, parent, _ in plan}
    for node, _parent, text in plan:
        up = parent_of.get(node)
        while up is not None and up not in heads:
            up = parent_of.get(up)
        if up is not None:
            out[heads[up]].append(text)
    return [out[k] for k in sorted(out)]


@pytest.mark.parametrize("name", list(FILTERS))
def test_each_filter_uses_an_index(tmp_path: Path, name: str) -> None:
    """On a store of 6,000 events and 1,200 dead letters (half of them with no stored
    ``quarantined`` event, a tenth resolved set-wise, some changed by change-sets and one
    of those reverted), SQLite's plan walks each branch's
    named index in order and stops at a page: only the branches' first rows are sorted
    together, and one dead letter's few events after the lookup."""
    f, indexes = FILTERS[name]
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
        resolve_setwise(ws, range(1, 1201, 10))
        fix_setwise(ws, range(2, 1201, 40))
        stmt = expanded_events.newest_first(_branches(f), 101).limit(101)
        sql = str(stmt.compile(ws.store, compile_kwargs={"literal_binds": True}))
        with ws.store.connect() as conn:
            rows = [(r[0], r[1], r[-1]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql)]
        branches = branch_plans(rows)
        assert len(branches) == len(indexes), rows
        for walked, index in zip(branches, indexes, strict=True):
            assert f"USING {index}" in walked[0] or f"USING COVERING {index}" in walked[0], walked
            assert not any(w.startswith("SCAN") for w in walked[1:]), walked  # lookups only
            if name != "dead letter":
                assert not any("TEMP B-TREE" in w for w in walked), walked  # in index order
        assert len(audit_trail(ws, f, limit=100)) > 0


def fix_setwise(ws: Workspace, ids: range) -> None:
    """Three change-sets of ``ids`` (a few rows each), the second reverted, as
    ``change_sets.py`` writes them."""
    from sqlalchemy import insert, update

    from triage_app.core.db import ChangeSet, ChangeSetRevert, ChangeSetRow

    with ws.store.begin() as conn:
        for n in range(3):
            at = T0 + dt.timedelta(days=3, hours=n)
            cs = conn.execute(
                insert(ChangeSet)
                .values(at=at, actor=f"user{n}@host", description="d", patch="[]", rows=0)
                .returning(ChangeSet.id)
            ).scalar_one()
            for i in ids[n::3]:
                conn.execute(
                    insert(ChangeSetRow).values(
                        change_set_id=cs, dead_letter_id=i, kind_before="jsonl", version_after=2
                    )
                )
            if n == 1:
                run = conn.execute(
                    insert(ChangeSetRevert)
                    .values(change_set_id=cs, at=at + dt.timedelta(minutes=5), actor="user3@host")
                    .returning(ChangeSetRevert.id)
                ).scalar_one()
                conn.execute(
                    update(ChangeSetRow)
                    .where(ChangeSetRow.change_set_id == cs)
                    .values(reverted_in=run, payload_reverted=b"{}")
                )


def resolve_setwise(ws: Workspace, ids: range) -> None:
    """Mark ``ids`` resolved by one re-drive's set record, as settling writes it."""
    from sqlalchemy import insert, update

    from triage_app.core.db import DeadLetter, RedriveRun, Resolution

    with ws.store.begin() as conn:
        run = conn.execute(
            insert(RedriveRun)
            .values(at=T0, actor="user3@host", transform="pesanan@2", given="{}")
            .returning(RedriveRun.id)
        ).scalar_one()
        for i in ids:
            at = T0 + dt.timedelta(days=9, minutes=i)
            conn.execute(
                update(DeadLetter)
                .where(DeadLetter.id == i)
                .values(status="resolved", resolved_at=at, version=2)
            )
            conn.execute(insert(Resolution).values(dead_letter_id=i, run_id=run, version=2))
        # Half the rows keep a stored ``quarantined`` event, as rows from before 0007 do.
        conn.execute(
            AuditEvent.__table__.delete().where(
                AuditEvent.action == "quarantined", AuditEvent.dead_letter_id % 2 == 0
            )
        )
