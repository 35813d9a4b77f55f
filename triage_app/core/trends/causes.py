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

from triage_app.core.bilingual import speech
from triage_app.core.db import DeadLetterCount, signature_texts
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_
from triage_app.core.trends.spikes import SpikeCheck
from triage_app.core.vocabulary import CLASSES, BatchKind, ErrorClass


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


# A class and its count, "code 180" (the classes are keys; a store may hold another).
_CLASS_COUNT = {
    ErrorClass.DATA.value: N_("data {n}"),
    ErrorClass.CODE.value: N_("code {n}"),
    ErrorClass.TRANSIENT.value: N_("transient {n}"),
}
# A count and its class, "180 code".
_COUNT_CLASS = {
    ErrorClass.DATA.value: N_("{n} data"),
    ErrorClass.CODE.value: N_("{n} code"),
    ErrorClass.TRANSIENT.value: N_("{n} transient"),
}


def class_count(cls: str, n: int, *, english: bool = False, count_first: bool = False) -> str:
    """``code 180`` (``count_first``: ``180 code``), the class said in the user's language."""
    _, _ngettext, lang = speech(english)
    table = _COUNT_CLASS if count_first else _CLASS_COUNT
    label = table.get(cls)
    if label is None:
        return f"{format_int(n, lang)} {cls}" if count_first else f"{cls} {format_int(n, lang)}"
    return _(label).format(n=format_int(n, lang))


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

    def mix(self, *, english: bool = False) -> str:
        """The class mix, largest first: "code 180, data 20"."""
        _ = speech(english)[0]
        parts = sorted(
            ((n, cls) for cls, n in self.by_class.items() if n), key=lambda p: (-p[0], p[1])
        )
        said = [class_count(cls, n, english=english) for n, cls in parts]
        return ", ".join(said) or _("none")

    def version_said(self, *, english: bool = False) -> str:
        """What changed in the transform, as a fact (no blame)."""
        _ = speech(english)[0]
        t, before = self.transform, self.previous_version
        if self.first_use:
            if before:
                return _(
                    "{transform} is new: this batch is the first through it (the batches "
                    "before ran {previous})"
                ).format(transform=t, previous=before)
            return _("{transform} is new: this batch is the first through it").format(transform=t)
        if self.new_version:
            return _(
                "{transform} is new since the previous normal batch, which ran {previous}"
            ).format(transform=t, previous=before)
        return _("{transform} is not new: it ran earlier batches without a spike").format(
            transform=t
        )

    def top_said(self, *, english: bool = False) -> str:
        """The largest error groups, with their counts."""
        lang = speech(english)[2]
        return "; ".join(f"{g.signature} ({format_int(g.count, lang)})" for g in self.top)

    def to_json(self) -> dict[str, Any]:
        # English, whatever the user's language: ``--json`` and the stats cache are
        # locale-free (the cache is shared by every user of the store).
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
            "sentence": self.sentence(english=True),
        }

    def short(self, *, english: bool = False) -> str:
        """The verdict in one sentence, for a banner (``sentence`` has the evidence)."""
        _, ngettext, lang = speech(english)
        v, t = self.verdict, self.transform
        n, main, same = self.quarantined, self.main_rows, self.same_check
        counts = {"n": format_int(n, lang), "main": format_int(main, lang), "transform": t}
        if v is Verdict.DATA:
            if same is not None:
                rows = {"n": format_int(same.count, lang), "check": same.signature}
                if self.new_version:
                    text = ngettext(
                        "The source sent {n} row that fails the same check ({check}); "
                        "{transform} is new, but this is a data error.",
                        "The source sent {n} rows that fail the same check ({check}); "
                        "{transform} is new, but these are data errors.",
                        same.count,
                    )
                else:
                    text = ngettext(
                        "The source sent {n} row that fails the same check ({check}); "
                        "{transform} is not new.",
                        "The source sent {n} rows that fail the same check ({check}); "
                        "{transform} is not new.",
                        same.count,
                    )
                return text.format(transform=t, **rows)
            if self.new_version:
                text = ngettext(
                    "The source sent {n} row that fails its checks; {transform} is new, but "
                    "this is a data error.",
                    "The source sent {n} rows that fail its checks; {transform} is new, but "
                    "these are data errors.",
                    main,
                )
            else:
                text = ngettext(
                    "The source sent {n} row that fails its checks; {transform} is not new.",
                    "The source sent {n} rows that fail its checks; {transform} is not new.",
                    main,
                )
            return text.format(n=format_int(main, lang), transform=t)
        every = main == n
        if v is Verdict.RELEASE:
            if every:
                text = ngettext(
                    "A code error (the only row) and {transform} is new: the release likely "
                    "broke the transform.",
                    "Code errors (all {n}) and {transform} is new: the release likely broke "
                    "the transform.",
                    n,
                )
            else:
                text = _(
                    "Code errors ({main} of {n}) and {transform} is new: the release likely "
                    "broke the transform."
                )
            return text.format(**counts)
        if v is Verdict.CODE:
            if every:
                text = ngettext(
                    "A code error (the only row) through {transform}, which is not new: "
                    "likely new input.",
                    "Code errors (all {n}) through {transform}, which is not new: likely new "
                    "input.",
                    n,
                )
            else:
                text = _(
                    "Code errors ({main} of {n}) through {transform}, which is not new: "
                    "likely new input."
                )
            return text.format(**counts)
        if v is Verdict.TRANSIENT:
            if every:
                text = ngettext(
                    "A transient error (the only row): something was down; a re-drive "
                    "should load it.",
                    "Transient errors (all {n}): something was down; a re-drive should load them.",
                    n,
                )
            else:
                text = _(
                    "Transient errors ({main} of {n}): something was down; a re-drive "
                    "should load them."
                )
            return text.format(**counts)
        return _("No one class holds most rows ({mix}).").format(mix=self.mix(english=english))

    def _rows(self, english: bool) -> str:
        """The rows of the main class, as the subject of ``sentence``: "All 200 quarantined
        rows", "180 of the 200 quarantined rows"."""
        _, ngettext, lang = speech(english)
        n, main = self.quarantined, self.main_rows
        if main == n:
            text = ngettext("The {n} quarantined row", "All {n} quarantined rows", n)
        else:  # more than half, and not all: at least 2 of at least 3
            text = ngettext(
                "{main} of the {n} quarantined rows", "{main} of the {n} quarantined rows", main
            )
        return text.format(n=format_int(n, lang), main=format_int(main, lang))

    def _data_said(self, english: bool) -> str:
        """What the source sent, for a data verdict's sentence."""
        _, ngettext, lang = speech(english)
        main, same = self.main_rows, self.same_check
        if same is None:  # the rows are gone (purged): the counters still say the class
            return ngettext(
                "the source sent {n} row that fails its checks",
                "the source sent {n} rows that fail its checks",
                main,
            ).format(n=format_int(main, lang))
        rest = main - same.count
        values = {
            "n": format_int(same.count, lang),
            "check": same.signature,
            "rest": format_int(rest, lang),
        }
        if rest > 0:
            text = ngettext(
                "the source sent {n} row that fails the same check ({check}), and {rest} "
                "more with other data errors",
                "the source sent {n} rows that fail the same check ({check}), and {rest} "
                "more with other data errors",
                same.count,
            )
        else:
            text = ngettext(
                "the source sent {n} row that fails the same check ({check})",
                "the source sent {n} rows that fail the same check ({check})",
                same.count,
            )
        return text.format(**values)

    def sentence(self, *, english: bool = False) -> str:
        """The cause, in one or two sentences a lead can forward (``english``: as ``--json``
        and the stats cache keep it)."""
        _, ngettext, lang = speech(english)
        n, v, main = self.quarantined, self.verdict, self.main_rows
        values = {
            "rows": self._rows(english),
            "version": self.version_said(english=english),
            "transform": self.transform,
            "source": self.source_name,
        }
        if v is Verdict.DATA:
            return ngettext(
                "{rows} is a data error: {said}, in {source}. Ask the source's owners, not "
                "the developers ({version}).",
                "{rows} are data errors: {said}, in {source}. Ask the source's owners, not "
                "the developers ({version}).",
                main,
            ).format(said=self._data_said(english), **values)
        if v is Verdict.RELEASE:
            text = ngettext(
                "{rows} is a code error and {version}: the release of {transform} likely "
                "broke the transform.",
                "{rows} are code errors and {version}: the release of {transform} likely "
                "broke the transform.",
                main,
            ).format(**values)
        elif v is Verdict.CODE:
            text = ngettext(
                "{rows} is a code error, but {version}: input from {source} that the "
                "transform does not handle is more likely than a release.",
                "{rows} are code errors, but {version}: input from {source} that the "
                "transform does not handle is more likely than a release.",
                main,
            ).format(**values)
        elif v is Verdict.TRANSIENT:
            text = ngettext(
                "{rows} is a transient error (a timeout, a lost connection): something the "
                "batch needed was down while it ran; a re-drive should load it once it is "
                "back.",
                "{rows} are transient errors (timeouts, lost connections): something the "
                "batch needed was down while it ran; a re-drive should load them once it "
                "is back.",
                main,
            ).format(**values)
        else:
            text = ngettext(
                "No one class holds most of the {n} row ({mix}); {version}.",
                "No one class holds most of the {n} rows ({mix}); {version}.",
                n,
            ).format(n=format_int(n, lang), mix=self.mix(english=english), **values)
        top = self.top_said(english=english)
        if top:
            text += " " + _("Largest: {groups}.").format(groups=top)
        return text


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
