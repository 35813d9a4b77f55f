"""The store's schema: created where missing, and remembered as current so that later
starts skip the checks."""

from __future__ import annotations

import zlib

from sqlalchemy import Engine

from triage_app.core.db.models import Base


def schema_stamp() -> int:
    """A number that changes whenever a table, column or index of the store does."""
    parts = []
    for table in Base.metadata.sorted_tables:
        parts.append(table.name + ":" + ",".join(c.name for c in table.columns))
        parts += sorted(str(i.name) for i in table.indexes)
    return zlib.crc32("|".join(parts).encode()) & 0x7FFFFFFF


def ensure_schema(engine: Engine) -> None:
    """Create what the store lacks. A SQLite store remembers (PRAGMA user_version) that it
    is current, so that every later start skips the checks: some 50 ms of each command."""
    stamp = schema_stamp()
    sqlite = engine.dialect.name == "sqlite"
    if sqlite:
        with engine.connect() as conn:
            if conn.exec_driver_sql("PRAGMA user_version").scalar() == stamp:
                return
    Base.metadata.create_all(engine)
    _add_missing_indexes(engine)
    if sqlite:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"PRAGMA user_version = {stamp}")


def _add_missing_indexes(engine: Engine) -> None:
    """Stores made by an earlier version get the indexes added since (create_all only
    creates what is missing whole: tables, not indexes on tables that exist)."""
    for table in Base.metadata.sorted_tables:
        for index in table.indexes:
            index.create(engine, checkfirst=True)
