"""Trends for team leads: failures over time, the backlog, attempts, error groups and the
spike rule, counted in SQL; the tables behind each chart, the report's headline, and
``stats`` with its cache."""

from triage_app.core.trends.compute import banner_spike, compute_trends
from triage_app.core.trends.counting import STATUSES, attempts_histogram, error_groups
from triage_app.core.trends.headline import Headline, headline
from triage_app.core.trends.model import (
    RECENT_BATCHES,
    AttemptsBucket,
    BacklogPoint,
    BatchPoint,
    DayCount,
    ErrorGroup,
    Spike,
    Trends,
)
from triage_app.core.trends.spikes import (
    DEFAULT_MIN_BASELINE,
    DEFAULT_SPIKE_FACTOR,
    DEFAULT_SPIKE_WINDOW,
    SpikeCheck,
    SpikeRule,
    check_spikes,
)
from triage_app.core.trends.stats import Stats, compute_stats
from triage_app.core.trends.stats_cache import stats_json, warm_stats_cache
from triage_app.core.trends.tables import CHART_TITLES, Table, chart_tables, write_csv

__all__ = [
    "CHART_TITLES",
    "DEFAULT_MIN_BASELINE",
    "DEFAULT_SPIKE_FACTOR",
    "DEFAULT_SPIKE_WINDOW",
    "RECENT_BATCHES",
    "STATUSES",
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
    "Table",
    "Trends",
    "attempts_histogram",
    "banner_spike",
    "chart_tables",
    "check_spikes",
    "compute_stats",
    "compute_trends",
    "error_groups",
    "headline",
    "stats_json",
    "warm_stats_cache",
    "write_csv",
]
