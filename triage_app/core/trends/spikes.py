"""The spike rule: a batch whose quarantine rate jumps far above the batches before it,
which usually means a release broke the transform. Pure: rates in, verdicts out."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from triage_app.core.locale_format import format_int, format_number, format_percent
from triage_app.core.messages import ngettext

DEFAULT_SPIKE_FACTOR = 3.0
DEFAULT_SPIKE_WINDOW = 7
# With clean batches before it the median is 0, and 3 x 0 would flag a single quarantined
# row; the baseline never goes below this rate (0.1 %).
DEFAULT_MIN_BASELINE = 0.001


@dataclass(frozen=True)
class SpikeCheck:
    """The spike rule applied to one point of a series (see ``check_spikes``)."""

    index: int
    rate: float
    baseline: float | None  # median of the previous ``window`` rates; None: too few
    threshold: float | None  # factor x max(baseline, min_baseline)
    is_spike: bool


@dataclass(frozen=True)
class SpikeRule:
    factor: float = DEFAULT_SPIKE_FACTOR
    window: int = DEFAULT_SPIKE_WINDOW
    min_baseline: float = DEFAULT_MIN_BASELINE

    def check(self, rates: Sequence[float]) -> list[SpikeCheck]:
        """The rule applied to each of ``rates`` (oldest first)."""
        return check_spikes(rates, self.factor, self.window, self.min_baseline)

    def describe(self) -> str:
        """The rule in words, as the report says it."""
        factor = self.factor
        return ngettext(
            "a batch whose quarantine rate exceeds {factor}x the median of the previous "
            "{n} batch (a median below {floor} counts as {floor})",
            "a batch whose quarantine rate exceeds {factor}x the median of the previous "
            "{n} batches (a median below {floor} counts as {floor})",
            self.window,
        ).format(
            factor=format_int(int(factor)) if factor == int(factor) else format_number(factor, 1),
            n=format_int(self.window),
            floor=format_percent(self.min_baseline),
        )


def check_spikes(
    series: Sequence[float],
    factor: float = DEFAULT_SPIKE_FACTOR,
    window: int = DEFAULT_SPIKE_WINDOW,
    min_baseline: float = DEFAULT_MIN_BASELINE,
) -> list[SpikeCheck]:
    """The spike rule for each point of ``series`` (quarantine rates, oldest first).

    A point is a spike when it exceeds ``factor`` x the median of the ``window`` points
    before it (the median taken no lower than ``min_baseline``). A point with fewer than
    ``window`` points before it is not judged: a median of two or three batches is noise,
    and the first batches of a new workspace would otherwise raise false alarms.
    """
    if factor <= 0 or window < 1:
        raise ValueError("the spike rule needs factor > 0 and window >= 1")
    out = []
    for i, rate in enumerate(series):
        if i < window:
            out.append(SpikeCheck(i, rate, None, None, False))
            continue
        baseline = statistics.median(series[i - window : i])
        threshold = factor * max(baseline, min_baseline)
        out.append(SpikeCheck(i, rate, baseline, threshold, rate > threshold))
    return out
