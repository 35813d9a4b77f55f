"""The store's aggregates, kept until the store changes.

Every change to a dead letter appends an audit event (docs/design.md, invariant 5) and every
batch updates its counters, so the newest event id, the newest dead-letter id and the
batches' totals say exactly when the numbers can have moved. ``stats`` answers from the
cache when they have not: a few indexed lookups instead of scans over the whole store.

A batch that quarantined nothing moves the batches' totals alone, and of the numbers only
those made from the batches' own counters (Trends' per-batch rates and the spike rule over
them, ``batches.py``). The cached entry is then brought up to date by reading those again
and re-stamping it, in one UPDATE guarded by the stamp it had, without counting a dead
letter or loading the code that counts them.
"""

from __future__ import annotations

import contextlib
from typing import Any

import orjson
from sqlalchemy import Connection, Row, delete, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from triage_app.core.clock import today, utcnow
from triage_app.core.db import StatsCache, Workspace
from triage_app.core.quick_stats import CACHE_KEY, VERSION_SQL, only_batches_moved, version_from

_ALL = CACHE_KEY


def _stamp_rows(conn: Connection) -> list[tuple[Any, ...]]:
    return [tuple(conn.exec_driver_sql(q).one()) for q in VERSION_SQL]


def store_version(conn: Connection) -> str:
    return version_from(_stamp_rows(conn), today())


def stats_json(ws: Workspace) -> dict[str, Any]:
    """``compute_stats(ws).to_json()``, from the cache while the store is unchanged, or
    changed in the batches' totals alone (then the batches' part is read again)."""
    with ws.store.connect() as conn:
        day = today()
        rows = _stamp_rows(conn)
        version = version_from(rows, day)
        held = conn.execute(
            select(StatsCache.version, StatsCache.payload).where(StatsCache.key == _ALL)
        ).one_or_none()
        if held is not None:
            if held.version == version:
                cached: dict[str, Any] = orjson.loads(held.payload)
                return cached
            if only_batches_moved(held.version, rows, day):
                restamped = _restamped(conn, held, version)
                if restamped is not None:
                    return restamped
    return _recomputed(ws, version)


def _restamped(conn: Connection, held: Row[str, bytes], version: str) -> dict[str, Any] | None:
    """The entry ``held`` with the batches' part read again, stored under ``version`` (unless
    another process changed the entry meanwhile, or the store is read-only); None for an
    entry without Trends (then everything is counted again)."""
    data = orjson.loads(held.payload)
    trends = data.get("trends") if isinstance(data, dict) else None
    if not isinstance(trends, dict):
        return None
    # Here, not at the top: a run that only warms the cache loads no counting code.
    from triage_app.core.trends.batches import batches_json

    trends.update(batches_json(conn))
    payload = orjson.dumps(data, default=str)
    with contextlib.suppress(SQLAlchemyError):  # a read-only store still answers
        conn.execute(
            update(StatsCache)
            .where(StatsCache.key == _ALL, StatsCache.version == held.version)
            .values(version=version, payload=payload)
        )
        conn.commit()
    fresh: dict[str, Any] = orjson.loads(payload)
    return fresh


def _recomputed(ws: Workspace, version: str) -> dict[str, Any]:
    from triage_app.core.trends.stats import compute_stats

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
    """Bring the cached aggregates up to date now, after a batch or a re-drive (the work
    that changes many rows at once), so that the lead's ``stats`` right after it is answered
    from the cache. Best effort: the numbers are recomputed on demand anyway."""
    with contextlib.suppress(SQLAlchemyError):
        stats_json(ws)
