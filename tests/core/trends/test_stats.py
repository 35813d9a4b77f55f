"""``stats --json``: the keys it always had, and the trends under ``trends``, on the
crafted workspace."""

from __future__ import annotations

from tests.support.crafted_trends import MISSING, QTY, TYPE_ERROR
from triage_app.core.deadletters import DeadLetterFilter
from triage_app.core.trends import compute_stats


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
