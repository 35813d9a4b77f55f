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
from dataclasses import asdict, dataclass
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from triage_app.core.errors import ErrorClass, TriageError, error_message
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.quarantine import Failure, failure_from, failure_from_message, quarantine
from triage_app.core.readers import (
    BLANK,
    BOM,
    Format,
    csv_header_names,
    decode_csv,
    detect_format,
    file_sha256,
    open_source,
    read_csv,
    strip_eol,
)
from triage_app.core.retry import RetryPolicy, is_transient, with_retry
from triage_app.core.sink import RowSink, open_sink
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

    rows: list[tuple[Any, ...]]  # newest version per key, lineage last
    failures: list[Failure]
    records: int  # records read, whatever became of them
    superseded: int  # older versions of a key met in the same chunk
    last_line: int  # the resume point once this chunk is committed


@dataclass
class _Retry:
    line: int
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
    """Run ``path`` through ``transform_ref`` (``NAME@VERSION``) into the workspace.

    A batch that was interrupted (killed, cancelled, a database that stayed away) resumes
    from its last committed chunk when the same file is run through the same transform.
    """
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
    sink = open_sink(writer, retry, total_bytes, sleep)
    run = _BatchRun(ws, path, transform, batch_id, fmt_, sink, retry, actor, sleep)
    try:
        with open_source(path) as f:
            if fmt_ == "csv":
                header, reader = read_csv(f)
                names = csv_header_names(header)
                run.save_csv_header(header)
                records: Iterator[tuple[int, bytes]] = reader.after(resume_after)
                decode: Callable[[bytes], Any] = partial(decode_csv, names=names)
                end_line: Callable[[int], int] = lambda _n: reader.end_line  # noqa: E731
            else:
                if f.peek(3)[:3] == BOM:  # an encoding mark, not part of line 1's record
                    f.read(3)
                records = enumerate(islice(f, resume_after, None), resume_after + 1)
                decode = orjson.loads
                end_line = _same_line
            cancelled = run.consume(
                records, decode, end_line, chunk_size, progress, f.tell, total_bytes
            )
    except Exception as exc:
        if is_transient(exc):
            raise TriageError(
                f"the databases stayed unavailable ({error_message(exc)}); the batch stopped "
                "cleanly at its last committed chunk: run the same command again to resume"
            ) from None
        raise
    finally:
        sink.close()
    elapsed = time.perf_counter() - started
    final = run.finish(complete=not cancelled, seconds=elapsed)
    return _summary(final, already=False, resumed=resumed, cancelled=cancelled, seconds=elapsed)


def _same_line(n: int) -> int:
    return n


class _BatchRun:
    """One run of one batch: the record loop, and the commit of each chunk."""

    def __init__(
        self,
        ws: Workspace,
        source: Path,
        transform: Transform,
        batch_id: str,
        fmt: Format,
        sink: RowSink,
        retry: RetryPolicy,
        actor: str,
        sleep: Callable[[float], None],
    ) -> None:
        self.ws = ws
        self.source = source
        self.transform = transform
        self.batch_id = batch_id
        self.fmt = fmt
        self.sink = sink
        self.retry = retry
        self.actor = actor
        self.sleep = sleep
        self.key_idx = transform.column_names.index(transform.key)
        self.ord_idx = (
            transform.column_names.index(transform.ordering) if transform.ordering else None
        )
        self.in_flight: _Chunk | None = None  # submitted to the sink, not yet acknowledged

    def save_csv_header(self, header: bytes) -> None:
        def _save() -> None:
            with Session(self.ws.store) as s, s.begin():
                s.execute(
                    update(Batch).where(Batch.batch_id == self.batch_id).values(csv_header=header)
                )

        with_retry(_save, self.retry, sleep=self.sleep)

    def consume(
        self,
        records: Iterator[tuple[int, bytes]],
        decode: Callable[[bytes], Any],
        end_line: Callable[[int], int],
        chunk_size: int,
        progress: Progress,
        position: Callable[[], int],
        total_bytes: int,
    ) -> bool:
        """Run every record through the transform; True when cancelled at a chunk boundary.

        This loop is the hot path: one pass per input line, so it keeps to local names and
        does the rare things (blank lines, failures, retries) out of line.
        """
        fn = self.transform.fn
        key_idx, ord_idx = self.key_idx, self.ord_idx
        batch_id = self.batch_id
        pending: dict[Any, tuple[Any, ...]] = {}
        failures: list[Failure] = []
        retries: deque[_Retry] = deque()
        count = superseded = 0
        done_rows = 0
        n = 0
        for n, raw in records:
            try:
                row = fn(decode(raw))
                key = row[key_idx]
                prev = pending.get(key)
            except Exception as exc:  # every failure is evidence, none is fatal
                if not self._on_failure(n, raw, exc, failures, retries):
                    continue  # a blank line is not a record
            else:
                if prev is not None:
                    superseded += 1
                    if ord_idx is not None and prev[ord_idx] > row[ord_idx]:
                        count += 1
                        continue
                pending[key] = (*row, batch_id, n)
            count += 1
            if count >= chunk_size:
                chunk = _Chunk(list(pending.values()), failures, count, superseded, end_line(n))
                self._drain_retries(retries, chunk, pending, decode)
                done_rows += count
                self._ship(chunk)
                progress.update(position(), total_bytes, done_rows)
                pending, failures, count, superseded = {}, [], 0, 0
                if progress.cancelled():
                    self._settle()
                    return True
        chunk = _Chunk(list(pending.values()), failures, count, superseded, end_line(n))
        self._drain_retries(retries, chunk, pending, decode)
        self._ship(chunk)
        self._settle()
        progress.update(total_bytes, total_bytes, done_rows + count)
        return False

    def _on_failure(
        self, n: int, raw: bytes, exc: Exception, failures: list[Failure], retries: deque[_Retry]
    ) -> bool:
        """Record a failing record; False when it was no record at all (a blank line)."""
        line = raw
        raw = strip_eol(raw)
        if not raw.strip(BLANK):
            return False
        if raw is not line and isinstance(exc, orjson.JSONDecodeError):
            # Parsed with its line terminator for speed; report positions without it.
            try:
                orjson.loads(raw)
            except orjson.JSONDecodeError as exact:
                exc = exact
        if is_transient(exc):
            retries.append(_Retry(n, raw))
        else:
            failures.append(failure_from(n, raw, exc))
        return True

    def _drain_retries(
        self,
        queue: deque[_Retry],
        chunk: _Chunk,
        pending: dict[Any, tuple[Any, ...]],
        decode: Callable[[bytes], Any],
    ) -> None:
        """Retry records that failed for a transient cause, each waiting its backoff at the
        back of the queue so the others don't wait for it; those that run out of tries are
        quarantined as ``transient``."""
        if not queue:
            return
        while queue:
            item = queue.popleft()
            wait = item.not_before - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            try:
                row = self.transform.fn(decode(item.raw))
                key = row[self.key_idx]
            except Exception as exc:
                item.failures += 1
                if is_transient(exc) and item.failures < self.retry.attempts:
                    item.not_before = time.monotonic() + self.retry.delay(item.failures)
                    queue.append(item)
                else:
                    chunk.failures.append(failure_from(item.line, item.raw, exc))
                continue
            prev = pending.get(key)
            if prev is not None:
                chunk.superseded += 1
                if self.ord_idx is not None and prev[self.ord_idx] > row[self.ord_idx]:
                    continue
            pending[key] = (*row, self.batch_id, item.line)
        chunk.rows = list(pending.values())

    def _ship(self, chunk: _Chunk) -> None:
        """Hand a chunk to the sink; first settle the one before it, so that the sink
        writes this chunk while the caller reads the next."""
        self._settle()
        self.sink.submit(chunk.rows)
        self.in_flight = chunk

    def _settle(self) -> None:
        """Wait for the chunk in flight, then commit its dead letters and the checkpoint.

        The warehouse commits first, then the store. A crash between the two replays the
        chunk; the upsert is idempotent and the dead letters are unique per (batch, line),
        so nothing is doubled.
        """
        chunk, self.in_flight = self.in_flight, None
        if chunk is None:
            return
        result = self.sink.result()
        failures = chunk.failures
        if result.failed:
            failures = failures + self._sink_failures(chunk.rows, result.failed)
        loaded = result.changed
        superseded = chunk.superseded + (len(chunk.rows) - len(result.failed) - result.changed)
        by_class = dict.fromkeys(ErrorClass, 0)
        for f in failures:
            by_class[f.error_class] += 1
        now = utcnow()

        def _commit() -> None:
            with Session(self.ws.store) as s, s.begin():
                quarantine(
                    s.connection(),
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
                        rows=Batch.rows + chunk.records,
                        loaded=Batch.loaded + loaded,
                        superseded=Batch.superseded + superseded,
                        quarantined=Batch.quarantined + len(failures),
                        q_data=Batch.q_data + by_class[ErrorClass.DATA],
                        q_code=Batch.q_code + by_class[ErrorClass.CODE],
                        q_transient=Batch.q_transient + by_class[ErrorClass.TRANSIENT],
                    )
                )

        with_retry(_commit, self.retry, sleep=self.sleep)

    def _sink_failures(
        self, rows: list[tuple[Any, ...]], refused: list[tuple[int, str]]
    ) -> list[Failure]:
        """Rows the warehouse refused (say, an integer too large for its column) become dead
        letters of their own; their raw bytes are read again, the hot path keeps none."""
        wanted = {rows[i][-1]: msg for i, msg in refused}
        raws: dict[int, bytes] = {}
        with open_source(self.source) as f:
            if self.fmt == "csv":
                found: Iterator[tuple[int, bytes]] = read_csv(f)[1].after(0)
            else:
                found = enumerate(f, 1)
            for line, raw in found:
                if line in wanted:
                    raws[line] = strip_eol(raw)
                    if len(raws) == len(wanted):
                        break
        return [
            failure_from_message(line, raws.get(line, b""), msg, ErrorClass.DATA)
            for line, msg in sorted(wanted.items())
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
