"""Trends after a retention purge: the purged rows are counted back into quarantined per day
and the backlog, so a purge changes no day's numbers, and each purge is named. The stats
cache notices a purge."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import delete, func, insert, select

from tests.support.crafted_trends import MAR, build_crafted
from tests.support.purge_store import CLOSED_AT, fill_purge_store
from triage_app.core.db import AuditEvent, DeadLetter, open_workspace
from triage_app.core.deadletters import purge
from triage_app.core.locale_format import format_date
from triage_app.core.quick_stats import cached_answer
from triage_app.core.trends import compute_trends, stats_json

NOW = CLOSED_AT + dt.timedelta(days=40)


def _days(t):  # type: ignore[no-untyped-def]
    return [(d.day, d.by_class) for d in t.per_day]


def test_the_crafted_store_reads_the_same_after_its_closed_rows_are_purged(
    tmp_path: Path,
) -> None:
    """The crafted store (tests/support/crafted_trends.py): a resolved on Mar 3 and c
    discarded on Mar 4, both first quarantined on Mar 1, are purged."""
    folder = tmp_path / "ws"
    build_crafted(folder)
    sinces = (None, MAR[0], MAR[1], MAR[2], MAR[3])
    with open_workspace(folder) as ws:
        before = {s: compute_trends(ws, since=s) for s in sinces}
        s = purge(ws, 0, ["resolved", "discarded"], actor="lead")
        assert (s.rows, s.by_day) == (2, {"2026-03-01": {"data": 2}})
        after = {s: compute_trends(ws, since=s) for s in sinces}
    for since in sinces:
        assert _days(after[since]) == _days(before[since]), since
        assert after[since].backlog == before[since].backlog, since
    t = after[None]
    # Counted back, and marked as purged.
    assert [d.purged for d in t.per_day] == [2, 0, 0, 0]
    assert t.per_day[0].by_class == {"data": 3, "code": 1, "transient": 0}
    # The purge is named.
    (note,) = t.purges
    assert note.rows == 2 and note.statuses == ("resolved", "discarded")
    assert note.message() == f"2 rows purged on {format_date(note.at.date())}"
    assert t.to_json()["purges"] == [
        {
            "at": note.at.isoformat(timespec="seconds") + "Z",
            "rows": 2,
            "statuses": ["resolved", "discarded"],
        }
    ]
    assert t.to_json()["per_day"][0]["purged"] == 2
    # What the store still holds is counted as it is: the rows are gone from the groups.
    assert sum(g.count for g in t.groups) == 5


def test_a_store_whose_every_row_was_purged_still_shows_its_history(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        fill_purge_store(ws, resolved=9, discarded=6, open_=0, parked=0, days=3)
        before = compute_trends(ws)
        purge(ws, 30, ["resolved", "discarded"], now=NOW, chunk_size=4)
        after = compute_trends(ws)
    assert _days(after) == _days(before) and sum(d.total for d in after.per_day) == 15
    assert after.backlog == before.backlog
    assert after.backlog[-1].resolved == 9  # resolved all time, the purged included
    assert sum(g.count for g in after.groups) == 0


def test_two_purges_add_up_and_are_both_named(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        fill_purge_store(ws, resolved=8, discarded=5, open_=4, parked=2, days=5)
        before = compute_trends(ws)
        purge(ws, 30, ["resolved"], now=NOW)
        purge(ws, 30, ["discarded"], now=NOW)
        after = compute_trends(ws)
    assert _days(after) == _days(before)
    assert after.backlog == before.backlog
    assert [(p.rows, p.statuses) for p in after.purges] == [(8, ("resolved",)), (5, ("discarded",))]


def test_a_purge_killed_before_its_event_still_counts_its_rows_per_day(tmp_path: Path) -> None:
    """The ``purges`` row is written with each chunk; without the final event only the
    backlog's add-back is missing, never the per-day counts."""
    with open_workspace(tmp_path / "ws") as ws:
        fill_purge_store(ws, resolved=6, discarded=0, open_=2, parked=0)
        before = compute_trends(ws)
        purge(ws, 30, ["resolved"], now=NOW)
        with ws.store.begin() as conn:
            conn.execute(delete(AuditEvent).where(AuditEvent.action == "purged"))
        after = compute_trends(ws)
    assert _days(after) == _days(before)
    assert len(after.purges) == 1


@pytest.mark.parametrize("freed_ids", [True, False])
def test_the_stats_cache_notices_a_purge(tmp_path: Path, freed_ids: bool) -> None:
    """Even when the purge deletes the newest audit event and SQLite hands its id to the
    purge's own event, so that the newest ids look unchanged."""
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        fill_purge_store(ws, resolved=3, discarded=0, open_=2, parked=0)
        if freed_ids:
            # The newest event belongs to a resolved row: the purge frees its id.
            with ws.store.begin() as conn:
                resolved = conn.execute(
                    select(func.max(DeadLetter.id)).where(DeadLetter.status == "resolved")
                ).scalar_one()
                conn.execute(
                    insert(AuditEvent).values(
                        dead_letter_id=resolved, at=CLOSED_AT, actor="x", action="note", detail=""
                    )
                )
        first = stats_json(ws)
        assert cached_answer(folder / "dead_letter.db") is not None
        assert first["total"] == 5
        purge(ws, 30, ["resolved"], now=NOW)
        assert cached_answer(folder / "dead_letter.db") is None  # stale: not served
        assert stats_json(ws)["total"] == 2
