"""Trends for team leads: failures over time, the backlog, attempts, error groups and the
spike rule, counted in SQL; the tables behind each chart, the report's headline, and
``stats`` with its cache.

``_PARTS`` below is this package's interface, each name once; each part loads when one of
its names is first asked for. Warming the stats cache after a batch that quarantined
nothing counts no dead letter (``stats_cache.py``), and loading the counting code for it
cost ``triage-app run`` some 12 ms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triage_app.core.lazy_package import lazy_interface

# The interface: each part, and the names it defines that the package exports. Each name is
# listed here once; ``__all__`` and the loading of a part on first use derive from it.
_PARTS: dict[str, tuple[str, ...]] = {
    "causes": ("SpikeCause", "Verdict"),
    "compute": ("FILTERED_PARTS", "banner_spike", "compute_filtered_trends", "compute_trends"),
    "counting": ("attempts_histogram",),
    "digest": ("Digest", "compute_digest", "judged_on_history"),
    "headline": ("Headline",),
    "model": (
        "AttemptsBucket",
        "BacklogPoint",
        "BatchPoint",
        "DayCount",
        "Spike",
        "Trends",
    ),
    "spikes": ("DEFAULT_SPIKE_FACTOR", "DEFAULT_SPIKE_WINDOW", "SpikeCheck", "SpikeRule"),
    "stats": ("Stats", "compute_stats"),
    "stats_cache": ("stats_json", "warm_stats_cache"),
    "tables": ("CHART_TITLES", "chart_tables", "write_csv"),
}
__all__, __getattr__, __dir__ = lazy_interface(__name__, _PARTS, globals())

# The same names as ``_PARTS``, imported for the checkers (mypy, import-linter) only; a test
# (tests/cli/test_startup_imports.py) holds the two equal.
if TYPE_CHECKING:
    from triage_app.core.trends.causes import SpikeCause, Verdict
    from triage_app.core.trends.compute import (
        FILTERED_PARTS,
        banner_spike,
        compute_filtered_trends,
        compute_trends,
    )
    from triage_app.core.trends.counting import attempts_histogram
    from triage_app.core.trends.digest import Digest, compute_digest, judged_on_history
    from triage_app.core.trends.headline import Headline
    from triage_app.core.trends.model import (
        AttemptsBucket,
        BacklogPoint,
        BatchPoint,
        DayCount,
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
