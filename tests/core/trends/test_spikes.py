"""The spike rule on synthetic series, and the banner it raises over a store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.support.crafted_trends import build_spike_store
from triage_app.core.db import open_workspace
from triage_app.core.trends import SpikeRule, banner_spike, compute_trends
from triage_app.core.trends.spikes import check_spikes


def flagged(series: Sequence[float], **rule: Any) -> list[int]:
    """The indexes the rule flags."""
    return [c.index for c in check_spikes(series, **rule) if c.is_spike]


def test_spike_over_three_times_the_median_of_the_previous_seven() -> None:
    series = [0.02, 0.03, 0.02, 0.025, 0.02, 0.03, 0.02, 0.09]
    # median of the seven before the last: 0.02 -> threshold 0.06
    assert flagged(series) == [7]
    last = check_spikes(series)[-1]
    assert last.baseline == pytest.approx(0.02)
    assert last.threshold == pytest.approx(0.06)


def test_exactly_three_times_is_not_a_spike() -> None:
    assert flagged([0.02] * 7 + [0.06]) == []
    assert flagged([0.02] * 7 + [0.0601]) == [7]


def test_fewer_than_seven_prior_batches_are_not_judged() -> None:
    series = [0.01, 0.5, 0.01, 0.9, 0.01, 0.01, 0.01]  # wild, but only 0..6 batches before
    assert flagged(series) == []
    checks = check_spikes(series)
    assert all(c.baseline is None and c.threshold is None for c in checks)
    assert flagged([]) == []
    assert flagged([0.9]) == []


def test_the_window_slides_and_a_spike_is_in_the_median_of_later_ones() -> None:
    series = [0.02] * 7 + [0.5, 0.02, 0.5]
    # index 7 spikes; at 9 the previous seven hold one 0.5: the median is still 0.02
    assert flagged(series) == [7, 9]


def test_factor_and_window_are_configurable() -> None:
    series = [0.02, 0.02, 0.02, 0.05]
    assert flagged(series) == []  # too few batches for a window of 7
    assert flagged(series, factor=2.0, window=3) == [3]
    assert flagged(series, factor=3.0, window=3) == []
    with pytest.raises(ValueError):
        flagged(series, window=0)


def test_clean_batches_do_not_make_a_single_row_a_spike() -> None:
    clean = [0.0] * 7
    assert flagged([*clean, 0.00001]) == []  # 1 row in 100,000 after clean nights
    assert flagged([*clean, 0.01]) == [7]  # 1 %: above 3 x the 0.1 % floor
    assert flagged([*clean, 0.00001], min_baseline=0.0) == [7]


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
