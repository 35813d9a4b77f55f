"""Taking back what a re-drive loaded, when the dead letter no longer explains it.

A re-drive loads the warehouse first and settles the store after (design.md, "Two
databases, one rule"). If its lease runs out in between (the process stopped, the laptop
slept), a steward may discard or edit the row before the re-drive settles. The settle then
leaves the row alone (``settling.settle``: ``lapsed``), and what was loaded for it must
not stay: the warehouse would hold a payload that no dead letter explains, or keep what a
steward discarded.

So a re-drive reads the rows it is about to replace (``rows_before``) just before its
upsert, and for a lapsed row the store no longer explains, puts the row back as it was
(``take_back``): deleted if the load inserted it, restored if it replaced one. Only if the
warehouse still holds exactly what the re-drive wrote: a row written since (a batch,
another re-drive) is newer than both and stays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select, update

from triage_app.core.db.warehouse import LINEAGE, target_table
from triage_app.core.transforms import Transform

# Keys per statement (SQLite takes at most 32,766 parameters in one).
_KEYS_PER_READ = 5_000


@dataclass(frozen=True)
class Loaded:
    """One row a re-drive wrote: its key, the values written (the transform's columns, then
    the lineage: batch, line, version) and the row it replaced (None: there was none)."""

    key: Any
    written: tuple[Any, ...]
    before: tuple[Any, ...] | None


def _columns(transform: Transform) -> list[str]:
    return [*transform.column_names, *LINEAGE]


def rows_before(
    engine: Engine, transform: Transform, keys: Iterable[Any]
) -> dict[Any, tuple[Any, ...]]:
    """The warehouse rows of ``keys`` as they are now (the transform's columns, then the
    lineage); a key with no row is absent. Nothing is read if the table is not there."""
    table = target_table(transform)
    key_col = table.c[transform.key]
    cols = [table.c[n] for n in _columns(transform)]
    want = list(dict.fromkeys(keys))
    out: dict[Any, tuple[Any, ...]] = {}
    if not want:
        return out
    with engine.connect() as conn:
        for start in range(0, len(want), _KEYS_PER_READ):
            part = want[start : start + _KEYS_PER_READ]
            for row in conn.execute(select(*cols).where(key_col.in_(part))):
                out[row[transform.column_names.index(transform.key)]] = tuple(row)
    return out


def take_back(engine: Engine, transform: Transform, loaded: Sequence[Loaded]) -> set[Any]:
    """Put each row of ``loaded`` back as it was before the load, where the warehouse still
    holds exactly what was written; the keys put back. One transaction, each row locked
    while it is compared (PostgreSQL ``FOR UPDATE``; SQLite's write lock)."""
    done: set[Any] = set()
    if not loaded:
        return done
    table = target_table(transform)
    names = _columns(transform)
    key_col = table.c[transform.key]
    cols = [table.c[n] for n in names]
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        for item in loaded:
            stmt = select(*cols).where(key_col == item.key)
            if engine.dialect.name == "postgresql":
                stmt = stmt.with_for_update()
            now = conn.execute(stmt).first()
            if now is None or not _same(tuple(now), item.written):
                continue  # written again since: newer than the load, and than before it
            if item.before is None:
                conn.execute(delete(table).where(key_col == item.key))
            else:
                values: Mapping[str, Any] = dict(zip(names, item.before, strict=True))
                conn.execute(update(table).where(key_col == item.key).values(**values))
            done.add(item.key)
    return done


def _same(now: tuple[Any, ...], written: tuple[Any, ...]) -> bool:
    """The stored row is the written one. Values come back in the column's type (an int
    written to a REAL column reads as a float, a bool as 0 or 1): == compares them as
    numbers."""
    return len(now) == len(written) and all(a == b for a, b in zip(now, written, strict=True))
