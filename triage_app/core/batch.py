"""Running a source file through a transform: healthy rows to the warehouse, failing
records to the dead-letter store, committed in chunks so a killed run resumes.

A batch's identity is the file's content hash and the transform, never the clock: the
same file through the same transform is the same batch, and running it again is a no-op.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from triage_app.core.errors import ErrorClass
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.quarantine import Failure, failure_from, quarantine
from triage_app.core.readers import (
    Format,
    Record,
    csv_header_names,
    decode_csv,
    decode_jsonl,
    detect_format,
    file_sha256,
    open_source,
    read_csv,
    read_jsonl,
)
from triage_app.core.retry import RetryPolicy, is_transient, with_retry
from triage_app.core.store import Batch, BatchState, utcnow
from triage_app.core.transforms.registry import Registry, Transform, default_registry
from triage_app.core.warehouse import WarehouseWriter
from triage_app.core.workspace import Workspace, current_actor

DEFAULT_CHUNK = 50_000


@dataclass(frozen=True)
class BatchSummary:
    """What a run did; the CLI prints it, the GUI shows it, the store keeps it."""

    batch_id: str
    source_name: str
    transform: str
    format: str
    rows: int
    loaded: int
    superseded: int
    quarantined: int
    by_class: dict[str, int]
    seconds: float
    already_loaded: bool
    resumed: bool = False
    cancelled: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def batch_identity(sha256: str, transform: Transform, fmt: str) -> str:
    return hashlib.sha256(f"{sha256}|{transform.ref}|{fmt}".encode()).hexdigest()[:16]


def _summary(
    b: Batch, *, already: bool, resumed: bool, cancelled: bool, seconds: float
) -> BatchSummary:
    by_class = {
        c: n for c, n in (("data", b.q_data), ("code", b.q_code), ("transient", b.q_transient)) if n
    }
    return BatchSummary(
        batch_id=b.batch_id,
        source_name=b.source_name,
        transform=b.transform,
        format=b.format,
        rows=b.rows,
        loaded=b.loaded,
        superseded=b.superseded,
        quarantined=b.quarantined,
        by_class=by_class,
        seconds=round(seconds, 3),
        already_loaded=already,
        resumed=resumed,
        cancelled=cancelled,
    )


@dataclass
class _Chunk:
    """What one chunk accumulates before it is committed."""

    pending: dict[Any, tuple[Any, ...]] = field(default_factory=dict)  # key -> newest row
    failures: list[Failure] = field(default_factory=list)
    rows: int = 0
    superseded: int = 0
    last_line: int = 0


@dataclass
class _Retry:
    line: int
    end_line: int
    raw: bytes
    failures: int = 1
    not_before: float = 0.0


def run_batch(
    ws: Workspace,
    path: str | Path,
    transform_ref: str,
    *,
    fmt: str | None = None,
    progress: Progress | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    retry: RetryPolicy | None = None,
    registry: Registry | None = None,
    actor: str | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> BatchSummary:
    """Run ``path`` through ``transform_ref`` (``NAME@VERSION``) into the workspace."""
    started = time.perf_counter()
    path = Path(path)
    progress = progress or NoProgress()
    retry = retry or RetryPolicy()
    actor = actor or current_actor()
    transform = (registry or default_registry()).get(transform_ref)
    fmt_ = detect_format(path, fmt)
    sha = file_sha256(path)
    batch_id = batch_identity(sha, transform, fmt_)
    total_bytes = path.stat().st_size

    with Session(ws.store) as s:
        batch = s.get(Batch, batch_id)
        if batch is not None and batch.state == BatchState.COMPLETE:
            return _summary(
                batch,
                already=True,
                resumed=False,
                cancelled=False,
                seconds=time.perf_counter() - started,
            )
        resumed = batch is not None
        if batch is None:
            batch = Batch(
                batch_id=batch_id,
                source_name=path.name,
                source_sha256=sha,
                transform=transform.ref,
                format=fmt_,
                state=BatchState.RUNNING,
                lines_done=0,
                rows=0,
                loaded=0,
                superseded=0,
                quarantined=0,
                q_data=0,
                q_code=0,
                q_transient=0,
                seconds=0.0,
            )
            s.add(batch)
            with_retry(s.commit, retry, sleep=sleep)
        resume_after = batch.lines_done

    writer = WarehouseWriter(ws.warehouse, transform)
    run = _BatchRun(ws, path, transform, batch_id, fmt_, writer, retry, actor, sleep)
    with open_source(path) as f:
        if fmt_ == "csv":
            header, records = read_csv(f)
            names = csv_header_names(header)
            run.set_csv_header(header)
            decode: Callable[[bytes], Any] = lambda raw: decode_csv(raw, names)  # noqa: E731
        else:
            records = read_jsonl(f)
            decode = decode_jsonl
        cancelled = run.consume(
            records, decode, resume_after, chunk_size, progress, lambda: f.tell(), total_bytes
        )
    elapsed = time.perf_counter() - started
    final = run.finish(complete=not cancelled, seconds=elapsed)
    return _summary(final, already=False, resumed=resumed, cancelled=cancelled, seconds=elapsed)


class _BatchRun:
    def __init__(
        self,
        ws: Workspace,
        source: Path,
        transform: Transform,
        batch_id: str,
        fmt: Format,
        writer: WarehouseWriter,
        retry: RetryPolicy,
        actor: str,
        sleep: Callable[[float], None],
    ) -> None:
        self.ws = ws
        self.source = source
        self.transform = transform
        self.batch_id = batch_id
        self.fmt = fmt
        self.writer = writer
        self.retry = retry
        self.actor = actor
        self.sleep = sleep
        self.key_idx = transform.column_names.index(transform.key)
        self.ord_idx = (
            transform.column_names.index(transform.ordering) if transform.ordering else None
        )

    def set_csv_header(self, header: bytes) -> None:
        def _save() -> None:
            with Session(self.ws.store) as s, s.begin():
                s.execute(
                    update(Batch).where(Batch.batch_id == self.batch_id).values(csv_header=header)
                )

        with_retry(_save, self.retry, sleep=self.sleep)

    def consume(
        self,
        records: Iterator[Record],
        decode: Callable[[bytes], Any],
        resume_after: int,
        chunk_size: int,
        progress: Progress,
        position: Callable[[], int],
        total_bytes: int,
    ) -> bool:
        """Process every record after ``resume_after``; False when it ran to the end."""
        fn = self.transform.fn
        key_idx, ord_idx = self.key_idx, self.ord_idx
        batch_id = self.batch_id
        chunk = _Chunk()
        pending = chunk.pending
        retries: deque[_Retry] = deque()
        rows_seen = 0
        for line, end_line, raw in records:
            if end_line <= resume_after:
                continue
            chunk.rows += 1
            chunk.last_line = end_line
            try:
                row = fn(decode(raw))
                key = row[key_idx]
                prev = pending.get(key)
            except Exception as exc:  # every failure is evidence, none is fatal
                if is_transient(exc):
                    retries.append(_Retry(line, end_line, raw))
                else:
                    chunk.failures.append(failure_from(line, raw, exc))
            else:
                if prev is not None:
                    chunk.superseded += 1
                    if ord_idx is not None and prev[ord_idx] > row[ord_idx]:
                        continue
                pending[key] = (*row, batch_id, line)
            if chunk.rows >= chunk_size:
                self._drain_retries(retries, chunk, decode)
                rows_seen += chunk.rows
                self.flush(chunk)
                progress.update(position(), total_bytes, rows_seen)
                chunk = _Chunk()
                pending = chunk.pending
                if progress.cancelled():
                    return True
        self._drain_retries(retries, chunk, decode)
        rows_seen += chunk.rows
        self.flush(chunk)
        progress.update(total_bytes, total_bytes, rows_seen)
        return False

    def _drain_retries(
        self, queue: deque[_Retry], chunk: _Chunk, decode: Callable[[bytes], Any]
    ) -> None:
        """Retry records that failed for a transient cause, each waiting its backoff at the
        back of the queue so the others don't wait for it; those that run out of tries are
        quarantined as ``transient``."""
        while queue:
            item = queue.popleft()
            wait = item.not_before - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            try:
                row = self.transform.fn(decode(item.raw))
            except Exception as exc:
                item.failures += 1
                if is_transient(exc) and item.failures < self.retry.attempts:
                    item.not_before = time.monotonic() + self.retry.delay(item.failures)
                    queue.append(item)
                else:
                    chunk.failures.append(failure_from(item.line, item.raw, exc))
                continue
            key = row[self.key_idx]
            prev = chunk.pending.get(key)
            if prev is not None:
                chunk.superseded += 1
                if self.ord_idx is not None and prev[self.ord_idx] > row[self.ord_idx]:
                    continue
            chunk.pending[key] = (*row, self.batch_id, item.line)

    def flush(self, chunk: _Chunk) -> None:
        """Commit a chunk: the warehouse first, then its dead letters with the checkpoint.

        A crash between the two replays the chunk; the upsert is idempotent and the dead
        letters are unique per (batch, line), so nothing is doubled.
        """
        rows = list(chunk.pending.values())
        result = with_retry(lambda: self.writer.upsert(rows), self.retry, sleep=self.sleep)
        failures = list(chunk.failures)
        if result.failed:
            failures += self._sink_failures(result.failed)
        loaded = result.changed
        superseded = chunk.superseded + (len(rows) - len(result.failed) - result.changed)
        by_class = {c: 0 for c in ErrorClass}
        for f in failures:
            by_class[f.error_class] += 1
        now = utcnow()

        def _commit() -> None:
            with Session(self.ws.store) as s, s.begin():
                conn = s.connection()
                quarantine(
                    conn,
                    batch_id=self.batch_id,
                    transform_ref=self.transform.ref,
                    payload_kind=self.fmt,
                    failures=failures,
                    actor=self.actor,
                    now=now,
                )
                s.execute(
                    update(Batch)
                    .where(Batch.batch_id == self.batch_id)
                    .values(
                        lines_done=chunk.last_line or Batch.lines_done,
                        rows=Batch.rows + chunk.rows,
                        loaded=Batch.loaded + loaded,
                        superseded=Batch.superseded + superseded,
                        quarantined=Batch.quarantined + len(failures),
                        q_data=Batch.q_data + by_class[ErrorClass.DATA],
                        q_code=Batch.q_code + by_class[ErrorClass.CODE],
                        q_transient=Batch.q_transient + by_class[ErrorClass.TRANSIENT],
                    )
                )

        with_retry(_commit, self.retry, sleep=self.sleep)

    def _sink_failures(self, refused: list[tuple[tuple[Any, ...], BaseException]]) -> list[Failure]:
        """Rows the warehouse refused (say, an integer too large for its column) become dead
        letters of their own; their raw bytes are looked up again, the hot path keeps none."""
        wanted = {row[-1] for row, _ in refused}
        raws: dict[int, bytes] = {}
        with open_source(self.source) as f:
            records = read_csv(f)[1] if self.fmt == "csv" else read_jsonl(f)
            for line, _end, raw in records:
                if line in wanted:
                    raws[line] = raw
                    if len(raws) == len(wanted):
                        break
        return [
            failure_from(row[-1], raws.get(row[-1], b""), exc, ErrorClass.DATA)
            for row, exc in refused
        ]

    def finish(self, *, complete: bool, seconds: float) -> Batch:
        def _finish() -> Batch:
            with Session(self.ws.store, expire_on_commit=False) as s, s.begin():
                b = s.execute(select(Batch).where(Batch.batch_id == self.batch_id)).scalar_one()
                b.seconds = (b.seconds or 0.0) + seconds
                if complete:
                    b.state = BatchState.COMPLETE
                    b.finished_at = utcnow()
                return b

        return with_retry(_finish, self.retry, sleep=self.sleep)


@dataclass(frozen=True)
class BatchInfo:
    """A stored batch, for pickers and reports."""

    batch_id: str
    source_name: str
    transform: str
    state: str
    rows: int
    loaded: int
    superseded: int
    quarantined: int
    started_at: str
    finished_at: str


def list_batches(ws: Workspace, limit: int | None = None) -> list[BatchInfo]:
    """Stored batches, newest first."""
    from triage_app.core.deadletters import iso

    stmt = select(Batch).order_by(Batch.started_at.desc(), Batch.batch_id)
    if limit is not None:
        stmt = stmt.limit(limit)
    with Session(ws.store) as s:
        return [
            BatchInfo(
                b.batch_id,
                b.source_name,
                b.transform,
                b.state,
                b.rows,
                b.loaded,
                b.superseded,
                b.quarantined,
                iso(b.started_at),
                iso(b.finished_at),
            )
            for b in s.execute(stmt).scalars()
        ]
