"""Trends against counts made by hand on the crafted workspace (tests/crafted_trends.py),
and the spike rule on synthetic series."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from triage_app.core import DeadLetterFilter, compute_stats, count_dead_letters, open_workspace
from triage_app.core.trends import (
    AttemptsBucket,
    SpikeRule,
    banner_spike,
    check_spikes,
    compute_trends,
    spikes,
)

from ..crafted_trends import (
    MAR,
    MISSING,
    QTY,
    TYPE_ERROR,
    Crafted,
    build_crafted,
    build_spike_store,
)

JSON_ERR = "JSONDecodeError: unexpected end of data: line <n> column <n> (char <n>)"


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Crafted]:
    folder = tmp_path_factory.mktemp("crafted") / "ws"
    return folder, build_crafted(folder)


@pytest.fixture
def ws(crafted):  # type: ignore[no-untyped-def]
    with open_workspace(crafted[0]) as w:
        yield w


# -- the aggregates -------------------------------------------------------------------------
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
    assert len(compute_trends(ws, top=2).groups) == 2


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


# -- stats --json carries the same numbers -------------------------------------------------
def test_stats_keeps_its_keys_and_adds_the_trends(ws) -> None:  # type: ignore[no-untyped-def]
    j = compute_stats(ws).to_json()
    assert j["total"] == 7
    assert j["by_class"] == {"code": 2, "data": 5}
    assert j["by_status"] == {"open": 4, "resolved": 1, "parked": 1, "discarded": 1}
    assert j["by_class_status"] == {
        "code": {"open": 2},
        "data": {"open": 2, "resolved": 1, "parked": 1, "discarded": 1},
    }
    assert j["attempts"] == {"1": 6, "3": 1}
    assert j["failures_per_day"] == [
        {"day": "2026-03-01", "class": "code", "count": 1},
        {"day": "2026-03-01", "class": "data", "count": 3},
        {"day": "2026-03-02", "class": "code", "count": 1},
        {"day": "2026-03-02", "class": "data", "count": 1},
        {"day": "2026-03-04", "class": "data", "count": 1},
    ]
    assert j["top_signatures"][0] == {
        "signature": QTY,
        "class": "data",
        "count": 3,
        "open": 1,
        "first_seen": "2026-03-01 10:00:00",
        "last_seen": "2026-03-03 15:00:00",
    }
    tr = j["trends"]
    assert tr["attempts"] == [
        {"attempts": 1, "total": 6, "parked": 0},
        {"attempts": 3, "total": 1, "parked": 1},
    ]
    assert [b["open"] for b in tr["backlog"]] == [4, 6, 5, 5]
    assert [b["rate"] for b in tr["per_batch"]] == [0.4, 0.4, 0.25]
    assert tr["error_groups"][0]["by_status"] == {"resolved": 1, "parked": 1, "open": 1}
    assert tr["spike_rule"] == {"factor": 3.0, "window": 7, "min_baseline": 0.001}
    assert tr["spikes"] == []


def test_stats_over_a_filter(ws) -> None:  # type: ignore[no-untyped-def]
    st = compute_stats(ws, DeadLetterFilter(status="open"))
    assert st.total == 4
    assert st.by_class == {"code": 2, "data": 2}
    assert [s["signature"] for s in st.top_signatures] == [TYPE_ERROR, MISSING, QTY]


# -- the spike rule -------------------------------------------------------------------------
def test_spike_over_three_times_the_median_of_the_previous_seven() -> None:
    series = [0.02, 0.03, 0.02, 0.025, 0.02, 0.03, 0.02, 0.09]
    # median of the seven before the last: 0.02 -> threshold 0.06
    assert spikes(series) == [7]
    last = check_spikes(series)[-1]
    assert last.baseline == pytest.approx(0.02)
    assert last.threshold == pytest.approx(0.06)


def test_exactly_three_times_is_not_a_spike() -> None:
    assert spikes([0.02] * 7 + [0.06]) == []
    assert spikes([0.02] * 7 + [0.0601]) == [7]


def test_fewer_than_seven_prior_batches_are_not_judged() -> None:
    series = [0.01, 0.5, 0.01, 0.9, 0.01, 0.01, 0.01]  # wild, but only 0..6 batches before
    assert spikes(series) == []
    checks = check_spikes(series)
    assert all(c.baseline is None and c.threshold is None for c in checks)
    assert spikes([]) == []
    assert spikes([0.9]) == []


def test_the_window_slides_and_a_spike_is_in_the_median_of_later_ones() -> None:
    series = [0.02] * 7 + [0.5, 0.02, 0.5]
    # index 7 spikes; at 9 the previous seven hold one 0.5: the median is still 0.02
    assert spikes(series) == [7, 9]


def test_factor_and_window_are_configurable() -> None:
    series = [0.02, 0.02, 0.02, 0.05]
    assert spikes(series) == []  # too few batches for a window of 7
    assert spikes(series, factor=2.0, window=3) == [3]
    assert spikes(series, factor=3.0, window=3) == []
    with pytest.raises(ValueError):
        spikes(series, window=0)


def test_clean_batches_do_not_make_a_single_row_a_spike() -> None:
    clean = [0.0] * 7
    assert spikes([*clean, 0.00001]) == []  # 1 row in 100,000 after clean nights
    assert spikes([*clean, 0.01]) == [7]  # 1 %: above 3 x the 0.1 % floor
    assert spikes([*clean, 0.00001], min_baseline=0.0) == [7]


def test_banner_names_the_newest_spike_and_its_transform(tmp_path: Path) -> None:
    """Batch counters straight into the store: eight quiet batches, then a release."""
    build_spike_store(tmp_path / "ws")
    with open_workspace(tmp_path / "ws") as ws:
        t = compute_trends(ws)
        spike = t.banner_spike()
        assert spike is not None
        assert spike.batch.batch_id == f"{8:016x}"
        assert "pesanan@2" in spike.message()
        assert banner_spike(ws) == spike  # the window's light query agrees
        assert "20.0%" in spike.message()
        assert spike.ratio == pytest.approx(10.0)
        # A stricter rule does not flag it; neither does an older spike fall in the banner.
        assert compute_trends(ws, rule=SpikeRule(factor=11.0)).banner_spike() is None
        j = t.to_json()
        assert [b["spike"] for b in j["per_batch"]] == [False] * 8 + [True]
        assert j["spikes"][0]["transform"] == "pesanan@2"


def test_the_same_counts_on_postgresql(pg_urls: tuple[str, str], tmp_path: Path) -> None:
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
