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

from sqlalchemy import Connection, Date, cast, delete, func, select
from sqlalchemy.sql.expression import ColumnElement

from triage_app.core.db.models import DeadLetter, DeadLetterCount

# (error_class, signature_id, status, attempts, day, batch_id, transform)
Cell = tuple[str, int, str, int, dt.date, str, str]
KEY_COLUMNS = ("error_class", "signature_id", "status", "attempts", "day", "batch_id", "transform")


def first_failed_day(conn: Connection) -> ColumnElement[Any]:
    """A dead letter's first-failure day (UTC) in SQL: SQLite keeps times as ISO text, whose
    first ten characters are the day; PostgreSQL casts."""
    if conn.dialect.name == "sqlite":
        return func.substr(DeadLetter.first_failed_at, 1, 10)
    return cast(DeadLetter.first_failed_at, Date)


def _as_day(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def cells_of(conn: Connection, where: Sequence[ColumnElement[bool]] = ()) -> Counter[Cell]:
    """The cells of the dead letters matching ``where``, counted from the rows."""
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
        out[(str(c), int(s), str(st), int(a), _as_day(d), str(b), str(t))] += int(n)
    return out


def recount(conn: Connection) -> Counter[Cell]:
    """Every cell, counted from the rows: what ``dead_letter_counts`` must hold."""
    return cells_of(conn)


def stored(conn: Connection) -> Counter[Cell]:
    """Every cell as ``dead_letter_counts`` holds it."""
    t = DeadLetterCount
    out: Counter[Cell] = Counter()
    cols = [getattr(t, k) for k in KEY_COLUMNS]
    for *key, n in conn.execute(select(*cols, t.n)):
        c, s, st, a, d, b, tr = key
        out[(str(c), int(s), str(st), int(a), _as_day(d), str(b), str(tr))] += int(n)
    return out


def _upsert(conn: Connection) -> Any:
    t = DeadLetterCount.__table__
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    stmt = insert(t)
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
    if any(n < 0 for _k, n in changes):
        conn.execute(delete(DeadLetterCount).where(DeadLetterCount.n <= 0))


def add(conn: Connection, cells: Iterable[tuple[Cell, int]]) -> None:
    """Count new rows in (a batch's dead letters, known without reading them back)."""
    delta: Counter[Cell] = Counter()
    for cell, n in cells:
        delta[cell] += n
    apply(conn, delta)


@contextlib.contextmanager
def moving(conn: Connection, where: Sequence[ColumnElement[bool]]) -> Iterator[None]:
    """Around a change to the rows ``where`` selects (by id: the same rows before and
    after), in the caller's transaction with the rows locked: their cells are counted before
    and after, and the difference written. Rows deleted inside simply leave their cells."""
    before = cells_of(conn, where)
    yield
    after = cells_of(conn, where)
    delta: Counter[Cell] = Counter(after)
    delta.subtract(before)
    apply(conn, delta)


def rebuild(conn: Connection) -> int:
    """Replace the stored cells by a recount (a migration, a repair); how many cells."""
    conn.execute(delete(DeadLetterCount))
    cells = recount(conn)
    apply(conn, cells)
    return len(cells)
