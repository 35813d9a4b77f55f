"""The batches' part of Trends: each batch's quarantine rate, from the batch's own counters,
and the spike rule over them. It reads the batches table alone, no dead letter, so the
stats cache refreshes it after a batch that quarantined nothing without counting anything
else again (``stats_cache.py``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, select

from triage_app.core.clock import day_start
from triage_app.core.db import Batch
from triage_app.core.trends.causes import spike_causes
from triage_app.core.trends.model import BatchPoint, Trends
from triage_app.core.trends.spikes import SpikeCheck, SpikeRule

# The keys of ``Trends.to_json()`` made from the batches alone (per_batch and the checks).
BATCH_KEYS = ("per_batch", "spikes")


def _as_datetime(value: Any) -> dt.datetime | None:
    if value is None or isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromisoformat(str(value))


def per_batch(conn: Connection, since: dt.date | None = None) -> tuple[BatchPoint, ...]:
    """Batches oldest first, from their own counters (which outlive a retention purge)."""
    b = Batch
    stmt = (
        select(
            b.batch_id,
            b.source_name,
            b.transform,
            b.started_at,
            b.rows,
            b.quarantined,
            b.q_data,
            b.q_code,
            b.q_transient,
        )
        .where(b.rows > 0)  # a batch that has read nothing yet has no rate
        .order_by(b.started_at, b.batch_id)
    )
    if since is not None:
        stmt = stmt.where(b.started_at >= day_start(since))
    return tuple(
        BatchPoint(
            r.batch_id,
            r.source_name,
            r.transform,
            _as_datetime(r.started_at) or dt.datetime.min,
            int(r.rows),
            int(r.quarantined),
            {"data": int(r.q_data), "code": int(r.q_code), "transient": int(r.q_transient)},
        )
        for r in conn.execute(stmt)
    )


def spike_checks(batches: tuple[BatchPoint, ...], rule: SpikeRule) -> tuple[SpikeCheck, ...]:
    """The spike rule over the batches' quarantine rates, one check per batch."""
    return tuple(rule.check([b.rate for b in batches]))


def batches_json(conn: Connection, rule: SpikeRule | None = None) -> dict[str, Any]:
    """``Trends.to_json()``'s batch keys (``BATCH_KEYS``) for the whole store, as
    ``compute_trends`` makes them, without counting a dead letter."""
    rule = rule or SpikeRule()
    batches = per_batch(conn)
    checks = spike_checks(batches, rule)
    causes = spike_causes(conn, batches, checks)
    whole = Trends(None, (), (), batches, (), (), checks, rule, causes=causes).to_json()
    return {k: whole[k] for k in BATCH_KEYS}
