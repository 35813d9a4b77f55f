"""Error groups: the dead letters of one signature and class, one cause fixed once; and
working them as a team (issue 13): each group can have an owner, tags ("needs source fix",
"waiting on vendor", anything) and a note, beside its counts and the age of its oldest open
row.

``ErrorGroup`` is the one value the command line (``groups``, ``stats``), Trends and the
window's groups table all show, built by the one query ``error_groups``; ``sort_groups``
orders them by any ``GroupSort`` (``vocabulary.py``).

A change is guarded as a dead letter's is: by the version its steward saw (``if_version``),
refused otherwise with who changed the group and when; and each change appends an audit
event (``group``, about the store rather than one row) saying what changed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Integer,
    Row,
    String,
    column,
    func,
    or_,
    select,
    tuple_,
    update,
    values,
)
from sqlalchemy.sql.expression import ColumnElement

from triage_app.core.clock import day_start, iso, utcnow
from triage_app.core.db import (
    INSTANT,
    Batch,
    DeadLetter,
    DeadLetterCount,
    ErrorGroupNotes,
    Signature,
    Workspace,
    actor_for,
    event_insert,
    signature_ids,
    signature_texts,
    summary,
)
from triage_app.core.deadletters.filters import DeadLetterFilter, cell_clauses, filter_clauses
from triage_app.core.deadletters.said import utc_time
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _
from triage_app.core.vocabulary import ALL, GROUP_SORTS, NOBODY, AuditAction, GroupSort, Status

# Offered when tagging, beside the tags already in use: the two states a group waits in.
SUGGESTED_TAGS = ("needs source fix", "waiting on vendor")
UNCHANGED: Any = object()  # set_group: leave the owner as it is

_TREND_MARKS = {"growing": "▲", "steady": "=", "slowing": "▼", "stopped": "■", "quiet": ""}
# A cube cell, as Trends counts it: (class, signature, status, attempts).
Cell = tuple[str, str, str, int]
_ANY = "*"  # a walk to a group's first row of any status (``_first_failures``)
_PER_STATEMENT = 500  # groups per VALUES statement: far below any driver's parameter limit
# More groups than this to seek: building a VALUES statement (about 0.1 ms a row in
# SQLAlchemy) costs more than listing the groups with a DISTINCT on the index.
_SEEKS_ABOVE = 4_000


@dataclass(frozen=True)
class ErrorGroup:
    """Dead letters sharing one signature and class: one cause, fixed once; with who works
    on it. ``groups --json`` (``to_json``) and ``stats --json`` (``to_trends_json``) are two
    views of it."""

    signature: str
    error_class: str
    count: int
    by_status: dict[str, int]
    first_seen: dt.datetime | None
    last_seen: dt.datetime | None
    owner: str | None = None  # who works on it
    tags: tuple[str, ...] = ()
    note: str = ""
    version: int = 0  # of its owner, tags and note (0: never touched); a change names it
    oldest_open: dt.datetime | None = None  # the first failure of its oldest open row
    # Since when and which release: the batch its first row came in, that batch's source
    # file and the transform version the row went through.
    first_batch: str | None = None
    first_source: str | None = None
    first_transform: str | None = None
    # Is it still growing: its rows that first failed in the 24 h before the groups were
    # counted, and in the 24 h before those.
    last_24h: int = 0
    previous_24h: int = 0

    @property
    def open(self) -> int:
        return self.by_status.get(Status.OPEN, 0)

    @property
    def resolved(self) -> int:
        return self.by_status.get(Status.RESOLVED, 0)

    @property
    def trend(self) -> str:
        """``growing`` (more rows in the last 24 h than the 24 h before), ``steady``,
        ``slowing``, ``stopped`` (none in the last 24 h after some before) or ``quiet``."""
        last, before = self.last_24h, self.previous_24h
        if last > before:
            return "growing"
        if last and last == before:
            return "steady"
        if last:
            return "slowing"
        return "stopped" if before else "quiet"

    @property
    def trend_mark(self) -> str:
        """The trend as one mark, as the window and the report show it: ▲ = ▼ ■ ("" for
        quiet)."""
        return _TREND_MARKS[self.trend]

    def trend_said(self) -> str:
        """``growing: +12 in 24 h (3 the 24 h before)``; ``quiet: none in 48 h``."""
        trend = self.trend
        if trend == "quiet":
            return _("quiet: none in 48 h")
        text = {
            "growing": _("growing: +{last} in 24 h ({before} the 24 h before)"),
            "steady": _("steady: +{last} in 24 h ({before} the 24 h before)"),
            "slowing": _("slowing: +{last} in 24 h ({before} the 24 h before)"),
            "stopped": _("stopped: +{last} in 24 h ({before} the 24 h before)"),
        }[trend]
        return text.format(last=format_int(self.last_24h), before=format_int(self.previous_24h))

    def first_said(self) -> str:
        """Since when and which release: ``1 Mar 2026 02:00, batch 0123abcd
        (night_1.jsonl), pesanan@2`` (UTC)."""
        if self.first_seen is None:
            return ""
        parts = [utc_time(self.first_seen)]
        if self.first_batch and self.first_source:
            parts.append(
                _("batch {batch} ({source})").format(
                    batch=self.first_batch[:8], source=self.first_source
                )
            )
        elif self.first_batch:
            parts.append(_("batch {batch}").format(batch=self.first_batch[:8]))
        if self.first_transform:
            parts.append(self.first_transform)
        return ", ".join(parts)

    def age(self, now: dt.datetime) -> dt.timedelta | None:
        """How long its oldest open row has waited; None when none is open."""
        return None if self.oldest_open is None else now - self.oldest_open

    def matches(self, owner: str | None = None, tag: str | None = None, text: str = "") -> bool:
        """Whether the group is ``owner``'s (``NOBODY``: nobody's), tagged ``tag``, and
        has ``text`` (any case) in its signature, class, owner, tags or note."""
        if owner is not None and self.owner != (None if owner == NOBODY else owner):
            return False
        if tag is not None and tag not in self.tags:
            return False
        needle = text.strip().casefold()
        if not needle:
            return True
        said = (self.signature, self.error_class, self.owner or "", *self.tags, self.note)
        return any(needle in s.casefold() for s in said)

    def to_json(self, now: dt.datetime | None = None) -> dict[str, Any]:
        """The group as ``groups --json`` and ``group --json`` print it: the team's view."""
        age = self.age(now or utcnow())
        return {
            "signature": self.signature,
            "class": self.error_class,
            "count": self.count,
            "open": self.open,
            "oldest_open": iso(self.oldest_open) or None,
            "oldest_open_days": None if age is None else round(age.total_seconds() / 86400, 1),
            "owner": self.owner,
            "tags": list(self.tags),
            "note": self.note,
            "version": self.version,
            **self._history_json(),
        }

    def _history_json(self, growth: bool = True) -> dict[str, Any]:
        """Since when, which release, and (``growth``) still growing. ``stats --json``
        leaves the growth out: its cache is kept while the store does not change, and the
        last 24 h move on with the clock."""
        said: dict[str, Any] = {
            "first_seen": iso(self.first_seen) or None,
            "first_batch": self.first_batch,
            "first_source": self.first_source,
            "first_transform": self.first_transform,
        }
        if growth:
            said.update(last_24h=self.last_24h, previous_24h=self.previous_24h, trend=self.trend)
        return said

    def to_trends_json(self) -> dict[str, Any]:
        """The group as ``stats --json`` carries it under ``trends``: its history."""
        return {
            "signature": self.signature,
            "class": self.error_class,
            "count": self.count,
            "open": self.open,
            "resolved": self.resolved,
            "by_status": self.by_status,
            "last_seen": iso(self.last_seen) or None,
            "oldest_open": iso(self.oldest_open) or None,
            "owner": self.owner,
            "tags": list(self.tags),
            "note": self.note,
            **self._history_json(growth=False),
        }


# -- order ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Order:
    value: Callable[[ErrorGroup], Any]  # None: the group has none; it goes last either way
    most_first: bool = False  # how ``groups --sort`` reads it when no direction is asked
    # Equal values: in this order (whichever the direction); without one, as given.
    ties: Callable[[ErrorGroup], Any] | None = None


_ORDERS: dict[GroupSort, _Order] = {
    GroupSort.OPEN: _Order(lambda g: g.open, most_first=True),
    GroupSort.COUNT: _Order(lambda g: g.count, most_first=True),
    # The longest wait first: the oldest open row's first failure.
    GroupSort.OLDEST: _Order(lambda g: g.oldest_open, ties=lambda g: (g.signature, g.error_class)),
    # A to Z as a person reads names ("ani" before "Budi"), as the window always sorted them;
    # ties: the same name as written, then most open rows.
    GroupSort.OWNER: _Order(
        lambda g: g.owner.casefold() if g.owner else None,
        ties=lambda g: (g.owner or "", -g.open, g.signature, g.error_class),
    ),
    GroupSort.SIGNATURE: _Order(lambda g: g.signature),
    GroupSort.CLASS: _Order(lambda g: g.error_class),
    GroupSort.RESOLVED: _Order(lambda g: g.resolved, most_first=True),
    GroupSort.FIRST_SEEN: _Order(lambda g: g.first_seen),
    GroupSort.LAST_SEEN: _Order(lambda g: g.last_seen),
    GroupSort.TAGS: _Order(lambda g: ", ".join(g.tags).casefold() or None),
    GroupSort.NOTE: _Order(lambda g: g.note.casefold() or None),
    GroupSort.GROWTH: _Order(lambda g: (g.last_24h - g.previous_24h, g.last_24h), most_first=True),
}


def sort_groups(
    groups: Iterable[ErrorGroup], by: str, descending: bool | None = None
) -> tuple[ErrorGroup, ...]:
    """``groups`` ordered by ``by`` (a ``GroupSort``): ascending or ``descending``, or, when
    not said, as ``groups --sort`` reads it (most open, oldest, largest, owner A to Z).
    Groups without a value (no open row, no owner) come last either way; groups with equal
    values keep the order they came in (for ``oldest`` and ``owner``: by signature, and by
    the most open rows first)."""
    try:
        order = _ORDERS[GroupSort(by)]
    except ValueError:
        raise TriageError(
            _("unknown sort {sort}: use one of {sorts}").format(
                sort=repr(by), sorts=", ".join(GroupSort)
            )
        ) from None
    listed = list(groups)
    if order.ties is not None:
        listed.sort(key=order.ties)
    present = [g for g in listed if order.value(g) is not None]
    empty = [g for g in listed if order.value(g) is None]
    reverse = order.most_first if descending is None else descending
    return (*sorted(present, key=order.value, reverse=reverse), *empty)


# -- the query -----------------------------------------------------------------------------
def error_groups(
    source: Workspace | Connection,
    f: DeadLetterFilter | None = None,
    since: dt.date | None = None,
    *,
    signature: str | None = None,
    owner: str | None = None,
    tag: str | None = None,
    sort: str = GroupSort.COUNT,
    top: int | None = None,
    cells: dict[Cell, int] | None = None,
    earliest: dict[Cell, dt.datetime | None] | None = None,
    now: dt.datetime | None = None,
) -> tuple[ErrorGroup, ...]:
    """The error groups of the dead letters ``f`` chooses (default: all of them) that first
    failed from ``since`` (a UTC day) on: count by status, first and last failure, the
    oldest open row, owner, tags, note and version. Only the group of ``signature``,
    ``owner``'s (``NOBODY``: nobody's) or those tagged ``tag``, when given; sorted by
    ``sort`` (one of ``GROUP_SORTS``; default largest first); ``top`` keeps the first few.
    Each group says where its first row came from (batch, source, version) and its new
    rows in the 24 h before ``now`` (default: the clock) and the 24 h before those.

    ``cells`` and ``earliest``: Trends' cube over the same dead letters and each cell's
    first failure, when counted already; otherwise the summary's cells (``counts``), or the
    rows for a filter the cells cannot answer (a search, ids), count them here."""
    if sort not in GROUP_SORTS:
        raise TriageError(
            _("unknown sort {sort}: use one of {sorts}").format(
                sort=repr(sort), sorts=", ".join(GROUP_SORTS)
            )
        )
    if isinstance(source, Workspace):
        with source.store.connect() as conn:
            return error_groups(
                conn,
                f,
                since,
                signature=signature,
                owner=owner,
                tag=tag,
                sort=sort,
                top=top,
                cells=cells,
                earliest=earliest,
                now=now,
            )
    conn = source
    now = now or utcnow()
    if signature is not None:  # its rows alone, along the signature's index
        f = (f or DeadLetterFilter(status=ALL)).with_(signature=signature)
    where = filter_clauses(f) if f is not None else []
    if since is not None:
        where.append(DeadLetter.first_failed_at >= day_start(since))
    # Counts from Trends' cube or the summary's cells; first failures from the cube's walk
    # of the rows, when it made one, else sought below for the groups it takes.
    timed = bool(earliest) if cells is not None else False
    on_cells = _cell_where(f, since)
    if cells is not None:
        known = earliest or {}
        counted = _tally(
            (c, s, st, n, known.get((c, s, st, a))) for (c, s, st, a), n in cells.items()
        )
    elif on_cells is not None:
        counted = _tally(_grouped_cells(conn, on_cells))
    else:  # a filter the cells cannot answer (search, ids): the rows, with their times
        counted = _tally(_grouped(conn, where))
        timed = True
    notes = _group_notes(conn)
    nobody: tuple[str | None, tuple[str, ...], str, int] = (None, (), "", 0)

    def group(
        key: tuple[str, str],
        last_seen: dt.datetime | None = None,
        first: _FirstRow | None = None,
        recent: tuple[int, int] = (0, 0),
    ) -> ErrorGroup:
        t = counted[key]
        cls, sig = key
        total = sum(t.by_status.values())
        owned = notes.get(sig, nobody)
        first = first or _FirstRow()
        return ErrorGroup(
            sig,
            cls,
            total,
            t.by_status,
            t.first,
            last_seen,
            *owned,
            oldest_open=t.oldest_open,
            first_batch=first.batch_id,
            first_source=first.source_name,
            first_transform=first.transform,
            last_24h=recent[0],
            previous_24h=recent[1],
        )

    recent = _recent_arrivals(conn, where, on_cells, now)
    # As counted: largest first, then by signature.
    keys = sorted(counted, key=lambda k: (-sum(counted[k].by_status.values()), k[1], k[0]))
    if not timed and sort in (GroupSort.OLDEST, GroupSort.FIRST_SEEN):
        _first_failures(conn, counted, keys, where, on_cells)  # ordered by them: every group's
        timed = True
    if owner is not None or tag is not None or sort != GroupSort.COUNT:
        # Narrowed or ordered by what the group says: the groups without their last
        # failure (sought below, for the groups kept) to choose from.
        drafts = [group(k, recent=recent.get(k, (0, 0))) for k in keys]
        drafts = [g for g in drafts if g.matches(owner, tag)]
        keys = [(g.error_class, g.signature) for g in sort_groups(drafts, sort)]
    if top is not None:
        keys = keys[:top]
    if not timed:
        _first_failures(conn, counted, keys, where, on_cells)  # the groups shown only
    last = _last_failures(conn, keys, where)
    firsts = _first_rows(conn, [(k, counted[k].first) for k in keys], where)
    return tuple(group(k, last.get(k), firsts.get(k), recent.get(k, (0, 0))) for k in keys)


@dataclass
class _Tally:
    by_status: dict[str, int]
    first: dt.datetime | None = None
    oldest_open: dt.datetime | None = None


def _tally(
    rows: Iterable[tuple[str, str, str, int, dt.datetime | None]],
) -> dict[tuple[str, str], _Tally]:
    """(class, signature, status, count, first failure) rows summed per group: its count by
    status, its first failure and that of its oldest open row."""
    out: dict[tuple[str, str], _Tally] = {}
    for cls, sig, status, n, when in rows:
        t = out.setdefault((cls, sig), _Tally({}))
        t.by_status[status] = t.by_status.get(status, 0) + n
        if when is None:
            continue
        if t.first is None or when < t.first:
            t.first = when
        if status == Status.OPEN and (t.oldest_open is None or when < t.oldest_open):
            t.oldest_open = when
    return out


def _grouped(
    conn: Connection, where: Sequence[ColumnElement[bool]]
) -> list[tuple[str, str, str, int, dt.datetime | None]]:
    """The dead letters counted by (class, signature, status), each with its first failure:
    the fallback for a filter the summary's cells cannot answer (a search, ids)."""
    dl = DeadLetter
    stmt = (
        select(
            dl.error_class, dl.signature_id, dl.status, func.count(), func.min(dl.first_failed_at)
        )
        .where(*where)
        .group_by(dl.error_class, dl.signature_id, dl.status)
    )
    rows = conn.execute(stmt).all()
    text = signature_texts(conn, {s for _c, s, _st, _n, _w in rows})
    return [(c, text[s], st, int(n), _as_datetime(w)) for c, s, st, n, w in rows]


def _cell_where(f: DeadLetterFilter | None, since: dt.date | None) -> list[Any] | None:
    where = cell_clauses(f)
    if where is not None and since is not None:
        where.append(DeadLetterCount.day >= since)
    return where


def _grouped_cells(
    conn: Connection, where: Sequence[ColumnElement[bool]]
) -> list[tuple[str, str, str, int, dt.datetime | None]]:
    """The dead letters counted by (class, signature, status) from the summary's cells
    (``dead_letter_counts``): as many cells as the groups have days, batches and attempt
    counts, never the rows. Times are not there (``_first_failures``)."""
    t = DeadLetterCount
    stmt = (
        select(t.error_class, t.signature_id, t.status, func.sum(t.n))
        .where(*where)
        .group_by(t.error_class, t.signature_id, t.status)
    )
    rows = conn.execute(stmt).all()
    text = signature_texts(conn, {s for _c, s, _st, _n in rows})
    return [(c, text[s], st, int(n), None) for c, s, st, n in rows if n]


def _first_failures(
    conn: Connection,
    counted: dict[tuple[str, str], _Tally],
    groups: Sequence[tuple[str, str]],
    where: Sequence[ColumnElement[bool]],
    on_cells: Sequence[ColumnElement[bool]] | None,
) -> None:
    """Put each group's first failure, and its oldest open row's, into ``counted``.

    Per group and status, the summary names the first day that holds such rows (of the
    filter, when ``on_cells`` says it for the cells); the rows are then walked along
    ``ix_dl_first_failed`` from that day's start to the first one of the group and status
    (the group's columns are compared row by row: ``|| ''`` and ``+ 0`` keep SQLite from
    choosing a group's index and sorting all its rows instead). The day holds one, so the
    walk stops within it, however many rows the group has; only a filter the cells cannot
    say (a search, ids) walks on past it."""
    t = DeadLetterCount
    on_cells = on_cells or []
    ids = signature_ids(conn, {s for _c, s in groups})
    text = {i: s for s, i in ids.items()}
    pairs = [(c, ids[s]) for c, s in groups if s in ids]
    starts: list[tuple[str, int, str, dt.datetime]] = []
    for start in range(0, len(pairs), _PER_STATEMENT):
        chunk = pairs[start : start + _PER_STATEMENT]
        days = (
            select(t.error_class, t.signature_id, t.status, func.min(t.day))
            .where(tuple_(t.error_class, t.signature_id).in_(chunk), t.n > 0, *on_cells)
            .group_by(t.error_class, t.signature_id, t.status)
        )
        # Two walks a group, not one per status: its first row of any status (from the
        # earliest of their days), and its first open one.
        first_day: dict[tuple[str, int, str], dt.date] = {}
        for c, s, st, d in conn.execute(days):
            day = summary.as_day(d)
            walks = (_ANY, str(st)) if st == Status.OPEN else (_ANY,)
            for key in ((str(c), int(s), walk) for walk in walks):
                if key not in first_day or day < first_day[key]:
                    first_day[key] = day
        starts += [(c, s, st, day_start(d)) for (c, s, st), d in first_day.items()]
    found: dict[tuple[str, int], dict[str, dt.datetime | None]] = {}
    # The day first, whose rows hold the answer unless a filter of the rows leaves them all
    # out; then, for those, the rest of the walk. The bound also keeps PostgreSQL on the
    # index: unbounded, it costed the walk as the whole index and read the table instead
    # (134 s for Trends at ten million rows, 0.3 s bounded).
    day_of = {(c, s, st): d for c, s, st, d in starts}
    later: list[tuple[str, int, str, dt.datetime]] = []
    for c, s, st, when in _first_in_walks(conn, starts, where, within_day=True):
        if when is None:  # from the next day on
            later.append((c, s, st, day_of[(c, s, st)] + dt.timedelta(days=1)))
        found.setdefault((c, s), {})[st] = when
    for c, s, st, when in _first_in_walks(conn, later, where, within_day=False):
        found[(c, s)][st] = when
    for (c, s), times in found.items():
        tally = counted.get((c, text.get(s, "")))
        if tally is None:
            continue
        tally.first = times.get(_ANY)
        tally.oldest_open = times.get(Status.OPEN)


def _first_in_walks(
    conn: Connection,
    starts: Sequence[tuple[str, int, str, dt.datetime]],
    where: Sequence[ColumnElement[bool]],
    *,
    within_day: bool,
) -> Iterable[tuple[str, int, str, dt.datetime | None]]:
    """Per (class, signature id, status or ``_ANY``, start): the first failure of such a
    row from the start on, along ``ix_dl_first_failed`` (within the start's day when
    ``within_day``)."""
    dl = DeadLetter
    for start in range(0, len(starts), _PER_STATEMENT):
        chunk = starts[start : start + _PER_STATEMENT]
        cell = (
            values(
                column("c", String()),
                column("s", Integer()),
                column("st", String()),
                column("d", INSTANT),
                column("e", INSTANT),
                name="starts",
            )
            .data([(c, s, st, d, d + dt.timedelta(days=1)) for c, s, st, d in chunk])
            .cte("starts")
        )
        bound = [dl.first_failed_at < cell.c.e] if within_day else []
        first = (
            select(dl.first_failed_at)
            .where(
                dl.first_failed_at >= cell.c.d,
                *bound,
                (dl.error_class + "") == cell.c.c,
                (dl.signature_id + 0) == cell.c.s,
                or_(cell.c.st == _ANY, (dl.status + "") == cell.c.st),
                *where,
            )
            .order_by(dl.first_failed_at)
            .limit(1)
            .scalar_subquery()
        )
        for c, s, st, when in conn.execute(select(cell.c.c, cell.c.s, cell.c.st, first)):
            yield str(c), int(s), str(st), _as_datetime(when)


@dataclass(frozen=True)
class _FirstRow:
    batch_id: str | None = None
    source_name: str | None = None
    transform: str | None = None


def _first_rows(
    conn: Connection,
    groups: Sequence[tuple[tuple[str, str], dt.datetime | None]],
    where: Sequence[ColumnElement[bool]],
) -> dict[tuple[str, str], _FirstRow]:
    """Each group's first row (at the first failure already found): its batch, that
    batch's source file, and the version it went through. One seek of
    ``ix_dl_first_failed`` at that instant per group, a few hundred to a statement (the
    group's columns compared row by row, as in ``_first_in_walks``), then those rows by
    id with their batches."""
    ids = signature_ids(conn, {s for (_c, s), when in groups if when is not None})
    text = {i: s for s, i in ids.items()}
    seeks = [(c, ids[s], when) for (c, s), when in groups if when is not None and s in ids]
    dl = DeadLetter
    row_of: dict[int, tuple[str, str]] = {}  # the first row's id -> its group
    for start in range(0, len(seeks), _PER_STATEMENT):
        cell = (
            values(
                column("c", String()), column("s", Integer()), column("t", INSTANT), name="firsts"
            )
            .data(seeks[start : start + _PER_STATEMENT])
            .cte("firsts")
        )
        first = (
            select(dl.id)
            .where(
                dl.first_failed_at == cell.c.t,
                (dl.error_class + "") == cell.c.c,
                (dl.signature_id + 0) == cell.c.s,
                *where,
            )
            .order_by(dl.id)
            .limit(1)
            .scalar_subquery()
        )
        for c, s, row_id in conn.execute(select(cell.c.c, cell.c.s, first)):
            if row_id is not None:
                row_of[int(row_id)] = (str(c), text[int(s)])
    found: dict[tuple[str, str], _FirstRow] = {}
    rows = list(row_of)
    for start in range(0, len(rows), _PER_STATEMENT):
        stmt = (
            select(dl.id, dl.batch_id, Batch.source_name, dl.transform)
            .outerjoin(Batch, Batch.batch_id == dl.batch_id)
            .where(dl.id.in_(rows[start : start + _PER_STATEMENT]))
        )
        for row_id, batch_id, source, transform in conn.execute(stmt):
            found[row_of[int(row_id)]] = _FirstRow(str(batch_id), source, str(transform))
    return found


def _recent_arrivals(
    conn: Connection,
    where: Sequence[ColumnElement[bool]],
    on_cells: Sequence[ColumnElement[bool]] | None,
    now: dt.datetime,
) -> dict[tuple[str, str], tuple[int, int]]:
    """Per group, its rows that first failed in the 24 h before ``now`` (and any after, a
    clock ahead of this one) and in the 24 h before those.

    Each is a count of rows from an instant on: the whole days after the instant's own
    from the summary's cells (when they can say the filter), and the rest of that day from
    the rows, along ``ix_dl_first_failed``. That reads 0 to 2 days of rows, one on average,
    where the rows alone are always two."""
    day_ago, two_days_ago = now - dt.timedelta(hours=24), now - dt.timedelta(hours=48)
    since_day_ago = _arrived_from(conn, where, day_ago, on_cells)
    since_two = _arrived_from(conn, where, two_days_ago, on_cells)
    return {k: (since_day_ago.get(k, 0), n - since_day_ago.get(k, 0)) for k, n in since_two.items()}


def _arrived_from(
    conn: Connection,
    where: Sequence[ColumnElement[bool]],
    start: dt.datetime,
    on_cells: Sequence[ColumnElement[bool]] | None,
) -> dict[tuple[str, str], int]:
    """Per group, its rows that first failed at ``start`` or later: the rest of ``start``'s
    day counted from the rows, the days after from the summary's cells (all from the rows
    when ``on_cells`` is None)."""
    dl = DeadLetter
    next_day = day_start(start.date() + dt.timedelta(days=1))
    bound = [dl.first_failed_at < next_day] if on_cells is not None else []
    # Grouped by expressions: on the bare columns SQLite walks ix_dl_class_sig_last whole
    # for their order (0.9 s at a million rows, with nothing in the range).
    cls, sig = dl.error_class + "", dl.signature_id + 0
    stmt = (
        select(cls, sig, func.count())
        .where(dl.first_failed_at >= start, *bound, *where)
        .group_by(cls, sig)
    )
    counted: dict[tuple[str, int], int] = {
        (str(c), int(s)): int(n) for c, s, n in conn.execute(stmt)
    }
    if on_cells is not None:
        t = DeadLetterCount
        later = (
            select(t.error_class, t.signature_id, func.sum(t.n))
            .where(t.day > start.date(), *on_cells)
            .group_by(t.error_class, t.signature_id)
        )
        for c, s, n in conn.execute(later):
            key = (str(c), int(s))
            counted[key] = counted.get(key, 0) + int(n)
    text = signature_texts(conn, {s for _c, s in counted})
    return {(c, text[s]): n for (c, s), n in counted.items() if n}


def _group_notes(conn: Connection) -> dict[str, tuple[str | None, tuple[str, ...], str, int]]:
    """Each owned, tagged or noted group's owner, tags, note and version, by signature
    (few: read whole)."""
    notes = ErrorGroupNotes
    stmt = select(Signature.text, notes.owner, notes.tags, notes.note, notes.version).join(
        Signature, Signature.id == notes.signature_id
    )
    return {
        text: (owner, tuple(orjson.loads(tags)), note or "", int(version))
        for text, owner, tags, note, version in conn.execute(stmt)
    }


def _last_failures(
    conn: Connection, groups: Sequence[tuple[str, str]], where: Sequence[ColumnElement[bool]]
) -> dict[tuple[str, str], dt.datetime | None]:
    """Each (class, signature)'s last failure: one seek of ``ix_dl_class_sig_last`` per
    group, a few hundred groups to a statement of correlated subqueries so that
    PostgreSQL's round trips stay few."""
    ids = signature_ids(conn, {s for _c, s in groups})
    text = {i: s for s, i in ids.items()}
    pairs = [(c, ids[s]) for c, s in groups if s in ids]
    return {(c, text.get(s, "")): when for c, s, when in _latest_per_group(conn, pairs, where)}


def _latest_per_group(
    conn: Connection, pairs: Sequence[tuple[str, int]], where: Sequence[Any]
) -> Iterable[tuple[str, int, dt.datetime | None]]:
    """The last failure of each (class, signature id)."""
    dl = DeadLetter
    if len(pairs) > _SEEKS_ABOVE:
        # Every group, listed by a DISTINCT on the index's prefix (which SQLite answers by
        # skipping through it), then one seek each: 6,000 groups of a million rows in
        # 0.05 s, where a GROUP BY walks the whole index (0.37 s).
        every = select(dl.error_class, dl.signature_id).where(*where).distinct().subquery()
        latest = (
            select(func.max(dl.last_failed_at))
            .where(dl.error_class == every.c.error_class)
            .where(dl.signature_id == every.c.signature_id, *where)
            .scalar_subquery()
        )
        for c, s, when in conn.execute(select(every.c.error_class, every.c.signature_id, latest)):
            yield c, s, _as_datetime(when)
        return
    for start in range(0, len(pairs), _PER_STATEMENT):
        group = (
            values(column("c", String()), column("s", Integer()), name="groups")
            .data(list(pairs[start : start + _PER_STATEMENT]))
            .cte("groups")
        )
        latest = (
            select(func.max(dl.last_failed_at))
            .where(dl.error_class == group.c.c, dl.signature_id == group.c.s, *where)
            .scalar_subquery()
        )
        for c, s, when in conn.execute(select(group.c.c, group.c.s, latest)):
            yield c, s, _as_datetime(when)


def _as_datetime(value: Any) -> dt.datetime | None:
    """A timestamp from the database (SQLite may hand back text)."""
    if value is None or isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromisoformat(str(value))


def team_labels(ws: Workspace) -> tuple[list[str], list[str]]:
    """The owners and the tags in use (with the suggested tags), each sorted: what the
    pickers offer."""
    with ws.store.connect() as conn:
        rows = conn.execute(select(ErrorGroupNotes.owner, ErrorGroupNotes.tags)).all()
    owners = {owner for owner, _tags in rows if owner}
    tags = set(SUGGESTED_TAGS).union(*(orjson.loads(t) for _o, t in rows))
    return sorted(owners, key=str.casefold), sorted(tags, key=str.casefold)


def set_group(
    ws: Workspace,
    signature: str,
    *,
    owner: Any = UNCHANGED,
    add_tags: Sequence[str] = (),
    remove_tags: Sequence[str] = (),
    note: str | None = None,
    if_version: int | None = None,
    actor: str | None = None,
) -> ErrorGroup:
    """Change a group's owner (None: nobody), tags or note, audited; with ``if_version``,
    refused when the group has moved on since. The group as it is now."""
    # Here, not at the top: the stats cache's warming after a batch counts the groups
    # (error_groups) and needs none of the write path (transitions loads the batch code).
    from triage_app.core import text_input
    from triage_app.core.deadletters import transitions

    actor = actor or actor_for(ws.store)
    # Checked before anything is written: controls refused, the limits (text_input.LIMITS).
    add = [t for t in map(text_input.tag, add_tags) if t]
    owner = text_input.owner(owner) if isinstance(owner, str) else owner
    note = None if note is None else text_input.note(note)
    with transitions.write_transaction(ws.store) as conn:
        now = utcnow()
        sig_id = conn.execute(
            select(Signature.id).where(Signature.text == signature)
        ).scalar_one_or_none()
        if sig_id is None:
            raise TriageError(
                _("no error group with the signature {signature}").format(signature=repr(signature))
            )
        row = _locked_row(conn, sig_id, now, actor)
        version = int(row.version)
        if if_version is not None and if_version != version:
            # Version 0 is the row this transaction made: nobody changed the group yet.
            if version:
                text = _(
                    "the error group changed since version {seen} (by {actor} at {at} UTC); "
                    "it is now version {now}"
                )
            else:
                text = _("the error group changed since version {seen}; it is now version {now}")
            raise TriageError(
                text.format(
                    seen=if_version,
                    actor=row.changed_by,
                    at=utc_time(row.changed_at),
                    now=version,
                )
            )
        before_owner = row.owner
        before_tags = set(orjson.loads(row.tags))
        before_note = row.note
        new_owner = before_owner if owner is UNCHANGED else (owner.strip() if owner else None)
        new_tags = (before_tags | set(add)) - {t.strip() for t in remove_tags}
        new_note = before_note if note is None else note.strip()
        said = _changes(before_owner, new_owner, before_tags, new_tags, before_note, new_note)
        if not said:
            raise TriageError(_("nothing to change: the group is like that already"))
        values = {
            "owner": new_owner,
            "tags": orjson.dumps(sorted(new_tags)).decode(),
            "note": new_note,
            "version": version + 1,
            "changed_at": now,
            "changed_by": actor,
        }
        done = conn.execute(
            update(ErrorGroupNotes)
            .where(ErrorGroupNotes.signature_id == sig_id, ErrorGroupNotes.version == version)
            .values(**values)
        )
        if done.rowcount != 1:  # cannot happen under the lock; never write blind
            raise TriageError(_("the error group changed while it was being changed"))
        conn.execute(
            event_insert(),
            {
                "dead_letter_id": None,
                "at": now,
                "actor": actor,
                "action": AuditAction.GROUP.value,
                "detail": f"group {signature}: {said}",  # stored: English (said.py)
                "version": version + 1,
                "replaced_payload": None,
            },
        )
    # The group as it is now: its own rows counted, not every group's.
    found = next(iter(error_groups(ws, signature=signature)), None)
    if found is None:  # the group emptied (purged) meanwhile: say what was written
        raise TriageError(
            _("the error group {signature} has no dead letters now").format(
                signature=repr(signature)
            )
        )
    return found


def _locked_row(conn: Connection, sig_id: int, now: dt.datetime, actor: str) -> Row[Any]:
    """The group's row, locked until the transaction ends; a group nobody touched yet gets
    one at version 0, in this transaction only: a refusal rolls it back, so an untouched
    group still has no row. Inserting first, with ON CONFLICT DO NOTHING, is what makes
    the first change race-free on PostgreSQL: a SELECT ... FOR UPDATE that finds no row
    locks nothing, and eight processes setting a new group's owner at once each inserted
    it, all but one failing on the primary key (issue 21). The insert waits for another
    transaction's uncommitted row and then finds it; the row lock serialises the rest, so
    ``if_version`` is checked against the version each change really replaces. SQLite's
    BEGIN IMMEDIATE already serialises the whole transaction; the same statements serve."""
    # Here, not at the top: the dialects' inserts are the write path's alone (a run that
    # warms the stats cache on SQLite loads no PostgreSQL dialect).
    from sqlalchemy.dialects.postgresql import insert as pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    placeholder = {
        "signature_id": sig_id,
        "owner": None,
        "tags": "[]",
        "note": "",
        "version": 0,
        "changed_at": now,
        "changed_by": actor,
    }
    if conn.dialect.name == "postgresql":
        add: Any = pg_insert(ErrorGroupNotes).values(placeholder).on_conflict_do_nothing()
    else:
        add = sqlite_insert(ErrorGroupNotes).values(placeholder).on_conflict_do_nothing()
    conn.execute(add)
    lock = select(ErrorGroupNotes).where(ErrorGroupNotes.signature_id == sig_id)
    if conn.dialect.name == "postgresql":
        lock = lock.with_for_update()
    return conn.execute(lock).one()


def _changes(
    owner0: str | None,
    owner1: str | None,
    tags0: set[str],
    tags1: set[str],
    note0: str,
    note1: str,
) -> str:
    said = []
    if owner0 != owner1:
        said.append(f"owner {owner0 or 'nobody'} -> {owner1 or 'nobody'}")
    said += [f"tag + {t}" for t in sorted(tags1 - tags0)]
    said += [f"tag - {t}" for t in sorted(tags0 - tags1)]
    if note0 != note1:
        said.append(f"note: {note1[:80]}" if note1 else "note removed")
    return "; ".join(said)
