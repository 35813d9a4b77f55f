"""Every change of what a dead letter says is a guarded transition: an edit, a change by
hand (park, discard, reopen, reclassify, a note), many edits at once (a change-set). This
module owns them, and the guard they share (``write_transaction``, ``lock_rows``,
``id_in``), which a re-drive's outcomes use too (``settling.py``).

Two stewards at once is the normal case. So a change is one statement that applies only
while the row is still in the state and at the version its actor saw, and while no live
lease of a re-drive holds it (``leases.py``; a re-drive takes them in ``claims.py``); every
change bumps the version. A change that finds the row moved on is refused with who changed
it and when. Nothing outside this module and ``settling.py`` writes a dead letter's status,
payload or attempts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    Row,
    bindparam,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError

from triage_app.core import text_input
from triage_app.core.batch import atomic_batches
from triage_app.core.clock import utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    DeadLetter,
    actor_for,
    event_insert,
    explain_lock_wait,
    for_driver,
    holding_lock,
    is_lock_wait,
    notify_change,
    summary,
    working_payload,
)
from triage_app.core.deadletters import expanded_events, leases, masks
from triage_app.core.deadletters.id_sets import id_in
from triage_app.core.deadletters.ladder import Ladders, place_after
from triage_app.core.deadletters.said import (
    Said,
    both,
    done_by,
    english,
    said,
    status_word,
    utc_time,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.masking import BULLETS, restore_masked
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.vocabulary import (
    CLOSED,
    WAITING,
    AuditAction,
    BatchState,
    ErrorClass,
    Status,
    edited_kind,
    is_csv_kind,
    named_ids,
    original_kind,
)

CHUNK = 500  # rows per transaction: SQLite refuses more than 32,766 parameters a statement

DL = DeadLetter


class Refused(TriageError):
    """A change that did not apply, and why, in one line (``reason``: a ``Said`` where it
    is also kept, in ``--json``'s list of refused rows)."""

    def __init__(self, dl_id: int, message: str) -> None:
        super().__init__(message)
        self.dl_id = dl_id

    @property
    def reason(self) -> str:
        """The message as given: a ``Said`` keeps its English for ``--json``."""
        return str(self.args[0]) if not isinstance(self.args[0], Said) else self.args[0]


class ChangedMeanwhile(Refused):
    """Someone changed the row since the actor saw it; the window offers Reload or a diff."""

    def __init__(self, dl_id: int, message: str, version: int) -> None:
        super().__init__(dl_id, message)
        self.version = version


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that holds the write lock from its first statement. On SQLite a
    deferred transaction that reads and then writes fails outright under WAL when another
    writer committed in between; BEGIN IMMEDIATE waits for the lock instead. PostgreSQL
    locks the rows its SELECT ... FOR UPDATE reads."""
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                notify_change(conn)  # windows watching the store read it again (at commit)
            with holding_lock(engine, conn):
                yield conn
    except DBAPIError as exc:
        # The wait was bounded (lock_waits.py); a retry would only wait as long again.
        if is_lock_wait(exc):
            raise explain_lock_wait(engine, exc) from None
        raise


# -- reading the state a change is guarded by ----------------------------------------------
_STATE = (
    DL.id,
    DL.status,
    DL.version,
    DL.claimed_by,
    DL.claim_until,
    DL.error_class,
    working_payload().label("payload"),
    DL.payload_kind,
    DL.attempts,
    DL.line,
    DL.batch_id,
    DL.transform,
    DL.retry_step,
    DL.next_attempt_at,
)


def is_postgresql(conn: Connection) -> bool:
    """Rows are locked with FOR UPDATE there; SQLite's write transaction locks everything."""
    return conn.dialect.name == "postgresql"


def lock_rows(conn: Connection, ids: Sequence[int]) -> dict[int, Row[Any]]:
    """The rows' state (``_STATE``: the working payload as ``payload``), locked on
    PostgreSQL; SQLite's write transaction already excludes every other writer."""
    stmt = select(*_STATE).where(id_in(conn, ids)).order_by(DL.id)
    if is_postgresql(conn):
        stmt = stmt.with_for_update()
    rows: list[Row[Any]] = list(conn.execute(stmt))
    return {r.id: r for r in rows}


# Ids per statement: SQLite takes at most 32,766 parameters in one.
IN_LIMIT = 10_000
T = TypeVar("T")


def slices(ids: Sequence[T]) -> Iterator[Sequence[T]]:
    """``ids`` (or any values bound in an IN list) in slices of ``IN_LIMIT``."""
    for start in range(0, len(ids), IN_LIMIT):
        yield ids[start : start + IN_LIMIT]


def last_change(conn: Connection, dl_id: int) -> Said:
    """The newest event of the row, said for a refusal: "discarded by ani at …" (a
    re-drive's resolution too, which its set record stands for)."""
    newest = expanded_events.newest_first(expanded_events.branches(dead_letter_id=dl_id), 1)
    e = conn.execute(newest.limit(1)).first()
    return both(N_("changed")) if e is None else done_by(e.action, e.actor, e.at)


# A refusal, whole, for each change (``RowChange.verb``): held by a re-drive, or in a status
# the change does not apply to. A verb not here is said as "changed".
_HELD_NOW = {
    "edited": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be edited now"
    ),
    "parked": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be parked now"
    ),
    "discarded": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be discarded now"
    ),
    "reopened": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be reopened now"
    ),
    "reclassified": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be reclassified now"
    ),
    "noted": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be noted now"
    ),
    "fixed": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be fixed now"
    ),
    "reverted": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be reverted now"
    ),
    "": N_(
        "dead letter {id} is held by a re-drive ({holder}) until {until} UTC: "
        "it cannot be changed now"
    ),
}
_NOT_IN_STATUS = {
    "edited": N_("dead letter {id} is {status}; it cannot be edited"),
    "parked": N_("dead letter {id} is {status}; it cannot be parked"),
    "discarded": N_("dead letter {id} is {status}; it cannot be discarded"),
    "reopened": N_("dead letter {id} is {status}; it cannot be reopened"),
    "reclassified": N_("dead letter {id} is {status}; it cannot be reclassified"),
    "noted": N_("dead letter {id} is {status}; it cannot be noted"),
    "fixed": N_("dead letter {id} is {status}; it cannot be fixed"),
    "reverted": N_("dead letter {id} is {status}; it cannot be reverted"),
    "": N_("dead letter {id} is {status}; it cannot be changed"),
}


def refusal(
    conn: Connection,
    dl_id: int,
    row: Row[Any] | None,
    seen: int | None,
    verb: str,
    now: dt.datetime,
    allowed: Sequence[Status] = WAITING,
    check_claim: bool = True,
) -> Refused | None:
    """Why a change (``verb``: "parked", ...) cannot apply to ``row``, seen at version
    ``seen`` (None: any), or None when it can: missing, held by a re-drive, changed since,
    or in a status other than ``allowed``."""
    if row is None:
        return Refused(dl_id, both(N_("no dead letter with id {id}"), id=dl_id))
    if check_claim and leases.held(row, now):
        held = _HELD_NOW.get(verb, _HELD_NOW[""])
        holder, until = leases.holder(row.claimed_by), row.claim_until
        return Refused(
            dl_id,
            said(
                lambda _, _n, lang: _(held).format(
                    id=dl_id, holder=holder, until=utc_time(until, lang)
                )
            ),
        )
    if seen is not None and row.version > seen:
        return ChangedMeanwhile(
            dl_id,
            both(
                N_(
                    "dead letter {id} changed since version {seen} ({change}); "
                    "it is now version {now}"
                ),
                id=dl_id,
                seen=seen,
                change=last_change(conn, dl_id),
                now=row.version,
            ),
            row.version,
        )
    if seen is not None and row.version != seen:  # versions only grow: never at ``seen``
        return ChangedMeanwhile(
            dl_id,
            both(
                N_(
                    "dead letter {id} is at version {now}, not {seen}: it has never been "
                    "at version {seen} (last change: {change})"
                ),
                id=dl_id,
                now=row.version,
                seen=seen,
                change=last_change(conn, dl_id),
            ),
            row.version,
        )
    if row.status not in allowed:
        status = row.status
        text = _NOT_IN_STATUS.get(verb, _NOT_IN_STATUS[""])
        return Refused(
            dl_id,
            said(lambda _, _n, lang: _(text).format(id=dl_id, status=status_word(status, lang))),
        )
    return None


def audit_event(
    dl_id: int,
    action: AuditAction,
    detail: str,
    actor: str,
    now: dt.datetime,
    version: int | None,
    replaced: bytes | None = None,
) -> dict[str, Any]:
    """A change's audit event, as ``event_insert()`` takes it: ``version`` is the row's
    version after the change, ``replaced`` the payload an edit replaced."""
    return {
        "dead_letter_id": dl_id,
        "at": now,
        "actor": actor,
        "action": action.value,
        "detail": detail,
        "version": version,
        "replaced_payload": replaced,
    }


# -- edits --------------------------------------------------------------------------------
def validate_payload(text: str, kind: str) -> Any:
    """Parse an edited payload, refusing anything that is not JSON (a CSV dead letter is
    edited as a JSON object of header -> value). Raises TriageError with line and column."""
    try:
        value = orjson.loads(text.encode("utf-8", errors="surrogatepass"))
    except orjson.JSONDecodeError as exc:
        raise TriageError(_("not valid JSON: {error}").format(error=exc)) from None
    if is_csv_kind(kind) and not isinstance(value, dict):
        raise TriageError(_("a CSV row is edited as a JSON object of column -> value"))
    return value


def edit(
    engine: Engine, dl_id: int, text: str, *, if_version: int | None = None, actor: str | None
) -> int:
    """Replace the working payload (the original is kept); the new version. The event keeps
    the payload it replaced. With ``if_version``, refused when the row has moved on."""
    actor = actor or actor_for(engine)
    with write_transaction(engine) as conn:
        now = utcnow()
        row = lock_rows(conn, [dl_id]).get(dl_id)
        refused = refusal(conn, dl_id, row, if_version, "edited", now)
        if refused is not None:
            raise refused
        assert row is not None
        # The editor shows personal fields masked: a field still holding its mask gets the
        # real value back, so the mask is never saved as data (core/masking.py).
        ctx = masks.contexts(conn, [(dl_id, row.transform, row.batch_id)]).get(dl_id)
        if ctx is not None and BULLETS in text:
            original = conn.execute(select(DL.original_payload).where(DL.id == dl_id)).scalar_one()
            text = restore_masked(
                text,
                bytes(row.payload),
                ctx.fields,
                row.payload_kind,
                ctx.csv_header,
                (bytes(original), original_kind(row.payload_kind)),
            )
        validate_payload(text, row.payload_kind)
        new = text.encode("utf-8", errors="surrogatepass")
        if new == row.payload:
            raise TriageError(_("dead letter {id}: the payload is unchanged").format(id=dl_id))
        done = conn.execute(
            update(DL)
            .where(
                DL.id == dl_id,
                DL.version == row.version,
                DL.status.in_(WAITING),
                leases.free(now, leases.void_holder(row, now)),
            )
            .values(
                payload=new,
                payload_kind=edited_kind(row.payload_kind),
                masked_payload=None
                if ctx is None
                else ctx.mask(new, edited_kind(row.payload_kind)),
                version=row.version + 1,
                # A lease that ran out is over: its re-drive, if it comes back, must find
                # the row no longer its own (settling.settle), not resolve the edited row.
                claimed_by=None,
                claim_until=None,
            )
        )
        if done.rowcount != 1:  # cannot happen under the lock; never write blind
            raise Refused(
                dl_id, _("dead letter {id} changed while it was being edited").format(id=dl_id)
            )
        detail = f"payload {len(row.payload)} -> {len(new)} bytes"
        conn.execute(
            event_insert(),
            audit_event(
                dl_id, AuditAction.EDITED, detail, actor, now, row.version + 1, row.payload
            ),
        )
        crash_point("mid-edit")
    return int(row.version) + 1


def edit_many(
    conn: Any,
    now: dt.datetime,
    payloads: list[tuple[bytes | None, str, int, int]],
) -> None:
    """Edits of many rows at once (a change-set, its revert): the rows' new payloads
    (payload, kind, id, the version they are at), through the driver's executemany:
    SQLAlchemy's parameter handling cost more than the writes at 100,000 rows. Their
    ``edited`` events are the change-set's lines (``change_set_rows``), written by the
    caller. The rows are locked and refused where they must be (``lock_rows``,
    ``refusal``) by the caller; the UPDATE is guarded again by version and lease, and a
    count that differs is never written blind."""
    at = for_driver(conn.dialect)(now)
    # Each new working payload's masked copy, kept with it (NULL: nothing to mask).
    masked = masks.masked_working(conn, [(p, k, i) for p, k, i, _v in payloads])
    done = driver_many(
        conn,
        # A lease that ran out ends here too (see _apply).
        "UPDATE dead_letters SET payload = ?, payload_kind = ?, masked_payload = ?, "
        "version = version + 1, claimed_by = NULL, claim_until = NULL "
        "WHERE id = ? AND version = ? AND (claim_until IS NULL OR claim_until <= ?)",
        [(p, k, m, i, v, at) for (p, k, i, v), m in zip(payloads, masked, strict=True)],
    )
    if done != len(payloads):
        n = len(payloads) - done
        raise TriageError(
            ngettext(
                "{n} dead letter changed while being fixed",
                "{n} dead letters changed while being fixed",
                n,
            ).format(n=format_int(n))
        )


def write_masks(conn: Any, updates: list[dict[str, Any]]) -> None:
    """The masked copies of rows (``b_id``, ``mo``: masked original, ``mp``: masked working
    payload, ``err``: the error with its personal values masked), from
    ``masks.refresh_masks``: what the row says is unchanged, so its version stays and no
    event is written."""
    conn.execute(
        update(DL)
        .where(DL.id == bindparam("b_id"))
        .values(
            masked_original=bindparam("mo"),
            masked_payload=bindparam("mp"),
            error=bindparam("err"),
        ),
        updates,
    )


def driver_many(conn: Any, sql: str, rows: list[tuple[Any, ...]]) -> int:
    """``sql`` (written with ``?``) for each of ``rows``; the rows it touched."""
    if conn.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    return int(conn.exec_driver_sql(sql, rows).rowcount)


# -- changes by hand to many rows -----------------------------------------------------------
@dataclass(frozen=True)
class RowChange:
    """One kind of change by hand: which statuses it applies to, what it writes."""

    action: AuditAction
    verb: str  # "parked": for messages
    allowed: tuple[Status, ...]
    status: Status | None = None  # the status it sets
    error_class: ErrorClass | None = None  # the class it sets
    detail: str = ""
    check_claim: bool = True  # a note may be added while a re-drive holds the row

    @property
    def judged_in(self) -> tuple[Status, ...]:
        """The statuses a row is judged in rather than refused: those the change applies
        to and the one it sets, so that a row already there (a discard of a discarded row)
        is unchanged, said as "already discarded", never refused as if it could not be."""
        if self.status is None or self.status in self.allowed:
            return self.allowed
        return (*self.allowed, self.status)

    def values(self, row: Row[Any]) -> tuple[dict[str, Any], str] | None:
        """What to write, and the event's detail; None when the row is already there."""
        if self.status is not None:
            return (
                None if row.status == self.status else ({"status": self.status.value}, self.detail)
            )
        if self.error_class is not None:
            if row.error_class == self.error_class:
                return None
            return {
                "error_class": self.error_class.value
            }, f"{row.error_class} -> {self.error_class}"
        return {}, self.detail


def park(reason: str = "parked by hand") -> RowChange:
    reason = text_input.reason(reason) or "parked by hand"
    return RowChange(AuditAction.PARKED, "parked", WAITING, status=Status.PARKED, detail=reason)


def discard(reason: str) -> RowChange:
    reason = text_input.reason(reason)
    if not reason:
        raise TriageError(_("discarding needs a reason"))
    return RowChange(
        AuditAction.DISCARDED, "discarded", WAITING, status=Status.DISCARDED, detail=reason
    )


# What a person may reopen: a parked row, and a discarded one until a purge deletes it (a
# discard is a judgement, and a wrong one must have a way back). A resolved row is final: the
# warehouse holds what resolved it.
REOPENABLE: tuple[Status, ...] = (*WAITING, Status.DISCARDED)


def reopen(reason: str = "reopened") -> RowChange:
    reason = text_input.reason(reason) or "reopened"
    return RowChange(
        AuditAction.REOPENED, "reopened", REOPENABLE, status=Status.OPEN, detail=reason
    )


def reclassify_as(error_class: ErrorClass | str) -> RowChange:
    new = ErrorClass(error_class)
    return RowChange(AuditAction.RECLASSIFIED, "reclassified", WAITING, error_class=new)


def note(text: str) -> RowChange:
    text = text_input.note(text)
    if not text:
        raise TriageError(_("a note cannot be empty"))
    every = (*WAITING, *CLOSED)
    return RowChange(AuditAction.NOTE, "noted", every, detail=text, check_claim=False)


@dataclass(frozen=True)
class ChangeReport:
    """What a change by hand did to each row it named."""

    action: str
    changed: tuple[int, ...] = ()
    unchanged: tuple[int, ...] = ()  # already in that state
    refused: tuple[tuple[int, str], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "changed": list(self.changed),
            "unchanged": list(self.unchanged),
            "refused": [{"id": i, "reason": english(r)} for i, r in self.refused],
        }

    def describe(self) -> str:
        """One sentence a person reads, of a change applied to the rows a preview showed
        (the window's Discard) or to rows named on the command line: how many changed,
        named; those already so; those left out, with the first's why (changed since the
        preview, held by a re-drive, in another status); and, for a discard, the way back."""
        n = len(self.changed)
        text = _changed_words(self.action, n).format(
            n=format_int(n), ids=named_ids(list(self.changed))
        )
        if self.unchanged:
            text += " " + _already_words(self.action).format(ids=named_ids(list(self.unchanged)))
        if self.refused:
            text += " " + _("Left out {n}: {ids} (first: {why}).").format(
                n=format_int(len(self.refused)),
                ids=named_ids([i for i, _why in self.refused]),
                why=self.refused[0][1],
            )
        if self.changed and self.action == AuditAction.DISCARDED:
            text += " " + _("Reopen brings them back until retention purges them.")
        return text


def _changed_words(action: str, n: int) -> str:
    """``Parked {n} dead letters: {ids}.`` for ``action`` ("Parked 0 dead letters." for none)."""
    if n == 0:
        none: dict[str, str] = {
            AuditAction.PARKED: _("Parked 0 dead letters."),
            AuditAction.DISCARDED: _("Discarded 0 dead letters."),
            AuditAction.REOPENED: _("Reopened 0 dead letters."),
            AuditAction.RECLASSIFIED: _("Reclassified 0 dead letters."),
            AuditAction.NOTE: _("Noted 0 dead letters."),
        }
        return none.get(action, _("Changed 0 dead letters."))
    if action == AuditAction.PARKED:
        return ngettext("Parked {n} dead letter: {ids}.", "Parked {n} dead letters: {ids}.", n)
    if action == AuditAction.DISCARDED:
        return ngettext(
            "Discarded {n} dead letter: {ids}.", "Discarded {n} dead letters: {ids}.", n
        )
    if action == AuditAction.REOPENED:
        return ngettext("Reopened {n} dead letter: {ids}.", "Reopened {n} dead letters: {ids}.", n)
    if action == AuditAction.RECLASSIFIED:
        return ngettext(
            "Reclassified {n} dead letter: {ids}.", "Reclassified {n} dead letters: {ids}.", n
        )
    if action == AuditAction.NOTE:
        return ngettext("Noted {n} dead letter: {ids}.", "Noted {n} dead letters: {ids}.", n)
    return ngettext("Changed {n} dead letter: {ids}.", "Changed {n} dead letters: {ids}.", n)


def _already_words(action: str) -> str:
    """``Already parked: {ids}.`` for ``action``."""
    words: dict[str, str] = {
        AuditAction.PARKED: _("Already parked: {ids}."),
        AuditAction.DISCARDED: _("Already discarded: {ids}."),
        AuditAction.REOPENED: _("Already reopened: {ids}."),
        AuditAction.RECLASSIFIED: _("Already reclassified: {ids}."),
        AuditAction.NOTE: _("Already noted: {ids}."),
    }
    return words.get(action, _("Already so: {ids}."))


def change_rows(
    engine: Engine,
    ids: Sequence[int],
    change: RowChange,
    *,
    expected: Mapping[int, int] | None = None,
    actor: str | None = None,
    all_or_nothing: bool = False,
) -> ChangeReport:
    """Apply ``change`` to each row it may apply to, guarded row by row, in one
    transaction; the others are reported with the reason (missing, held by a re-drive,
    changed since the ``expected`` version, or in a status the change does not apply to,
    or a discard of one row of an all-or-nothing batch). ``all_or_nothing``: the first
    refusal is raised and nothing is written."""
    actor = actor or actor_for(engine)
    with write_transaction(engine) as conn, summary.deferred(conn):
        return change_rows_in(conn, ids, change, expected, actor, all_or_nothing)


def whole_batch_refusal(conn: Connection, rows: Mapping[int, Row[Any]]) -> dict[int, str]:
    """The rows of ``rows`` that belong to an all-or-nothing batch not yet loaded, with why
    no one of them may be discarded alone."""
    atomic = atomic_batches(conn, {r.batch_id for r in rows.values()})
    return {
        i: both(
            N_(
                "dead letter {id} belongs to batch {batch}, which loads all or nothing: "
                "fix it, or discard the whole batch (discard --whole-batch {batch})"
            ),
            id=i,
            batch=r.batch_id,
        )
        for i, r in rows.items()
        if r.batch_id in atomic
    }


def _of_discarded_batches(conn: Connection, rows: Mapping[int, Row[Any]]) -> dict[int, str]:
    """Rows of a batch discarded whole: they stay discarded with it."""
    gone = atomic_batches(conn, {r.batch_id for r in rows.values()})
    return {
        i: both(
            N_("dead letter {id} belongs to batch {batch}, which was discarded whole"),
            id=i,
            batch=r.batch_id,
        )
        for i, r in rows.items()
        if gone.get(r.batch_id) == BatchState.DISCARDED
    }


def change_rows_in(
    conn: Connection,
    ids: Sequence[int],
    change: RowChange,
    expected: Mapping[int, int] | None,
    actor: str,
    all_or_nothing: bool = False,
    whole_batch: bool = False,
) -> ChangeReport:
    """``change_rows`` inside the caller's write transaction (``summary.deferred`` too).
    ``whole_batch``: the caller discards whole batches, which a discard of their rows is
    part of."""
    changed: list[int] = []
    unchanged: list[int] = []
    refused: list[tuple[int, str]] = []
    wanted = sorted(set(ids))
    now = utcnow()
    ladders = Ladders(conn)  # a row that starts the ladder again: its version's ladder
    for start in range(0, len(wanted), CHUNK):
        part = wanted[start : start + CHUNK]
        rows = lock_rows(conn, part)
        alone: dict[int, str] = {}
        if change.action == AuditAction.DISCARDED and not whole_batch:
            alone = whole_batch_refusal(conn, rows)
        elif change.action == AuditAction.REOPENED:
            alone = _of_discarded_batches(conn, rows)
        updates: list[dict[str, Any]] = []
        events: list[dict[str, Any]] = []
        for dl_id in part:
            row = rows.get(dl_id)
            seen = expected.get(dl_id) if expected else None
            why = refusal(
                conn, dl_id, row, seen, change.verb, now, change.judged_in, change.check_claim
            )
            if why is None and dl_id in alone:
                why = Refused(dl_id, alone[dl_id])
            if why is not None:
                if all_or_nothing:
                    raise why
                refused.append((dl_id, why.reason))
                continue
            assert row is not None
            plan = change.values(row)
            if plan is None:
                unchanged.append(dl_id)
                continue
            values, detail = plan
            # Its place on the retry ladder follows: a row left open and transient (reopened,
            # reclassified as transient) waits for its first retry; any other not at all.
            status = str(values.get("status", row.status))
            error_class = str(values.get("error_class", row.error_class))
            values = {**values, **place_after(row, status, error_class, now, ladders)}
            void = leases.void_holder(row, now)
            updates.append({"b_id": dl_id, "b_version": row.version, "b_void": void, **values})
            events.append(audit_event(dl_id, change.action, detail, actor, now, row.version + 1))
        if change.error_class is not None:
            # A reclassify overwrites the class its synthesized ``quarantined`` event
            # is made of: that event is stored first, as it was.
            expanded_events.keep_quarantined(conn, [u["b_id"] for u in updates])
        # A status or a class moves the rows between the summary's cells (``counts``);
        # they are locked above.
        moving = [u["b_id"] for u in updates if summary.touches(u)]
        cells_of_rows = [id_in(conn, moving)] if moving else None
        cells_before = summary.cells_of(conn, cells_of_rows)
        _apply(conn, updates, now, change.check_claim)
        summary.moved(conn, cells_of_rows, cells_before)
        if events:
            conn.execute(event_insert(), events)
        changed += [u["b_id"] for u in updates]
    return ChangeReport(change.action.value, tuple(changed), tuple(unchanged), tuple(refused))


@dataclass(frozen=True)
class RowsVerdict:
    """What ``change_rows`` would do to each row, judged now by the same rules, nothing
    written or locked: ``versions`` (id -> version) of the rows it would change."""

    versions: dict[int, int]
    unchanged: tuple[int, ...]
    refused: tuple[tuple[int, str], ...]


def judge_rows(engine: Engine, ids: Sequence[int], change: RowChange) -> RowsVerdict:
    """``change`` on each of ``ids`` as ``change_rows`` would decide it (one rule for both:
    ``refusal``, then ``RowChange.values``), read in one transaction; a preview. Nothing
    is locked: applying it names these versions (``expected``), so that a row changed
    since is refused rather than changed blind."""
    versions: dict[int, int] = {}
    unchanged: list[int] = []
    refused: list[tuple[int, str]] = []
    wanted = sorted(set(ids))
    with engine.connect() as conn, conn.begin():
        now = utcnow()
        for start in range(0, len(wanted), IN_LIMIT):
            part = wanted[start : start + IN_LIMIT]
            stmt = select(*_STATE).where(id_in(conn, part)).order_by(DL.id)
            found: list[Row[Any]] = list(conn.execute(stmt))
            rows = {r.id: r for r in found}
            alone: dict[int, str] = {}
            if change.action == AuditAction.DISCARDED:
                alone = whole_batch_refusal(conn, rows)
            for dl_id in part:
                row = rows.get(dl_id)
                why = refusal(
                    conn, dl_id, row, None, change.verb, now, change.judged_in, change.check_claim
                )
                if why is None and dl_id in alone:
                    why = Refused(dl_id, alone[dl_id])
                if why is not None:
                    refused.append((dl_id, why.reason))
                    continue
                assert row is not None
                if change.values(row) is None:
                    unchanged.append(dl_id)
                else:
                    versions[dl_id] = int(row.version)
    return RowsVerdict(versions, tuple(unchanged), tuple(refused))


def _apply(
    conn: Connection, updates: list[dict[str, Any]], now: dt.datetime, check_claim: bool
) -> None:
    """The guarded UPDATEs, grouped by the columns they set."""
    by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for u in updates:
        by_columns.setdefault(tuple(sorted(k for k in u if not k.startswith("b_"))), []).append(u)
    for columns, params in by_columns.items():
        guard = [DL.id == bindparam("b_id"), DL.version == bindparam("b_version")]
        over: dict[str, Any] = {}
        if check_claim:
            guard.append(or_(leases.free(now), DL.claimed_by == bindparam("b_void")))
            # A lease that ran out is over once someone else changed the row: its re-drive,
            # if it comes back, finds the row no longer its own (settling.settle).
            over = {"claimed_by": None, "claim_until": None}
        stmt = (
            update(DL)
            .where(*guard)
            .values(version=DL.version + 1, **over, **{c: bindparam(c) for c in columns})
        )
        done = conn.execute(stmt, params)
        sane = len(params) == 1 or conn.dialect.supports_sane_multi_rowcount
        if sane and done.rowcount != len(params):  # cannot happen under the lock
            raise TriageError(_("dead letters changed while they were being changed; try again"))
