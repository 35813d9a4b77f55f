"""What a spike's cause is, said from evidence rather than guessed: the class mix of the
rows the batch quarantined (its own counters), its largest error groups (the summary's
cells), and whether the transform version it ran is new (the batches before it).

The verdict blames the transform only when most rows failed on code errors *and* the
version is new; data errors point at the source that sent them; transient errors at
whatever was down while the batch ran. The same sentence reaches the banner, ``report``
and ``stats --json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from sqlalchemy import Connection, func, select

from triage_app.core.db import DeadLetterCount, signature_texts
from triage_app.core.trends.spikes import SpikeCheck
from triage_app.core.vocabulary import CLASSES, BatchKind, ErrorClass, plural


class BatchCounters(Protocol):
    """What a cause reads of a batch (``model.BatchPoint``, which holds a cause in each
    ``Spike``: named by shape, so the two modules do not import each other)."""

    @property
    def batch_id(self) -> str: ...
    @property
    def source_name(self) -> str: ...
    @property
    def transform(self) -> str: ...
    @property
    def by_class(self) -> dict[str, int]: ...


TOP_SIGNATURES = 3  # the error groups a cause names
MOST = 0.5  # a class holding more than this share of the rows is the spike's class


class Verdict(StrEnum):
    RELEASE = "release"  # code errors, through a version new in this batch: the transform
    CODE = "code"  # code errors through a version that ran clean before: new input
    DATA = "data"  # the source sent rows that fail a check
    TRANSIENT = "transient"  # something was down while the batch ran
    MIXED = "mixed"  # no class holds most of the rows


@dataclass(frozen=True)
class GroupCount:
    """One error group's rows in the spiking batch."""

    signature: str
    error_class: str
    count: int


@dataclass(frozen=True)
class SpikeCause:
    """The evidence about one spiking batch, and the verdict it supports."""

    batch_id: str
    source_name: str
    transform: str
    by_class: dict[str, int]  # the batch's quarantined rows by class, from its counters
    top: tuple[GroupCount, ...] = ()  # its largest error groups (rows the store still holds)
    # No batch before it went through ``transform``.
    first_use: bool = False
    # The version the last batch before it without a spike ran, of the same transform
    # name (None: there was none).
    previous_version: str | None = None

    @property
    def quarantined(self) -> int:
        return sum(self.by_class.values())

    @property
    def main_class(self) -> str | None:
        """The class of more than half the rows, or None."""
        total = self.quarantined
        for cls in CLASSES:
            if total and self.by_class.get(cls, 0) > MOST * total:
                return cls
        return None

    @property
    def main_rows(self) -> int:
        """The rows of the main class (0 without one)."""
        return self.by_class.get(self.main_class or "", 0)

    @property
    def same_check(self) -> GroupCount | None:
        """The largest data group: the check the source's rows fail most."""
        return next((g for g in self.top if g.error_class == ErrorClass.DATA), None)

    @property
    def new_version(self) -> bool:
        """The version is new: first used in this batch, or not the one the previous
        normal batch ran."""
        if self.first_use:
            return True
        return self.previous_version is not None and self.previous_version != self.transform

    @property
    def verdict(self) -> Verdict:
        main = self.main_class
        if main == ErrorClass.CODE:
            return Verdict.RELEASE if self.new_version else Verdict.CODE
        if main == ErrorClass.DATA:
            return Verdict.DATA
        if main == ErrorClass.TRANSIENT:
            return Verdict.TRANSIENT
        return Verdict.MIXED

    def mix(self) -> str:
        """The class mix, largest first: "code 180, data 20"."""
        parts = sorted(
            ((n, cls) for cls, n in self.by_class.items() if n), key=lambda p: (-p[0], p[1])
        )
        return ", ".join(f"{cls} {n:,}" for n, cls in parts) or "none"

    def version_said(self) -> str:
        """What changed in the transform, as a fact (no blame)."""
        t = self.transform
        if self.first_use:
            before = f" (the batches before ran {self.previous_version})"
            return f"{t} is new: this batch is the first through it" + (
                before if self.previous_version else ""
            )
        if self.new_version:
            return f"{t} is new since the previous normal batch, which ran {self.previous_version}"
        return f"{t} is not new: it ran earlier batches without a spike"

    def top_said(self) -> str:
        """The largest error groups, with their counts."""
        return "; ".join(f"{g.signature} ({g.count:,})" for g in self.top)

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "by_class": self.by_class,
            "transform": self.transform,
            "new_version": self.new_version,
            "first_use": self.first_use,
            "previous_version": self.previous_version,
            "source_name": self.source_name,
            "top": [
                {"signature": g.signature, "class": g.error_class, "count": g.count}
                for g in self.top
            ],
            "sentence": self.sentence(),
        }

    def short(self) -> str:
        """The verdict in one sentence, for a banner (``sentence`` has the evidence)."""
        v, t = self.verdict, self.transform
        n, main, same = self.quarantined, self.main_rows, self.same_check
        of = f"all {n:,}" if main == n else f"{main:,} of {n:,}"
        if v is Verdict.DATA:
            what = (
                f"{plural(same.count, 'row')} that fail the same check ({same.signature})"
                if same is not None
                else f"{plural(main, 'row')} that fail its checks"
            )
            release = "is new, but these are data errors" if self.new_version else "is not new"
            return f"The source sent {what}; {t} {release}."
        if v is Verdict.RELEASE:
            return f"Code errors ({of}) and {t} is new: the release likely broke the transform."
        if v is Verdict.CODE:
            return f"Code errors ({of}) through {t}, which is not new: likely new input."
        if v is Verdict.TRANSIENT:
            return f"Transient errors ({of}): something was down; a re-drive should load them."
        return f"No one class holds most rows ({self.mix()})."

    def sentence(self) -> str:
        """The cause, in one or two sentences a lead can forward."""
        n, v, main, same = self.quarantined, self.verdict, self.main_rows, self.same_check
        of = (
            f"All {n:,} quarantined rows"
            if main == n
            else f"{main:,} of the {n:,} quarantined rows"
        )
        top = self.top_said()
        largest = f" Largest: {top}." if top else ""
        if v is Verdict.DATA:
            if same is not None:
                said = (
                    f"the source sent {plural(same.count, 'row')} that fail the same check "
                    f"({same.signature})"
                )
                rest = main - same.count
                if rest > 0:
                    said += f", and {rest:,} more with other data errors"
            else:  # the rows are gone (purged): the counters still say the class
                said = f"the source sent {plural(main, 'row')} that fail its checks"
            return (
                f"{of} are data errors: {said}, in {self.source_name}. Ask the source's "
                f"owners, not the developers ({self.version_said()})."
            )
        if v is Verdict.RELEASE:
            return (
                f"{of} are code errors and {self.version_said()}: the release of "
                f"{self.transform} likely broke the transform.{largest}"
            )
        if v is Verdict.CODE:
            return (
                f"{of} are code errors, but {self.version_said()}: input from "
                f"{self.source_name} that the transform does not handle is more likely than "
                f"a release.{largest}"
            )
        if v is Verdict.TRANSIENT:
            return (
                f"{of} are transient errors (timeouts, lost connections): something the "
                "batch needed was down while it ran; a re-drive should load them once it is "
                f"back.{largest}"
            )
        return (
            f"No one class holds most of the {n:,} rows ({self.mix()}); "
            f"{self.version_said()}.{largest}"
        )


def _name(transform: str) -> str:
    return transform.rpartition("@")[0] or transform


def spike_causes(
    conn: Connection,
    batches: Sequence[BatchCounters],
    checks: Sequence[SpikeCheck],
) -> dict[str, SpikeCause]:
    """The cause of each spike among ``batches`` (``BatchPoint``s, oldest first, one check
    each), by batch id; each cause names the batch's largest error groups from the
    summary's cells."""
    # An import's spike is one of volume, from a pipeline the desk does not run: the
    # evidence of versions and releases is not the desk's to give (model.Spike says what).
    spiking = [
        i
        for i, c in enumerate(checks)
        if c.is_spike and getattr(batches[i], "kind", "file") != BatchKind.IMPORT
    ]
    if not spiking:
        return {}
    tops = _top_groups(conn, [batches[i].batch_id for i in spiking])
    out: dict[str, SpikeCause] = {}
    for i in spiking:
        b = batches[i]
        earlier = batches[:i]
        used_before = any(e.transform == b.transform for e in earlier)
        previous = next(
            (
                e.transform
                for e, c in zip(reversed(earlier), reversed(checks[:i]), strict=True)
                if not c.is_spike and _name(e.transform) == _name(b.transform)
            ),
            None,
        )
        top = tops.get(b.batch_id, ())
        out[b.batch_id] = SpikeCause(
            b.batch_id,
            b.source_name,
            b.transform,
            dict(b.by_class),
            top,
            first_use=not used_before,
            previous_version=previous,
        )
    return out


def _top_groups(conn: Connection, batch_ids: Sequence[str]) -> dict[str, tuple[GroupCount, ...]]:
    """Each batch's largest error groups, from the summary's cells (no row is read)."""
    t = DeadLetterCount
    stmt = (
        select(t.batch_id, t.error_class, t.signature_id, func.sum(t.n))
        .where(t.batch_id.in_(list(batch_ids)))
        .group_by(t.batch_id, t.error_class, t.signature_id)
    )
    rows = [(b, c, int(s), int(n)) for b, c, s, n in conn.execute(stmt) if n]
    text = signature_texts(conn, {s for _b, _c, s, _n in rows})
    per: dict[str, list[GroupCount]] = {}
    for b, c, s, n in rows:
        per.setdefault(b, []).append(GroupCount(text[s], c, n))
    return {
        b: tuple(sorted(gs, key=lambda g: (-g.count, g.signature))[:TOP_SIGNATURES])
        for b, gs in per.items()
    }
