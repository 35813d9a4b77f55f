"""The store's aggregates, kept until the store changes.

Every change to a dead letter appends an audit event (DESIGN.md, invariant 5) and every
batch updates its counters, so the newest event id, the newest dead-letter id and the
batches' totals say exactly when the numbers can have moved. ``stats`` answers from the
cache when they have not: a few indexed lookups instead of scans over the whole store.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from typing import Any

import orjson
from sqlalchemy import Connection, LargeBinary, String, delete, insert, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

from triage_app.core.stats import compute_stats
from triage_app.core.store import Base, utcnow
from triage_app.core.workspace import Workspace
from triage_app.quickstats import CACHE_KEY, VERSION_SQL, today, version_from

_ALL = CACHE_KEY


class StatsCache(Base):
    __tablename__ = "stats_cache"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[str] = mapped_column(String(200))
    payload: Mapped[bytes] = mapped_column(LargeBinary)
    computed_at: Mapped[dt.datetime]


def store_version(conn: Connection) -> str:
    return version_from([tuple(conn.exec_driver_sql(q).one()) for q in VERSION_SQL], today())


def cached_stats(ws: Workspace) -> dict[str, Any]:
    """``compute_stats(ws).to_json()``, from the cache while the store is unchanged."""
    with ws.store.connect() as conn:
        version = store_version(conn)
        hit = conn.execute(
            select(StatsCache.payload).where(StatsCache.key == _ALL, StatsCache.version == version)
        ).scalar()
    if hit is not None:
        cached: dict[str, Any] = orjson.loads(hit)
        return cached
    data = compute_stats(ws).to_json()
    payload = orjson.dumps(data, default=str)
    try:
        with ws.store.begin() as conn:
            conn.execute(delete(StatsCache).where(StatsCache.key == _ALL))
            conn.execute(
                insert(StatsCache).values(
                    key=_ALL, version=version, payload=payload, computed_at=utcnow()
                )
            )
    except SQLAlchemyError:
        pass  # a read-only store still answers, only without the cache
    fresh: dict[str, Any] = orjson.loads(payload)
    return fresh


def warm_stats_cache(ws: Workspace) -> None:
    """Recompute the cached aggregates now, after a batch or a re-drive (the work that
    changes many rows at once), so that the lead's ``stats`` right after it is answered
    from the cache. Best effort: the numbers are recomputed on demand anyway."""
    with contextlib.suppress(SQLAlchemyError):
        cached_stats(ws)
