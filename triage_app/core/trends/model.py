"""What Trends shows, as values that cross layers and threads: frozen dataclasses of plain
types, counted in ``counting.py`` and drawn by the window and ``report``."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from triage_app.core.bilingual import speech
from triage_app.core.clock import iso
from triage_app.core.locale_format import format_date, format_int, format_number, format_percent
from triage_app.core.messages import _, ngettext
from triage_app.core.trends.causes import SpikeCause, class_count
from triage_app.core.trends.spikes import SpikeCheck, SpikeRule
from triage_app.core.vocabulary import BatchKind

if TYPE_CHECKING:  # only named here: a clean batch re-stamps the stats cache with this
    # module (batches.py) and must not load the dead letters' code that counts them
    from triage_app.core.deadletters import ErrorGroup

# A spike among this many newest batches raises the banner; older ones stay in the chart.
RECENT_BATCHES = 3


@dataclass(frozen=True)
class AttemptsBucket:
    """Dead letters that failed ``attempts`` times; ``parked`` of them are parked."""

    attempts: int
    total: int
    parked: int

    @property
    def not_parked(self) -> int:
        return self.total - self.parked


@dataclass(frozen=True)
class DayCount:
    """Dead letters first quarantined on ``day`` (UTC), by class."""

    day: dt.date
    by_class: dict[str, int]
    # Of these, removed from the store since by a retention purge (trends/purged.py): still
    # counted, so a purge never looks like a drop in failures.
    purged: int = 0

    @property
    def total(self) -> int:
        return sum(self.by_class.values())


@dataclass(frozen=True)
class PurgeNote:
    """One retention purge, for the charts to name: ``rows`` closed dead letters of
    ``statuses`` deleted at ``at``."""

    at: dt.datetime
    rows: int
    statuses: tuple[str, ...]

    def message(self) -> str:
        return ngettext("{n} row purged on {day}", "{n} rows purged on {day}", self.rows).format(
            n=format_int(self.rows), day=format_date(self.at.date())
        )


@dataclass(frozen=True)
class BatchPoint:
    """One batch, from its counters: what it quarantined when it ran."""

    batch_id: str
    source_name: str
    transform: str
    started_at: dt.datetime
    rows: int
    quarantined: int
    by_class: dict[str, int]
    # An all-or-nothing batch's healthy rows waiting (issue 25), never in the warehouse.
    held: int = 0
    # ``reprocess``: a run of the rows a suspect version wrote (issue 25), shown in the
    # timeline but never judged by the spike rule: its rows are the ones chosen because
    # they change or fail, so its rate says nothing about a night's input.
    kind: str = "file"

    @property
    def rate(self) -> float:
        return self.quarantined / self.rows if self.rows else 0.0


@dataclass(frozen=True)
class BacklogPoint:
    """The dead-letter queue at the end of ``day``: ``open`` (open or parked: waiting for a
    person) and ``resolved`` (re-driven, all time); plus that day's movements."""

    day: dt.date
    open: int
    resolved: int
    arrived: int
    resolved_on_day: int
    discarded_on_day: int


@dataclass(frozen=True)
class Spike:
    """A batch the spike rule flagged, with what the banner says about it."""

    batch: BatchPoint
    baseline: float
    threshold: float
    newest: bool  # among the RECENT_BATCHES newest batches: the banner shows it
    cause: SpikeCause | None = None  # the evidence and its verdict (causes.py)

    @property
    def ratio(self) -> float:
        return self.batch.rate / self.baseline if self.baseline else float("inf")

    @property
    def of_volume(self) -> bool:
        """An import's spike: judged by how many dead letters it brought, not a rate."""
        return self.batch.kind == BatchKind.IMPORT

    def _volume(self, english: bool) -> str:
        _, ngettext, lang = speech(english)
        b = self.batch
        mix = ", ".join(
            class_count(c, n, english=english, count_first=True) for c, n in b.by_class.items() if n
        )
        return ngettext(
            "Dead-letter volume spike from {source}: {n} dead letter in import {batch} ({mix}), "
            "{ratio}x the median {baseline} of the imports before it.",
            "Dead-letter volume spike from {source}: {n} dead letters in import {batch} "
            "({mix}), {ratio}x the median {baseline} of the imports before it.",
            b.quarantined,
        ).format(
            source=b.transform.partition(":")[2] or b.transform,
            n=format_int(b.quarantined, lang),
            batch=b.batch_id[:8],
            mix=mix,
            ratio=format_number(b.quarantined / max(self.baseline, 1.0), 1, lang),
            baseline=format_number(self.baseline, 0, lang),
        )

    def message(self, *, english: bool = False) -> str:
        """The spike, its numbers and its cause's sentence (``english``: as ``--json`` and
        the stats cache keep it)."""
        _, ngettext, lang = speech(english)
        b = self.batch
        if self.of_volume:
            return self._volume(english)
        values = {
            "batch": b.batch_id[:8],
            "source": b.source_name,
            "transform": b.transform,
            "rate": format_percent(b.rate, 1, lang),
            "n": format_int(b.rows, lang),
            "ratio": format_number(self.ratio, 1, lang) if self.baseline else "",
            "baseline": format_percent(self.baseline, 1, lang),
        }
        if self.baseline:
            said = ngettext(
                "Quarantine spike in batch {batch} ({source}, transform {transform}): {rate} "
                "of {n} row quarantined, {ratio}x the median {baseline} of the batches before "
                "it.",
                "Quarantine spike in batch {batch} ({source}, transform {transform}): {rate} "
                "of {n} rows quarantined, {ratio}x the median {baseline} of the batches "
                "before it.",
                b.rows,
            )
        else:  # after clean batches a ratio says nothing ("infx"): the median does
            said = ngettext(
                "Quarantine spike in batch {batch} ({source}, transform {transform}): {rate} "
                "of {n} row quarantined, where the batches before it quarantined almost "
                "nothing (median 0%).",
                "Quarantine spike in batch {batch} ({source}, transform {transform}): {rate} "
                "of {n} rows quarantined, where the batches before it quarantined almost "
                "nothing (median 0%).",
                b.rows,
            )
        said = said.format(**values)
        if self.cause is None:
            return said
        return f"{said} {self.cause.sentence(english=english)}"

    def short_message(self) -> str:
        """Two lines for the banner: the batch, its rate against the usual, the verdict."""
        b = self.batch
        if self.of_volume:
            return self._volume(False)
        values = {
            "batch": b.batch_id[:8],
            "source": b.source_name,
            "transform": b.transform,
            "rate": format_percent(b.rate),
            "ratio": format_number(self.ratio, 1) if self.baseline else "",
            "baseline": format_percent(self.baseline),
        }
        if self.baseline:
            said = _(
                "Spike in batch {batch} ({source}, {transform}): {rate} quarantined, {ratio}x "
                "the usual {baseline}."
            )
        else:
            said = _(
                "Spike in batch {batch} ({source}, {transform}): {rate} quarantined, where "
                "the batches before quarantined almost nothing."
            )
        said = said.format(**values)
        return f"{said} {self.cause.short()}" if self.cause is not None else said


@dataclass(frozen=True)
class Trends:
    """Everything the Trends tab, ``report`` and ``stats --json`` show."""

    since: dt.date | None
    attempts: tuple[AttemptsBucket, ...]
    per_day: tuple[DayCount, ...]
    per_batch: tuple[BatchPoint, ...]
    backlog: tuple[BacklogPoint, ...]
    groups: tuple[ErrorGroup, ...]
    checks: tuple[SpikeCheck, ...]  # one per batch in ``per_batch``, same order
    rule: SpikeRule = field(default_factory=SpikeRule)
    # The cube rolled up (from ``since`` on): class -> status -> n, attempts -> status -> n.
    by_class_status: dict[str, dict[str, int]] = field(default_factory=dict)
    by_attempts_status: dict[int, dict[str, int]] = field(default_factory=dict)
    # Retention purges, oldest first; their rows are added back into ``per_day`` and
    # ``backlog`` (the cube and the error groups count the rows the store still holds).
    purges: tuple[PurgeNote, ...] = ()
    # Each spike's cause, by batch id (causes.py).
    causes: dict[str, SpikeCause] = field(default_factory=dict)

    @property
    def spikes(self) -> tuple[Spike, ...]:
        n = len(self.per_batch)
        return tuple(
            Spike(
                self.per_batch[c.index],
                c.baseline or 0.0,
                c.threshold or 0.0,
                c.index >= n - RECENT_BATCHES,
                self.causes.get(self.per_batch[c.index].batch_id),
            )
            for c in self.checks
            if c.is_spike
        )

    def banner_spike(self) -> Spike | None:
        """The newest spike among the newest batches: the one the banner names."""
        recent = [s for s in self.spikes if s.newest]
        return recent[-1] if recent else None

    def to_json(self) -> dict[str, Any]:
        return {
            "since": self.since.isoformat() if self.since else None,
            "attempts": [asdict(b) for b in self.attempts],
            "per_day": [
                {"day": d.day.isoformat(), **d.by_class, "total": d.total, "purged": d.purged}
                for d in self.per_day
            ],
            "per_batch": [
                {
                    **{k: v for k, v in asdict(b).items() if k != "started_at"},
                    "started_at": _iso_or_none(b.started_at),
                    "rate": round(b.rate, 6),
                    "spike": c.is_spike,
                    "baseline": None if c.baseline is None else round(c.baseline, 6),
                }
                for b, c in zip(self.per_batch, self.checks, strict=True)
            ],
            # All-or-nothing batches' rows waiting (issue 25), never in the warehouse.
            "held": {
                "rows": sum(b.held for b in self.per_batch),
                "batches": sum(1 for b in self.per_batch if b.held),
            },
            "backlog": [{**asdict(p), "day": p.day.isoformat()} for p in self.backlog],
            "error_groups": [g.to_trends_json() for g in self.groups],
            "attempts_by_status": {str(a): st for a, st in self.by_attempts_status.items()},
            "spike_rule": asdict(self.rule),
            "purges": [
                {"at": iso(p.at), "rows": p.rows, "statuses": list(p.statuses)} for p in self.purges
            ],
            "spikes": [
                {
                    "batch_id": s.batch.batch_id,
                    "transform": s.batch.transform,
                    "rate": round(s.batch.rate, 6),
                    "baseline": round(s.baseline, 6),
                    "of_volume": s.of_volume,
                    "recent": s.newest,
                    "message": s.message(english=True),  # locale-free, like all of it
                    "cause": None if s.cause is None else s.cause.to_json(),
                }
                for s in self.spikes
            ],
        }


def _iso_or_none(t: dt.datetime | None) -> str | None:
    return iso(t) or None
