"""Trends for team leads: failures over time, the backlog, attempts, error groups and the
spike rule, counted in SQL; the tables behind each chart, the report's headline, and
``stats`` with its cache."""

from triage_app.core.trends.compute import banner_spike, compute_trends
from triage_app.core.trends.counting import attempts_histogram
from triage_app.core.trends.headline import Headline
from triage_app.core.trends.model import (
    AttemptsBucket,
    BacklogPoint,
    BatchPoint,
    DayCount,
    ErrorGroup,
    Spike,
    Trends,
)
from triage_app.core.trends.spikes import (
    DEFAULT_SPIKE_FACTOR,
    DEFAULT_SPIKE_WINDOW,
    SpikeCheck,
    SpikeRule,
)
from triage_app.core.trends.stats import Stats, compute_stats
from triage_app.core.trends.stats_cache import stats_json, warm_stats_cache
from triage_app.core.trends.tables import CHART_TITLES, chart_tables, write_csv

__all__ = [
    "CHART_TITLES",
    "DEFAULT_SPIKE_FACTOR",
    "DEFAULT_SPIKE_WINDOW",
    "AttemptsBucket",
    "BacklogPoint",
    "BatchPoint",
    "DayCount",
    "ErrorGroup",
    "Headline",
    "Spike",
    "SpikeCheck",
    "SpikeRule",
    "Stats",
    "Trends",
    "attempts_histogram",
    "banner_spike",
    "chart_tables",
    "compute_stats",
    "compute_trends",
    "stats_json",
    "warm_stats_cache",
    "write_csv",
]
