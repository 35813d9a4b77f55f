"""The report's morning digest (issue 24): what happened since a moment (last evening, say)
— the dead letters quarantined since then, the batches that ran (and which of them
spiked), the error groups first seen since then and the older ones that grew.

Two things a period's Trends cannot say alone, so a report over a few days still says them
right: a batch is judged against the batches before it even when those fall before the
period (``judged_on_history``), and a group's first failure, oldest open row and growth
are those of the whole store (``Digest.history``), not of the period's rows.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from sqlalchemy import func, select

from triage_app.core.clock import day_start
from triage_app.core.db import DeadLetter, Workspace, signature_texts
from triage_app.core.deadletters import ErrorGroup, error_groups
from triage_app.core.trends.batches import per_batch, spike_checks
from triage_app.core.trends.causes import spike_causes
from triage_app.core.trends.model import BatchPoint, Spike, Trends
from triage_app.core.vocabulary import CLASSES

GroupKey = tuple[str, str]  # (class, signature)


@dataclass(frozen=True)
class Digest:
    """What happened from ``since`` (naive UTC) on."""

    since: dt.datetime
    by_class: dict[str, int]  # dead letters first failed since then, by class
    batches: tuple[BatchPoint, ...]  # batches started since then, oldest first
    spikes: tuple[Spike, ...]  # those of them the spike rule flagged, with their cause
    new_groups: tuple[ErrorGroup, ...]  # first seen since then, largest first
    grew: tuple[tuple[ErrorGroup, int], ...]  # older groups, with their rows since then
    # Every group of the store, as the whole store has it (first seen, oldest open, growth).
    whole: dict[GroupKey, ErrorGroup]

    @property
    def dead_letters(self) -> int:
        return sum(self.by_class.values())

    def history(self, g: ErrorGroup) -> ErrorGroup:
        """``g`` (a group of a period) with its whole-store owner, first failure and batch,
        oldest open row and growth; its counts stay the period's."""
        whole = self.whole.get((g.error_class, g.signature))
        if whole is None:
            return g
        return replace(whole, count=g.count, by_status=g.by_status, last_seen=g.last_seen)


def judged_on_history(ws: Workspace, t: Trends) -> Trends:
    """``t`` with each of its batches judged by the spike rule against the batches before
    it, those before ``t.since`` too: a report from yesterday on still sees last night's
    spike (the rule needs a week of batches before a batch to judge it)."""
    if t.since is None:
        return t
    with ws.store.connect() as conn:
        every = per_batch(conn)
        checks = spike_checks(every, t.rule)
        causes = spike_causes(conn, every, checks)
    start = day_start(t.since)
    before = sum(1 for b in every if b.started_at < start)
    kept = tuple(replace(c, index=c.index - before) for c in checks[before:])
    return replace(t, per_batch=every[before:], checks=kept, causes=causes)


def compute_digest(ws: Workspace, since: dt.datetime, t: Trends) -> Digest:
    """The digest from ``since`` on. ``t``: the report's Trends, covering ``since``'s day
    (its batches judged as ``judged_on_history`` does)."""
    dl = DeadLetter
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(dl.error_class, dl.signature_id, func.count())
            .where(dl.first_failed_at >= since)
            .group_by(dl.error_class, dl.signature_id)
        ).all()
        texts = signature_texts(conn, {int(s) for _c, s, _n in rows})
        groups = error_groups(conn)
    arrived: dict[GroupKey, int] = {(str(c), texts[int(s)]): int(n) for c, s, n in rows}
    by_class = {c: n for c in CLASSES if (n := sum(v for k, v in arrived.items() if k[0] == c))}
    new = tuple(g for g in groups if g.first_seen is not None and g.first_seen >= since)
    old = [g for g in groups if g not in new]
    grew = [(g, n) for g in old if (n := arrived.get((g.error_class, g.signature), 0))]
    grew.sort(key=lambda p: -p[1])
    return Digest(
        since,
        by_class,
        tuple(b for b in t.per_batch if b.started_at >= since),
        tuple(s for s in t.spikes if s.batch.started_at >= since),
        new,
        tuple(grew),
        {(g.error_class, g.signature): g for g in groups},
    )
