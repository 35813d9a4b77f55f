"""The values Trends is made of: rates, the spike's message, which spikes the banner sees,
and the JSON that ``stats --json`` and ``report`` write."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import orjson
import pytest

from tests.support.crafted_trends import Crafted
from triage_app.core.db import Workspace
from triage_app.core.deadletters import ErrorGroup
from triage_app.core.trends import (
    AttemptsBucket,
    BatchPoint,
    DayCount,
    Spike,
    SpikeCheck,
    SpikeRule,
    Trends,
    compute_trends,
)


def point(i: int, rows: int = 1000, quarantined: int = 20, **kw: str) -> BatchPoint:
    return BatchPoint(
        kw.get("batch_id", f"{i:02d}c0ffee{i:08d}"),
        kw.get("source_name", f"night_{i}.jsonl"),
        kw.get("transform", "pesanan@1"),
        dt.datetime(2026, 3, 1) + dt.timedelta(days=i),
        rows,
        quarantined,
        {"data": quarantined, "code": 0, "transient": 0},
    )


def with_spikes_at(n: int, spikes: set[int]) -> Trends:
    """``n`` batches whose checks flag ``spikes``."""
    batches = tuple(point(i) for i in range(n))
    checks = tuple(
        SpikeCheck(i, 0.02, 0.02, 0.06, i in spikes)
        if i >= 7
        else SpikeCheck(i, 0.02, None, None, False)
        for i in range(n)
    )
    return Trends(None, (), (), batches, (), (), checks)


def test_rate_of_a_batch_without_rows_is_zero() -> None:
    assert point(0, rows=0, quarantined=0).rate == 0.0
    assert point(0, rows=0, quarantined=3).rate == 0.0
    assert point(0, rows=8, quarantined=2).rate == 0.25


def test_the_small_counts() -> None:
    assert AttemptsBucket(3, 10, 4).not_parked == 6
    assert DayCount(dt.date(2026, 3, 1), {"data": 2, "code": 1, "transient": 0}).total == 3
    g = ErrorGroup("s", "data", 5, {"open": 2, "parked": 3}, None, None)
    assert (g.open, g.resolved) == (2, 0)


def test_spike_message_names_the_batch_transform_and_ratio_and_guesses_no_cause() -> None:
    b = point(8, rows=81_140, quarantined=4_057, batch_id="01997e33c1412557", transform="pesanan@2")
    s = Spike(b, baseline=0.01, threshold=0.03, newest=True)
    assert s.ratio == pytest.approx(5.0)
    # Without the evidence (causes.py), nothing is blamed.
    assert s.message() == (
        "Quarantine spike in batch 01997e33 (night_8.jsonl, transform pesanan@2): 5.0% of "
        "81,140 rows quarantined, 5.0x the median 1.0% of the batches before it."
    )


def test_a_spike_after_clean_batches_has_an_infinite_ratio() -> None:
    s = Spike(point(7, quarantined=10), baseline=0.0, threshold=0.003, newest=True)
    assert math.isinf(s.ratio)


def test_a_spike_after_clean_batches_says_something_a_person_can_read() -> None:
    s = Spike(point(7, quarantined=10), baseline=0.0, threshold=0.003, newest=True)
    assert "inf" not in s.message()


def test_only_spikes_among_the_newest_batches_reach_the_banner() -> None:
    t = with_spikes_at(12, {8, 10})
    assert [(s.batch.batch_id, s.newest) for s in t.spikes] == [
        (t.per_batch[8].batch_id, False),  # four batches old
        (t.per_batch[10].batch_id, True),
    ]
    banner = t.banner_spike()
    assert banner is not None and banner.batch == t.per_batch[10]
    assert (banner.baseline, banner.threshold) == (0.02, 0.06)
    assert with_spikes_at(12, {8}).banner_spike() is None  # old news: the chart only
    two_recent = with_spikes_at(12, {9, 11}).banner_spike()
    assert two_recent is not None and two_recent.batch == t.per_batch[11]  # the newest
    assert with_spikes_at(12, set()).spikes == ()


def test_to_json_is_serialisable_with_orjson(ws: Workspace) -> None:
    t = compute_trends(ws)
    raw = orjson.dumps(t.to_json())
    back = json.loads(raw)
    assert back == t.to_json()
    assert back["since"] is None
    assert back["attempts"] == [
        {"attempts": 1, "total": 6, "parked": 0},
        {"attempts": 3, "total": 1, "parked": 1},
    ]
    assert back["per_day"][0] == {
        "day": "2026-03-01",
        "data": 3,
        "code": 1,
        "transient": 0,
        "total": 4,
        "purged": 0,  # of them, removed by a retention purge since (none here)
    }
    assert back["backlog"][-1] == {
        "day": "2026-03-04",
        "open": 5,
        "resolved": 1,
        "arrived": 1,
        "resolved_on_day": 0,
        "discarded_on_day": 1,
    }
    assert back["error_groups"][0]["first_seen"] == "2026-03-01T10:00:00Z"
    assert back["attempts_by_status"] == {
        "1": {"open": 4, "resolved": 1, "discarded": 1},
        "3": {"parked": 1},
    }
    assert back["spike_rule"] == {"factor": 3.0, "window": 7, "min_baseline": 0.001}
    assert back["spikes"] == []
    since = compute_trends(ws, since=dt.date(2026, 3, 2)).to_json()
    assert orjson.loads(orjson.dumps(since))["since"] == "2026-03-02"


def test_to_json_carries_per_batch_spike_flags_in_batch_order(
    ws: Workspace, crafted: tuple[Path, Crafted]
) -> None:
    b = crafted[1].batches
    plain = orjson.loads(orjson.dumps(compute_trends(ws).to_json()))
    assert [(p["batch_id"], p["spike"], p["baseline"]) for p in plain["per_batch"]] == [
        (b["b1"], False, None),
        (b["b2"], False, None),
        (b["b3"], False, None),
    ]
    assert [p["started_at"] for p in plain["per_batch"]] == [
        "2026-03-01T10:00:00Z",
        "2026-03-02T10:00:00Z",
        "2026-03-04T10:00:00Z",
    ]
    # Judged against the one batch before: only b2 (0.4 > 0.7 x 0.4) is a spike.
    t = compute_trends(ws, rule=SpikeRule(factor=0.7, window=1))
    j = orjson.loads(orjson.dumps(t.to_json()))
    assert [(p["batch_id"], p["rate"], p["spike"], p["baseline"]) for p in j["per_batch"]] == [
        (b["b1"], 0.4, False, None),
        (b["b2"], 0.4, True, 0.4),
        (b["b3"], 0.25, False, 0.4),
    ]
    (spike,) = j["spikes"]
    assert (spike["batch_id"], spike["transform"], spike["recent"]) == (b["b2"], "pesanan@1", True)
    assert spike["message"].startswith(f"Quarantine spike in batch {b['b2'][:8]} (b2.jsonl,")
    assert j["spike_rule"] == {"factor": 0.7, "window": 1, "min_baseline": 0.001}
