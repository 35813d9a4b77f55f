"""The store's aggregates, kept until the store changes.

Every change to a dead letter appends an audit event (docs/design.md, invariant 5) and every
batch updates its counters, so the newest event id, the newest dead-letter id and the
batches' totals say exactly when the numbers can have moved. ``stats`` answers from the
cache when they have not: a few indexed lookups instead of scans over the whole store.
"""

from __future__ import annotations

import contextlib
from typing import Any

import orjson
from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import SQLAlchemyError

from triage_app.core.clock import today, utcnow
from triage_app.core.db import StatsCache, Workspace
from triage_app.core.quick_stats import CACHE_KEY, VERSION_SQL, version_from
from triage_app.core.trends.stats import compute_stats

_ALL = CACHE_KEY


def store_version(conn: Connection) -> str:
    return version_from([tuple(conn.exec_driver_sql(q).one()) for q in VERSION_SQL], today())


def stats_json(ws: Workspace) -> dict[str, Any]:
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
        stats_json(ws)
