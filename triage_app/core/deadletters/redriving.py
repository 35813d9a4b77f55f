"""Re-drive: run chosen dead letters through a chosen transform version.

Each chunk of rows is first claimed (``claims.claim``): a lease no other re-drive,
edit or status change can cross, so two stewards re-driving the same rows never resolve
one twice, and the warehouse gets exactly the payload that resolves the row. A row another
re-drive holds is reported ``taken`` and left to it.

Success upserts the warehouse and resolves the dead letter (kept as history); failure
counts an attempt and stores the latest error; at the attempt limit the row is parked.
The warehouse commits first, then the store: a crash between the two leaves the dead
letter open (its lease runs out), and the next re-drive upserts the same row again, which
changes nothing.

A whole batch re-drives at batch speed: the ids are read a page at a time (never all at
once), claim chunks grow from ``CHUNK`` to ``MAX_CHUNK`` rows (the first results come soon,
then each transaction carries many rows), a JSONL payload goes through the transform's
``fast`` path on its raw bytes as in a batch, the warehouse is upserted in blocks and the
outcomes and their events are written set-wise (``settling.settle``). Progress and
Cancel are per chunk; a killed re-drive leaves nothing a re-run does not finish.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson
from sqlalchemy import select

from triage_app.core.batch import (
    Failure,
    atomic_batches,
    csv_header_names,
    decode_payload,
    failure_from,
    failure_from_message,
)
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    Batch,
    DeadLetter,
    Loaded,
    WarehouseWriter,
    Workspace,
    actor_for,
    batch_versions,
    rows_before,
    take_back,
    working_payload,
)
from triage_app.core.deadletters import claims, leases, settling
from triage_app.core.deadletters.filters import DeadLetterFilter, filtered
from triage_app.core.deadletters.ladder import Ladders
from triage_app.core.deadletters.queries import count_dead_letters, not_found
from triage_app.core.deadletters.retention import id_ranges
from triage_app.core.deadletters.said import Said, both, english, headed, said, status_word
from triage_app.core.deadletters.seen_rows import SeenRows, SeenRowsBuilder
from triage_app.core.deadletters.sinks import Parcel, Sink
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int, format_percent
from triage_app.core.masking import mask_text, mask_value, personal_values
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import Ladder, RetryPolicy, is_transient, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import (
    CLOSED,
    SUCCEEDED,
    ErrorClass,
    PayloadKind,
    RedriveOutcome,
    Status,
    named_ids,
)

DEFAULT_MAX_ATTEMPTS = 3
# How long a re-drive waits, one try after another, for rows another transaction held
# locked when their chunk was claimed (seconds).
BUSY_WAITS = (0.05, 0.25, 1.0)
CHUNK = 500  # the first claim chunk, and a dry run's chunk
MAX_CHUNK = 8_000  # claim chunks double up to this (within SQLite's parameter limit)
# Per-row outcomes a summary keeps by default, those that did not succeed first; the counts
# cover every row. Keeping all of a million-row re-drive's took 280 MB.
KEPT_RESULTS = 2_000


@dataclass(frozen=True)
class RedriveResult:
    id: int
    line: int
    outcome: RedriveOutcome
    # The transform's error (data: as it said it), or why the row was not attempted or not
    # delivered (a ``Said``: shown in the reader's language, English in ``--json``).
    error: str | None = None
    row: dict[str, Any] | None = None  # the warehouse row it produces (dry run)

    def to_json(self) -> dict[str, Any]:
        # By hand rather than asdict: a whole batch's results are written at once.
        d: dict[str, Any] = {
            "id": self.id,
            "line": self.line,
            "outcome": self.outcome,
            "error": english(self.error),
        }
        if self.row is not None:
            d["row"] = dict(self.row)
        return d


@dataclass(frozen=True)
class RedriveSummary:
    transform: str
    dry_run: bool
    attempted: int
    succeeded: int
    failed: int
    parked: int
    results: tuple[RedriveResult, ...]  # by id; all of them, or those kept (see more_results)
    cancelled: bool = False
    taken: int = 0  # held by another re-drive: left to it
    lapsed: int = 0  # its own lease ran out before the outcome was written: left as it is
    skipped: int = 0  # resolved or discarded already
    more_results: int = 0  # outcomes counted but not kept in ``results``
    # Why a guarded re-drive stopped by itself, and how far it got (a ``Said``).
    stopped: str | None = None
    # A re-drive to a sink (a broker, an outside table): where, and the rows it did not
    # confirm (left open, each with why).
    destination: str | None = None
    undelivered: int = 0
    # A dry run: every row it would re-drive, at the version it read. Re-driving exactly
    # these (``redrive(seen=...)``) acts on what the preview showed and nothing else.
    seen: SeenRows = field(default_factory=SeenRows, compare=False, repr=False)
    # The rows not attempted, by why ("already resolved", "taken by another re-drive"): how
    # many, and the first NAMED of their ids, so that a summary names them however many
    # outcomes it keeps.
    not_attempted: dict[str, tuple[int, tuple[int, ...]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "transform": self.transform,
            "dry_run": self.dry_run,
            "attempted": self.attempted,
            "succeeded": self.succeeded,
            "failed": self.failed,
            "parked": self.parked,
            "taken": self.taken,
            "lapsed": self.lapsed,
            "cancelled": self.cancelled,
            "skipped": self.skipped,
            "results": [r.to_json() for r in self.results],
            "more_results": self.more_results,
            "stopped": english(self.stopped),
            "destination": english(self.destination),
            "undelivered": self.undelivered,
        }

    def describe(self) -> str:
        """The re-drive in one sentence a person reads (the window shows it, the CLI prints
        it): how many, through which version, each outcome in the vocabulary's word
        (``resolved``, ``failed``, ``parked``; a dry run's ``would succeed``), the rows not
        attempted named with why, a lapsed row's fate, and why it stopped."""
        n = self.attempted
        text = self._headline(n).format(
            n=format_int(n),
            transform=self.transform,
            destination=self.destination,
            succeeded=format_int(self.succeeded),
            failed=format_int(self.failed),
            parked=format_int(self.parked),
        )
        if self.destination and not self.dry_run:
            text += " " + _("{n} not delivered (left open).").format(n=format_int(self.undelivered))
            for r in self.results:
                if r.outcome == RedriveOutcome.UNDELIVERED:
                    text += " " + _("First not delivered: #{id}: {why}.").format(
                        id=r.id, why=r.error
                    )
                    break
        skip = (
            _("Would skip {n} ({why}): {ids}.")
            if self.dry_run
            else _("Skipped {n} ({why}): {ids}.")
        )
        for why, (count, ids) in self.not_attempted.items():
            text += " " + skip.format(n=format_int(count), why=why, ids=named_ids(ids, total=count))
        # A row whose lease ran out: what happened to it meanwhile, and to what it loaded.
        lapsed = [r for r in self.results if r.outcome == RedriveOutcome.LAPSED]
        for r in lapsed:
            text += " " + _("#{id} lapsed: {why}.").format(id=r.id, why=r.error or "")
        if self.lapsed > len(lapsed):
            text += " " + _("{n} more lapsed.").format(n=format_int(self.lapsed - len(lapsed)))
        if self.cancelled:
            text += " " + _("Cancelled: the rest were not touched.")
        if self.stopped:
            text += " " + _("Stopped by itself: {why}.").format(why=self.stopped)
        if self.dry_run:  # last, so that it reads as what holds for the whole sentence
            text += " " + _("Nothing was written.")
        return text

    def _headline(self, n: int) -> str:
        """The sentence's first part, for ``n`` rows: a preview or a re-drive, through a
        version or as they are, to a destination or the warehouse."""
        if self.dry_run:
            if self.destination and self.transform:
                return ngettext(
                    "Preview of {n} dead letter to {destination} with {transform}: "
                    "{succeeded} would succeed, {failed} would still fail.",
                    "Preview of {n} dead letters to {destination} with {transform}: "
                    "{succeeded} would succeed, {failed} would still fail.",
                    n,
                )
            if self.destination:
                return ngettext(
                    "Preview of {n} dead letter to {destination} as they are: "
                    "{succeeded} would succeed, {failed} would still fail.",
                    "Preview of {n} dead letters to {destination} as they are: "
                    "{succeeded} would succeed, {failed} would still fail.",
                    n,
                )
            if self.transform:
                return ngettext(
                    "Preview of {n} dead letter with {transform}: "
                    "{succeeded} would succeed, {failed} would still fail.",
                    "Preview of {n} dead letters with {transform}: "
                    "{succeeded} would succeed, {failed} would still fail.",
                    n,
                )
            return ngettext(
                "Preview of {n} dead letter as they are: "
                "{succeeded} would succeed, {failed} would still fail.",
                "Preview of {n} dead letters as they are: "
                "{succeeded} would succeed, {failed} would still fail.",
                n,
            )
        if self.destination and self.transform:
            return ngettext(
                "Re-drove {n} dead letter to {destination} with {transform}: "
                "{succeeded} resolved, {failed} failed ({parked} parked).",
                "Re-drove {n} dead letters to {destination} with {transform}: "
                "{succeeded} resolved, {failed} failed ({parked} parked).",
                n,
            )
        if self.destination:
            return ngettext(
                "Re-drove {n} dead letter to {destination} as they are: "
                "{succeeded} resolved, {failed} failed ({parked} parked).",
                "Re-drove {n} dead letters to {destination} as they are: "
                "{succeeded} resolved, {failed} failed ({parked} parked).",
                n,
            )
        if self.transform:
            return ngettext(
                "Re-drove {n} dead letter with {transform}: "
                "{succeeded} resolved, {failed} failed ({parked} parked).",
                "Re-drove {n} dead letters with {transform}: "
                "{succeeded} resolved, {failed} failed ({parked} parked).",
                n,
            )
        return ngettext(
            "Re-drove {n} dead letter as they are: "
            "{succeeded} resolved, {failed} failed ({parked} parked).",
            "Re-drove {n} dead letters as they are: "
            "{succeeded} resolved, {failed} failed ({parked} parked).",
            n,
        )


# A dead letter as a re-drive works on it: the same fields whether claimed or, in a dry
# run, only read.
_Item = claims.ClaimedRow


def try_payload(
    transform: Transform, payload: bytes, kind: str, csv_header: bytes | None = None
) -> tuple[dict[str, Any] | None, Failure | None]:
    """Run one payload through a transform without writing anything: the row it would
    produce, or the failure. The GUI's "Try with" uses this."""
    try:
        names = csv_header_names(csv_header) if kind == PayloadKind.CSV and csv_header else None
        row = transform.fn(decode_payload(payload, kind, names))
        row_dict = dict(zip(transform.column_names, row, strict=True))
    except TriageError as exc:
        return None, failure_from(0, payload, ValueError(str(exc)), ErrorClass.DATA)
    except Exception as exc:
        return None, failure_from(0, payload, exc)
    return row_dict, None


def _chunks(
    ws: Workspace,
    ids: Sequence[int] | None,
    where: DeadLetterFilter | None,
    sizes: Iterator[int],
) -> Iterator[tuple[int, list[int]]]:
    """The chosen ids in chunks of the given sizes, in id order, each with its offset:
    slices of ``ids``, or pages of the rows matching ``where`` read one at a time (keyset:
    after the last id seen), so that a million matches are never all in memory."""
    if ids is not None:
        start = 0
        while start < len(ids):
            n = next(sizes)
            yield start, list(ids[start : start + n])
            start += n
        return
    assert where is not None
    last = 0
    while True:
        n = next(sizes)
        page = filtered(select(DeadLetter.id), where).where(DeadLetter.id > last)
        with ws.store.connect() as conn:
            part = list(conn.execute(page.order_by(DeadLetter.id).limit(n)).scalars().all())
        if not part:
            return
        yield -1, part
        last = part[-1]


def _growing(first: int, most: int) -> Iterator[int]:
    n = first
    while True:
        yield n
        n = min(n * 2, most)


@dataclass(frozen=True)
class RedriveGuard:
    """A re-drive that protects the warehouse and stops itself (issue 13).

    ``canary``: re-drive this many rows first, alone (0: 10 or 1% of the rows, whichever is
    more), and go on only if at most ``max_failure_rate`` of them failed. While it runs,
    it stops when more than that share of its last ``window`` attempts failed. ``pace``:
    at most this many rows a second, so that a busy warehouse is not flooded."""

    canary: int | None = None
    max_failure_rate: float = 0.2
    window: int = 200
    pace: float | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.max_failure_rate <= 1:
            raise TriageError(_("the failure rate is a share between 0 and 1, e.g. 0.2"))
        if self.canary is not None and self.canary < 0:
            raise TriageError(_("the canary is a number of rows, 0 for 10 or 1%"))
        if self.pace is not None and self.pace <= 0:
            raise TriageError(_("the pace is rows per second, more than 0"))

    def canary_size(self, total: int) -> int | None:
        if self.canary is None:
            return None
        return self.canary or max(10, math.ceil(total * 0.01))


class _Watch:
    """The guard at work: the canary's verdict, the last window's failure rate, the pace."""

    def __init__(self, guard: RedriveGuard, total: int, clock: Callable[[], float]) -> None:
        self.guard = guard
        self.total = total
        self.clock = clock
        self.started = clock()
        self.canary = guard.canary_size(total)
        self.recent: deque[bool] = deque(maxlen=max(guard.window, self.canary or 0))
        self.chunks = 0

    def sizes(self, first: int, most: int) -> Iterator[int]:
        # Paced, a chunk is a quarter of a second's rows, so that the pace holds smoothly.
        cap = most if self.guard.pace is None else max(1, min(most, int(self.guard.pace / 4)))
        if self.canary:
            yield self.canary
        yield from _growing(min(first, cap), cap)

    def verdict(self, chunk: Sequence[RedriveResult], done: int) -> Said | None:
        """Why to stop after this chunk, or None to go on."""
        self.chunks += 1
        tried = [r.outcome not in SUCCEEDED for r in chunk if r.outcome not in _NOT_ATTEMPTED]
        self.recent.extend(tried)
        rate = self.guard.max_failure_rate
        left, total = self.total - done, self.total
        if self.canary and self.chunks == 1:
            failed, n = sum(tried), len(tried)
            if tried and failed / len(tried) > rate:
                return said(
                    lambda _, ngettext, lang: ngettext(
                        "the canary failed: {failed} of its {n} row failed, more than {limit}; "
                        "the other {left} were not touched",
                        "the canary failed: {failed} of its {n} rows failed, more than {limit}; "
                        "the other {left} were not touched",
                        n,
                    ).format(
                        failed=format_int(failed, lang),
                        n=format_int(n, lang),
                        limit=format_percent(rate, 0, lang),
                        left=format_int(left, lang),
                    )
                )
            return None
        window = self.recent
        if len(window) >= min(self.guard.window, self.total) and sum(window) / len(window) > rate:
            failed, n = sum(window), len(window)
            return said(
                lambda _, ngettext, lang: ngettext(
                    "{failed} of the last {n} row failed, more than {limit}: "
                    "stopped after {done} of {total}",
                    "{failed} of the last {n} rows failed, more than {limit}: "
                    "stopped after {done} of {total}",
                    n,
                ).format(
                    failed=format_int(failed, lang),
                    n=format_int(n, lang),
                    limit=format_percent(rate, 0, lang),
                    done=format_int(done, lang),
                    total=format_int(total, lang),
                )
            )
        return None

    def keep_pace(self, done: int, sleep: Callable[[float], None]) -> None:
        if self.guard.pace is None:
            return
        due = self.started + done / self.guard.pace
        wait = due - self.clock()
        if wait > 0:
            sleep(wait)


def redrive(
    ws: Workspace,
    transform_ref: str | None,
    *,
    ids: Sequence[int] | None = None,
    where: DeadLetterFilter | None = None,
    dry_run: bool = False,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    progress: Progress | None = None,
    retry: RetryPolicy | None = None,
    registry: Registry | None = None,
    actor: str | None = None,
    sleep: Callable[[float], None] = time.sleep,
    keep: int | None = KEPT_RESULTS,
    on_results: Callable[[Sequence[RedriveResult]], None] | None = None,
    guard: RedriveGuard | None = None,
    clock: Callable[[], float] = time.monotonic,
    seen: SeenRows | None = None,
    sink: Sink | None = None,
    ladder_now: dt.datetime | None = None,
) -> RedriveSummary:
    """Re-drive the dead letters named by ``ids`` or matching ``where``; with ``guard``,
    canary first, paced, and stopping itself when too many fail (``RedriveGuard``).

    ``seen``: exactly these rows, each only while it is still at the version seen (what a
    dry run's summary names as ``seen``): a row changed or purged since is skipped, and
    the summary says why. A dry run's summary carries the rows it would re-drive.

    The summary counts every row; it keeps ``keep`` rows' outcomes (None: all), those that
    did not succeed first, so that memory stays flat however many rows are re-driven.
    ``on_results`` sees each chunk's outcomes as they are settled (``--verbose`` prints
    them as they come).

    ``sink``: deliver to it rather than the warehouse (``sinks.py``); ``transform_ref``
    then may be None: the payloads go as they are, unvalidated.

    A row that fails transiently moves down the retry ladder of the version re-driven
    (``settling.settle``; ``ladder_now``: the time its next wait counts from, default now),
    whether a person or a retry pass (``retrying.retry_due``) re-drove it."""
    if transform_ref is None and sink is None:
        raise TriageError(_("choose a transform version to re-drive through"))
    transform = (registry or default_registry()).get(transform_ref) if transform_ref else None
    progress = progress or NoProgress()
    retry = retry or RetryPolicy()
    actor = actor or actor_for(ws.store)
    chosen: Sequence[int] | None = None
    if seen is not None:
        chosen = seen.ids
        total = len(seen)
    elif ids:
        chosen = sorted(set(ids))
        found: set[int] = set()
        with ws.store.connect() as conn:
            # In slices: SQLite refuses statements with more than 32,766 parameters.
            for start in range(0, len(chosen), MAX_CHUNK):
                part = chosen[start : start + MAX_CHUNK]
                found.update(
                    conn.execute(select(DeadLetter.id).where(DeadLetter.id.in_(part))).scalars()
                )
        missing = [i for i in chosen if i not in found]
        if missing:
            raise not_found(missing)
        _refuse_whole_batches(ws, chosen, None)
        total = len(chosen)
    elif where is None:
        raise TriageError(_("choose dead letters to re-drive: ids, a filter, or all open"))
    else:
        _refuse_whole_batches(ws, None, where.batch_id)
        total = count_dead_letters(ws, where)
    run = _Run(
        ws,
        transform,
        None
        if dry_run or sink is not None or transform is None
        else WarehouseWriter(ws.warehouse, transform, versions=batch_versions(ws.store)),
        max_attempts,
        retry,
        actor,
        sleep,
        leases.new_token(actor),
        registry or default_registry(),
        record=settling.RunRecord(_given(chosen, where)),
        sink=None if dry_run else sink,
        dry_run=dry_run,
        ladder=None
        if transform is not None and transform.atomic
        else Ladders(ws.store, registry).for_transform(transform),
        ladder_now=ladder_now,
    )
    tally = _Tally(keep)
    would = SeenRowsBuilder() if dry_run else None
    deferred: list[int] = []  # rows locked by another transaction when claimed
    deferred_seen: dict[int, int] = {}
    cancelled = False
    stopped: Said | None = None
    done = 0
    watch = _Watch(guard, total, clock) if guard is not None and not dry_run else None
    most = CHUNK if dry_run else MAX_CHUNK
    sizes = watch.sizes(CHUNK, most) if watch is not None else _growing(CHUNK, most)
    for start, part in _chunks(ws, chosen, where, sizes):
        if would is not None:
            items, alone = run.whole_only(_load(ws, part))
            chunk = sorted([*run.preview(items), *alone], key=lambda r: r.id)
            tried = {r.id for r in chunk if r.outcome not in _NOT_ATTEMPTED}
            for item in items:
                if item.id in tried:
                    would.add(item.id, item.version)
        else:
            expected = seen.versions_of(start, start + len(part)) if seen is not None else None
            chunk, busy = run.claimed_chunk(part, expected)
            deferred += busy
            if expected is not None:
                deferred_seen.update({i: expected[i] for i in busy})
        tally.add(chunk)
        if on_results is not None:
            on_results(chunk)
        done += len(part)
        # A filter's count was taken before the first chunk; rows may have come since.
        total = max(total, done)
        progress.update(done, total, tally.seen)
        if progress.cancelled():
            cancelled = True
            break
        if watch is not None:
            stopped = watch.verdict(chunk, done)
            if stopped is not None:
                break
            watch.keep_pace(done, sleep)
    if deferred:
        # Once more, after the rest (unless cancelled or stopped: then they stay untouched,
        # as the summary says of the rows it did not reach).
        waits = BUSY_WAITS if not cancelled and stopped is None else ()
        chunk = run.retry_busy(deferred, deferred_seen if seen is not None else None, waits)
        tally.add(chunk)
        if on_results is not None:
            on_results(chunk)
    summary = tally.summary(transform.ref if transform else "", dry_run, cancelled)
    return replace(
        summary,
        stopped=stopped,
        seen=would.build() if would else SeenRows(),
        destination=sink.name if sink is not None else None,
    )


WHOLE_BATCH_WHY = N_("all or nothing: it loads only with its whole batch (redrive --batch ID)")


def whole_batch_why() -> Said:
    return headed(
        both(WHOLE_BATCH_WHY), both(N_("all or nothing: it loads only with its whole batch"))
    )


def _refuse_whole_batches(
    ws: Workspace, chosen: Sequence[int] | None, batch_prefix: str | None
) -> None:
    """A re-drive that names rows of an all-or-nothing batch (by id, or by its batch) is
    refused in one line pointing at the whole-batch load: such a batch never loads
    piecemeal."""
    with ws.store.connect() as conn:
        if chosen is not None:
            for start in range(0, len(chosen), MAX_CHUNK):
                part = list(chosen[start : start + MAX_CHUNK])
                pairs = dict(
                    conn.execute(
                        select(DeadLetter.id, DeadLetter.batch_id).where(DeadLetter.id.in_(part))
                    ).all()
                )
                atomic = atomic_batches(conn, pairs.values())
                for i in part:
                    if pairs.get(i) in atomic:
                        raise TriageError(
                            _(
                                "dead letter {id} belongs to batch {batch}, which loads all or "
                                "nothing: it is never re-driven row by row; fix its dead "
                                "letters, then load the whole batch: "
                                "triage-app redrive --batch {batch}"
                            ).format(id=i, batch=pairs[i])
                        )
        elif batch_prefix:
            found = conn.execute(
                select(Batch.batch_id).where(
                    Batch.batch_id.startswith(batch_prefix, autoescape=True)
                )
            ).scalars()
            for b in sorted(atomic_batches(conn, found)):
                raise TriageError(
                    _(
                        "batch {batch} loads all or nothing: it is never re-driven row by "
                        "row; fix its dead letters, then load the whole batch: "
                        "triage-app redrive --batch {batch}"
                    ).format(batch=b)
                )


def _given(chosen: Sequence[int] | None, where: DeadLetterFilter | None) -> str:
    """What a re-drive was given, for its set record: the ids as [first, last] runs, or the
    filter in words (JSON text; stored, so in English)."""
    if chosen is not None:
        return orjson.dumps({"ids": id_ranges(chosen)}).decode()
    words = english(where.describe()) if where is not None else ""
    return orjson.dumps({"filter": words}).decode()


_NOT_ATTEMPTED = (RedriveOutcome.SKIPPED, RedriveOutcome.TAKEN, RedriveOutcome.LAPSED)


def already(status: str) -> Said:
    """Why a closed row is skipped: ``already resolved``."""
    return said(lambda _, _n, lang: _("already {status}").format(status=status_word(status, lang)))


def held_by(who: str) -> Said:
    """Why a row another re-drive holds is left to it: ``held by ani``."""
    return headed(both(N_("held by {who}"), who=who), both(TAKEN_WHY))


NAMED = 10  # ids a summary names per reason a row was not attempted
TAKEN_WHY = N_("taken by another re-drive")


def _head(r: RedriveResult) -> str:
    """The reason ``r`` was not attempted, without its particulars: one per kind of reason,
    not one per row (who changed each row and when stays in its result)."""
    head = getattr(r.error, "head", None)
    if head is not None:
        return str(head)
    why = r.error or r.outcome
    if r.outcome == RedriveOutcome.TAKEN and english(why).startswith("held by"):
        return both(TAKEN_WHY)
    return why.split(" (", 1)[0]


class _Tally:
    """A re-drive's counts, and the outcomes it keeps: at most ``keep`` (None: all), those
    that did not succeed before those that did."""

    def __init__(self, keep: int | None) -> None:
        self.keep = keep
        self.seen = 0
        self.counts = dict.fromkeys(RedriveOutcome, 0)
        self.problems: list[RedriveResult] = []
        self.successes: list[RedriveResult] = []
        self.not_attempted: dict[str, tuple[int, list[int]]] = {}

    def add(self, chunk: Sequence[RedriveResult]) -> None:
        self.seen += len(chunk)
        for r in chunk:
            self.counts[r.outcome] += 1
            if r.outcome in _NOT_ATTEMPTED:
                why = _head(r)
                n, ids = self.not_attempted.get(why, (0, []))
                if len(ids) < NAMED:
                    ids.append(r.id)
                self.not_attempted[why] = (n + 1, ids)
            kept = self.problems if r.outcome not in SUCCEEDED else self.successes
            if self.keep is None or len(kept) < self.keep:
                kept.append(r)

    def summary(self, transform_ref: str, dry_run: bool, cancelled: bool) -> RedriveSummary:
        n = self.counts
        attempted = self.seen - sum(n[o] for o in _NOT_ATTEMPTED)
        succeeded = sum(n[o] for o in SUCCEEDED)
        undelivered = n[RedriveOutcome.UNDELIVERED]
        kept = self.problems + self.successes
        if self.keep is not None:
            kept = kept[: self.keep]
        return RedriveSummary(
            transform=transform_ref,
            dry_run=dry_run,
            attempted=attempted,
            succeeded=succeeded,
            failed=attempted - succeeded - undelivered,
            undelivered=undelivered,
            parked=n[RedriveOutcome.PARKED],
            results=tuple(sorted(kept, key=lambda r: r.id)),
            cancelled=cancelled,
            taken=n[RedriveOutcome.TAKEN],
            lapsed=n[RedriveOutcome.LAPSED],
            skipped=n[RedriveOutcome.SKIPPED],
            more_results=self.seen - len(kept),
            not_attempted={
                why: (count, tuple(sorted(ids)))
                for why, (count, ids) in sorted(self.not_attempted.items())
            },
        )


def _lines(ws: Workspace, ids: list[int]) -> dict[int, int]:
    if not ids:
        return {}
    with ws.store.connect() as conn:
        stmt = select(DeadLetter.id, DeadLetter.line).where(DeadLetter.id.in_(ids))
        return {r.id: r.line for r in conn.execute(stmt)}


def _load(ws: Workspace, ids: list[int]) -> list[_Item]:
    dl = DeadLetter
    stmt = (
        select(
            dl.id,
            dl.line,
            dl.batch_id,
            working_payload(),
            dl.payload_kind,
            dl.attempts,
            dl.status,
            dl.version,
        )
        .where(dl.id.in_(ids))
        .order_by(dl.id)
    )
    with ws.store.connect() as conn:
        return [_Item(*r) for r in conn.execute(stmt)]


@dataclass
class _Run:
    """One re-drive: what every chunk of it shares."""

    ws: Workspace
    transform: Transform | None  # None: to a sink, the payloads as they are
    writer: WarehouseWriter | None  # None: a dry run or a sink
    max_attempts: int
    retry: RetryPolicy
    actor: str
    sleep: Callable[[float], None]
    token: str  # who holds the claims
    registry: Registry = field(default_factory=default_registry)  # a lapsed row's version
    headers: dict[str, list[str] | None] = field(default_factory=dict)  # batch -> CSV header
    # The set record of the rows it resolves, made by the first settle that resolves any.
    record: settling.RunRecord = field(default_factory=lambda: settling.RunRecord(""))
    sink: Sink | None = None  # deliver here, not to the warehouse
    dry_run: bool = False
    ladder: Ladder | None = None  # where a transient failure goes (None: no ladder)
    ladder_now: dt.datetime | None = None  # what its next wait counts from (None: now)

    def claimed_chunk(
        self, part: Sequence[int], expected: dict[int, int] | None = None
    ) -> tuple[list[RedriveResult], tuple[int, ...]]:
        """Claim the chunk's rows and re-drive those held. Settling releases each lease; a
        chunk that fails gives its leases back at once rather than when they run out.
        ``expected``: the version each row was seen at; a row changed since is skipped.
        Returns the outcomes, and the rows another transaction held locked at that
        instant (busy: to be asked for again, ``retry_busy``)."""
        ws = self.ws
        # Read before the claim: the lease runs at least from here.
        claimed_at = time.monotonic()
        got = with_retry(
            lambda: claims.claim(ws.store, part, self.token, expected),
            self.retry,
            sleep=self.sleep,
        )
        crash_point("redrive-after-claim")
        rows, alone = self.whole_only(list(got.rows))
        if alone:
            claims.release(ws.store, [r.id for r in alone], self.token)
        try:
            done = self._redrive(rows, claimed_at) + alone
        except BaseException:
            claims.release(ws.store, [r.id for r in rows], self.token)
            raise
        lines = _lines(ws, [*got.taken, *got.closed, *got.changed])
        purged = headed(
            both(N_("no longer in the store (purged)")), both(N_("no longer in the store"))
        )
        others = (
            [
                RedriveResult(i, lines[i], RedriveOutcome.TAKEN, held_by(who))
                for i, who in got.taken.items()
            ]
            + [
                RedriveResult(i, lines[i], RedriveOutcome.SKIPPED, already(status))
                for i, status in got.closed.items()
            ]
            + [
                RedriveResult(i, lines[i], RedriveOutcome.SKIPPED, why)
                for i, why in got.changed.items()
            ]
            + [
                # Only a re-drive of rows seen earlier gets this far with a missing one.
                RedriveResult(i, 0, RedriveOutcome.SKIPPED, purged)
                for i in got.missing
            ]
        )
        return sorted([*done, *others], key=lambda r: r.id), got.busy

    def retry_busy(
        self,
        ids: Sequence[int],
        expected: dict[int, int] | None,
        waits: Sequence[float] = BUSY_WAITS,
    ) -> list[RedriveResult]:
        """The rows that were locked when their chunk was claimed (an edit or another
        claim in flight: milliseconds), asked for again after each of ``waits``; those
        still locked are left, reported taken. Without this, a row an editor held for an
        instant was reported taken by a re-drive that did not exist."""
        out: list[RedriveResult] = []
        left = list(ids)
        for wait in waits:
            if not left:
                break
            self.sleep(wait)
            mine = {i: expected[i] for i in left} if expected is not None else None
            results, busy = self.claimed_chunk(left, mine)
            out += results
            left = list(busy)
        lines = _lines(self.ws, left)
        locked = both(N_("locked by another change"))
        out += [RedriveResult(i, lines.get(i, 0), RedriveOutcome.TAKEN, locked) for i in left]
        return sorted(out, key=lambda r: r.id)

    def whole_only(self, items: list[_Item]) -> tuple[list[_Item], list[RedriveResult]]:
        """The rows a re-drive may load one by one, and those of an all-or-nothing batch
        (``held_batches``), each skipped with why: they load only with their whole batch."""
        batches = {item.batch_id for item in items}
        if not batches:
            return items, []
        with self.ws.store.connect() as conn:
            atomic = atomic_batches(conn, batches)
        if not atomic:
            return items, []
        keep = [item for item in items if item.batch_id not in atomic]
        why = whole_batch_why()
        alone = [
            RedriveResult(item.id, item.line, RedriveOutcome.SKIPPED, why)
            for item in items
            if item.batch_id in atomic
        ]
        return keep, alone

    def preview(self, items: list[_Item]) -> list[RedriveResult]:
        """A dry run of the chunk: what each row would do, nothing written."""
        return self._redrive(items, 0.0)

    def _csv_names(self, batch_id: str) -> list[str] | None:
        cache = self.headers
        if batch_id not in cache:
            with self.ws.store.connect() as conn:
                header = conn.execute(
                    select(Batch.csv_header).where(Batch.batch_id == batch_id)
                ).scalar_one_or_none()
            cache[batch_id] = csv_header_names(header) if header else None
        return cache[batch_id]

    def _transformed(self, item: _Item, tries: int) -> tuple[Any, ...]:
        """The row ``item`` transforms to. A JSONL record as read goes the transform's fast
        way first, on its raw bytes, as in a batch; whatever that declines (and a retry, and
        any edited or CSV payload) goes through ``fn``, which decides every failure."""
        if self.transform is None:  # to a sink as it is: nothing to validate
            return ()
        fast = self.transform.fast
        if fast is not None and tries == 0 and item.kind == PayloadKind.JSONL:
            try:
                return fast(item.payload)
            except Exception:  # declined: the reference path decides
                pass
        names = self._csv_names(item.batch_id) if item.kind == PayloadKind.CSV else None
        return self.transform.fn(decode_payload(item.payload, item.kind, names))

    def _redrive(self, items: list[_Item], claimed_at: float) -> list[RedriveResult]:
        """Transform the chunk's rows; with a ``writer``, load the ones that succeed and settle
        every row the re-drive still holds (``token``); without one (a dry run), say what would
        happen."""
        ws, transform, writer, retry, sleep = (
            self.ws,
            self.transform,
            self.writer,
            self.retry,
            self.sleep,
        )
        dry_run = self.dry_run
        results: dict[int, RedriveResult] = {}
        rows: list[tuple[Any, ...]] = []
        row_owner: list[_Item] = []
        failures: dict[int, Failure] = {}
        # One pass in order; a transient failure waits at the back of the queue with its
        # backoff, so the others don't wait for it.
        queue: deque[tuple[_Item, int, float]] = deque()

        def attempt(item: _Item, tries: int) -> None:
            try:
                row = self._transformed(item, tries)
            except Exception as exc:
                if is_transient(exc) and tries + 1 < retry.attempts:
                    queue.append((item, tries + 1, time.monotonic() + retry.delay(tries + 1)))
                else:
                    failures[item.id] = failure_from(item.line, item.payload, exc)
                return
            if dry_run:
                row_dict = (
                    {
                        # What a dry run shows has its personal fields masked (issue 27).
                        c: mask_value(v) if c in transform.personal_fields else v
                        for c, v in zip(transform.column_names, row, strict=True)
                    }
                    if transform
                    else None
                )
                results[item.id] = RedriveResult(
                    item.id, item.line, RedriveOutcome.WOULD_SUCCEED, row=row_dict
                )
            else:
                rows.append((*row, item.batch_id, item.line))
                row_owner.append(item)

        for item in items:
            if item.status in CLOSED:
                results[item.id] = RedriveResult(
                    item.id, item.line, RedriveOutcome.SKIPPED, already(item.status)
                )
            else:
                attempt(item, 0)
        while queue:
            item, tries, not_before = queue.popleft()
            wait = not_before - time.monotonic()
            if wait > 0:
                sleep(wait)
            attempt(item, tries)
        if dry_run:
            for item_id, f in failures.items():
                item = next(i for i in items if i.id == item_id)
                fields = transform.personal_fields if transform else ()
                shown = mask_text(f.error, personal_values(item.payload, item.kind, fields))
                results[item_id] = RedriveResult(
                    item.id, item.line, RedriveOutcome.WOULD_FAIL, shown
                )
            return [results[i.id] for i in items if i.id in results]

        # The lease must not run out between the two databases: a row the re-drive no longer
        # holds is not loaded. A lease taken less than half its length ago still has more than
        # half to run, and nothing but its running out or its holder's death (and this
        # process is alive) frees a held row, so it is renewed only when it is older: most
        # chunks take well under a second, and renewing rewrites every row of the chunk.
        ids = [*(i.id for i in row_owner), *failures]
        if time.monotonic() - claimed_at < leases.lease().total_seconds() / 2:
            held = set(ids)
        else:
            held = claims.renew(ws.store, ids, self.token)
        lapsed = headed(
            both(N_("its lease ran out before it was loaded (nothing was written)")),
            both(N_("its lease ran out before it was loaded")),
        )
        for item in items:
            if item.id not in held and item.status not in CLOSED:
                results[item.id] = RedriveResult(item.id, item.line, RedriveOutcome.LAPSED, lapsed)
        kept = [(row, item) for row, item in zip(rows, row_owner, strict=True) if item.id in held]
        failures = {i: f for i, f in failures.items() if i in held}
        if self.sink is not None:
            return self._deliver(items, kept, failures, results)
        assert writer is not None and transform is not None
        key_at = transform.column_names.index(transform.key)
        # What the load replaces, so that a row whose lease runs out before it settles can
        # be put back (taking_back.py).
        before = rows_before(writer.engine, transform, (r[key_at] for r, _ in kept))
        result = with_retry(lambda: writer.upsert([r for r, _ in kept]), retry, sleep=sleep)
        crash_point("redrive-after-warehouse")
        refused = dict(result.failed)
        resolved: list[int] = []
        for i, (_row, item) in enumerate(kept):
            message = refused.get(i)
            if message is None:
                resolved.append(item.id)
            else:
                failures[item.id] = failure_from_message(
                    item.line, item.payload, message, ErrorClass.DATA
                )
        by_id = {i.id: i for i in items}
        settled = with_retry(
            lambda: settling.settle(
                ws.store,
                self.token,
                resolved,
                failures,
                transform.ref,
                self.max_attempts,
                self.actor,
                self.record,
                self.ladder,
                self.ladder_now,
            ),
            retry,
            sleep=sleep,
        )
        done = set(resolved)
        loads = {item.id: row for row, item in kept if item.id in done}
        back = {
            i
            for i, s in settled.items()
            if s.outcome == RedriveOutcome.LAPSED
            and i in loads
            and not self._explains(by_id[i], s.now, loads[i])
        }
        if back:
            self._take_back({i: loads[i] for i in back}, before, key_at, settled)
        for item_id, outcome in settled.items():
            item = by_id[item_id]
            results[item_id] = RedriveResult(item.id, item.line, outcome.outcome, outcome.error)
        return [results[i.id] for i in items if i.id in results]

    def _deliver(
        self,
        items: list[_Item],
        kept: list[tuple[tuple[Any, ...], _Item]],
        failures: dict[int, Failure],
        results: dict[int, RedriveResult],
    ) -> list[RedriveResult]:
        """Hand the chunk's rows that passed to the sink; resolve those it confirmed, leave
        the others open with why (``settling.undeliver``), settle the failures."""
        sink = self.sink
        assert sink is not None
        ws, retry, sleep = self.ws, self.retry, self.sleep
        parcels = [
            # The row without the lineage columns a warehouse load adds.
            Parcel(item.id, item.payload, item.kind, row[:-2] if self.transform else None)
            for row, item in kept
        ]
        reasons = sink.deliver(parcels) if parcels else {}
        crash_point("redrive-after-delivery")
        resolved = [item.id for _, item in kept if item.id not in reasons]
        left = with_retry(
            lambda: settling.undeliver(ws.store, self.token, reasons, self.actor),
            retry,
            sleep=sleep,
        )
        settled = with_retry(
            lambda: settling.settle(
                ws.store,
                self.token,
                resolved,
                failures,
                self.transform.ref if self.transform else None,
                self.max_attempts,
                self.actor,
                self.record,
                self.ladder,
                self.ladder_now,
            ),
            retry,
            sleep=sleep,
        )
        by_id = {i.id: i for i in items}
        for item_id, why in reasons.items():
            item = by_id[item_id]
            if item_id in left:
                results[item_id] = RedriveResult(
                    item.id, item.line, RedriveOutcome.UNDELIVERED, why
                )
            else:
                results[item_id] = RedriveResult(
                    item.id,
                    item.line,
                    RedriveOutcome.LAPSED,
                    headed(
                        both(N_("not delivered ({why}), and its lease ran out meanwhile"), why=why),
                        both(N_("not delivered")),
                    ),
                )
        for item_id, outcome in settled.items():
            item = by_id[item_id]
            error = outcome.error
            if outcome.outcome == RedriveOutcome.LAPSED and item_id in resolved:
                # A sink cannot take back what it confirmed: say so.
                error = headed(
                    both(
                        N_("{why}; it was delivered to {sink}"),
                        why=error or both(N_("its lease ran out")),
                        sink=sink.name,
                    ),
                    getattr(error, "head", None),
                )
            results[item_id] = RedriveResult(item.id, item.line, outcome.outcome, error)
        return [results[i.id] for i in items if i.id in results]

    def _explains(self, item: _Item, now: settling.RowNow | None, loaded: tuple[Any, ...]) -> bool:
        """The row as it is now would put exactly ``loaded`` in the warehouse: waiting, its
        payload loads to it through this version; resolved, through the version that
        resolved it. A discarded or purged row explains nothing."""
        if now is None or now.status == Status.DISCARDED or self.transform is None:
            return False
        ref = now.transform if now.status == Status.RESOLVED and now.transform else None
        try:
            mine = ref in (None, self.transform.ref)
            transform = self.transform if mine else self.registry.get(ref or "")
            names = self._csv_names(item.batch_id) if now.kind == PayloadKind.CSV else None
            row = transform.fn(decode_payload(now.payload, now.kind, names))
        except Exception:  # it fails now, or its version is gone: it explains nothing
            return False
        return (*row, item.batch_id, item.line) == loaded

    def _take_back(
        self,
        loads: dict[int, tuple[Any, ...]],
        before: dict[Any, tuple[Any, ...]],
        key_at: int,
        settled: dict[int, settling.Settled],
    ) -> None:
        """Put back what was loaded for rows whose lease ran out and that no longer explain
        it (discarded, edited, purged meanwhile); say so in each row's outcome."""
        writer, transform = self.writer, self.transform
        assert writer is not None and transform is not None
        entries = {
            # As stored: the row bound, and the version the statement wrote beside it.
            i: Loaded(row[key_at], (*row, transform.ref), before.get(row[key_at]))
            for i, row in loads.items()
        }
        put_back = with_retry(
            lambda: take_back(writer.engine, transform, list(entries.values())),
            self.retry,
            sleep=self.sleep,
        )
        for i, entry in entries.items():
            note = (
                both(N_("what it loaded was taken back from the warehouse"))
                if entry.key in put_back
                else both(N_("the warehouse row was written again since, and is left as it is"))
            )
            s = settled[i]
            error = both(N_("{why}; {note}"), why=s.error or "", note=note)
            settled[i] = replace(s, error=headed(error, getattr(s.error, "head", None)))
