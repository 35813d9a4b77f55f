"""A held batch as a whole (issue 25): loading it in one transaction once its dead letters
are fixed, or discarding it whole. An all-or-nothing batch (``batch/atomic.py``) never loads
piecemeal: a re-drive of one of its rows is refused, and so is a discard of one row.

**Fixed** means: every waiting (open or parked) dead letter of the batch, through its
working payload, passes the transform, and then the batch's rows together, the held ones
and the fixed ones, pass the transform's whole-batch check (a journal balances). Nothing
else counts: an edit that still fails is not a fix.

``load_held_batch``, under the batch's loading lock (``batch/loading_lock.py``: one loader
at a time; a second steward waits for it, then finds the batch complete and is told who
loaded it):

1. claims the batch's waiting dead letters (a re-drive's lease: no edit or discard crosses
   it while the batch loads);
2. runs each through the transform, then everything through the whole-batch check. If any
   fails, nothing loads: each failing dead letter records the attempt and its reason
   (``redrive_failed``, as a re-drive's failure), a held line the check names becomes a
   dead letter to fix, the batch stays held, and the steward is told every reason;
3. else writes every row into the warehouse in ONE transaction (crash point
   ``atomic-mid-load`` before its commit: killed there, nothing is loaded);
4. then, in one store transaction: the dead letters resolved, audited as a re-drive is (a
   ``redrive_runs`` row given ``{"batch": ID, "whole": true}`` and a ``resolutions`` line
   each), the held rows deleted, the batch complete, its held rows counted loaded.

A crash between 3 and 4 leaves the batch held with its rows in the warehouse; the same
action again writes the same rows (an idempotent upsert) and finishes the store's side.

``discard_held_batch``: every waiting dead letter discarded (each row's ``discarded``
event with the reason) and the held rows dropped, with one event about the store naming the
batch, its counts and the reason, in one transaction; the batch is ``discarded``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, Row, select, update

from triage_app.core.batch import (
    BatchBeingLoaded,
    Failure,
    atomic_batches,
    csv_header_names,
    decode_payload,
    failure_from,
    failure_from_message,
    hold_batch,
    load_whole_batch,
    mark_loaded,
    newest_per_key,
    quarantine_held,
    read_held,
    unhold,
    whole_check,
)
from triage_app.core.clock import iso, utcnow
from triage_app.core.db import (
    Batch,
    DeadLetter,
    RedriveRun,
    Workspace,
    actor_for,
    batch_named,
    event_insert,
    summary,
)
from triage_app.core.deadletters import claims, leases, settling
from triage_app.core.deadletters.said import stored_count, utc_time
from triage_app.core.deadletters.transitions import (
    audit_event,
    change_rows_in,
    discard,
    write_transaction,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int, format_number
from triage_app.core.messages import _, ngettext
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import (
    WAITING,
    AuditAction,
    BatchState,
    ErrorClass,
    PayloadKind,
)

DEFAULT_WAIT_SECONDS = 120.0  # how long a second steward waits for the first one's load
_NAMED = 20  # failing lines a summary's sentence names


@dataclass(frozen=True)
class Failing:
    """A line that keeps the batch held, and why; ``dead_letter`` None for a held line."""

    line: int
    dead_letter: int | None
    why: str


@dataclass(frozen=True)
class HeldBatchLoad:
    """What loading a held batch whole did."""

    batch_id: str
    transform: str
    loaded: bool  # this action loaded it
    already: bool = False  # it was complete already (another steward loaded it)
    rows: int = 0  # rows written to the warehouse (held rows and fixed dead letters)
    held: int = 0  # of which held rows
    resolved: int = 0  # dead letters resolved
    failing: tuple[Failing, ...] = ()
    newly_quarantined: int = 0  # held lines the check named, now dead letters
    loaded_by: str | None = None
    loaded_at: str | None = None
    seconds: float = 0.0
    waited: float = 0.0  # for another steward's load of the same batch
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("extra")
        d["failing"] = [asdict(f) for f in self.failing]
        return d

    def describe(self) -> str:
        if self.already:
            when = _iso_words(self.loaded_at)
            if self.loaded_by and when:
                text = _(
                    "Batch {batch} was already loaded whole by {actor} at {at} UTC: nothing to do."
                )
            elif self.loaded_by:
                text = _("Batch {batch} was already loaded whole by {actor}: nothing to do.")
            elif when:
                text = _("Batch {batch} was already loaded whole at {at} UTC: nothing to do.")
            else:
                text = _("Batch {batch} was already loaded whole: nothing to do.")
            return text.format(batch=self.batch_id, actor=self.loaded_by, at=when)
        if self.loaded:
            return ngettext(
                "Loaded batch {batch} whole with {transform} in one transaction: {n} row "
                "({held} held, {resolved} fixed dead letters resolved) in {seconds} s.",
                "Loaded batch {batch} whole with {transform} in one transaction: {n} rows "
                "({held} held, {resolved} fixed dead letters resolved) in {seconds} s.",
                self.rows,
            ).format(
                batch=self.batch_id,
                transform=self.transform,
                n=format_int(self.rows),
                held=format_int(self.held),
                resolved=format_int(self.resolved),
                seconds=format_number(self.seconds, 2),
            )
        named = "; ".join(
            (_("line {line} (#{id}): {why}") if f.dead_letter else _("line {line}: {why}")).format(
                line=f.line, id=f.dead_letter, why=f.why
            )
            for f in self.failing[:_NAMED]
        )
        more = len(self.failing) - _NAMED
        n = len(self.failing)
        text = ngettext(
            "Nothing loaded: batch {batch} stays held, {n} line still failing: {lines}",
            "Nothing loaded: batch {batch} stays held, {n} lines still failing: {lines}",
            n,
        ).format(batch=self.batch_id, n=format_int(n), lines=named)
        if more > 0:
            text += "; " + _("and {n} more").format(n=format_int(more))
        text += "."
        if self.newly_quarantined:
            text += " " + ngettext(
                "{n} held line the whole-batch check named became a dead letter to fix.",
                "{n} held lines the whole-batch check named became dead letters to fix.",
                self.newly_quarantined,
            ).format(n=format_int(self.newly_quarantined))
        return text


def _iso_words(at: str | None) -> str:
    """A time kept as ISO text (``2026-03-01T10:00:00Z``) as the language writes it."""
    if not at:
        return ""
    try:
        return utc_time(dt.datetime.fromisoformat(at.removesuffix("Z")))
    except ValueError:
        return at


def _given(batch_id: str) -> str:
    return orjson.dumps({"batch": batch_id, "whole": True}).decode()


def find_batch(conn: Connection, batch_id: str) -> Row[Any]:
    """The batch ``batch_id`` names (its id or a prefix), or one line why not."""
    return batch_named(conn, batch_id)


def _atomic_transform(batch: Row[Any], registry: Registry) -> Transform:
    transform = registry.get(batch.transform)
    if not transform.atomic:
        raise TriageError(
            _(
                "batch {batch} ({transform}) is not all or nothing: "
                "re-drive its dead letters row by row"
            ).format(batch=batch.batch_id, transform=batch.transform)
        )
    return transform


def is_whole_batch(ws: Workspace, batch_id: str, registry: Registry | None = None) -> bool:
    """Whether ``batch_id`` (or a prefix) names a batch of an all-or-nothing transform,
    loaded or not: it loads only whole (``load_held_batch`` says when it was)."""
    with ws.store.connect() as conn:
        try:
            batch = find_batch(conn, batch_id)
        except TriageError:
            return False
    try:
        return (registry or default_registry()).get(batch.transform).atomic
    except TriageError:
        return False


def _loaded_by(conn: Connection, batch: Row[Any]) -> tuple[str | None, str | None]:
    run = conn.execute(
        select(RedriveRun.actor, RedriveRun.at)
        .where(RedriveRun.given == _given(batch.batch_id))
        .order_by(RedriveRun.id.desc())
        .limit(1)
    ).first()
    if run is not None:
        return run.actor, iso(run.at)
    return batch.actor, iso(batch.finished_at)  # it loaded whole in its own run


def _state_refusal(batch: Row[Any]) -> None:
    if batch.state == BatchState.DISCARDED:
        raise TriageError(
            _("batch {batch} was discarded whole: nothing to load").format(batch=batch.batch_id)
        )
    if batch.state == BatchState.RUNNING:
        raise TriageError(
            _("batch {batch} has not finished running: run its file again to finish it").format(
                batch=batch.batch_id
            )
        )


@contextlib.contextmanager
def _loading_lock(
    ws: Workspace, batch_id: str, wait: float, sleep: Callable[[float], None]
) -> Iterator[float]:
    """The batch's loading lock, waited for up to ``wait`` seconds; yields the time waited."""
    started = time.monotonic()
    while True:
        try:
            with hold_batch(ws.store, batch_id):
                yield time.monotonic() - started
            return
        except BatchBeingLoaded as exc:
            if time.monotonic() - started >= wait:
                raise TriageError(_being_loaded(batch_id, exc)) from None
            sleep(0.1)


def _being_loaded(batch_id: str, exc: BatchBeingLoaded) -> str:
    """Why the batch cannot be loaded now: another process loads it (which, since when)."""
    if exc.pid is not None and exc.host and exc.since:
        text = _(
            "batch {batch} is being loaded by another process (pid {pid} on {host}) since "
            "{since}; run the same command again when it ends"
        )
    elif exc.pid is not None and exc.host:
        text = _(
            "batch {batch} is being loaded by another process (pid {pid} on {host}); "
            "run the same command again when it ends"
        )
    elif exc.since:
        text = _(
            "batch {batch} is being loaded by another process since {since}; "
            "run the same command again when it ends"
        )
    else:
        text = _(
            "batch {batch} is being loaded by another process; "
            "run the same command again when it ends"
        )
    return text.format(batch=batch_id, pid=exc.pid, host=exc.host, since=exc.since)


def load_held_batch(
    ws: Workspace,
    batch_id: str,
    *,
    actor: str | None = None,
    registry: Registry | None = None,
    retry: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    max_attempts: int | None = None,
    wait: float = DEFAULT_WAIT_SECONDS,
    transform: str | None = None,
) -> HeldBatchLoad:
    """Load the held batch ``batch_id`` whole, in one warehouse transaction, once every dead
    letter of it is fixed; else load nothing and say why (see the module)."""
    from triage_app.core.deadletters.redriving import DEFAULT_MAX_ATTEMPTS

    started = time.perf_counter()
    reg = registry or default_registry()
    retry = retry or RetryPolicy()
    actor = actor or actor_for(ws.store)
    limit = max_attempts or DEFAULT_MAX_ATTEMPTS
    with ws.store.connect() as conn:
        batch = find_batch(conn, batch_id)
    tf = _atomic_transform(batch, reg)
    if transform is not None and reg.get(transform).ref != batch.transform:
        raise TriageError(
            _("batch {batch} loads whole through its own transform {own}, not {transform}").format(
                batch=batch.batch_id, own=batch.transform, transform=transform
            )
        )
    batch_id = batch.batch_id
    with _loading_lock(ws, batch_id, wait, sleep) as waited:
        with ws.store.connect() as conn:
            batch = find_batch(conn, batch_id)
            if batch.state == BatchState.COMPLETE:
                who, when = _loaded_by(conn, batch)
                return HeldBatchLoad(
                    batch_id,
                    tf.ref,
                    loaded=False,
                    already=True,
                    loaded_by=who,
                    loaded_at=when,
                    waited=round(waited, 3),
                )
            _state_refusal(batch)
            ids = list(
                conn.execute(
                    select(DeadLetter.id)
                    .where(
                        DeadLetter.batch_id == batch_id,
                        DeadLetter.status.in_([s.value for s in WAITING]),
                    )
                    .order_by(DeadLetter.id)
                ).scalars()
            )
            held = read_held(conn, batch_id)
        token = leases.new_token(actor)
        got = with_retry(lambda: claims.claim(ws.store, ids, token), retry, sleep=sleep)
        mine = [r.id for r in got.rows]
        try:
            if got.taken or got.busy or len(mine) != len(ids):
                who = next(iter(got.taken.values()), None) or _("another change")
                n = len(ids) - len(mine)
                raise TriageError(
                    ngettext(
                        "{n} dead letter of batch {batch} is held by {who}: try again when it ends",
                        "{n} dead letters of batch {batch} are held by {who}: "
                        "try again when it ends",
                        n,
                    ).format(n=format_int(n), batch=batch_id, who=who)
                )
            return _load(ws, batch, tf, got.rows, held, token, actor, limit, started)
        finally:
            claims.release(ws.store, mine, token)  # those still ours: none once settled


def _transformed(
    transform: Transform, row: claims.ClaimedRow, names: list[str] | None
) -> tuple[Any, ...]:
    return transform.fn(decode_payload(row.payload, row.kind, names))


def _load(
    ws: Workspace,
    batch: Row[Any],
    transform: Transform,
    claimed: tuple[claims.ClaimedRow, ...],
    held: list[Any],
    token: str,
    actor: str,
    limit: int,
    started: float,
) -> HeldBatchLoad:
    batch_id = batch.batch_id
    names = csv_header_names(batch.csv_header) if batch.csv_header else None
    fixed: list[tuple[int, tuple[Any, ...]]] = []
    failed: dict[int, Failure] = {}
    by_line = {r.line: r for r in claimed}
    for r in claimed:
        try:
            row = _transformed(transform, r, names if r.kind == PayloadKind.CSV else None)
        except TriageError as exc:
            failed[r.id] = failure_from(r.line, r.payload, ValueError(str(exc)), ErrorClass.DATA)
            continue
        except Exception as exc:
            failed[r.id] = failure_from(r.line, r.payload, exc)
            continue
        fixed.append((r.line, tuple(row)))
    rows = [*((h.line, h.row) for h in held), *fixed]
    held_named: list[Failure] = []
    if not failed:
        raws = {h.line: h.raw for h in held}
        for line, why in whole_check(transform, rows):
            message = f"DataError: {why}"
            dl = by_line.get(line)
            if dl is not None:
                failed[dl.id] = failure_from_message(line, dl.payload, message, ErrorClass.DATA)
            else:
                held_named.append(
                    failure_from_message(line, raws.get(line, b""), message, ErrorClass.DATA)
                )
    kept: list[tuple[Any, ...]] = []
    dropped: list[int] = []
    if not failed and not held_named:
        kept, dropped = newest_per_key(transform, rows)
        mine = [r.id for r in claimed]
        if claims.renew(ws.store, mine, token) != set(mine):
            raise TriageError(
                _(
                    "batch {batch}: the leases on its dead letters ran out before the load; "
                    "nothing loaded: run the same command again"
                ).format(batch=batch_id)
            )
        result = load_whole_batch(ws, transform, batch_id, kept)
        for i, msg in result.failed:
            line = kept[i][-1]
            dl = by_line.get(line)
            if dl is not None:
                failed[dl.id] = failure_from_message(line, dl.payload, msg, ErrorClass.DATA)
            else:
                raws = {h.line: h.raw for h in held}
                held_named.append(
                    failure_from_message(line, raws.get(line, b""), msg, ErrorClass.DATA)
                )
    if failed or held_named:
        return _stay_held(ws, batch, transform, failed, held_named, token, actor, limit, started)
    held_lines = {h.line for h in held}
    mine = [r.id for r in claimed]
    run = settling.RunRecord(_given(batch_id))
    made: list[int] = []
    with write_transaction(ws.store) as conn, summary.deferred(conn):
        now = utcnow()
        done = settling._resolve(conn, token, mine, transform.ref, actor, now, run, made)
        if len(done) != len(mine):
            raise TriageError(  # rolled back: the batch stays held, the warehouse as loaded
                _(
                    "batch {batch}: the leases on its dead letters ran out during the load; "
                    "run the same command again to finish it"
                ).format(batch=batch_id)
            )
        if not made:  # no dead letter to resolve: the load is still one re-drive run
            settling._run_id(conn, run, made, actor, transform.ref)
        mark_loaded(
            conn,
            batch_id,
            [r[-1] for r in kept if r[-1] in held_lines],
            [line for line in dropped if line in held_lines],
            now,
        )
    return HeldBatchLoad(
        batch_id,
        transform.ref,
        loaded=True,
        rows=len(kept),
        held=len(held),
        resolved=len(mine),
        loaded_by=actor,
        loaded_at=iso(now),
        seconds=round(time.perf_counter() - started, 3),
    )


def _stay_held(
    ws: Workspace,
    batch: Row[Any],
    transform: Transform,
    failed: dict[int, Failure],
    held_named: list[Failure],
    token: str,
    actor: str,
    limit: int,
    started: float,
) -> HeldBatchLoad:
    """Nothing loads: each failing dead letter records the attempt, held lines the check
    named become dead letters; the batch stays held."""
    settling.settle(ws.store, token, [], failed, transform.ref, limit, actor)
    if held_named:
        with write_transaction(ws.store) as conn, summary.deferred(conn):
            quarantine_held(conn, batch, held_named, actor, utcnow())
    failing = sorted(
        [Failing(f.line, i, f.error) for i, f in failed.items()]
        + [Failing(f.line, None, f.error) for f in held_named],
        key=lambda f: f.line,
    )
    return HeldBatchLoad(
        batch.batch_id,
        transform.ref,
        loaded=False,
        failing=tuple(failing),
        newly_quarantined=len(held_named),
        seconds=round(time.perf_counter() - started, 3),
    )


@dataclass(frozen=True)
class HeldBatchDiscard:
    batch_id: str
    discarded: int  # dead letters
    dropped: int  # held rows
    reason: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        dead = ngettext(
            "{n} dead letter discarded", "{n} dead letters discarded", self.discarded
        ).format(n=format_int(self.discarded))
        held = ngettext("{n} held row dropped", "{n} held rows dropped", self.dropped).format(
            n=format_int(self.dropped)
        )
        return _(
            "Discarded batch {batch} whole: {dead_letters}, {held_rows}; nothing of it loaded "
            "({reason})."
        ).format(batch=self.batch_id, dead_letters=dead, held_rows=held, reason=self.reason)


def discard_held_batch(
    ws: Workspace,
    batch_id: str,
    reason: str,
    *,
    actor: str | None = None,
    sleep: Callable[[float], None] = time.sleep,
    wait: float = DEFAULT_WAIT_SECONDS,
) -> HeldBatchDiscard:
    """Discard an all-or-nothing batch whole: its waiting dead letters discarded and its
    held rows dropped, audited as one action with ``reason``; nothing of it ever loads."""
    change = discard(reason)  # refuses an empty reason
    actor = actor or actor_for(ws.store)
    with ws.store.connect() as conn:
        batch = find_batch(conn, batch_id)
        if not atomic_batches(conn, [batch.batch_id]):
            if batch.state == BatchState.COMPLETE:
                text = _("batch {batch} is loaded: discard its dead letters one by one")
            else:
                text = _("batch {batch} is not all or nothing: discard its dead letters one by one")
            raise TriageError(text.format(batch=batch.batch_id))
    batch_id = batch.batch_id
    with (
        _loading_lock(ws, batch_id, wait, sleep),
        write_transaction(ws.store) as conn,
        summary.deferred(conn),
    ):
        batch = find_batch(conn, batch_id)
        if batch.state != BatchState.HELD:
            _state_refusal(batch)
            # Neither discarded nor running (refused above): complete.
            raise TriageError(
                _("batch {batch} is complete: nothing to discard").format(batch=batch_id)
            )
        ids = list(
            conn.execute(
                select(DeadLetter.id).where(
                    DeadLetter.batch_id == batch_id,
                    DeadLetter.status.in_([s.value for s in WAITING]),
                )
            ).scalars()
        )
        detail = f"batch {batch_id} discarded whole: {change.detail}"
        whole = discard(detail)
        report = change_rows_in(conn, ids, whole, None, actor, True, whole_batch=True)
        dropped = int(batch.held)
        conn.execute(
            update(Batch)
            .where(Batch.batch_id == batch_id)
            .values(state=BatchState.DISCARDED.value, finished_at=utcnow())
        )
        unhold(conn, batch_id, None)  # the held rows, all of them
        conn.execute(
            event_insert(),
            [
                audit_event(
                    None,  # type: ignore[arg-type]  # an event about the store
                    AuditAction.DISCARDED,
                    # Stored: in English, for every reader (said.py).
                    f"{detail} ({stored_count(len(report.changed), 'dead letter', 'dead letters')}"
                    f" discarded, {stored_count(dropped, 'held row', 'held rows')} dropped)",
                    actor,
                    utcnow(),
                    None,
                )
            ],
        )
    return HeldBatchDiscard(batch_id, len(report.changed), dropped, change.detail)
