"""Trends counted in SQL against counts made by hand on the crafted workspace."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.support.crafted_trends import MAR, MISSING, QTY, TYPE_ERROR, build_crafted
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, count_dead_letters, error_groups
from triage_app.core.deadletters import groups as group_query
from triage_app.core.trends import AttemptsBucket, compute_stats, compute_trends, counting

MAR_4_10 = dt.datetime(2026, 3, 4, 10)  # batch B3: g
JSON_ERR = "JSONDecodeError: unexpected end of data: line <n> column <n> (char <n>)"


def test_attempts_histogram_over_everything_marks_parked(ws) -> None:  # type: ignore[no-untyped-def]
    t = compute_trends(ws)
    # a b c e f g failed once; d three times and was parked.
    assert t.attempts == (AttemptsBucket(1, 6, 0), AttemptsBucket(3, 1, 1))
    assert t.by_attempts_status == {1: {"open": 4, "resolved": 1, "discarded": 1}, 3: {"parked": 1}}


def test_attempts_histogram_follows_the_table_filter(ws) -> None:  # type: ignore[no-untyped-def]
    # The table's default (open) counts parked too: they are what the mark is for.
    assert compute_trends(ws, DeadLetterFilter()).attempts == (
        AttemptsBucket(1, 4, 0),
        AttemptsBucket(3, 1, 1),
    )
    code = compute_trends(ws, DeadLetterFilter(error_class="code")).attempts
    assert code == (AttemptsBucket(1, 2, 0),)
    resolved = compute_trends(ws, DeadLetterFilter(status="resolved")).attempts
    assert resolved == (AttemptsBucket(1, 1, 0),)
    by_sig = compute_trends(ws, DeadLetterFilter(status="all", signature=QTY)).attempts
    assert by_sig == (AttemptsBucket(1, 2, 0), AttemptsBucket(3, 1, 1))


def test_quarantined_per_day_by_class(ws) -> None:  # type: ignore[no-untyped-def]
    days = compute_trends(ws).per_day
    assert [(d.day, d.by_class) for d in days] == [
        (MAR[0], {"data": 3, "code": 1, "transient": 0}),  # a c d, b
        (MAR[1], {"data": 1, "code": 1, "transient": 0}),  # f, e
        (MAR[2], {"data": 0, "code": 0, "transient": 0}),  # a quiet day is a zero, not a gap
        (MAR[3], {"data": 1, "code": 0, "transient": 0}),  # g
    ]


def test_quarantined_per_batch_and_rate(ws, crafted) -> None:  # type: ignore[no-untyped-def]
    batches = crafted[1].batches
    points = compute_trends(ws).per_batch
    assert [(p.batch_id, p.rows, p.quarantined, p.by_class, p.rate) for p in points] == [
        (batches["b1"], 10, 4, {"data": 3, "code": 1, "transient": 0}, 0.4),
        (batches["b2"], 5, 2, {"data": 1, "code": 1, "transient": 0}, 0.4),
        (batches["b3"], 4, 1, {"data": 1, "code": 0, "transient": 0}, 0.25),
    ]
    assert {p.transform for p in points} == {"pesanan@1"}


def test_backlog_open_vs_resolved(ws) -> None:  # type: ignore[no-untyped-def]
    points = compute_trends(ws).backlog
    got = [
        (p.day, p.open, p.resolved, p.arrived, p.resolved_on_day, p.discarded_on_day)
        for p in points
    ]
    assert got == [
        (MAR[0], 4, 0, 4, 0, 0),
        (MAR[1], 6, 0, 2, 0, 0),
        (MAR[2], 5, 1, 0, 1, 0),  # a re-driven
        (MAR[3], 5, 1, 1, 0, 1),  # g arrived, c discarded
    ]


def test_backlog_since_starts_from_the_queue_of_that_day(ws) -> None:  # type: ignore[no-untyped-def]
    points = compute_trends(ws, since=MAR[1]).backlog
    assert [(p.day, p.open, p.resolved) for p in points] == [
        (MAR[1], 6, 0),
        (MAR[2], 5, 1),
        (MAR[3], 5, 1),
    ]


def test_backlog_counts_a_discarded_row_reopened_back_in(tmp_path: Path) -> None:
    """A discarded row can be reopened (issue 20): from the day of its reopen it is in the
    backlog again, and before its discard it was there too; a parked row reopened was in
    the backlog all along."""
    from sqlalchemy import update

    from tests.support.crafted_trends import _at
    from triage_app.core.db import AuditEvent
    from triage_app.core.deadletters import apply_change, reopen

    crafted = build_crafted(tmp_path / "ws")
    with open_workspace(tmp_path / "ws") as ws:
        c, d = crafted.ids["c"], crafted.ids["d"]
        assert len(apply_change(ws, [c, d], reopen("not junk after all")).changed) == 2
        with ws.store.begin() as conn:
            conn.execute(
                update(AuditEvent).where(AuditEvent.action == "reopened").values(at=_at(MAR[4], 9))
            )
        got = [(p.day, p.open, p.resolved) for p in compute_trends(ws).backlog]
    assert got == [
        (MAR[0], 4, 0),
        (MAR[1], 6, 0),
        (MAR[2], 5, 1),
        (MAR[3], 5, 1),  # c discarded
        (MAR[4], 6, 1),  # c reopened (d, parked, was counted as waiting already)
    ]


def test_error_groups(ws) -> None:  # type: ignore[no-untyped-def]
    groups = compute_trends(ws).groups
    got = [(g.signature, g.error_class, g.count, g.by_status) for g in groups]
    assert got == [
        (QTY, "data", 3, {"resolved": 1, "parked": 1, "open": 1}),
        (TYPE_ERROR, "code", 2, {"open": 2}),
        (MISSING, "data", 1, {"open": 1}),  # ties by signature
        (JSON_ERR, "data", 1, {"discarded": 1}),
    ]
    qty = groups[0]
    assert (qty.open, qty.resolved) == (1, 1)
    assert qty.first_seen == dt.datetime(2026, 3, 1, 10)
    assert qty.last_seen == dt.datetime(2026, 3, 3, 15)  # d's last failing re-drive
    # a resolved and d parked: f (March 2) is its oldest open row; c was discarded.
    oldest = [g.oldest_open for g in groups]
    assert oldest == [dt.datetime(2026, 3, 2, 10), dt.datetime(2026, 3, 1, 10), MAR_4_10, None]
    assert qty.age(dt.datetime(2026, 3, 5, 10)) == dt.timedelta(days=3)
    assert len(compute_trends(ws, top=2).groups) == 2


def test_group_times_the_same_whichever_way_they_are_counted(ws, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A cube of few cells seeks each (its first failure beside its count), one of many
    cells is one GROUP BY pass; many groups' last failures come from a DISTINCT and a seek
    each instead of a VALUES list. Every way gives the same first, last and oldest open."""
    by_seeks = compute_trends(ws).groups
    with ws.store.connect() as conn:
        alone = error_groups(conn)  # counting its own cube
    monkeypatch.setattr(group_query, "_SEEKS_ABOVE", 0)
    by_distinct = compute_trends(ws).groups
    monkeypatch.setattr(counting, "_GROUP_BY_ABOVE", 0)
    in_one_pass = compute_trends(ws).groups
    assert by_seeks == alone == by_distinct == in_one_pass
    assert [g.oldest_open for g in by_seeks][:2] == [
        dt.datetime(2026, 3, 2, 10),
        dt.datetime(2026, 3, 1, 10),
    ]
    since = compute_trends(ws, since=MAR[1]).groups
    assert [(g.signature, g.first_seen, g.oldest_open) for g in since] == [
        (MISSING, MAR_4_10, MAR_4_10),
        (QTY, dt.datetime(2026, 3, 2, 10), dt.datetime(2026, 3, 2, 10)),
        (TYPE_ERROR, dt.datetime(2026, 3, 2, 10), dt.datetime(2026, 3, 2, 10)),
    ]


def test_since_narrows_days_batches_and_groups(ws, crafted) -> None:  # type: ignore[no-untyped-def]
    t = compute_trends(ws, since=MAR[1])
    assert [d.day for d in t.per_day] == [MAR[1], MAR[2], MAR[3]]
    assert [p.batch_id for p in t.per_batch] == [crafted[1].batches["b2"], crafted[1].batches["b3"]]
    # f, e and g: one each, so by signature
    assert [(g.signature, g.count) for g in t.groups] == [(MISSING, 1), (QTY, 1), (TYPE_ERROR, 1)]


def test_the_linked_filters_match_what_the_charts_count(ws) -> None:  # type: ignore[no-untyped-def]
    """A click on a day, a bar or a group filters the table to the rows it counted."""
    every = DeadLetterFilter(status="all")
    assert count_dead_letters(ws, every.with_(failed_from=MAR[0], failed_to=MAR[0])) == 4
    day_data = every.with_(failed_from=MAR[0], failed_to=MAR[0], error_class="data")
    assert count_dead_letters(ws, day_data) == 3
    assert count_dead_letters(ws, every.with_(failed_from=MAR[1], failed_to=MAR[3])) == 3
    assert count_dead_letters(ws, every.with_(attempts=3)) == 1
    assert count_dead_letters(ws, DeadLetterFilter(attempts=1)) == 4  # open only
    assert count_dead_letters(ws, every.with_(signature=QTY)) == 3


def test_empty_store(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "empty") as ws:
        t = compute_trends(ws)
        assert (t.attempts, t.per_day, t.per_batch, t.backlog, t.groups) == ((), (), (), (), ())
        assert t.banner_spike() is None
        assert compute_stats(ws).to_json()["total"] == 0


def test_the_same_counts_on_postgresql(
    pg_urls: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wh, dl = pg_urls
    build_crafted(tmp_path / "files", wh, dl)
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        t = compute_trends(ws)
        assert t.attempts == (AttemptsBucket(1, 6, 0), AttemptsBucket(3, 1, 1))
        assert [(d.day, d.total) for d in t.per_day] == [
            (MAR[0], 4),
            (MAR[1], 2),
            (MAR[2], 0),
            (MAR[3], 1),
        ]
        assert [(p.open, p.resolved) for p in t.backlog] == [(4, 0), (6, 0), (5, 1), (5, 1)]
        assert [(g.signature, g.count) for g in t.groups][:2] == [(QTY, 3), (TYPE_ERROR, 2)]
        assert t.groups[0].last_seen == dt.datetime(2026, 3, 3, 15)
        assert t.groups[0].oldest_open == dt.datetime(2026, 3, 2, 10)
        # The ways taken for thousands of groups give the same groups here too.
        monkeypatch.setattr(group_query, "_SEEKS_ABOVE", 0)
        monkeypatch.setattr(counting, "_GROUP_BY_ABOVE", 0)
        assert compute_trends(ws).groups == t.groups
        with ws.store.connect() as conn:
            assert error_groups(conn) == t.groups
        assert [p.rate for p in t.per_batch] == [0.4, 0.4, 0.25]
        assert compute_trends(ws, DeadLetterFilter(error_class="code")).attempts == (
            AttemptsBucket(1, 2, 0),
        )
        assert compute_stats(ws).to_json()["by_status"] == {
            "open": 4,
            "resolved": 1,
            "parked": 1,
            "discarded": 1,
        }
        assert (
            count_dead_letters(
                ws, DeadLetterFilter(status="all", failed_from=MAR[0], failed_to=MAR[0])
            )
            == 4
        )
