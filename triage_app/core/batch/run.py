"""Running a source file through a transform: healthy rows to the warehouse, failing
records to the dead-letter store, committed in chunks so a killed run resumes.

A batch's identity is the file's content hash and the transform, never the clock: the
same file through the same transform is the same batch, and running it again is a no-op.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from triage_app.core.batch.lanes import LaneTask, Partner, lanes_for, run_lanes
from triage_app.core.batch.readers import (
    csv_header_names,
    detect_format,
    file_sha256,
    open_source,
    read_csv,
    source_size,
)
from triage_app.core.clock import iso, utcnow
from triage_app.core.db import Batch, Workspace, current_actor
from triage_app.core.errors import TriageError
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import BatchState, ErrorClass

# 20,000 lines: at 25,000 each process peaked at 105 MB against 80 MB here (1M-row
# benchmark), for no gain in speed.
DEFAULT_CHUNK = 20_000


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
    counts = zip(ErrorClass, (b.q_data, b.q_code, b.q_transient), strict=True)
    by_class = {c.value: n for c, n in counts if n}
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
    lanes: int | None = None,
    sha256: str | None = None,
) -> BatchSummary:
    """Run ``path`` through ``transform_ref`` (``NAME@VERSION``) into the workspace.

    A batch that was interrupted (killed, cancelled, a database that stayed away) resumes
    from its last committed chunk when the same file is run through the same transform.
    ``lanes`` (1 or 2) overrides the choice of processes; the result is the same.
    ``sha256`` is the file's hash where the caller computed it already (the CLI does, while
    it imports).
    """
    started = time.perf_counter()
    path = Path(path)
    progress = progress or NoProgress()
    retry = retry or RetryPolicy()
    actor = actor or current_actor()
    transform = (registry or default_registry()).get(transform_ref)
    fmt_ = detect_format(path, fmt)
    if chunk_size < 1:
        raise TriageError("the chunk size must be at least 1")
    header = _csv_header(path) if fmt_ == "csv" else None
    custom = registry not in (None, default_registry())
    n_lanes = lanes or lanes_for(source_size(path), custom)
    partner = Partner(ws) if n_lanes == 2 else None
    try:
        sha = sha256 or file_sha256(path)
        batch_id = batch_identity(sha, transform, fmt_)
        batch, resumed = _open_batch(ws, path, batch_id, sha, transform, fmt_, header, retry, sleep)
        if batch.state == BatchState.COMPLETE:
            return _summary(
                batch,
                already=True,
                resumed=False,
                cancelled=False,
                seconds=time.perf_counter() - started,
            )
        task = LaneTask(
            path=str(path.resolve()),
            fmt=fmt_,
            transform=transform.ref,
            batch_id=batch_id,
            resume_after=batch.lines_done,
            chunk_size=chunk_size,
            actor=actor,
            retry_attempts=retry.attempts,
            retry_base=retry.base_delay,
            retry_max=retry.max_delay,
        )
        cancelled = run_lanes(ws, task, transform, partner, progress, retry, sleep)
    finally:
        if partner is not None:
            partner.close()  # closing twice is harmless; never leave it running
    elapsed = time.perf_counter() - started
    final = _finish(ws, batch_id, complete=not cancelled, seconds=elapsed, retry=retry, sleep=sleep)
    return _summary(final, already=False, resumed=resumed, cancelled=cancelled, seconds=elapsed)


def _open_batch(
    ws: Workspace,
    path: Path,
    batch_id: str,
    sha: str,
    transform: Transform,
    fmt: str,
    header: bytes | None,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> tuple[Batch, bool]:
    """The stored batch, recorded now if it is new; and whether it had been started."""
    with Session(ws.store, expire_on_commit=False) as s:
        batch = s.get(Batch, batch_id)
        if batch is not None:
            return batch, True
        batch = Batch(
            batch_id=batch_id,
            source_name=path.name,
            source_sha256=sha,
            transform=transform.ref,
            format=fmt,
            csv_header=header,
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
        return batch, False


def _csv_header(path: Path) -> bytes:
    """The header line, checked before the batch is recorded: a bad one refuses the file."""
    with open_source(path) as f:
        header, _records = read_csv(f)
    csv_header_names(header)
    return header


def _finish(
    ws: Workspace,
    batch_id: str,
    *,
    complete: bool,
    seconds: float,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> Batch:
    def _update() -> Batch:
        with Session(ws.store, expire_on_commit=False) as s, s.begin():
            b = s.execute(select(Batch).where(Batch.batch_id == batch_id)).scalar_one()
            b.seconds = (b.seconds or 0.0) + seconds
            if complete:
                b.state = BatchState.COMPLETE
                b.finished_at = utcnow()
            return b

    return with_retry(_update, retry, sleep=sleep)


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
