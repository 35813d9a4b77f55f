"""A re-drive's outcomes: for each row it claimed (``claims.py``), resolved, failed (its
attempts counted, parked at the limit) or ``lapsed`` when its lease ran out before the
outcome was written, and the lease ended.

Each outcome is a guarded change like those by hand (``transitions.py``): written only
while this re-drive's lease still holds the row, in the same write transaction, bumping
the version. A failure has its audit event, with the error it met; the rows a re-drive
resolves have one set record, the re-drive's ``redrive_runs`` row (``RunRecord``), and a
``resolutions`` line each, which the trail expands into their ``resolved`` events
(``expanded_events.py``). With ``transitions.py`` this module writes what a dead letter
says; nothing else does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    bindparam,
    func,
    insert,
    literal,
    select,
    update,
)

from triage_app.core.batch import Failure
from triage_app.core.clock import iso, utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    AuditEvent,
    DeadLetter,
    RedriveRun,
    Resolution,
    event_insert,
    keep_signatures,
    keep_tracebacks,
    stored_error,
    summary,
)
from triage_app.core.deadletters import leases, masks
from triage_app.core.deadletters.expanded_events import keep_quarantined
from triage_app.core.deadletters.id_sets import id_in
from triage_app.core.deadletters.ladder import END_OF_LADDER
from triage_app.core.deadletters.said import Said, both, english, headed
from triage_app.core.deadletters.transitions import (
    audit_event,
    is_postgresql,
    last_change,
    lock_rows,
    slices,
    write_transaction,
)
from triage_app.core.errors import signature
from triage_app.core.messages import N_
from triage_app.core.retry import Ladder
from triage_app.core.vocabulary import AuditAction, ErrorClass, RedriveOutcome, Status

DL = DeadLetter


class RowNow(NamedTuple):
    """A lapsed row as it is now: what the re-drive needs to judge whether the row still
    explains what was loaded for it."""

    status: str
    payload: bytes
    kind: str
    transform: str | None


@dataclass
class RunRecord:
    """A re-drive's set record: what it was ``given`` (ids or a filter, as text), and the
    id of its ``redrive_runs`` row once a settle that resolved something committed it
    (made in that settle's transaction: a re-drive that resolves nothing, a dry run
    among them, writes none)."""

    given: str
    id: int | None = field(default=None)


@dataclass(frozen=True)
class Settled:
    outcome: RedriveOutcome
    error: str | None = None
    # A lapsed row (its lease ran out before the outcome was written) as it is now; None
    # when it is gone (purged).
    now: RowNow | None = None


def settle(
    engine: Engine,
    token: str,
    resolved: Sequence[int],
    failed: Mapping[int, Failure],
    transform_ref: str | None,
    max_attempts: int,
    actor: str,
    run: RunRecord | None = None,
    ladder: Ladder | None = None,
    ladder_now: dt.datetime | None = None,
) -> dict[int, Settled]:
    """Write the outcome of each row the re-drive still holds and release it. A row whose
    lease ran out before now is not settled, even if nobody took it: another steward may
    have discarded or edited it once the lease was free. It is reported ``lapsed``, with
    what happened to it meanwhile and the row as it is now (``Settled.now``), for the
    re-drive to judge what it loaded. Attempts are counted from the row as it is now, never
    from what was read earlier.

    ``run``: the re-drive's set record, shared by its settles (None: one of its own).
    ``transform_ref`` None: a re-drive to a sink with no transform chosen; a resolved row
    keeps the transform it names (what failed it), and no row fails here.

    ``ladder``: the retry ladder of the version re-driven (None: none applies, as for an
    all-or-nothing batch). One rule, whoever re-drove the row: a row that fails
    transiently while open moves down the ladder (``retry_step`` + 1, due again after that
    step's wait, counted from ``ladder_now``, default now), or enters it at its first step
    when it failed otherwise before; past the last step it is parked for a person. The
    attempt limit does not park a transient failure: the ladder does. Any other failure
    leaves the ladder (``next_attempt_at`` NULL) and counts toward the attempt limit as
    before."""
    out: dict[int, Settled] = {}
    ids = [*resolved, *failed]
    if not ids:
        return out
    run = run if run is not None else RunRecord("")
    made: list[int] = []  # the run's id, when this transaction made its row
    with write_transaction(engine) as conn, summary.deferred(conn):
        now = utcnow()
        for i in _resolve(conn, token, resolved, transform_ref, actor, now, run, made):
            out[i] = Settled(RedriveOutcome.RESOLVED)
        locked = lock_rows(conn, list(failed)) if failed else {}
        rows = {i: r for i, r in locked.items() if leases.still_held(r, token, now)}
        lapsed = [i for i in ids if i not in out and i not in rows]
        out.update(_lapsed(conn, lapsed, token, now))
        events: list[dict[str, Any]] = []
        params: list[dict[str, Any]] = []
        failed = _masked_failures(conn, failed, rows, transform_ref)
        traces = keep_tracebacks(conn, (f.traceback for i, f in failed.items() if i in rows))
        signatures = keep_signatures(conn, (f.signature for i, f in failed.items() if i in rows))
        # A row a lower limit parked, re-driven under a higher one that it has not reached:
        # the limit of this re-drive holds, so it waits as open again (a person's park stays).
        below = [
            i
            for i, r in rows.items()
            if r.status == Status.PARKED and r.attempts + 1 < max_attempts and i in failed
        ]
        unparked = _parked_by_the_limit(conn, below)
        # The failure overwrites the row's class and error: what its synthesized
        # ``quarantined`` event is made of. Stored first, as it would have been made.
        keep_quarantined(conn, [i for i in failed if i in rows])
        due_from = ladder_now or now
        for i, f in failed.items():
            row = rows.get(i)
            if row is None:
                continue
            attempts = row.attempts + 1
            step, due, said = row.retry_step, None, ""
            on_ladder = (
                ladder is not None
                and f.error_class is ErrorClass.TRANSIENT
                and row.status == Status.OPEN
            )
            if on_ladder:
                assert ladder is not None
                # Down one step (or onto the first, for a row that failed otherwise before).
                was = row.error_class == ErrorClass.TRANSIENT.value
                step = row.retry_step + 1 if was else 0
                wait = ladder.wait(step)
                parked = wait is None
                status = Status.PARKED.value if parked else row.status
                if wait is not None:
                    due = due_from + wait
                # Where it goes first, the error last: a history column shows the start.
                where = f"next at {iso(due)}" if due is not None else "the end of the ladder"
                said = (
                    f"retry {step} of {len(ladder)} failed" if was else "failed transiently"
                ) + f"; {where} (attempt {attempts} with {transform_ref}): {f.error}"
            else:
                parked = attempts >= max_attempts
                status = Status.PARKED.value if parked else row.status
                if i in unparked:
                    status = Status.OPEN.value
            params.append(
                {
                    "b_id": i,
                    "attempts": attempts,
                    "error": stored_error(f.error, f.signature),
                    "error_class": f.error_class.value,
                    "signature_id": signatures[f.signature],
                    "traceback_id": traces.get(f.traceback) if f.traceback else None,
                    "status": status,
                    "retry_step": step,
                    "next_attempt_at": due,
                }
            )
            version = row.version + 1
            events.append(
                audit_event(
                    i,
                    AuditAction.REDRIVE_FAILED,
                    said or f"attempt {attempts} with {transform_ref}: {f.error}",
                    actor,
                    now,
                    version,
                )
            )
            if parked and on_ladder:
                end = audit_event(i, AuditAction.PARKED, END_OF_LADDER, actor, now, version)
                events.append(end)
            elif parked and row.status != Status.PARKED:
                detail = f"{attempts} attempts reached the limit of {max_attempts}"
                events.append(audit_event(i, AuditAction.PARKED, detail, actor, now, version))
            if i in unparked:
                detail = f"{attempts} attempts are below the limit of {max_attempts}"
                events.append(audit_event(i, AuditAction.REOPENED, detail, actor, now, version))
            outcome = RedriveOutcome.PARKED if parked else RedriveOutcome.FAILED
            out[i] = Settled(outcome, f.error)
        # The failed rows' cells move (attempts, class, signature, status, transform): they
        # are locked above; counted before and after the update (``summary.moved``).
        failing = [id_in(conn, [p["b_id"] for p in params])] if params else None
        cells_before = summary.cells_of(conn, failing)
        if params:
            conn.execute(
                update(DL)
                .where(DL.id == bindparam("b_id"), DL.claimed_by == token, DL.claim_until > now)
                .values(
                    attempts=bindparam("attempts"),
                    error=bindparam("error"),
                    error_class=bindparam("error_class"),
                    signature_id=bindparam("signature_id"),
                    traceback_id=bindparam("traceback_id"),
                    status=bindparam("status"),
                    retry_step=bindparam("retry_step"),
                    next_attempt_at=bindparam("next_attempt_at"),
                    last_failed_at=now,
                    transform=transform_ref,
                    version=DL.version + 1,
                    claimed_by=None,
                    claim_until=None,
                ),
                params,
            )
        summary.moved(conn, failing, cells_before)
        if events:
            conn.execute(event_insert(), events)
        crash_point("redrive-mid-settle")
    if made:  # committed: the re-drive's later settles add to this run
        run.id = made[0]
    return out


LAPSED_WHY = N_("its lease ran out before the outcome was written")


def lapsed_why(since: str | None = None) -> Said:
    """Why a row's outcome was not written, with what happened to it meanwhile."""
    head = both(LAPSED_WHY)
    if since is None:
        return head
    return headed(
        both(N_("its lease ran out before the outcome was written ({since})"), since=since),
        head,
    )


def _lapsed(
    conn: Connection, ids: Sequence[int], token: str, now: dt.datetime
) -> dict[int, Settled]:
    """Why each of ``ids`` (rows whose lease ran out) was not settled: what happened to it
    meanwhile, read under the lock, and the row as it is now. Its lease, if still ours, is
    given back."""
    if not ids:
        return {}
    rows = lock_rows(conn, ids)
    out: dict[int, Settled] = {}
    for i in ids:
        row = rows.get(i)
        if row is None:
            out[i] = Settled(RedriveOutcome.LAPSED, lapsed_why(both(N_("it was purged since"))))
            continue
        since: Said
        if row.claimed_by is not None and row.claimed_by != token and leases.held(row, now):
            since = both(
                N_("another re-drive holds it now ({holder})"),
                holder=leases.holder(row.claimed_by),
            )
        elif row.claimed_by == token:
            since = both(N_("nothing changed since: re-drive it again"))
        else:
            since = last_change(conn, i)
        state = RowNow(row.status, bytes(row.payload), row.payload_kind, row.transform)
        out[i] = Settled(RedriveOutcome.LAPSED, lapsed_why(since), state)
    mine = [i for i, r in rows.items() if r.claimed_by == token]
    if mine:
        conn.execute(
            update(DL)
            .where(id_in(conn, mine), DL.claimed_by == token)
            .values(claimed_by=None, claim_until=None)
        )
    return out


def _parked_by_the_limit(conn: Connection, ids: Sequence[int]) -> set[int]:
    """Those of ``ids`` whose newest ``parked`` event a re-drive wrote when the row reached
    its attempt limit (beside a ``redrive_failed`` event of the same version), not a person
    who parked it by hand."""
    if not ids:
        return set()
    ev, failed = AuditEvent, AuditEvent.__table__.alias("failed")
    newest = (
        select(ev.dead_letter_id, func.max(ev.id).label("id"))
        .where(ev.dead_letter_id.in_(list(ids)), ev.action == AuditAction.PARKED.value)
        .group_by(ev.dead_letter_id)
        .subquery()
    )
    by_limit = (
        select(ev.dead_letter_id)
        .join(newest, ev.id == newest.c.id)
        .where(
            select(failed.c.id)
            .where(
                failed.c.dead_letter_id == ev.dead_letter_id,
                failed.c.action == AuditAction.REDRIVE_FAILED.value,
                failed.c.version == ev.version,
            )
            .exists()
        )
    )
    return {int(i) for i in conn.execute(by_limit).scalars() if i is not None}


_RESOLUTION_COLUMNS = ("dead_letter_id", "run_id", "version")


def _run_id(
    conn: Connection, run: RunRecord, made: list[int], actor: str, transform_ref: str | None
) -> int:
    """The re-drive's ``redrive_runs`` row: the one an earlier settle committed, or one made
    now, in this transaction (``made`` keeps it until the commit)."""
    if run.id is not None:
        return run.id
    if not made:
        new = conn.execute(
            insert(RedriveRun)
            .values(at=utcnow(), actor=actor, transform=transform_ref or "", given=run.given)
            .returning(RedriveRun.id)
        ).scalar_one()
        made.append(int(new))
    return made[0]


def _resolve(
    conn: Connection,
    token: str,
    ids: Sequence[int],
    transform_ref: str | None,
    actor: str,
    now: dt.datetime,
    run: RunRecord,
    made: list[int],
) -> list[int]:
    """Resolve the rows of ``ids`` this re-drive still holds, set-wise: per slice of ids
    one UPDATE of the rows and one INSERT ... SELECT of their ``resolutions`` lines (the
    run, the version each row has after the change); which were resolved."""
    done: list[int] = []
    for part in slices(sorted(set(ids))):
        # Only rows still held: a lease that ran out is not ours any more (``_lapsed``).
        held = (id_in(conn, part), DL.claimed_by == token, DL.claim_until > now)
        stmt = select(DL.id).where(*held).order_by(DL.id)
        if is_postgresql(conn):
            stmt = stmt.with_for_update()
        mine = list(conn.execute(stmt).scalars().all())
        if not mine:
            continue
        # Locked and all still held: every one of them moves to resolved (``counts``).
        cells_before = summary.cells_of(conn, [id_in(conn, mine)])
        # With no transform (a sink took the payload as it is) the row keeps its own.
        moved = {"transform": transform_ref} if transform_ref is not None else {}
        conn.execute(
            update(DL)
            .where(id_in(conn, mine), DL.claimed_by == token, DL.claim_until > now)
            .values(
                status=Status.RESOLVED.value,
                resolved_at=now,
                next_attempt_at=None,  # off the retry ladder
                version=DL.version + 1,
                claimed_by=None,
                claim_until=None,
                **moved,
            )
        )
        summary.moved_to(conn, cells_before, status=Status.RESOLVED.value, **moved)
        run_id = _run_id(conn, run, made, actor, transform_ref)
        lines = select(DL.id, literal(run_id, Integer()), DL.version).where(id_in(conn, mine))
        conn.execute(insert(Resolution).from_select(_RESOLUTION_COLUMNS, lines.order_by(DL.id)))
        crash_point("redrive-after-resolutions")
        done += mine
    return done


def undeliver(engine: Engine, token: str, reasons: Mapping[int, str], actor: str) -> set[int]:
    """The rows a sink did not confirm (a broker's nack, a lost connection): each stays open
    with its attempts as they were, gets an ``undelivered`` event saying why, and its lease
    ends. Only rows this re-drive still holds; which those were."""
    if not reasons:
        return set()
    done: set[int] = set()
    with write_transaction(engine) as conn:
        now = utcnow()
        locked = lock_rows(conn, list(reasons))
        mine = [i for i, r in locked.items() if leases.still_held(r, token, now)]
        for part in slices(sorted(mine)):
            conn.execute(
                update(DL)
                .where(id_in(conn, part), DL.claimed_by == token)
                .values(claimed_by=None, claim_until=None)
            )
        if mine:
            conn.execute(
                event_insert(),
                [
                    # No version: the row did not change. Stored: in English (said.py).
                    audit_event(i, AuditAction.UNDELIVERED, english(reasons[i]), actor, now, None)
                    for i in mine
                ],
            )
        done.update(mine)
    return done


def _masked_failures(
    conn: Connection, failed: Mapping[int, Failure], rows: Mapping[int, Any], ref: str | None
) -> dict[int, Failure]:
    """The failures with personal values masked in their errors (issue 27): an error that
    quotes a customer's name is stored, audited and reported with the name masked."""
    ctx = masks.contexts(
        conn, [(i, ref or r.transform, r.batch_id) for i, r in rows.items() if i in failed]
    )
    if not ctx:
        return dict(failed)
    out = dict(failed)
    for i, c in ctx.items():
        f = failed[i]
        shown = c.mask_error(f.error, rows[i].payload, rows[i].payload_kind)
        if shown != f.error:
            out[i] = f._replace(error=shown, signature=signature(shown))
    return out
