"""A retry pass: the transient dead letters due on their ladder (``ladder.py``), re-driven
through the version that failed them.

One pass reads the due rows from the partial index of the waiting rows
(``ix_dl_next_attempt``: ``next_attempt_at <= now``), each with the version it is at, and
re-drives them set-wise per transform version with ``redrive(seen=...)``: the same claims,
leases, guards, settling and audit as any re-drive, and only rows still at the version the
pass read. So when two passes run at once (two cron jobs, a timer and a window), a row the
other already retried at this step has moved on (its version) or is held (its lease), and
is left to it: each row is retried once per step.

A row that succeeds resolves; one that fails transiently again moves down the ladder
(``settling.settle``); past the last step it is parked for a person; one that now fails as
data or code leaves the ladder and stays open for a person (no attempt limit parks it
here: the ladder is this pass's limit).
"""

from __future__ import annotations

import datetime as dt
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from triage_app.core.batch import failure_from_message
from triage_app.core.clock import iso, utcnow
from triage_app.core.db import DeadLetter, Workspace, actor_for, redact_text
from triage_app.core.deadletters import claims, leases, settling
from triage_app.core.deadletters.ladder import Ladders, on_the_ladder
from triage_app.core.deadletters.redriving import RedriveResult, redrive
from triage_app.core.deadletters.said import both, english, utc_time
from triage_app.core.deadletters.seen_rows import SeenRowsBuilder
from triage_app.core.deadletters.transitions import change_rows, park, slices
from triage_app.core.errors import error_message
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import Ladder, RetryPolicy, is_transient, said_wait
from triage_app.core.transforms import Registry
from triage_app.core.vocabulary import ErrorClass, RedriveOutcome, Status

DL = DeadLetter
# The attempt limit of a retry pass: none (the ladder parks a transient row; a row that now
# fails as data or code waits, open, for a person).
NO_LIMIT = 2**31 - 1
# Stored (a park's reason, in the row's history): English, as every stored detail.
CANNOT_RETRY = "parked: the retry ladder cannot re-drive it ({why})"


@dataclass(frozen=True)
class RetryPass:
    """What one retry pass did."""

    at: dt.datetime  # the pass's clock
    due: int  # rows due at ``at``
    retried: int  # re-driven by this pass
    resolved: int
    moved_down: int  # failed transiently again: due again after their next wait
    parked: int  # past the ladder's end: waiting for a person
    left_ladder: int  # failed as data or code: open, for a person
    left_to_another: int  # retried (or held) by another process meanwhile
    not_retried: int = 0  # no transform version here to re-drive through: parked
    # Rows moved down, by the wait they now wait ("30 min": 2)
    waits: tuple[tuple[str, int], ...] = ()
    waiting: int = 0  # rows on the ladder after the pass
    next_due: dt.datetime | None = None  # the soonest of them
    by_transform: tuple[tuple[str, int], ...] = ()  # rows retried per version
    first_failure: str | None = field(default=None)  # the first error met, said once
    cancelled: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "at": iso(self.at),
            "due": self.due,
            "retried": self.retried,
            "resolved": self.resolved,
            "moved_down": self.moved_down,
            "parked": self.parked,
            "left_ladder": self.left_ladder,
            "left_to_another_process": self.left_to_another,
            "not_retried": self.not_retried,
            "waits": {english(w): n for w, n in self.waits},
            "waiting": self.waiting,
            "next_due": iso(self.next_due) or None,
            "by_transform": dict(self.by_transform),
            "first_failure": self.first_failure,
            "cancelled": self.cancelled,
        }

    def outcome_words(self) -> str:
        """``Retried 5: 3 resolved, 2 wait 30 min`` (the window's status bar)."""
        if not self.retried:
            text = _("Retried none")
        else:
            parts = [_("{n} resolved").format(n=format_int(self.resolved))] if self.resolved else []
            parts += [_("{n} wait {wait}").format(n=format_int(n), wait=w) for w, n in self.waits]
            if self.parked:
                parts.append(_("{n} parked at the ladder's end").format(n=format_int(self.parked)))
            if self.left_ladder:
                parts.append(
                    _("{n} failed as data or code (open)").format(n=format_int(self.left_ladder))
                )
            text = _("Retried {n}: {outcomes}").format(
                n=format_int(self.retried), outcomes=", ".join(parts or [_("nothing settled")])
            )
        if self.left_to_another:
            text += "; " + _("{n} left to another process").format(
                n=format_int(self.left_to_another)
            )
        if self.not_retried:
            text += "; " + _("{n} parked: no version to re-drive through").format(
                n=format_int(self.not_retried)
            )
        return text

    def describe(self) -> str:
        """One line for the command line, cron's mail and the log."""
        if not self.due:
            text = _("Retry pass: nothing due.")
        else:
            text = ngettext(
                "Retry pass: {n} row due. {outcome}.",
                "Retry pass: {n} rows due. {outcome}.",
                self.due,
            ).format(n=format_int(self.due), outcome=self.outcome_words())
        if self.first_failure and (self.moved_down or self.parked or self.left_ladder):
            text += " " + _("First failure: {error}.").format(error=self.first_failure)
        if self.waiting and self.next_due is not None:
            text += " " + ngettext(
                "{n} row waiting, next due {at} UTC.",
                "{n} rows waiting, next due {at} UTC.",
                self.waiting,
            ).format(n=format_int(self.waiting), at=utc_time(self.next_due))
        elif self.waiting:
            text += " " + ngettext("{n} row waiting.", "{n} rows waiting.", self.waiting).format(
                n=format_int(self.waiting)
            )
        if self.cancelled:
            text += " " + _("Cancelled: the rest wait for the next pass.")
        return text


def due_rows(ws: Workspace, now: dt.datetime) -> list[tuple[int, int, str | None]]:
    """The waiting rows due at ``now``: (id, version, transform), in id order. One range of
    the partial index of the waiting rows."""
    stmt = select(DL.id, DL.version, DL.transform).where(
        DL.next_attempt_at.is_not(None),
        DL.next_attempt_at <= now,
        DL.status == Status.OPEN.value,
    )
    with ws.store.connect() as conn:
        rows: list[tuple[int, int, str | None]] = [
            (int(i), int(v), t) for i, v, t in conn.execute(stmt)
        ]
    rows.sort()
    return rows


def retry_due(
    ws: Workspace,
    *,
    now: dt.datetime | None = None,
    actor: str | None = None,
    registry: Registry | None = None,
    progress: Progress | None = None,
    retry: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> RetryPass:
    """One retry pass at ``now`` (default: the clock's now): every due row re-driven
    through the version that failed it; what happened, counted (``RetryPass``)."""
    now = now or utcnow()
    actor = actor or actor_for(ws.store)
    shown: Progress = progress or NoProgress()
    ladders = Ladders(ws.store, registry)
    due = due_rows(ws, now)
    by_ref: dict[str | None, SeenRowsBuilder] = defaultdict(SeenRowsBuilder)
    for i, version, ref in due:
        by_ref[ref].add(i, version)
    counts: Counter[str] = Counter()
    failed: list[int] = []
    first_failure: list[str] = []
    retried_by: Counter[str] = Counter()
    not_retried = 0
    cancelled = False
    done_before = 0

    class _Share:
        """The pass's progress over all its versions' re-drives."""

        def update(self, done: int, total: int, rows: int = 0) -> None:
            shown.update(done_before + done, len(due), done_before + rows)

        def cancelled(self) -> bool:
            return shown.cancelled()

    def seen_results(ref: str, settled: set[int]) -> Callable[[Sequence[RedriveResult]], None]:
        def count(chunk: Sequence[RedriveResult]) -> None:
            for r in chunk:
                settled.add(r.id)
                if r.outcome == RedriveOutcome.RESOLVED:
                    counts["resolved"] += 1
                    retried_by[ref] += 1
                elif r.outcome in (RedriveOutcome.FAILED, RedriveOutcome.PARKED):
                    failed.append(r.id)
                    retried_by[ref] += 1
                    if not first_failure and r.error:
                        first_failure.append(r.error)
                else:  # taken, skipped (changed since it was read), lapsed: another's
                    counts["left"] += 1

        return count

    for ref in sorted(by_ref, key=lambda r: r or ""):
        seen = by_ref[ref].build()
        transform = ladders.transform(ref)
        if transform is None or transform.atomic:
            # Nothing to re-drive through here (a version no longer installed, a connector's
            # letters): a person decides. Parked, saying why, so that it is not due forever.
            why = f"no transform version {ref or '(none)'} here"
            if transform is not None:
                why = f"{ref} loads all or nothing, with its whole batch"
            report = change_rows(
                ws.store,
                list(seen.ids),
                park(CANNOT_RETRY.format(why=why)),
                expected=seen.versions_of(0, len(seen)),
                actor=actor,
            )
            not_retried += len(report.changed)
            counts["left"] += len(report.refused)
            done_before += len(seen)
            continue
        settled: set[int] = set()
        try:
            summary = redrive(
                ws,
                transform.ref,
                seen=seen,
                max_attempts=NO_LIMIT,
                progress=_Share(),
                retry=retry,
                registry=registry,
                actor=actor,
                sleep=sleep,
                keep=0,
                on_results=seen_results(transform.ref, settled),
                ladder_now=now,
            )
        except Exception as exc:
            if not is_transient(exc):
                raise
            # The warehouse could not be reached, through every retry: each row this
            # version's re-drive did not settle failed transiently, and moves down its
            # ladder saying so. Nothing was loaded for them (a chunk that fails releases
            # its claims before anything of it is settled).
            unsettled = {
                i: v for i, v in seen.versions_of(0, len(seen)).items() if i not in settled
            }
            cause = getattr(exc, "orig", None) or exc  # the driver's words, not the SQL
            why = f"the warehouse could not be reached: {redact_text(error_message(cause))}"
            if not first_failure:
                first_failure.append(why)
            got = _fail_unreached(
                ws, unsettled, why, ladders.for_transform(transform), now, actor, transform.ref
            )
            for i, outcome in got.items():
                if outcome.outcome in (RedriveOutcome.FAILED, RedriveOutcome.PARKED):
                    failed.append(i)
                    retried_by[transform.ref] += 1
                else:
                    counts["left"] += 1
            counts["left"] += len(unsettled) - len(got)
            done_before += len(seen)
            continue
        done_before += len(seen)
        if summary.cancelled:
            cancelled = True
            break
    moved, parked, left_ladder, waits = _where_failed_went(ws, failed, now)
    waiting, next_due = _waiting(ws)
    return RetryPass(
        at=now,
        due=len(due),
        retried=sum(retried_by.values()),
        resolved=counts["resolved"],
        moved_down=moved,
        parked=parked,
        left_ladder=left_ladder,
        left_to_another=counts["left"],
        not_retried=not_retried,
        waits=waits,
        waiting=waiting,
        next_due=next_due,
        by_transform=tuple(sorted(retried_by.items())),
        first_failure=first_failure[0] if first_failure else None,
        cancelled=cancelled,
    )


def _fail_unreached(
    ws: Workspace,
    rows: dict[int, int],
    why: str,
    ladder: Ladder,
    now: dt.datetime,
    actor: str,
    ref: str,
) -> dict[int, settling.Settled]:
    """Rows a pass could not re-drive because the warehouse was down: claimed (only those
    still at the version the pass read, and free) and settled as transient failures, as a
    re-drive settles them: down the ladder, audited with why."""
    if not rows:
        return {}
    token = leases.new_token(actor)
    got = claims.claim(ws.store, list(rows), token, rows)
    mine = [r.id for r in got.rows]
    failures = {i: failure_from_message(0, b"", why, ErrorClass.TRANSIENT) for i in mine}
    try:
        return settling.settle(
            ws.store, token, [], failures, ref, NO_LIMIT, actor, None, ladder, now
        )
    except BaseException:
        claims.release(ws.store, mine, token)
        raise


def _where_failed_went(
    ws: Workspace, ids: list[int], now: dt.datetime
) -> tuple[int, int, int, tuple[tuple[str, int], ...]]:
    """Of the rows that failed in the pass: moved down the ladder (and the waits they wait
    now), parked, or off the ladder (failed as data or code)."""
    moved = parked = left = 0
    waits: Counter[dt.timedelta] = Counter()
    with ws.store.connect() as conn:
        for part in slices(sorted(set(ids))):
            stmt = select(DL.status, DL.error_class, DL.next_attempt_at).where(
                DL.id.in_(list(part))
            )
            for status, error_class, next_at in conn.execute(stmt):
                if status == Status.PARKED.value:
                    parked += 1
                elif next_at is not None and error_class == ErrorClass.TRANSIENT.value:
                    moved += 1
                    # To the minute: the wait counts from the pass's clock.
                    waits[dt.timedelta(minutes=round((next_at - now).total_seconds() / 60))] += 1
                else:
                    left += 1
    said = tuple(
        (said_wait(w) if w.total_seconds() >= 1 else both(N_("now")), n)
        for w, n in sorted(waits.items())
    )
    return moved, parked, left, said


def _waiting(ws: Workspace) -> tuple[int, dt.datetime | None]:
    """The rows on the ladder, and when the soonest is due (the partial index alone)."""
    with ws.store.connect() as conn:
        n, first = conn.execute(
            select(func.count(), func.min(DL.next_attempt_at)).where(on_the_ladder())
        ).one()
    return int(n), first
