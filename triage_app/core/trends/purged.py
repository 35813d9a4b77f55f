"""What retention purges removed, added back into Trends so that a purge never looks like a
drop in failures or in the backlog.

A purge records its rows per day of first quarantine and class (the ``purges`` table,
written with each chunk it deletes), and, in the ``purged`` audit event of each chunk, per
day the rows were closed (resolved, discarded). Quarantined-per-day adds the first back; the backlog
adds both, so each purged row still arrives on its day and still leaves on the day it was
closed. The notes name each purge, for the chart to say what was purged and when.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, select

from triage_app.core.db import AuditEvent, Purge
from triage_app.core.trends.model import DayCount, PurgeNote
from triage_app.core.vocabulary import CLASSES, AuditAction, Status

DayCounts = dict[dt.date, int]


@dataclass(frozen=True)
class PurgedBack:
    """Purged rows to add back, per day: arrivals (day of first quarantine, by class) and
    closures (resolved, discarded). ``complete`` purges only count in the backlog: a purge
    with no audit event has no closing days, and half of a row would skew it (since issue
    21 every chunk's event commits with its rows; a purge from before, killed before its
    one event at the end, has none)."""

    notes: tuple[PurgeNote, ...] = ()
    arrived: dict[dt.date, dict[str, int]] = field(default_factory=dict)
    backlog_arrived: DayCounts = field(default_factory=dict)
    resolved: DayCounts = field(default_factory=dict)
    discarded: DayCounts = field(default_factory=dict)
    resolved_total: int = 0  # all time, whatever ``since``: the backlog's resolved line

    def days(self) -> set[dt.date]:
        return set(self.arrived) | set(self.resolved) | set(self.discarded)


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text[:10])


def _as_datetime(value: Any) -> dt.datetime:
    return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))


def purged_back(conn: Connection, since: dt.date | None = None) -> PurgedBack:
    """Every purge's rows, per day from ``since`` on, and a note per purge."""
    purges = conn.execute(
        select(Purge.id, Purge.at, Purge.rows, Purge.by_day, Purge.statuses).order_by(Purge.id)
    ).all()
    if not purges:
        return PurgedBack()
    closed: dict[int, dict[str, dict[str, int]]] = {}
    for (detail,) in conn.execute(
        select(AuditEvent.detail).where(AuditEvent.action == AuditAction.PURGED)
    ):
        try:
            data = orjson.loads(detail)
            # One event per committed chunk (before issue 21: one at the end, with the
            # totals): a purge's closing days are the sum of its events'.
            of_purge = closed.setdefault(int(data["purge_id"]), {})
            for status, per_day in (data.get("closed_by_day") or {}).items():
                days = of_purge.setdefault(status, {})
                for day, n in per_day.items():
                    days[day] = days.get(day, 0) + int(n)
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
            continue  # an event this code did not write: its purge counts as incomplete
    arrived: dict[dt.date, dict[str, int]] = {}
    backlog_arrived: DayCounts = {}
    resolved: DayCounts = {}
    discarded: DayCounts = {}
    resolved_total = 0
    notes = []
    for p in purges:
        by_day: dict[str, dict[str, int]] = orjson.loads(p.by_day or "{}")
        notes.append(PurgeNote(_as_datetime(p.at), int(p.rows), tuple(p.statuses.split(","))))
        complete = p.id in closed
        for text, classes in by_day.items():
            d = _date(text)
            if since is not None and d < since:
                continue
            into = arrived.setdefault(d, {})
            for cls, n in classes.items():
                into[cls] = into.get(cls, 0) + int(n)
            if complete:
                backlog_arrived[d] = backlog_arrived.get(d, 0) + sum(classes.values())
        for status, per_day in closed.get(p.id, {}).items():
            target = resolved if status == Status.RESOLVED else discarded
            for text, n in per_day.items():
                d = _date(text)
                if status == Status.RESOLVED:
                    resolved_total += int(n)
                if since is None or d >= since:
                    target[d] = target.get(d, 0) + int(n)
    return PurgedBack(tuple(notes), arrived, backlog_arrived, resolved, discarded, resolved_total)


def add_back(days: Sequence[DayCount], back: PurgedBack) -> tuple[DayCount, ...]:
    """Quarantined per day with the purged rows counted again (and marked as ``purged``),
    over one unbroken run of days that covers both."""
    if not back.arrived:
        return tuple(days)
    have = {d.day: d for d in days}
    all_days = set(have) | set(back.arrived)
    first, last = min(all_days), max(all_days)
    out = []
    for i in range((last - first).days + 1):
        day = first + dt.timedelta(days=i)
        own = have[day].by_class if day in have else dict.fromkeys(CLASSES, 0)
        extra = back.arrived.get(day, {})
        by_class = {c: own.get(c, 0) + extra.get(c, 0) for c in _classes(own, extra)}
        out.append(DayCount(day, by_class, sum(extra.values())))
    return tuple(out)


def _classes(*counts: Iterable[str]) -> list[str]:
    """The known classes in their order, then any other a store may hold."""
    seen = [c for counted in counts for c in counted]
    return [*CLASSES, *sorted({c for c in seen if c not in CLASSES})]
