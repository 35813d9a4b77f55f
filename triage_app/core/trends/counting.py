"""Counting dead letters for Trends: every number is a SQL aggregate; no dead letter is
loaded.

The summary first: ``dead_letter_counts`` holds the rows counted by (class, signature,
status, attempts, first-failure day, batch, transform), kept by every write
(``db/counts.py``), so the cube, the attempts histogram, failures per day, the backlog's
arrivals and the status totals are sums over its cells: their cost grows with the cells,
not the rows. A filter the cells cannot answer (``search``, ``ids``: ``cell_clauses``)
counts the rows as below. The backlog's resolved and discarded per day are times the cells
do not keep: counted on ``ix_dl_resolved`` and the audit events' indexes.

Speed: with a million dead letters, a GROUP BY that SQLite must sort (a day computed from a
timestamp) takes most of a second. Counting index ranges does not sort: one statement of
correlated ``count(*)`` subqueries, one per cell (a day and a class, or a group, a status
and an attempt count), walks each index once. Cells are enumerated first, cheaply: days
from the min and max timestamps, groups and attempt counts with DISTINCT on an index
prefix (which SQLite answers by skipping through the index).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Integer,
    String,
    and_,
    column,
    func,
    literal,
    select,
    values,
)
from sqlalchemy.sql.expression import ColumnElement

from triage_app.core.clock import day_start
from triage_app.core.db import (
    INSTANT,
    AuditEvent,
    DeadLetter,
    DeadLetterCount,
    signature_texts,
)
from triage_app.core.deadletters import DeadLetterFilter, cell_clauses, filter_clauses
from triage_app.core.trends.model import AttemptsBucket, BacklogPoint, DayCount
from triage_app.core.trends.purged import PurgedBack
from triage_app.core.vocabulary import ALL, CLASSES, WAITING, AuditAction, Status

STATUSES: tuple[str, ...] = tuple(s.value for s in Status)
# Cells per statement: below SQLite's 2,000 result columns and 32,766 bound parameters.
_CELLS_PER_STATEMENT = 500
_GROUP_BY_ABOVE = 20_000  # more cube cells than this: one GROUP BY pass is cheaper


def statuses_of(f: DeadLetterFilter | None) -> tuple[str, ...]:
    """The statuses a filter covers: one, or all four."""
    return STATUSES if f is None or f.status in (ALL, None) else (f.status,)


def _days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]


def _count_per_day(
    conn: Connection,
    ts: Column[Any],
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
    table = ts.table  # the table the timestamp column belongs to
    for start in range(0, len(days), _CELLS_PER_STATEMENT):
        chunk = days[start : start + _CELLS_PER_STATEMENT]
        # A CTE, not (VALUES …) AS days(a, b): SQLite has no column list on a derived table.
        bounds = (
            values(column("a", INSTANT), column("b", INSTANT), name="days")
            .data([(day_start(d), day_start(d + dt.timedelta(days=1))) for d in chunk])
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
    if f.status == Status.OPEN:
        statuses: Sequence[str] = WAITING
    else:
        statuses = statuses_of(f)
    totals: dict[int, list[int]] = {}
    for (_c, _s, status, att), n in cube_for(conn, f.with_(status=ALL), None, statuses).items():
        bucket = totals.setdefault(att, [0, 0])
        bucket[0] += n
        if status == Status.PARKED:
            bucket[1] += n
    return tuple(AttemptsBucket(a, t, p) for a, (t, p) in sorted(totals.items()))


def failures_per_day(
    conn: Connection, f: DeadLetterFilter | None = None, since: dt.date | None = None
) -> tuple[DayCount, ...]:
    """Dead letters by the UTC day of their first failure, by class."""
    cells = summary_where(f, since)
    if cells is not None:
        t = DeadLetterCount
        stmt = select(t.day, t.error_class, func.sum(t.n)).where(*cells)
        per: dict[dt.date, dict[str, int]] = {}
        for d, c, n in conn.execute(stmt.group_by(t.day, t.error_class)):
            day = _as_date(d)
            assert day is not None
            per.setdefault(day, {})[c] = int(n)
        if not per:
            return ()
        return tuple(
            DayCount(d, {c: per.get(d, {}).get(c, 0) for c in CLASSES})
            for d in _days(min(per), max(per))
        )
    dl = DeadLetter
    where = filter_clauses(f) if f is not None else []
    if since is not None:
        where.append(dl.first_failed_at >= day_start(since))
    lo, hi = _min_max(conn, dl.first_failed_at, where)
    first, last = _as_date(lo), _as_date(hi)
    if first is None or last is None:
        return ()
    days = _days(first, last)
    counts = _count_per_day(conn, dl.first_failed_at, days, where, (dl.error_class, CLASSES))
    return tuple(
        DayCount(d, dict(zip(CLASSES, c, strict=True))) for d, c in zip(days, counts, strict=True)
    )


def _discarded_at() -> Any:
    return AuditEvent.at, [AuditEvent.action == AuditAction.DISCARDED]


def _reopened_from_discarded() -> Any:
    """``reopened`` events that took a row out of ``discarded``: its status change just
    before (one seek along ``ix_event_dl``; reopens are few) was a discard."""
    ev, prior = AuditEvent, AuditEvent.__table__.alias("prior")
    status_changes = (AuditAction.DISCARDED, AuditAction.PARKED, AuditAction.REOPENED)
    before = (
        select(prior.c.action)
        .where(
            prior.c.dead_letter_id == ev.dead_letter_id,
            prior.c.id < ev.id,
            prior.c.action.in_([a.value for a in status_changes]),
        )
        .order_by(prior.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    return ev.at, [ev.action == AuditAction.REOPENED, before == AuditAction.DISCARDED.value]


def backlog(
    conn: Connection,
    since: dt.date | None = None,
    arrivals: Sequence[DayCount] | None = None,
    status_now: dict[str, int] | None = None,
    purged: PurgedBack | None = None,
    f: DeadLetterFilter | None = None,
) -> tuple[BacklogPoint, ...]:
    """The queue at the end of each day: open (open or parked) and resolved (all time).

    Computed backwards from today's counts, so only days from ``since`` are counted:
    open at the end of day D = open now - arrived after D + resolved after D + discarded
    after D - reopened from discarded after D. (A resolved dead letter never reopens.)
    ``arrivals`` and
    ``status_now`` (dead letters by status, whole store) save counting them again; both
    are the rows the store holds. ``purged``: rows a retention purge removed, added back
    on the days they arrived and were closed, so that a purge changes no day's numbers.

    ``f``: only the dead letters the table's filter chooses (its status aside: the backlog
    is statuses over time); the purged rows are not added back then, as no filter can
    choose among rows that are gone.
    """
    dl = DeadLetter
    on_rows: list[ColumnElement[bool]] = []
    on_events: list[ColumnElement[bool]] = []
    if f is not None:
        f = f.with_(status=ALL)
        purged = PurgedBack()
        on_rows = filter_clauses(f)
        # An event counts when its dead letter is one the filter chooses (a seek each).
        on_events = [select(dl.id).where(dl.id == AuditEvent.dead_letter_id, *on_rows).exists()]
    purged = purged or PurgedBack()
    now = status_now
    if now is None:
        now = _status_now(conn, f)
    ev_at, ev_where = _discarded_at()
    ev_where = [*ev_where, *on_events]
    start_bound = [] if since is None else [day_start(since)]
    t = DeadLetterCount
    on_cells = summary_where(f, since)
    day_bounds = (
        _min_max(conn, t.day, on_cells)
        if on_cells is not None
        else tuple(map(_as_date, _min_max(conn, dl.first_failed_at, scope(f, since))))
    )
    bounds = [
        day_bounds,
        _min_max(conn, dl.resolved_at, [*on_rows, *(dl.resolved_at >= b for b in start_bound)]),
        _min_max(conn, ev_at, [*ev_where, *(ev_at >= b for b in start_bound)]),
        # Any reopen (an index range): its day must be counted even if nothing else
        # happened that day.
        _min_max(
            conn,
            ev_at,
            [
                AuditEvent.action == AuditAction.REOPENED,
                *on_events,
                *(ev_at >= b for b in start_bound),
            ],
        ),
    ]
    extra_days = purged.days()
    firsts = [d for d in (_as_date(lo) for lo, _ in bounds) if d is not None] + [*extra_days]
    lasts = [d for d in (_as_date(hi) for _, hi in bounds) if d is not None] + [*extra_days]
    if not firsts:
        return ()
    days = _days(since or min(firsts), max(lasts))
    known = {a.day: a.total for a in arrivals or ()}
    if arrivals is not None and set(known) <= set(days):
        arrived = [known.get(d, 0) for d in days]  # counted already, by failures_per_day
    else:
        per_day = {a.day: a.total for a in failures_per_day(conn, f, days[0])}
        arrived = [per_day.get(d, 0) for d in days]
    resolved = [c[0] for c in _count_per_day(conn, dl.resolved_at, days, on_rows)]
    discarded = [c[0] for c in _count_per_day(conn, ev_at, days, ev_where)]
    back_at, back_where = _reopened_from_discarded()
    reopened = [c[0] for c in _count_per_day(conn, back_at, days, [*back_where, *on_events])]
    for i, d in enumerate(days):
        arrived[i] += purged.backlog_arrived.get(d, 0)
        resolved[i] += purged.resolved.get(d, 0)
        discarded[i] += purged.discarded.get(d, 0)
    open_now = sum(now.get(s, 0) for s in WAITING)
    # Resolved all time: the purged ones were resolved too.
    resolved_now = now.get(Status.RESOLVED, 0) + purged.resolved_total
    points: list[BacklogPoint] = []
    open_, res = open_now, resolved_now
    for i in range(len(days) - 1, -1, -1):  # from today backwards
        points.append(BacklogPoint(days[i], open_, res, arrived[i], resolved[i], discarded[i]))
        open_ += -arrived[i] + resolved[i] + discarded[i] - reopened[i]
        res -= resolved[i]
    return tuple(reversed(points))


def _status_now(conn: Connection, f: DeadLetterFilter | None) -> dict[str, int]:
    """Waiting and resolved dead letters now (of ``f``, its status aside): from the
    summary's cells, or the rows for a filter the cells cannot answer."""
    wanted = (*WAITING, Status.RESOLVED)
    on_cells = cell_clauses(f)
    if on_cells is not None:
        t = DeadLetterCount
        stmt = select(t.status, func.sum(t.n)).where(t.status.in_(wanted), *on_cells)
        return {s: int(n) for s, n in conn.execute(stmt.group_by(t.status))}
    assert f is not None  # every filter's cells but a search's or chosen ids'
    dl = DeadLetter
    stmt = select(dl.status, func.count()).where(dl.status.in_(wanted), *filter_clauses(f))
    return {s: int(n) for s, n in conn.execute(stmt.group_by(dl.status))}


def _in_cell(cell: Any) -> list[ColumnElement[bool]]:
    """The dead letters of one cube cell of ``_cells_cte`` (rows counted: a filter the
    summary's cells cannot answer)."""
    dl = DeadLetter
    return [
        dl.error_class == cell.c.c,
        dl.signature_id == cell.c.s,
        dl.status == cell.c.st,
        dl.attempts == cell.c.a,
    ]


def _cells_cte(chunk: Sequence[tuple[str, int, str, int]]) -> Any:
    """Cube cells (class, signature id, status, attempts) as a table to correlate with."""
    return (
        values(
            column("c", String()),
            column("s", Integer()),
            column("st", String()),
            column("a", Integer()),
            name="cells",
        )
        .data(list(chunk))
        .cte("cells")
    )


def scope(f: DeadLetterFilter | None, since: dt.date | None) -> list[ColumnElement[bool]]:
    where = filter_clauses(f) if f is not None else []
    if since is not None:
        where.append(DeadLetter.first_failed_at >= day_start(since))
    return where


def summary_where(
    f: DeadLetterFilter | None, since: dt.date | None
) -> list[ColumnElement[bool]] | None:
    """``f`` and ``since`` over the summary's cells; None when the cells cannot answer
    ``f`` (its rows are counted then)."""
    where = cell_clauses(f)
    if where is not None and since is not None:
        where.append(DeadLetterCount.day >= since)
    return where


def cube_for(
    conn: Connection,
    f: DeadLetterFilter | None,
    since: dt.date | None,
    statuses: Sequence[str],
    earliest: dict[tuple[str, str, str, int], dt.datetime | None] | None = None,
) -> dict[tuple[str, str, str, int], int]:
    """The cube of the dead letters ``f`` chooses from ``since`` on: summed from the
    summary's cells when they can answer ``f`` (``earliest`` is then left as it is: the
    cells keep days, not times; ``error_groups`` seeks the groups it shows), else counted
    from the rows (``cube``)."""
    where = summary_where(f, since)
    if where is None:
        return cube(conn, scope(f, since), statuses, earliest)
    t = DeadLetterCount
    stmt = (
        select(t.error_class, t.signature_id, t.status, t.attempts, func.sum(t.n))
        .where(t.status.in_(statuses), *where)
        .group_by(t.error_class, t.signature_id, t.status, t.attempts)
    )
    rows = conn.execute(stmt).all()
    text = signature_texts(conn, {s for _c, s, _st, _a, _n in rows})
    return {(c, text[s], st, int(a)): int(n) for c, s, st, a, n in rows if n}


def cube(
    conn: Connection,
    where: Sequence[ColumnElement[bool]],
    statuses: Sequence[str],
    earliest: dict[tuple[str, str, str, int], dt.datetime | None] | None = None,
) -> dict[tuple[str, str, str, int], int]:
    """Dead letters counted by (class, signature, status, attempts); zero cells left out.
    With ``earliest``, each cell's first failure is put there too, on the same walk.

    The rows counted, for a filter the summary's cells cannot answer (a search, ids):
    correlated counts per cell, or one GROUP BY past ``_GROUP_BY_ABOVE`` cells. The cells
    come back keyed by the signature's text.
    """
    dl = DeadLetter
    pairs = conn.execute(
        select(dl.error_class, dl.signature_id).distinct().order_by(dl.error_class, dl.signature_id)
    ).all()
    attempts = list(conn.execute(select(dl.attempts).distinct().order_by(dl.attempts)).scalars())
    keys = [(c, s, st, a) for c, s in pairs for st in statuses for a in attempts]
    text = signature_texts(conn, {s for _c, s in pairs})
    out: dict[tuple[str, str, str, int], int] = {}
    if len(keys) > _GROUP_BY_ABOVE:
        first = func.min(dl.first_failed_at) if earliest is not None else literal(None)
        stmt = select(dl.error_class, dl.signature_id, dl.status, dl.attempts, func.count(), first)
        stmt = stmt.where(dl.status.in_(statuses), *where)
        stmt = stmt.group_by(dl.error_class, dl.signature_id, dl.status, dl.attempts)
        rows: Iterable[Any] = conn.execute(stmt)
    else:
        rows = _counted_cells(conn, keys, where, with_first=earliest is not None)
    for c, s, st, a, n, when in rows:
        if n:
            out[(c, text[s], st, int(a))] = int(n)
            if earliest is not None:
                earliest[(c, text[s], st, int(a))] = _as_datetime(when)
    return out


def _counted_cells(
    conn: Connection,
    keys: Sequence[tuple[str, int, str, int]],
    where: Sequence[Any],
    with_first: bool,
) -> Iterable[Any]:
    """Each cell with its count and its first failure (NULL unless ``with_first``), a few
    hundred cells to a statement of correlated subqueries."""
    dl = DeadLetter
    for start in range(0, len(keys), _CELLS_PER_STATEMENT):
        cell = _cells_cte(keys[start : start + _CELLS_PER_STATEMENT])
        n = select(func.count()).select_from(dl).where(*_in_cell(cell), *where)
        first: Any = literal(None)
        if with_first:
            first = select(func.min(dl.first_failed_at)).where(*_in_cell(cell), *where)
            first = first.scalar_subquery()
        stmt = select(cell.c.c, cell.c.s, cell.c.st, cell.c.a, n.scalar_subquery(), first)
        yield from conn.execute(stmt)


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


def status_totals(by_class_status: dict[str, dict[str, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for statuses in by_class_status.values():
        for st, n in statuses.items():
            totals[st] = totals.get(st, 0) + n
    return totals
