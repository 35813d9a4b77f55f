"""Keyset and from-the-end pages agree with plain OFFSET paging."""

from __future__ import annotations

import datetime as dt

import pytest

from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, fetch_rows
from triage_app.core.deadletters.paging import DeadLetterRow
from triage_app.core.demo import StoreFiller


@pytest.fixture
def ws(tmp_path):  # type: ignore[no-untyped-def]
    """60 dead letters over two batches, lines in reverse order of ids, with repeating
    classes, signatures, attempts and times: many ties for every sort."""
    t0 = dt.datetime(2026, 1, 1)
    with open_workspace(tmp_path) as ws:
        with StoreFiller(ws) as filler:
            for b in ("aaaa", "bbbb"):
                filler.batch(b, source_name="x", source_sha256="0", transform="t@1")
            for i in range(1, 61):
                filler.dead_letter(
                    "aaaa" if i % 2 else "bbbb",
                    100 - i,
                    payload=b"{}",
                    error="E",
                    error_class=("data", "code")[i % 3 == 0],
                    signature=f"s{i % 4}",
                    attempts=1 + i % 3,
                    transform="t@1",
                    failed_at=t0,
                    last_failed_at=t0 + dt.timedelta(minutes=i % 5),
                )
        yield ws


@pytest.mark.parametrize(
    "sort", ["id", "error_class", "signature", "attempts", "last_failed_at", "batch_id", "line"]
)
@pytest.mark.parametrize("descending", [False, True])
def test_keyset_and_from_end_pages_agree_with_offset(ws, sort, descending):
    f = DeadLetterFilter(min_attempts=2)
    everything = fetch_rows(ws, f, sort=sort, descending=descending, limit=1000)
    assert len(everything) == 40
    by_keyset = []
    after = None
    while True:
        page = fetch_rows(ws, f, sort=sort, descending=descending, limit=7, after=after)
        if not page:
            break
        by_keyset += page
        after = page[-1]
    assert by_keyset == everything
    last = fetch_rows(ws, f, sort=sort, descending=descending, limit=7, from_end=True)
    assert last == everything[-7:]
    middle = fetch_rows(ws, f, sort=sort, descending=descending, limit=5, offset=3, from_end=True)
    assert middle == everything[-8:-3]
    skip = fetch_rows(
        ws, f, sort=sort, descending=descending, limit=5, offset=4, after=everything[9]
    )
    assert skip == everything[14:19]


def test_batch_and_line_sort_by_position_in_the_batch(ws):
    rows = fetch_rows(ws, DeadLetterFilter(), sort="line", limit=1000)
    assert [(r.batch_id, r.line) for r in rows] == sorted((r.batch_id, r.line) for r in rows)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def pinned_ws(request, tmp_path):  # type: ignore[no-untyped-def]
    """48 dead letters over two batches with whole (32-character) ids, interleaved, so
    that each batch's, group's, class's or attempt count's rows are spread among the
    others' ids; on SQLite and on PostgreSQL, where such a page is read pinned."""
    t0 = dt.datetime(2026, 1, 1)
    if request.param == "sqlite":
        opened = open_workspace(tmp_path)
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        opened = open_workspace(warehouse_url=wh, dead_letter_url=dl)
    with opened as ws:
        with StoreFiller(ws) as filler:
            for b in ("a" * 32, "b" * 32):
                filler.batch(b, source_name="x", source_sha256="0", transform="t@1")
            for i in range(1, 49):
                filler.dead_letter(
                    ("a" if i % 3 else "b") * 32,
                    i,
                    payload=b"{}",
                    error="E",
                    error_class=("data", "code")[i % 4 == 0],
                    signature=f"s{i % 5}",
                    attempts=1 + i % 2,
                    transform=("t@1", "t@2")[i % 7 == 0],
                    status=("open", "parked")[i % 6 == 0],
                    failed_at=t0 + dt.timedelta(days=i % 4, minutes=i),
                )
        yield ws


@pytest.mark.parametrize(
    "pinned",
    [
        {"batch_id": "b" * 32},
        {"signature": "s2"},
        {"transform": "t@2"},
        {"attempts": 2},
        {"error_class": "code"},
        {"batch_id": "a" * 32, "error_class": "code"},
        # Spans of first failures: bounded by their first and last id on PostgreSQL.
        {"failed_from": dt.date(2026, 1, 2), "failed_to": dt.date(2026, 1, 2)},
        {"failed_from": dt.date(2026, 1, 3)},
        {"failed_to": dt.date(2026, 1, 2), "error_class": "data"},
    ],
)
@pytest.mark.parametrize("descending", [False, True])
def test_a_page_pinned_to_one_value_is_the_same_rows_in_id_order(pinned_ws, pinned, descending):
    """A filter that pins one indexed column is read on PostgreSQL as that column's
    one-value range, ordered by (column, id) (``paging._pinned``), and a span of first
    failures between its first and last id (``paging._span_bounds``): the same rows, in id
    order, whichever way the table is paged, as SQLite gives them."""
    ws = pinned_ws
    every = fetch_rows(ws, DeadLetterFilter(), limit=1000)

    def matches(r: DeadLetterRow, k: str, v: object) -> bool:
        if k == "failed_from":
            return r.first_failed_at.date() >= v  # type: ignore[operator]
        if k == "failed_to":
            return r.first_failed_at.date() <= v  # type: ignore[operator]
        return getattr(r, k) == v

    want = [r for r in every if all(matches(r, k, v) for k, v in pinned.items())]
    if descending:
        want.reverse()
    assert len(want) >= 3
    f = DeadLetterFilter(**pinned)
    assert fetch_rows(ws, f, descending=descending, limit=1000) == want
    by_keyset, after = [], None
    while page := fetch_rows(ws, f, descending=descending, limit=2, after=after):
        by_keyset += page
        after = page[-1]
    assert by_keyset == want
    assert fetch_rows(ws, f, descending=descending, limit=2, from_end=True) == want[-2:]
