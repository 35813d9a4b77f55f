"""How the store keeps an instant (schema 0008).

In Python an instant is a naive ``datetime`` in UTC (``clock.utcnow``). PostgreSQL keeps it
as ``timestamp``. SQLite has no time type: SQLAlchemy's default writes ISO text of 26
characters, compared as text. The store keeps the microseconds since 1970 as an integer
instead (six bytes in a record): a dead letter carries two instants and three of its
indexes are on them, and on a bad day of 200,000 rows the text cost 19 MB of a 107 MB store
(issue 23: the store at most twice the seed's database). The column keeps its declared type
(``DATETIME``, numeric affinity), so a store upgraded in place and a new one are the same
schema; only the values differ, and 0008 rewrote the old ones.

``INSTANT`` is the column type: a ``DateTime`` everywhere, microseconds on SQLite. A SQL
expression that reads an instant by hand (a day, a ``VALUES`` list compared with one) goes
through ``day_of`` or this type, never through the text form.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from sqlalchemy import BigInteger, Date, DateTime, case, cast, func, type_coerce
from sqlalchemy.dialects.sqlite import DATETIME as SQLITE_DATETIME
from sqlalchemy.sql.elements import ColumnElement

EPOCH = dt.datetime(1970, 1, 1)
_MICRO = dt.timedelta(microseconds=1)


def to_micros(value: dt.datetime | dt.date) -> int:
    """An instant as SQLite keeps it; an aware one is taken to UTC first, a date is its
    midnight."""
    if not isinstance(value, dt.datetime):
        value = dt.datetime.combine(value, dt.time())
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return (value - EPOCH) // _MICRO


def from_stored(value: Any) -> dt.datetime | None:
    """An instant as SQLite hands it back: the integer, or ISO text written before 0008
    (a store opened read-only for a backup or an upgrade check still reads right)."""
    if value is None or isinstance(value, dt.datetime):
        return value
    if isinstance(value, int | float):
        return EPOCH + dt.timedelta(microseconds=int(value))
    return dt.datetime.fromisoformat(str(value))


class _Micros(SQLITE_DATETIME):
    """SQLite's ``DATETIME`` (so the DDL and Alembic's comparison are unchanged) holding
    microseconds. A subclass of the dialect's own type, so that SQLAlchemy keeps it as it
    is rather than adapting it back to the text form."""

    def bind_processor(self, dialect: Any) -> Callable[[Any], Any]:
        def process(value: Any) -> Any:
            if value is None or isinstance(value, int):
                return value
            if isinstance(value, dt.date):
                return to_micros(value)
            raise TypeError(f"an instant must be a datetime, not {type(value).__name__}")

        return process

    def result_processor(self, dialect: Any, coltype: Any) -> Callable[[Any], Any]:
        return from_stored

    def literal_processor(self, dialect: Any) -> Callable[[Any], str]:
        def process(value: Any) -> str:
            return str(to_micros(value))

        return process


INSTANT = DateTime().with_variant(_Micros(), "sqlite")  # type: ignore[no-untyped-call]


def for_driver(dialect: Any) -> Callable[[Any], Any]:
    """How the driver takes an instant on ``dialect`` (SQLite: microseconds), for rows a
    writer hands to the driver itself (``executemany`` on a bad day): the type's own form
    for that dialect, never the base type's, whose SQLite form is text."""
    process = INSTANT.dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else _unchanged


def _unchanged(value: Any) -> Any:
    return value


def day_of(column: ColumnElement[Any], dialect_name: str) -> ColumnElement[Any]:
    """The UTC day of an instant column, in SQL, as ``YYYY-MM-DD`` on SQLite (what a
    ``Date`` column holds there) and a ``date`` on PostgreSQL."""
    if dialect_name == "sqlite":
        # Integer division: whole seconds, then SQLite's own calendar. Text is a value from
        # before 0008, read while an older revision's migration runs (0007 counts by day).
        return case(
            (func.typeof(column) == "text", func.substr(column, 1, 10)),
            else_=func.date(type_coerce(column, BigInteger) // 1_000_000, "unixepoch"),
        )
    return cast(column, Date)
