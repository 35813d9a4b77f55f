"""The dead letters counted by cell (``dead_letter_counts``), kept in step with the rows.

A cell is a class, signature, status, attempt count, first-failure day, batch and transform;
its ``n`` is how many dead letters share them. Every change that moves rows between cells
writes the difference in its own transaction: a batch adds its new rows' cells, a change to
rows in place is wrapped in ``moving()``, which counts the rows' cells before and after and
writes what changed. Trends, ``stats`` and ``groups`` then read the cells, whose number
grows with the signatures and batches, not with the rows.

Writes are upserts in key order: two transactions that touch the same cells take their
locks in the same order (PostgreSQL), so they wait for each other instead of deadlocking.
``recount()`` counts the rows afresh; ``verify`` and the tests hold the cells equal to it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, func, select
from sqlalchemy.sql.expression import ColumnElement

from triage_app.core.bilingual import Said
from triage_app.core.bilingual import both_ngettext as ngettext
from triage_app.core.crashpoints import crash_point
from triage_app.core.db.instants import day_of
from triage_app.core.db.models import DeadLetter, DeadLetterCount

# (error_class, signature_id, status, attempts, day, batch_id, transform)
Cell = tuple[str, int, str, int, dt.date, str, str]
KEY_COLUMNS = ("error_class", "signature_id", "status", "attempts", "day", "batch_id", "transform")


def first_failed_day(conn: Connection) -> ColumnElement[Any]:
    """A dead letter's first-failure day (UTC) in SQL, as the summary's ``day`` holds it."""
    return day_of(DeadLetter.first_failed_at, conn.dialect.name)


def as_day(value: Any) -> dt.date:
    """A day as either database hands it back (SQLite: ISO text)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def cells_of(conn: Connection, where: Sequence[ColumnElement[bool]] | None = ()) -> Counter[Cell]:
    """The cells of the dead letters matching ``where``, counted from the rows; none for
    ``where=None`` (a change that moves no row between cells)."""
    if where is None:
        return Counter()
    dl = DeadLetter
    day = first_failed_day(conn)
    stmt = (
        select(
            dl.error_class,
            dl.signature_id,
            dl.status,
            dl.attempts,
            day,
            dl.batch_id,
            dl.transform,
            func.count(),
        )
        .where(*where)
        .group_by(
            dl.error_class, dl.signature_id, dl.status, dl.attempts, day, dl.batch_id, dl.transform
        )
    )
    out: Counter[Cell] = Counter()
    for c, s, st, a, d, b, t, n in conn.execute(stmt):
        out[(str(c), int(s), str(st), int(a), as_day(d), str(b), str(t))] += int(n)
    return out


def recount(conn: Connection) -> Counter[Cell]:
    """Every cell, counted from the rows: what ``dead_letter_counts`` must hold."""
    return cells_of(conn)


def stored(conn: Connection, batch_id: str | None = None) -> Counter[Cell]:
    """Every cell as ``dead_letter_counts`` holds it (with ``batch_id``, that batch's)."""
    t = DeadLetterCount
    out: Counter[Cell] = Counter()
    cols = [getattr(t, k) for k in KEY_COLUMNS]
    stmt = select(*cols, t.n)
    if batch_id is not None:
        stmt = stmt.where(t.batch_id == batch_id)
    for *key, n in conn.execute(stmt):
        c, s, st, a, d, b, tr = key
        out[(str(c), int(s), str(st), int(a), as_day(d), str(b), str(tr))] += int(n)
    return out


def differences(conn: Connection, batch_id: str | None = None) -> list[tuple[Cell, int, int]]:
    """The cells where the summary and a recount of the rows disagree (of ``batch_id``, or
    of the whole store): (cell, stored, counted), in key order. Empty when they agree."""
    where = [] if batch_id is None else [DeadLetter.batch_id == batch_id]
    counted = cells_of(conn, where)
    kept = stored(conn, batch_id)
    return [
        (c, kept.get(c, 0), counted.get(c, 0))
        for c in sorted(set(counted) | set(kept))
        if kept.get(c, 0) != counted.get(c, 0)
    ]


def describe(cell: Cell) -> Said:
    """A cell as a person reads it in a problem report (in both languages: the report is in
    ``--json`` too)."""
    c, s, st, a, d, b, t = cell
    said = ngettext(
        "{error_class}, signature {signature}, {status}, {n} attempt, first failed {day}, "
        "batch {batch}, {transform}",
        "{error_class}, signature {signature}, {status}, {n} attempts, first failed {day}, "
        "batch {batch}, {transform}",
        a,
    )
    return said.format(
        error_class=c, signature=str(s), status=st, n=a, day=d, batch=b[:8], transform=t
    )


def _upsert(conn: Connection) -> Any:
    t = DeadLetterCount.__table__
    # Imported here: the PostgreSQL dialect costs a SQLite user 45 ms at every start.
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql as dialect
    else:
        from sqlalchemy.dialects import sqlite as dialect  # type: ignore[no-redef]
    stmt = dialect.insert(t)
    return stmt.on_conflict_do_update(
        index_elements=list(KEY_COLUMNS), set_={"n": t.c.n + stmt.excluded.n}
    )


def apply(conn: Connection, delta: Counter[Cell] | dict[Cell, int]) -> None:
    """Add ``delta`` (cell -> rows gained, negative for rows lost) to the stored cells, in
    key order, and delete the cells it empties."""
    changes = sorted((k, n) for k, n in delta.items() if n)
    if not changes:
        return
    conn.execute(
        _upsert(conn), [{**dict(zip(KEY_COLUMNS, k, strict=True)), "n": n} for k, n in changes]
    )
    crash_point("mid-counts")  # the cells written, the rows' change not committed
    emptied = [k for k, n in changes if n < 0]
    if emptied:
        # Only the cells that lost rows can have emptied: a seek each, not a scan of them all.
        t = DeadLetterCount.__table__
        key = and_(*(t.c[k] == bindparam(f"k_{k}") for k in KEY_COLUMNS), t.c.n <= 0)
        conn.execute(
            delete(t).where(key),
            [{f"k_{c}": v for c, v in zip(KEY_COLUMNS, k, strict=True)} for k in emptied],
        )


def add(conn: Connection, cells: Iterable[tuple[Cell, int]]) -> None:
    """Count new rows in (a batch's dead letters, known without reading them back)."""
    delta: Counter[Cell] = Counter()
    for cell, n in cells:
        delta[cell] += n
    apply(conn, delta)


_DEFERRED = "dead_letter_counts.deferred"


@contextlib.contextmanager
def deferred(conn: Connection) -> Iterator[None]:
    """Within it, ``moved`` and ``moved_to`` gather their differences, written by one
    ``apply`` at the end: a transaction that moves rows in several steps (a re-drive's
    resolve and failures, a change by hand in chunks) then takes its cells' locks once,
    in key order, after every row lock it takes. Two such transactions could otherwise
    each hold a cell the other's next step needs (PostgreSQL: a deadlock). Nothing is
    written if the block raises."""
    conn.info[_DEFERRED] = Counter()
    try:
        yield
        gathered: Counter[Cell] = conn.info.pop(_DEFERRED)
        apply(conn, gathered)
    finally:
        conn.info.pop(_DEFERRED, None)


def _write(conn: Connection, delta: Counter[Cell]) -> None:
    """Write ``delta`` now, or gather it for the end of ``deferred``."""
    gathering: Counter[Cell] | None = conn.info.get(_DEFERRED)
    if gathering is None:
        apply(conn, delta)
    else:
        gathering.update(delta)


@contextlib.contextmanager
def moving(conn: Connection, where: Sequence[ColumnElement[bool]] | None) -> Iterator[None]:
    """Around a change to the rows ``where`` selects (by id: the same rows before and
    after), in the caller's transaction with the rows locked: their cells are counted before
    and after, and the difference written. Rows deleted inside simply leave their cells.
    ``where=None``: the change moves no row between cells, and nothing is counted."""
    before = cells_of(conn, where)
    yield
    moved(conn, where, before)


def moved(
    conn: Connection, where: Sequence[ColumnElement[bool]] | None, before: Counter[Cell]
) -> None:
    """The second half of ``moving`` for a caller that writes between two plain calls:
    ``before = cells_of(conn, where)``, the change, then ``moved(conn, where, before)``."""
    if where is None:
        return
    delta: Counter[Cell] = Counter(cells_of(conn, where))
    delta.subtract(before)
    _write(conn, delta)


def moved_to(conn: Connection, before: Counter[Cell], **values: Any) -> None:
    """For a change that set cell columns to constants (a re-drive's resolve sets the
    status and transform): the cells after are ``before`` (``cells_of`` the rows, read
    before the change) with ``values`` put in, so the rows are read once, not twice."""
    unknown = set(values) - set(KEY_COLUMNS)
    if unknown:
        raise ValueError(f"not cell columns: {sorted(unknown)}")
    at = {KEY_COLUMNS.index(k): v for k, v in values.items()}
    delta: Counter[Cell] = Counter()
    for old, n in before.items():
        c, s, st, a, d, b, t = (at.get(i, v) for i, v in enumerate(old))
        delta[old] -= n
        delta[(str(c), int(s), str(st), int(a), as_day(d), str(b), str(t))] += n
    _write(conn, delta)


def cell(
    error_class: str,
    signature_id: int,
    status: str,
    attempts: int,
    first_failed_at: Any,
    batch_id: str,
    transform: str,
) -> Cell:
    """The cell of a row known in Python (a batch's new dead letters, the demo's rows)."""
    return (
        str(error_class),
        int(signature_id),
        str(status),
        int(attempts),
        as_day(first_failed_at),
        str(batch_id),
        str(transform),
    )


def touches(columns: Iterable[str]) -> bool:
    """Whether a change writing ``columns`` can move a row between cells."""
    return not set(columns).isdisjoint(KEY_COLUMNS) or "first_failed_at" in set(columns)


def rebuild(conn: Connection) -> int:
    """Replace the stored cells by a recount (a migration, a repair); how many cells."""
    conn.execute(delete(DeadLetterCount))
    cells = recount(conn)
    apply(conn, cells)
    return len(cells)
