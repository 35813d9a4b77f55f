"""Re-drive: run chosen dead letters through a chosen transform version.

Each chunk of rows is first claimed (``transitions.claim``): a lease no other re-drive,
edit or status change can cross, so two stewards re-driving the same rows never resolve
one twice, and the warehouse gets exactly the payload that resolves the row. A row another
re-drive holds is reported ``taken`` and left to it.

Success upserts the warehouse and resolves the dead letter (kept as history); failure
counts an attempt and stores the latest error; at the attempt limit the row is parked.
The warehouse commits first, then the store: a crash between the two leaves the dead
letter open (its lease runs out), and the next re-drive upserts the same row again, which
changes nothing.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import select

from triage_app.core.batch import (
    Failure,
    csv_header_names,
    decode_payload,
    failure_from,
    failure_from_message,
)
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import Batch, DeadLetter, WarehouseWriter, Workspace, actor_for
from triage_app.core.deadletters import transitions
from triage_app.core.deadletters.filters import DeadLetterFilter
from triage_app.core.deadletters.queries import matching_ids, not_found
from triage_app.core.errors import TriageError
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import RetryPolicy, is_transient, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import (
    CLOSED,
    SUCCEEDED,
    ErrorClass,
    PayloadKind,
    RedriveOutcome,
)

DEFAULT_MAX_ATTEMPTS = 3
CHUNK = 500


@dataclass(frozen=True)
class RedriveResult:
    id: int
    line: int
    outcome: RedriveOutcome
    error: str | None = None
    row: dict[str, Any] | None = None  # the warehouse row it produces (dry run)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        if d["row"] is None:
            d.pop("row")
        return d


@dataclass(frozen=True)
class RedriveSummary:
    transform: str
    dry_run: bool
    attempted: int
    succeeded: int
    failed: int
    parked: int
    results: tuple[RedriveResult, ...]
    cancelled: bool = False
    taken: int = 0  # held by another re-drive: left to it

    def to_json(self) -> dict[str, Any]:
        return {
            "transform": self.transform,
            "dry_run": self.dry_run,
            "attempted": self.attempted,
            "succeeded": self.succeeded,
            "failed": self.failed,
            "parked": self.parked,
            "taken": self.taken,
            "cancelled": self.cancelled,
            "results": [r.to_json() for r in self.results],
        }


# A dead letter as a re-drive works on it: the same fields whether claimed or, in a dry
# run, only read.
_Item = transitions.ClaimedRow


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


def select_ids(ws: Workspace, ids: Sequence[int] | None, f: DeadLetterFilter | None) -> list[int]:
    if ids:
        return sorted(set(ids))
    if f is None:
        raise TriageError("choose dead letters to re-drive: ids, a filter, or all open")
    return matching_ids(ws, f)


def redrive(
    ws: Workspace,
    transform_ref: str,
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
) -> RedriveSummary:
    """Re-drive the dead letters named by ``ids`` or matching ``where``."""
    transform = (registry or default_registry()).get(transform_ref)
    progress = progress or NoProgress()
    retry = retry or RetryPolicy()
    actor = actor or actor_for(ws.store)
    chosen = select_ids(ws, ids, where)
    if ids:
        found: set[int] = set()
        with ws.store.connect() as conn:
            # In slices: SQLite refuses statements with more than 32,766 parameters.
            for start in range(0, len(chosen), CHUNK):
                part = chosen[start : start + CHUNK]
                found.update(
                    conn.execute(select(DeadLetter.id).where(DeadLetter.id.in_(part))).scalars()
                )
        missing = [i for i in chosen if i not in found]
        if missing:
            raise not_found(missing)
    writer = None if dry_run else WarehouseWriter(ws.warehouse, transform)
    token = transitions.new_token(actor)
    headers: dict[str, list[str] | None] = {}
    results: list[RedriveResult] = []
    cancelled = False
    for start in range(0, len(chosen), CHUNK):
        part = chosen[start : start + CHUNK]
        if dry_run:
            results += _redrive_chunk(
                ws, transform, _load(ws, part), headers, None, max_attempts, retry, actor, sleep
            )
        else:
            results += _claimed_chunk(
                ws, transform, part, token, headers, writer, max_attempts, retry, actor, sleep
            )
        progress.update(min(start + CHUNK, len(chosen)), len(chosen), len(results))
        if progress.cancelled():
            cancelled = True
            break
    attempted = [r for r in results if r.outcome not in _NOT_ATTEMPTED]
    return RedriveSummary(
        transform=transform.ref,
        dry_run=dry_run,
        attempted=len(attempted),
        succeeded=sum(r.outcome in SUCCEEDED for r in attempted),
        failed=sum(r.outcome not in SUCCEEDED for r in attempted),
        parked=sum(r.outcome == RedriveOutcome.PARKED for r in attempted),
        results=tuple(results),
        cancelled=cancelled,
        taken=sum(r.outcome == RedriveOutcome.TAKEN for r in results),
    )


_NOT_ATTEMPTED = (RedriveOutcome.SKIPPED, RedriveOutcome.TAKEN)


def _claimed_chunk(
    ws: Workspace,
    transform: Transform,
    part: list[int],
    token: str,
    headers: dict[str, list[str] | None],
    writer: WarehouseWriter | None,
    max_attempts: int,
    retry: RetryPolicy,
    actor: str,
    sleep: Callable[[float], None],
) -> list[RedriveResult]:
    """Claim the chunk's rows and re-drive those held. Settling releases each lease; a
    chunk that fails gives its leases back at once rather than when they run out."""
    got = with_retry(lambda: transitions.claim(ws.store, part, token), retry, sleep=sleep)
    items = list(got.rows)
    try:
        done = _redrive_chunk(
            ws, transform, items, headers, writer, max_attempts, retry, actor, sleep, token
        )
    except BaseException:
        transitions.release(ws.store, [r.id for r in got.rows], token)
        raise
    lines = _lines(ws, [*got.taken, *got.closed])
    others = [
        RedriveResult(i, lines[i], RedriveOutcome.TAKEN, f"held by {who}")
        for i, who in got.taken.items()
    ] + [
        RedriveResult(i, lines[i], RedriveOutcome.SKIPPED, f"already {status}")
        for i, status in got.closed.items()
    ]
    return sorted([*done, *others], key=lambda r: r.id)


def _lines(ws: Workspace, ids: list[int]) -> dict[int, int]:
    if not ids:
        return {}
    with ws.store.connect() as conn:
        stmt = select(DeadLetter.id, DeadLetter.line).where(DeadLetter.id.in_(ids))
        return {r.id: r.line for r in conn.execute(stmt)}


def _load(ws: Workspace, ids: list[int]) -> list[_Item]:
    dl = DeadLetter
    stmt = (
        select(dl.id, dl.line, dl.batch_id, dl.payload, dl.payload_kind, dl.attempts, dl.status)
        .where(dl.id.in_(ids))
        .order_by(dl.id)
    )
    with ws.store.connect() as conn:
        return [_Item(*r) for r in conn.execute(stmt)]


def _csv_names(
    ws: Workspace, batch_id: str, cache: dict[str, list[str] | None]
) -> list[str] | None:
    if batch_id not in cache:
        with ws.store.connect() as conn:
            header = conn.execute(
                select(Batch.csv_header).where(Batch.batch_id == batch_id)
            ).scalar_one_or_none()
        cache[batch_id] = csv_header_names(header) if header else None
    return cache[batch_id]


def _redrive_chunk(
    ws: Workspace,
    transform: Transform,
    items: list[_Item],
    headers: dict[str, list[str] | None],
    writer: WarehouseWriter | None,
    max_attempts: int,
    retry: RetryPolicy,
    actor: str,
    sleep: Callable[[float], None],
    token: str = "",
) -> list[RedriveResult]:
    """Transform the chunk's rows; with a ``writer``, load the ones that succeed and settle
    every row the re-drive still holds (``token``); without one (a dry run), say what would
    happen."""
    dry_run = writer is None
    results: dict[int, RedriveResult] = {}
    rows: list[tuple[Any, ...]] = []
    row_owner: list[_Item] = []
    failures: dict[int, Failure] = {}
    queue: deque[tuple[_Item, int, float]] = deque((it, 0, 0.0) for it in items)
    while queue:
        item, tries, not_before = queue.popleft()
        if item.status in CLOSED:
            results[item.id] = RedriveResult(
                item.id, item.line, RedriveOutcome.SKIPPED, f"already {item.status}"
            )
            continue
        wait = not_before - time.monotonic()
        if wait > 0:
            sleep(wait)
        try:
            names = _csv_names(ws, item.batch_id, headers) if item.kind == PayloadKind.CSV else None
            row = transform.fn(decode_payload(item.payload, item.kind, names))
            row_dict = dict(zip(transform.column_names, row, strict=True))
        except Exception as exc:
            if is_transient(exc) and tries + 1 < retry.attempts:
                # Back of the queue, so the others don't wait for this one's backoff.
                queue.append((item, tries + 1, time.monotonic() + retry.delay(tries + 1)))
                continue
            failures[item.id] = failure_from(item.line, item.payload, exc)
            continue
        if dry_run:
            results[item.id] = RedriveResult(
                item.id, item.line, RedriveOutcome.WOULD_SUCCEED, row=row_dict
            )
        else:
            rows.append((*row, item.batch_id, item.line))
            row_owner.append(item)
    if dry_run:
        for item_id, f in failures.items():
            item = next(i for i in items if i.id == item_id)
            results[item_id] = RedriveResult(item.id, item.line, RedriveOutcome.WOULD_FAIL, f.error)
        return [results[i.id] for i in items if i.id in results]

    assert writer is not None
    # The lease is renewed just before the warehouse is written, so it cannot run out
    # between the two databases: a row the re-drive no longer holds is not loaded.
    held = transitions.renew(ws.store, [*(i.id for i in row_owner), *failures], token)
    for item in items:
        if item.id not in held and item.status not in CLOSED:
            results[item.id] = RedriveResult(
                item.id, item.line, RedriveOutcome.TAKEN, "the lease ran out"
            )
    kept = [(row, item) for row, item in zip(rows, row_owner, strict=True) if item.id in held]
    failures = {i: f for i, f in failures.items() if i in held}
    result = with_retry(lambda: writer.upsert([r for r, _ in kept]), retry, sleep=sleep)
    crash_point("redrive-after-warehouse")
    refused = dict(result.failed)
    resolved: list[int] = []
    for i, (_, item) in enumerate(kept):
        message = refused.get(i)
        if message is None:
            resolved.append(item.id)
        else:
            failures[item.id] = failure_from_message(
                item.line, item.payload, message, ErrorClass.DATA
            )
    by_id = {i.id: i for i in items}
    settled = with_retry(
        lambda: transitions.settle(
            ws.store, token, resolved, failures, transform.ref, max_attempts, actor
        ),
        retry,
        sleep=sleep,
    )
    for item_id, outcome in settled.items():
        item = by_id[item_id]
        results[item_id] = RedriveResult(item.id, item.line, outcome.outcome, outcome.error)
    return [results[i.id] for i in items if i.id in results]
