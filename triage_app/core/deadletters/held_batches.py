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
from triage_app.core.deadletters.transitions import (
    audit_event,
    change_rows_in,
    discard,
    write_transaction,
)
from triage_app.core.errors import TriageError
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import (
    WAITING,
    AuditAction,
    BatchState,
    ErrorClass,
    PayloadKind,
    plural,
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
            who = f" by {self.loaded_by}" if self.loaded_by else ""
            when = f" at {self.loaded_at}" if self.loaded_at else ""
            return f"Batch {self.batch_id} was already loaded whole{who}{when}: nothing to do."
        if self.loaded:
            return (
                f"Loaded batch {self.batch_id} whole with {self.transform} in one transaction: "
                f"{plural(self.rows, 'row')} ({self.held:,} held, {self.resolved:,} fixed dead "
                f"letters resolved) in {self.seconds:.2f} s."
            )
        named = "; ".join(
            f"line {f.line}{f' (#{f.dead_letter})' if f.dead_letter else ''}: {f.why}"
            for f in self.failing[:_NAMED]
        )
        more = len(self.failing) - _NAMED
        text = (
            f"Nothing loaded: batch {self.batch_id} stays held, "
            f"{plural(len(self.failing), 'line')} still failing: {named}"
        )
        if more > 0:
            text += f"; and {more:,} more"
        text += "."
        if self.newly_quarantined:
            text += (
                f" {plural(self.newly_quarantined, 'held line')} the whole-batch check named "
                "became dead letters to fix."
            )
        return text


def _given(batch_id: str) -> str:
    return orjson.dumps({"batch": batch_id, "whole": True}).decode()


def find_batch(conn: Connection, batch_id: str) -> Row[Any]:
    """The batch ``batch_id`` names (its id or a prefix), or one line why not."""
    return batch_named(conn, batch_id)


def _atomic_transform(batch: Row[Any], registry: Registry) -> Transform:
    transform = registry.get(batch.transform)
    if not transform.atomic:
        raise TriageError(
            f"batch {batch.batch_id} ({batch.transform}) is not all or nothing: "
            "re-drive its dead letters row by row"
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
        raise TriageError(f"batch {batch.batch_id} was discarded whole: nothing to load")
    if batch.state == BatchState.RUNNING:
        raise TriageError(
            f"batch {batch.batch_id} has not finished running: run its file again to finish it"
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
                raise TriageError(
                    f"batch {batch_id} is being loaded by another process "
                    f"{str(exc).split('process', 1)[1].split(';')[0].strip()}; "
                    "run the same command again when it ends"
                ) from None
            sleep(0.1)


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
            f"batch {batch.batch_id} loads whole through its own transform {batch.transform}, "
            f"not {transform}"
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
                who = next(iter(got.taken.values()), "another change")
                raise TriageError(
                    f"{plural(len(ids) - len(mine), 'dead letter')} of batch {batch_id} "
                    f"{'is' if len(ids) - len(mine) == 1 else 'are'} held by {who}: "
                    "try again when it ends"
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
                f"batch {batch_id}: the leases on its dead letters ran out before the load; "
                "nothing loaded: run the same command again"
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
                f"batch {batch_id}: the leases on its dead letters ran out during the load; "
                "run the same command again to finish it"
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
        return (
            f"Discarded batch {self.batch_id} whole: {plural(self.discarded, 'dead letter')} "
            f"discarded, {plural(self.dropped, 'held row')} dropped; nothing of it loaded "
            f"({self.reason})."
        )


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
            state = "loaded" if batch.state == BatchState.COMPLETE else "not all or nothing"
            raise TriageError(
                f"batch {batch.batch_id} is {state}: discard its dead letters one by one"
            )
    batch_id = batch.batch_id
    with (
        _loading_lock(ws, batch_id, wait, sleep),
        write_transaction(ws.store) as conn,
        summary.deferred(conn),
    ):
        batch = find_batch(conn, batch_id)
        if batch.state != BatchState.HELD:
            _state_refusal(batch)
            raise TriageError(f"batch {batch_id} is {batch.state}: nothing to discard")
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
                    f"{detail} ({plural(len(report.changed), 'dead letter')} discarded, "
                    f"{plural(dropped, 'held row')} dropped)",
                    actor,
                    utcnow(),
                    None,
                )
            ],
        )
    return HeldBatchDiscard(batch_id, len(report.changed), dropped, change.detail)
