"""The batches' part of Trends: each batch's quarantine rate, from the batch's own counters,
and the spike rule over them. It reads the batches table alone, no dead letter, so the
stats cache refreshes it after a batch that quarantined nothing without counting anything
else again (``stats_cache.py``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, func, select

from triage_app.core.clock import day_start
from triage_app.core.db import Batch
from triage_app.core.trends.causes import spike_causes
from triage_app.core.trends.model import BatchPoint, Trends
from triage_app.core.trends.spikes import SpikeCheck, SpikeRule, check_spikes
from triage_app.core.vocabulary import BatchKind

if TYPE_CHECKING:  # the filter is only named: a clean batch's re-stamp loads no filter code
    from triage_app.core.deadletters import DeadLetterFilter

# The keys of ``Trends.to_json()`` made from the batches alone (per_batch and the checks).
BATCH_KEYS = ("per_batch", "spikes", "held")


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
            b.held,
            b.kind,
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
            int(r.held or 0),
            r.kind,
        )
        for r in conn.execute(stmt)
    )


def per_batch_of(
    conn: Connection, f: DeadLetterFilter, since: dt.date | None = None
) -> tuple[BatchPoint, ...]:
    """The batches as ``per_batch`` has them, each counting only the quarantined rows the
    table's filter chooses that the store still holds (by class: from the summary's cells,
    or the rows for a filter the cells cannot answer)."""
    from triage_app.core.db import DeadLetter, DeadLetterCount
    from triage_app.core.deadletters import cell_clauses, filter_clauses

    on_cells = cell_clauses(f)
    if on_cells is not None:
        t = DeadLetterCount
        stmt = select(t.batch_id, t.error_class, func.sum(t.n)).where(*on_cells)
        stmt = stmt.group_by(t.batch_id, t.error_class)
    else:
        dl = DeadLetter
        stmt = select(dl.batch_id, dl.error_class, func.count()).where(*filter_clauses(f))
        stmt = stmt.group_by(dl.batch_id, dl.error_class)
    chosen: dict[str, dict[str, int]] = {}
    for batch_id, cls, n in conn.execute(stmt):
        chosen.setdefault(batch_id, {})[cls] = int(n)
    out = []
    for b in per_batch(conn, since):
        by_class = {c: chosen.get(b.batch_id, {}).get(c, 0) for c in b.by_class}
        out.append(replace(b, quarantined=sum(by_class.values()), by_class=by_class))
    return tuple(out)


def spike_checks(batches: tuple[BatchPoint, ...], rule: SpikeRule) -> tuple[SpikeCheck, ...]:
    """The spike rule over the batches' quarantine rates, one check per batch. A reprocess
    run is left unjudged and out of the others' baselines (BatchPoint.kind). An import from
    a dead-letter queue or table is all dead letters, so its rate says nothing: it is
    judged by its count against the imports of the same connector before it (seed 002's
    monitoring: a dead-letter queue's volume rising drastically)."""
    judged = [i for i, b in enumerate(batches) if b.kind not in _NOT_BY_RATE]
    out = [SpikeCheck(i, b.rate, None, None, False) for i, b in enumerate(batches)]
    for i, check in zip(judged, rule.check([batches[i].rate for i in judged]), strict=True):
        out[i] = replace(check, index=i)
    per_source: dict[str, list[int]] = {}
    for i, b in enumerate(batches):
        if b.kind == BatchKind.IMPORT:
            per_source.setdefault(b.transform, []).append(i)
    for indexes in per_source.values():
        counts = [float(batches[i].quarantined) for i in indexes]
        checks = check_spikes(counts, rule.factor, rule.window, min_baseline=1.0)
        for i, check in zip(indexes, checks, strict=True):
            out[i] = replace(check, index=i)
    return tuple(out)


# Batches the quarantine-rate rule does not judge (see spike_checks).
_NOT_BY_RATE = (BatchKind.REPROCESS, BatchKind.IMPORT)


def batches_json(conn: Connection, rule: SpikeRule | None = None) -> dict[str, Any]:
    """``Trends.to_json()``'s batch keys (``BATCH_KEYS``) for the whole store, as
    ``compute_trends`` makes them, without counting a dead letter."""
    rule = rule or SpikeRule()
    batches = per_batch(conn)
    checks = spike_checks(batches, rule)
    causes = spike_causes(conn, batches, checks)
    whole = Trends(None, (), (), batches, (), (), checks, rule, causes=causes).to_json()
    return {k: whole[k] for k in BATCH_KEYS}
