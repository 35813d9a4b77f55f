"""Re-drive: run chosen dead letters through a chosen transform version.

Success upserts the warehouse and resolves the dead letter (kept as history); failure
counts an attempt and stores the latest error; at the attempt limit the row is parked.
The warehouse commits first, then the store: a crash between the two leaves the dead
letter open, and the next re-drive upserts the same row again, which changes nothing.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from triage_app.core.batch import (
    Failure,
    csv_header_names,
    decode_payload,
    failure_from,
    failure_from_message,
)
from triage_app.core.clock import utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    Batch,
    DeadLetter,
    WarehouseWriter,
    Workspace,
    current_actor,
    record_event,
)
from triage_app.core.deadletters.filters import DeadLetterFilter
from triage_app.core.deadletters.queries import matching_ids, not_found
from triage_app.core.errors import TriageError
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import RetryPolicy, is_transient, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import (
    CLOSED,
    SUCCEEDED,
    AuditAction,
    ErrorClass,
    PayloadKind,
    RedriveOutcome,
    Status,
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

    def to_json(self) -> dict[str, Any]:
        return {
            "transform": self.transform,
            "dry_run": self.dry_run,
            "attempted": self.attempted,
            "succeeded": self.succeeded,
            "failed": self.failed,
            "parked": self.parked,
            "cancelled": self.cancelled,
            "results": [r.to_json() for r in self.results],
        }


@dataclass(frozen=True)
class _Item:
    id: int
    line: int
    batch_id: str
    payload: bytes
    kind: str
    attempts: int
    status: str


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
    actor = actor or current_actor()
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
    headers: dict[str, list[str] | None] = {}
    results: list[RedriveResult] = []
    cancelled = False
    for start in range(0, len(chosen), CHUNK):
        part = chosen[start : start + CHUNK]
        items = _load(ws, part)
        results += _redrive_chunk(
            ws, transform, items, headers, writer, dry_run, max_attempts, retry, actor, sleep
        )
        progress.update(min(start + CHUNK, len(chosen)), len(chosen), len(results))
        if progress.cancelled():
            cancelled = True
            break
    attempted = [r for r in results if r.outcome != RedriveOutcome.SKIPPED]
    return RedriveSummary(
        transform=transform.ref,
        dry_run=dry_run,
        attempted=len(attempted),
        succeeded=sum(r.outcome in SUCCEEDED for r in attempted),
        failed=sum(r.outcome not in SUCCEEDED for r in attempted),
        parked=sum(r.outcome == RedriveOutcome.PARKED for r in attempted),
        results=tuple(results),
        cancelled=cancelled,
    )


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
    dry_run: bool,
    max_attempts: int,
    retry: RetryPolicy,
    actor: str,
    sleep: Callable[[float], None],
) -> list[RedriveResult]:
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
    result = with_retry(lambda: writer.upsert(rows), retry, sleep=sleep)
    crash_point("redrive-after-warehouse")
    refused = dict(result.failed)
    resolved: list[_Item] = []
    for i, item in enumerate(row_owner):
        message = refused.get(i)
        if message is None:
            resolved.append(item)
        else:
            failures[item.id] = failure_from_message(
                item.line, item.payload, message, ErrorClass.DATA
            )
    by_id = {i.id: i for i in items}

    def _commit() -> dict[int, RedriveResult]:
        out: dict[int, RedriveResult] = {}
        now = utcnow()
        with Session(ws.store) as s, s.begin():
            for item in resolved:
                s.execute(
                    update(DeadLetter)
                    .where(DeadLetter.id == item.id)
                    .values(status=Status.RESOLVED.value, resolved_at=now, transform=transform.ref)
                )
                detail = f"re-driven with {transform.ref}"
                record_event(s, item.id, AuditAction.RESOLVED, detail, actor, now)
                out[item.id] = RedriveResult(item.id, item.line, RedriveOutcome.RESOLVED)
            for item_id, f in failures.items():
                item = by_id[item_id]
                attempts = item.attempts + 1
                parked = attempts >= max_attempts
                s.execute(
                    update(DeadLetter)
                    .where(DeadLetter.id == item_id)
                    .values(
                        attempts=attempts,
                        error=f.error,
                        error_class=f.error_class.value,
                        signature=f.signature,
                        traceback=f.traceback,
                        last_failed_at=now,
                        transform=transform.ref,
                        status=Status.PARKED.value if parked else item.status,
                    )
                )
                record_event(
                    s,
                    item_id,
                    AuditAction.REDRIVE_FAILED,
                    f"attempt {attempts} with {transform.ref}: {f.error}",
                    actor,
                    now,
                )
                if parked and item.status != Status.PARKED:
                    record_event(
                        s,
                        item_id,
                        AuditAction.PARKED,
                        f"{attempts} attempts reached the limit of {max_attempts}",
                        actor,
                        now,
                    )
                outcome = RedriveOutcome.PARKED if parked else RedriveOutcome.FAILED
                out[item_id] = RedriveResult(item.id, item.line, outcome, f.error)
        return out

    results.update(with_retry(_commit, retry, sleep=sleep))
    return [results[i.id] for i in items if i.id in results]
