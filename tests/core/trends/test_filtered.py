"""Trends that follow the table's filter (``compute_filtered_trends``): what a chart shows
when the lead toggles it to follow. Counted by hand on the crafted store
(tests/support/crafted_trends.py), through the cells (a class) and through the rows (a
search), and against the rows listed one by one on PostgreSQL."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.crafted_trends import Crafted
from tests.support.spike_stores import QTY, TYPE_ERROR, build_spike
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import DeadLetterFilter, list_dead_letters
from triage_app.core.trends import compute_filtered_trends
from triage_app.core.vocabulary import ALL


def test_the_data_rows_by_hand(ws: Workspace, crafted: tuple[object, Crafted]) -> None:
    # Data rows: a (B1, resolved Mar 3), c (B1, discarded Mar 4), d (B1, parked),
    # f (B2, open), g (B3, open, Mar 4).
    t = compute_filtered_trends(ws, DeadLetterFilter(error_class="data", status=ALL))
    assert [(p.day.day, p.total) for p in t.per_day] == [(1, 3), (2, 1), (3, 0), (4, 1)]
    assert [b.quarantined for b in t.per_batch] == [3, 1, 1]
    assert [b.by_class["code"] for b in t.per_batch] == [0, 0, 0]
    assert [b.rate for b in t.per_batch] == pytest.approx([3 / 10, 1 / 5, 1 / 4])
    # The backlog takes the filter without its status: waiting at the end of each day.
    assert [(p.day.day, p.open, p.resolved) for p in t.backlog] == [
        (1, 3, 0),
        (2, 4, 0),
        (3, 3, 1),
        (4, 3, 1),
    ]
    assert {g.error_class for g in t.groups} == {"data"}
    assert sum(g.count for g in t.groups) == 5
    assert [(b.attempts, b.total, b.parked) for b in t.attempts] == [(1, 4, 0), (3, 1, 1)]


def test_the_table_s_default_status_is_followed_too(ws: Workspace) -> None:
    t = compute_filtered_trends(ws, DeadLetterFilter(error_class="data"))  # open only
    assert sum(d.total for d in t.per_day) == 2  # f and g
    assert t.backlog[-1].open == 3  # the backlog: its status aside


def test_a_search_counts_the_rows(ws: Workspace) -> None:
    f = DeadLetterFilter(error_class="data", status=ALL, search="kolom wajib")
    t = compute_filtered_trends(ws, f)
    assert [(p.day.day, p.total) for p in t.per_day] == [(4, 1)]  # g alone
    assert [b.quarantined for b in t.per_batch] == [0, 0, 1]
    assert [(p.day.day, p.open) for p in t.backlog][-1] == (4, 1)
    assert [g.count for g in t.groups] == [1]


def test_against_the_rows_on_postgresql(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        build_spike(ws, [("code", TYPE_ERROR, 30), ("data", QTY, 12)], transform="pesanan@2")
        for f in (
            DeadLetterFilter(error_class="code", status=ALL),
            DeadLetterFilter(search="qty tidak", status=ALL),
        ):
            t = compute_filtered_trends(ws, f)
            rows = list_dead_letters(ws, f, limit=10_000)
            per_batch = Counter(r.batch_id for r in rows)
            assert {b.batch_id: b.quarantined for b in t.per_batch if b.quarantined} == dict(
                per_batch
            )
            assert sum(d.total for d in t.per_day) == len(rows)
            assert t.backlog[-1].open == len(rows)  # nothing resolved: all wait
