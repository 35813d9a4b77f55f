"""Trends for team leads: attempts, failures over time, the backlog, error groups and
quarantine-rate spikes. Every number is a SQL aggregate; no dead letter is loaded.

Speed: with a million dead letters, a GROUP BY that SQLite must sort (a day computed from a
timestamp) takes most of a second. Counting index ranges does not sort: one statement of
correlated ``count(*)`` subqueries, one per cell (a day and a class, or a group, a status
and an attempt count), walks each index once. Cells are enumerated first, cheaply: days
from the min and max timestamps, groups and attempt counts with DISTINCT on an index
prefix (which SQLite answers by skipping through the index).
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import (
    Connection,
    DateTime,
    Integer,
    String,
    Text,
    and_,
    column,
    func,
    select,
    values,
)
from sqlalchemy.sql.expression import ColumnElement

from triage_app.core.deadletters import DeadLetterFilter, filter_clauses
from triage_app.core.errors import ErrorClass
from triage_app.core.store import AuditEvent, Batch, DeadLetter, Status
from triage_app.core.workspace import Workspace

CLASSES: tuple[str, ...] = tuple(c.value for c in ErrorClass)
STATUSES: tuple[str, ...] = tuple(s.value for s in Status)
BACKLOG_STATUSES = (Status.OPEN.value, Status.PARKED.value)  # still waiting for a person

DEFAULT_SPIKE_FACTOR = 3.0
DEFAULT_SPIKE_WINDOW = 7
# With clean batches before it the median is 0, and 3 x 0 would flag a single quarantined
# row; the baseline never goes below this rate (0.1 %).
DEFAULT_MIN_BASELINE = 0.001
# A spike among this many newest batches raises the banner; older ones stay in the chart.
RECENT_BATCHES = 3
# Cells per statement: below SQLite's 2,000 result columns and 32,766 bound parameters.
_CELLS_PER_STATEMENT = 500
_GROUP_BY_ABOVE = 20_000  # more cube cells than this: one GROUP BY pass is cheaper


# -- values crossing layers (frozen; plain types) ----------------------------------------
@dataclass(frozen=True)
class AttemptsBucket:
    """Dead letters that failed ``attempts`` times; ``parked`` of them are parked."""

    attempts: int
    total: int
    parked: int

    @property
    def not_parked(self) -> int:
        return self.total - self.parked


@dataclass(frozen=True)
class DayCount:
    """Dead letters first quarantined on ``day`` (UTC), by class."""

    day: dt.date
    by_class: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.by_class.values())


@dataclass(frozen=True)
class BatchPoint:
    """One batch, from its counters: what it quarantined when it ran."""

    batch_id: str
    source_name: str
    transform: str
    started_at: dt.datetime
    rows: int
    quarantined: int
    by_class: dict[str, int]

    @property
    def rate(self) -> float:
        return self.quarantined / self.rows if self.rows else 0.0


@dataclass(frozen=True)
class BacklogPoint:
    """The dead-letter queue at the end of ``day``: ``open`` (open or parked: waiting for a
    person) and ``resolved`` (re-driven, all time); plus that day's movements."""

    day: dt.date
    open: int
    resolved: int
    arrived: int
    resolved_on_day: int
    discarded_on_day: int


@dataclass(frozen=True)
class ErrorGroup:
    """Dead letters sharing one signature: one cause, fixed once."""

    signature: str
    error_class: str
    count: int
    by_status: dict[str, int]
    first_seen: dt.datetime | None
    last_seen: dt.datetime | None

    @property
    def open(self) -> int:
        return self.by_status.get(Status.OPEN.value, 0)

    @property
    def resolved(self) -> int:
        return self.by_status.get(Status.RESOLVED.value, 0)


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

    def describe(self) -> str:
        return (
            f"a batch whose quarantine rate exceeds {self.factor:g}x the median of the "
            f"previous {self.window} batches (a median below {self.min_baseline:.1%} counts "
            f"as {self.min_baseline:.1%})"
        )


@dataclass(frozen=True)
class Spike:
    """A batch the spike rule flagged, with what the banner says about it."""

    batch: BatchPoint
    baseline: float
    threshold: float
    newest: bool  # among the RECENT_BATCHES newest batches: the banner shows it

    @property
    def ratio(self) -> float:
        return self.batch.rate / self.baseline if self.baseline else float("inf")

    def message(self) -> str:
        b = self.batch
        return (
            f"Quarantine spike in batch {b.batch_id[:8]} ({b.source_name}, transform "
            f"{b.transform}): {b.rate:.1%} of {b.rows:,} rows quarantined, "
            f"{self.ratio:.1f}x the median {self.baseline:.1%} of the batches before it. "
            f"A new release of {b.transform} may have broken the transform."
        )


@dataclass(frozen=True)
class Trends:
    """Everything the Trends tab, ``report`` and ``stats --json`` show."""

    since: dt.date | None
    attempts: tuple[AttemptsBucket, ...]
    per_day: tuple[DayCount, ...]
    per_batch: tuple[BatchPoint, ...]
    backlog: tuple[BacklogPoint, ...]
    groups: tuple[ErrorGroup, ...]
    checks: tuple[SpikeCheck, ...]  # one per batch in ``per_batch``, same order
    rule: SpikeRule = field(default_factory=SpikeRule)
    # The cube rolled up (from ``since`` on): class -> status -> n, attempts -> status -> n.
    by_class_status: dict[str, dict[str, int]] = field(default_factory=dict)
    by_attempts_status: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def spikes(self) -> tuple[Spike, ...]:
        n = len(self.per_batch)
        return tuple(
            Spike(
                self.per_batch[c.index],
                c.baseline or 0.0,
                c.threshold or 0.0,
                c.index >= n - RECENT_BATCHES,
            )
            for c in self.checks
            if c.is_spike
        )

    def banner_spike(self) -> Spike | None:
        """The newest spike among the newest batches: the one the banner names."""
        recent = [s for s in self.spikes if s.newest]
        return recent[-1] if recent else None

    def to_json(self) -> dict[str, Any]:
        return {
            "since": self.since.isoformat() if self.since else None,
            "attempts": [asdict(b) for b in self.attempts],
            "per_day": [
                {"day": d.day.isoformat(), **d.by_class, "total": d.total} for d in self.per_day
            ],
            "per_batch": [
                {
                    **{k: v for k, v in asdict(b).items() if k != "started_at"},
                    "started_at": _iso(b.started_at),
                    "rate": round(b.rate, 6),
                    "spike": c.is_spike,
                    "baseline": None if c.baseline is None else round(c.baseline, 6),
                }
                for b, c in zip(self.per_batch, self.checks, strict=True)
            ],
            "backlog": [{**asdict(p), "day": p.day.isoformat()} for p in self.backlog],
            "error_groups": [
                {
                    "signature": g.signature,
                    "class": g.error_class,
                    "count": g.count,
                    "open": g.open,
                    "resolved": g.resolved,
                    "by_status": g.by_status,
                    "first_seen": _iso(g.first_seen),
                    "last_seen": _iso(g.last_seen),
                }
                for g in self.groups
            ],
            "attempts_by_status": {str(a): st for a, st in self.by_attempts_status.items()},
            "spike_rule": asdict(self.rule),
            "spikes": [
                {
                    "batch_id": s.batch.batch_id,
                    "transform": s.batch.transform,
                    "rate": round(s.batch.rate, 6),
                    "baseline": round(s.baseline, 6),
                    "recent": s.newest,
                    "message": s.message(),
                }
                for s in self.spikes
            ],
        }


def _iso(t: dt.datetime | None) -> str | None:
    return None if t is None else t.replace(microsecond=0).isoformat() + "Z"


# -- the spike rule (pure) ----------------------------------------------------------------
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


def spikes(
    series: Sequence[float],
    factor: float = DEFAULT_SPIKE_FACTOR,
    window: int = DEFAULT_SPIKE_WINDOW,
    min_baseline: float = DEFAULT_MIN_BASELINE,
) -> list[int]:
    """Indexes of the points of ``series`` the spike rule flags (see ``check_spikes``)."""
    return [c.index for c in check_spikes(series, factor, window, min_baseline) if c.is_spike]


# -- counting cells -----------------------------------------------------------------------
def _day_start(d: dt.date) -> dt.datetime:
    return dt.datetime(d.year, d.month, d.day)


def _days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]


def _count_per_day(
    conn: Connection,
    ts: Any,
    days: Sequence[dt.date],
    where: Sequence[ColumnElement[bool]] = (),
    split: tuple[Any, Sequence[str]] | None = None,
) -> list[list[int]]:
    """For each day, ``count(*)`` of rows whose ``ts`` falls on it; with ``split=(col,
    values)`` one count per value. Each day is an index range, counted without sorting."""
    if not days:
        return []
    out: list[list[int]] = []
    keys: Sequence[str | None] = split[1] if split else [None]
    table = ts.class_  # the mapped class the column belongs to
    for start in range(0, len(days), _CELLS_PER_STATEMENT):
        chunk = days[start : start + _CELLS_PER_STATEMENT]
        # A CTE, not (VALUES …) AS days(a, b): SQLite has no column list on a derived table.
        bounds = (
            values(column("a", DateTime()), column("b", DateTime()), name="days")
            .data([(_day_start(d), _day_start(d + dt.timedelta(days=1))) for d in chunk])
            .cte("days")
        )
        cols = []
        for key in keys:
            cond = [ts >= bounds.c.a, ts < bounds.c.b, *where]
            if split is not None:
                cond.append(split[0] == key)
            cols.append(
                select(func.count()).select_from(table).where(and_(*cond)).scalar_subquery()
            )
        rows = conn.execute(select(bounds.c.a, *cols).order_by(bounds.c.a)).all()
        out.extend([int(n) for n in r[1:]] for r in rows)
    return out


def _min_max(conn: Connection, col: Any, where: Sequence[ColumnElement[bool]] = ()) -> Any:
    """(min, max) of an indexed column. Two statements: SQLite answers a lone min() or
    max() with one index lookup, but min() and max() together with a full scan."""
    lo = select(func.min(col)).where(*where)
    hi = select(func.max(col)).where(*where)
    return conn.execute(lo).scalar(), conn.execute(hi).scalar()


def _as_date(value: Any) -> dt.date | None:
    """A timestamp from the database as a date (SQLite may hand back text)."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def _as_datetime(value: Any) -> dt.datetime | None:
    if value is None or isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromisoformat(str(value))


# -- the aggregates -----------------------------------------------------------------------
def attempts_histogram(conn: Connection, f: DeadLetterFilter) -> tuple[AttemptsBucket, ...]:
    """How many dead letters at 1, 2, 3… attempts over the table's filter, parked marked.

    The table's default status, ``open``, is widened to open and parked here: parked rows
    are the ones that ran out of attempts, which is what the mark is for. Counted on the
    cube's index, so the usual filters (status, class, signature) cost one index walk.
    """
    if f.status == Status.OPEN.value:
        statuses: Sequence[str] = BACKLOG_STATUSES
        where = filter_clauses(f.with_(status="all"))
    else:
        statuses = STATUSES if f.status in ("all", None) else (f.status,)
        where = filter_clauses(f.with_(status="all"))
    totals: dict[int, list[int]] = {}
    for (_c, _s, status, att), n in _cube(conn, where, statuses).items():
        bucket = totals.setdefault(att, [0, 0])
        bucket[0] += n
        if status == Status.PARKED.value:
            bucket[1] += n
    return tuple(AttemptsBucket(a, t, p) for a, (t, p) in sorted(totals.items()))


def failures_per_day(
    conn: Connection, f: DeadLetterFilter | None = None, since: dt.date | None = None
) -> tuple[DayCount, ...]:
    """Dead letters by the UTC day of their first failure, by class."""
    dl = DeadLetter
    where = filter_clauses(f) if f is not None else []
    if since is not None:
        where.append(dl.first_failed_at >= _day_start(since))
    lo, hi = _min_max(conn, dl.first_failed_at, where)
    first, last = _as_date(lo), _as_date(hi)
    if first is None or last is None:
        return ()
    days = _days(first, last)
    counts = _count_per_day(conn, dl.first_failed_at, days, where, (dl.error_class, CLASSES))
    return tuple(
        DayCount(d, dict(zip(CLASSES, c, strict=True))) for d, c in zip(days, counts, strict=True)
    )


def per_batch(conn: Connection, since: dt.date | None = None) -> tuple[BatchPoint, ...]:
    """Batches oldest first, from their own counters (which outlive a retention purge)."""
    b = Batch
    stmt = (
        select(
            b.batch_id,
            b.source_name,
            b.transform,
            b.started_at,
            b.rows,
            b.quarantined,
            b.q_data,
            b.q_code,
            b.q_transient,
        )
        .where(b.rows > 0)  # a batch that has read nothing yet has no rate
        .order_by(b.started_at, b.batch_id)
    )
    if since is not None:
        stmt = stmt.where(b.started_at >= _day_start(since))
    return tuple(
        BatchPoint(
            r.batch_id,
            r.source_name,
            r.transform,
            _as_datetime(r.started_at) or dt.datetime.min,
            int(r.rows),
            int(r.quarantined),
            {"data": int(r.q_data), "code": int(r.q_code), "transient": int(r.q_transient)},
        )
        for r in conn.execute(stmt)
    )


def _discarded_at() -> Any:
    return AuditEvent.at, [AuditEvent.action == "discarded"]


def backlog(
    conn: Connection,
    since: dt.date | None = None,
    arrivals: Sequence[DayCount] | None = None,
    status_now: dict[str, int] | None = None,
) -> tuple[BacklogPoint, ...]:
    """The queue at the end of each day: open (open or parked) and resolved (all time).

    Computed backwards from today's counts, so only days from ``since`` are counted:
    open at the end of day D = open now - arrived after D + resolved after D + discarded
    after D. (Resolved and discarded dead letters never reopen.) ``arrivals`` and
    ``status_now`` (dead letters by status, whole store) save counting them again.
    """
    dl = DeadLetter
    now = status_now
    if now is None:
        now = {
            s: int(n)
            for s, n in conn.execute(
                select(dl.status, func.count())
                .where(dl.status.in_((*BACKLOG_STATUSES, Status.RESOLVED.value)))
                .group_by(dl.status)
            )
        }
    ev_at, ev_where = _discarded_at()
    start_bound = [] if since is None else [_day_start(since)]
    bounds = [
        _min_max(conn, dl.first_failed_at, [dl.first_failed_at >= b for b in start_bound]),
        _min_max(conn, dl.resolved_at, [dl.resolved_at >= b for b in start_bound]),
        _min_max(conn, ev_at, [*ev_where, *(ev_at >= b for b in start_bound)]),
    ]
    firsts = [d for d in (_as_date(lo) for lo, _ in bounds) if d is not None]
    lasts = [d for d in (_as_date(hi) for _, hi in bounds) if d is not None]
    if not firsts:
        return ()
    days = _days(since or min(firsts), max(lasts))
    known = {a.day: a.total for a in arrivals or ()}
    if arrivals is not None and set(known) <= set(days):
        arrived = [known.get(d, 0) for d in days]  # counted already, by failures_per_day
    else:
        arrived = [c[0] for c in _count_per_day(conn, dl.first_failed_at, days)]
    resolved = [c[0] for c in _count_per_day(conn, dl.resolved_at, days)]
    discarded = [c[0] for c in _count_per_day(conn, ev_at, days, ev_where)]
    open_now = sum(now.get(s, 0) for s in BACKLOG_STATUSES)
    resolved_now = now.get(Status.RESOLVED.value, 0)
    points: list[BacklogPoint] = []
    open_, res = open_now, resolved_now
    for i in range(len(days) - 1, -1, -1):  # from today backwards
        points.append(BacklogPoint(days[i], open_, res, arrived[i], resolved[i], discarded[i]))
        open_ += -arrived[i] + resolved[i] + discarded[i]
        res -= resolved[i]
    return tuple(reversed(points))


def error_groups(
    conn: Connection,
    f: DeadLetterFilter | None = None,
    since: dt.date | None = None,
    top: int | None = None,
    cells: dict[tuple[str, str, str, int], int] | None = None,
) -> tuple[ErrorGroup, ...]:
    """Dead letters grouped by (signature, class): count by status, first and last seen.
    Largest first; ``top`` keeps the largest few. ``cells``: the cube, if counted already."""
    if cells is None:
        statuses = STATUSES if f is None or f.status in ("all", None) else (f.status,)
        cells = _cube(conn, _scope(f, since), statuses)
    groups: dict[tuple[str, str], dict[str, int]] = {}
    for (cls, sig, status, _attempts), n in cells.items():
        by_status = groups.setdefault((cls, sig), {})
        by_status[status] = by_status.get(status, 0) + n
    ranked = sorted(groups.items(), key=lambda kv: (-sum(kv[1].values()), kv[0][1], kv[0][0]))
    if top is not None:
        ranked = ranked[:top]
    seen = _first_last_seen(conn, [k for k, _ in ranked], f, since)
    return tuple(
        ErrorGroup(sig, cls, sum(by_status.values()), by_status, *seen[(cls, sig)])
        for (cls, sig), by_status in ranked
    )


def _scope(f: DeadLetterFilter | None, since: dt.date | None) -> list[ColumnElement[bool]]:
    where = filter_clauses(f) if f is not None else []
    if since is not None:
        where.append(DeadLetter.first_failed_at >= _day_start(since))
    return where


def _cube(
    conn: Connection, where: Sequence[ColumnElement[bool]], statuses: Sequence[str]
) -> dict[tuple[str, str, str, int], int]:
    """Dead letters counted by (class, signature, status, attempts); zero cells left out.

    Each cell is an equality range of ``ix_dl_cube``; counting them walks that index once,
    in about half the time of a GROUP BY over it.
    """
    dl = DeadLetter
    pairs = conn.execute(
        select(dl.error_class, dl.signature).distinct().order_by(dl.error_class, dl.signature)
    ).all()
    attempts = list(conn.execute(select(dl.attempts).distinct().order_by(dl.attempts)).scalars())
    keys = [(c, s, st, a) for c, s in pairs for st in statuses for a in attempts]
    if len(keys) > _GROUP_BY_ABOVE:
        stmt = select(dl.error_class, dl.signature, dl.status, dl.attempts, func.count())
        stmt = stmt.where(dl.status.in_(statuses), *where)
        stmt = stmt.group_by(dl.error_class, dl.signature, dl.status, dl.attempts)
        return {(c, s, st, int(a)): int(n) for c, s, st, a, n in conn.execute(stmt)}
    out: dict[tuple[str, str, str, int], int] = {}
    for start in range(0, len(keys), _CELLS_PER_STATEMENT):
        chunk = keys[start : start + _CELLS_PER_STATEMENT]
        cell = (
            values(
                column("c", String()),
                column("s", Text()),
                column("st", String()),
                column("a", Integer()),
                name="cells",
            )
            .data(chunk)
            .cte("cells")
        )
        n = (
            select(func.count())
            .select_from(dl)
            .where(
                dl.error_class == cell.c.c,
                dl.signature == cell.c.s,
                dl.status == cell.c.st,
                dl.attempts == cell.c.a,
                *where,
            )
            .scalar_subquery()
        )
        stmt = select(cell.c.c, cell.c.s, cell.c.st, cell.c.a, n)
        for c, s, st, a, count in conn.execute(stmt):
            if count:
                out[(c, s, st, int(a))] = int(count)
    return out


def _first_last_seen(
    conn: Connection,
    keys: Iterable[tuple[str, str]],
    f: DeadLetterFilter | None,
    since: dt.date | None,
) -> dict[tuple[str, str], tuple[dt.datetime | None, dt.datetime | None]]:
    """First and last failure per group: one index lookup each (``ix_dl_class_sig_first``
    and ``ix_dl_class_sig_last``)."""
    dl = DeadLetter
    where = _scope(f, since)
    out = {}
    for cls, sig in keys:
        cond = [dl.error_class == cls, dl.signature == sig, *where]
        first = conn.execute(select(func.min(dl.first_failed_at)).where(*cond)).scalar()
        last = conn.execute(select(func.max(dl.last_failed_at)).where(*cond)).scalar()
        out[(cls, sig)] = (_as_datetime(first), _as_datetime(last))
    return out


def cube_totals(
    cells: dict[tuple[str, str, str, int], int],
) -> tuple[dict[str, dict[str, int]], dict[int, dict[str, int]]]:
    """Roll the cube up: (class -> status -> n) and (attempts -> status -> n)."""
    by_cs: dict[str, dict[str, int]] = {}
    by_as: dict[int, dict[str, int]] = {}
    for (cls, _sig, status, att), n in cells.items():
        by_cs.setdefault(cls, {})[status] = by_cs.get(cls, {}).get(status, 0) + n
        by_as.setdefault(att, {})[status] = by_as.get(att, {}).get(status, 0) + n
    return by_cs, dict(sorted(by_as.items()))


def _status_totals(by_class_status: dict[str, dict[str, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for statuses in by_class_status.values():
        for st, n in statuses.items():
            totals[st] = totals.get(st, 0) + n
    return totals


def compute_trends(
    ws: Workspace,
    f: DeadLetterFilter | None = None,
    *,
    since: dt.date | None = None,
    rule: SpikeRule | None = None,
    top: int | None = 20,
) -> Trends:
    """The whole Trends picture. ``f`` is the table's filter: only the attempts histogram
    follows it (without one, it covers every dead letter); the other charts show the whole
    store from ``since`` (a UTC day) on."""
    rule = rule or SpikeRule()
    with ws.store.connect() as conn:
        cells = _cube(conn, _scope(None, since), STATUSES)
        by_class_status, by_attempts_status = cube_totals(cells)
        if f is None:
            hist = tuple(
                AttemptsBucket(a, sum(st.values()), st.get(Status.PARKED.value, 0))
                for a, st in by_attempts_status.items()
            )
        else:
            hist = attempts_histogram(conn, f)
        days = failures_per_day(conn, since=since)
        batches = per_batch(conn, since)
        status_now: dict[str, int] | None = None
        if since is None:  # the cube covers the whole store: its totals are today's
            status_now = _status_totals(by_class_status)
        queue = backlog(conn, since, days, status_now)
        groups = error_groups(conn, since=since, top=top, cells=cells)
    checks = check_spikes([b.rate for b in batches], rule.factor, rule.window, rule.min_baseline)
    return Trends(
        since,
        hist,
        days,
        batches,
        queue,
        groups,
        tuple(checks),
        rule,
        by_class_status,
        by_attempts_status,
    )


# -- the numbers behind each chart, as tables (CSV export, the report) ---------------------
Table = tuple[list[str], list[list[Any]]]

CHART_TITLES = {
    "failures_per_day": "Quarantined per day, by class",
    "failures_per_batch": "Quarantined per batch, by class",
    "backlog": "Backlog: open vs resolved",
    "quarantine_rate": "Quarantine rate per batch",
    "attempts": "Attempts",
    "error_groups": "Error groups",
}


def chart_tables(t: Trends) -> dict[str, Table]:
    """Each chart's data as (headers, rows) of plain values, named as in CHART_TITLES."""
    rate_rows = [
        [
            b.batch_id,
            b.source_name,
            b.transform,
            _iso(b.started_at),
            b.rows,
            b.quarantined,
            round(b.rate, 6),
            None if c.baseline is None else round(c.baseline, 6),
            None if c.threshold is None else round(c.threshold, 6),
            c.is_spike,
        ]
        for b, c in zip(t.per_batch, t.checks, strict=True)
    ]
    return {
        "failures_per_day": (
            ["day", *CLASSES, "total"],
            [[d.day.isoformat(), *(d.by_class[c] for c in CLASSES), d.total] for d in t.per_day],
        ),
        "failures_per_batch": (
            ["batch_id", "source_name", "transform", "started_at", "rows", "quarantined", *CLASSES],
            [
                [
                    b.batch_id,
                    b.source_name,
                    b.transform,
                    _iso(b.started_at),
                    b.rows,
                    b.quarantined,
                    *(b.by_class.get(c, 0) for c in CLASSES),
                ]
                for b in t.per_batch
            ],
        ),
        "backlog": (
            ["day", "open", "resolved", "arrived", "resolved_on_day", "discarded_on_day"],
            [
                [
                    p.day.isoformat(),
                    p.open,
                    p.resolved,
                    p.arrived,
                    p.resolved_on_day,
                    p.discarded_on_day,
                ]
                for p in t.backlog
            ],
        ),
        "quarantine_rate": (
            [
                "batch_id",
                "source_name",
                "transform",
                "started_at",
                "rows",
                "quarantined",
                "rate",
                "baseline",
                "threshold",
                "spike",
            ],
            rate_rows,
        ),
        "attempts": (
            ["attempts", "dead_letters", "parked"],
            [[b.attempts, b.total, b.parked] for b in t.attempts],
        ),
        "error_groups": (
            ["signature", "class", "count", *STATUSES, "first_seen", "last_seen"],
            [
                [
                    g.signature,
                    g.error_class,
                    g.count,
                    *(g.by_status.get(s, 0) for s in STATUSES),
                    _iso(g.first_seen),
                    _iso(g.last_seen),
                ]
                for g in t.groups
            ],
        ),
    }


def write_csv(path: Any, table: Table) -> None:
    """One table as CSV (UTF-8, a header row; spreadsheet-safe for leading = + - @)."""
    import csv

    headers, rows = table
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(headers)
        for row in rows:
            w.writerow([_cell(v) for v in row])


def _cell(v: Any) -> Any:
    # A signature such as "=cmd|…" must not run as a formula in a spreadsheet.
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@"):
        return "'" + v
    return "" if v is None else v


# -- the headline a report opens with --------------------------------------------------------
@dataclass(frozen=True)
class Headline:
    """Better or worse, which cause, and did a release break something: in numbers."""

    dead_letters: int  # from ``since`` on (all time without it)
    by_status: dict[str, int]
    open_now: int  # open or parked, whole store
    open_week_ago: int | None  # None: the chart does not reach back a week
    arrived_last_7: int  # quarantined in the last 7 days of the chart
    arrived_previous_7: int | None
    top_group: ErrorGroup | None
    spike: Spike | None  # the banner's spike, if any

    @property
    def backlog_change(self) -> int | None:
        return None if self.open_week_ago is None else self.open_now - self.open_week_ago

    def direction(self) -> str:
        """One sentence on the backlog: "falling", "rising" or "flat", with the numbers."""
        change = self.backlog_change
        if change is None:
            return f"{self.open_now:,} dead letters wait for a person."
        word = "rising" if change > 0 else "falling" if change < 0 else "flat"
        return (
            f"The backlog is {word}: {self.open_now:,} dead letters wait for a person, "
            f"{change:+,} in 7 days."
        )


def headline(t: Trends) -> Headline:
    backlog_now = t.backlog[-1].open if t.backlog else 0
    week_ago = t.backlog[-8].open if len(t.backlog) >= 8 else None
    per_day = [d.total for d in t.per_day]
    last_7 = sum(per_day[-7:])
    previous_7 = sum(per_day[-14:-7]) if len(per_day) >= 14 else None
    by_status = _status_totals(t.by_class_status)
    return Headline(
        dead_letters=sum(by_status.values()),
        by_status=by_status,
        open_now=backlog_now,
        open_week_ago=week_ago,
        arrived_last_7=last_7,
        arrived_previous_7=previous_7,
        top_group=t.groups[0] if t.groups else None,
        spike=t.banner_spike(),
    )


def banner_spike(
    ws: Workspace, *, since: dt.date | None = None, rule: SpikeRule | None = None
) -> Spike | None:
    """Only the spike the banner names: the batch counters and the rule, no dead letters
    counted. What the window asks while the Trends tab is not on screen."""
    rule = rule or SpikeRule()
    with ws.store.connect() as conn:
        batches = per_batch(conn, since)
    checks = check_spikes([b.rate for b in batches], rule.factor, rule.window, rule.min_baseline)
    return Trends(since, (), (), batches, (), (), tuple(checks), rule).banner_spike()
