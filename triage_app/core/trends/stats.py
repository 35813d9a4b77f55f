"""``stats``: aggregates over the dead-letter store, all computed in SQL (``counting.py``).

``stats --json`` carries the keys it always had (by class, status, attempts, failures per
day, top signatures) and, under ``trends``, everything the Trends tab and ``report`` show.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, replace
from typing import Any

from triage_app.core.clock import seconds
from triage_app.core.db import Workspace
from triage_app.core.deadletters import DeadLetterFilter, ErrorGroup, error_groups
from triage_app.core.trends.compute import compute_trends
from triage_app.core.trends.counting import (
    cube_for,
    cube_totals,
    failures_per_day,
    statuses_of,
)
from triage_app.core.trends.model import DayCount, Trends
from triage_app.core.trends.spikes import SpikeRule
from triage_app.core.vocabulary import ALL

TOP_GROUPS = 20  # error groups under "trends": the Trends tab shows as many


@dataclass(frozen=True)
class Stats:
    total: int
    by_class: dict[str, int]
    by_status: dict[str, int]
    by_class_status: dict[str, dict[str, int]]
    attempts: dict[int, int]  # attempts -> dead letters with that many
    failures_per_day: list[dict[str, Any]]  # {"day", "class", "count"}, by first failure
    top_signatures: list[dict[str, Any]]
    trends: Trends | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["attempts"] = {str(k): v for k, v in self.attempts.items()}
        d["trends"] = self.trends.to_json() if self.trends is not None else None
        return d


def _seen(t: dt.datetime | None) -> str:
    return "None" if t is None else seconds(t)


def _legacy_per_day(days: tuple[DayCount, ...]) -> list[dict[str, Any]]:
    return [
        {"day": d.day.isoformat(), "class": c, "count": n}
        for d in days
        for c, n in sorted(d.by_class.items())
        if n
    ]


def _legacy_signatures(groups: tuple[ErrorGroup, ...]) -> list[dict[str, Any]]:
    return [
        {
            "signature": g.signature,
            "class": g.error_class,
            "count": g.count,
            "open": g.open,
            "first_seen": _seen(g.first_seen),
            "last_seen": _seen(g.last_seen),
        }
        for g in groups
    ]


def compute_stats(
    ws: Workspace,
    f: DeadLetterFilter | None = None,
    top: int = 10,
    *,
    since: dt.date | None = None,
    rule: SpikeRule | None = None,
) -> Stats:
    """Counts over the dead letters matching ``f`` (default: all of them), and the trends
    (whose attempts histogram follows ``f``; the rest covers the store from ``since``)."""
    everything = f is None or f == DeadLetterFilter(status=ALL)
    trends = compute_trends(
        ws, None if everything else f, since=since, rule=rule, top=max(top, TOP_GROUPS)
    )
    if everything and since is None:
        by_cs = trends.by_class_status
        by_as = trends.by_attempts_status
        days = trends.per_day
        groups = trends.groups[:top]
    else:
        assert f is not None or since is not None
        f = f or DeadLetterFilter(status=ALL)
        with ws.store.connect() as conn:
            earliest: dict[tuple[str, str, str, int], dt.datetime | None] = {}
            cells = cube_for(conn, f, since, statuses_of(f), earliest)
            by_cs, by_as = cube_totals(cells)
            days = failures_per_day(conn, f, since)
            groups = error_groups(conn, f, since, top=top, cells=cells, earliest=earliest)
    by_class: dict[str, int] = {}
    by_status: dict[str, int] = {}
    for cls, statuses_n in by_cs.items():
        for status, n in statuses_n.items():
            by_class[cls] = by_class.get(cls, 0) + n
            by_status[status] = by_status.get(status, 0) + n
    return Stats(
        total=sum(by_class.values()),
        by_class=by_class,
        by_status=by_status,
        by_class_status=by_cs,
        attempts={a: sum(st.values()) for a, st in by_as.items()},
        failures_per_day=_legacy_per_day(days),
        top_signatures=_legacy_signatures(groups),
        trends=replace(trends, groups=trends.groups[:TOP_GROUPS]),
    )
