"""Running a source file through a transform: healthy rows to the warehouse, failing
records to the dead-letter store, committed in chunks so a killed run resumes.

A batch's identity is the file's content hash and the transform, never the clock: the
same file through the same transform is the same batch, and running it again is a no-op.
The hash is of the bytes read (``source.py``): a file that changes while it is read fails
the batch, which stays unfinished, and the intact file resumes it.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Insert, Row, Select, func, insert, select, update

from triage_app.core.batch import atomic
from triage_app.core.batch.kept_sources import Keeping, is_kept
from triage_app.core.batch.lanes import LaneTask, Partner, lanes_for, run_lanes
from triage_app.core.batch.loading_lock import hold_batch
from triage_app.core.batch.source import Source, check_input_format, source_format
from triage_app.core.clock import iso, utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import Batch, Workspace, actor_for
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import OpenedFile
from triage_app.core.locale_format import format_int, format_number
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.places import printable
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import BatchState, ErrorClass

# The batches table (the store's tables are Core tables: db/models.py).
_BATCHES = Batch.__table__

# A stored batch in one of these states is done with its file.
_DONE = (BatchState.COMPLETE, BatchState.HELD, BatchState.DISCARDED)

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
    # Its source kept (kept_sources.py): by this run, or before; a batch is complete even
    # when its source could not be kept, and ``source_problem`` says why.
    source_kept: bool = False
    source_problem: str = ""
    # An atomic batch (issue 25): its healthy rows waiting, never in the warehouse, until
    # every dead letter of it is fixed and it loads whole; ``state`` as stored after the run.
    held: int = 0
    state: str = BatchState.COMPLETE.value

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        """The run in one sentence a person reads: the window shows it, the CLI prints it."""
        text = self._said()
        if self.source_problem:
            said = _("Its source was not kept: {problem}").format(problem=self.source_problem)
            text += " " + said
        return text

    def _said(self) -> str:
        batch = self.batch_id
        rows = ngettext("{n} row", "{n} rows", self.rows).format(n=format_int(self.rows))
        loaded, superseded = format_int(self.loaded), format_int(self.superseded)
        quarantined = format_int(self.quarantined)
        if self.state == BatchState.DISCARDED:
            discarded = ngettext(
                "{n} dead letter discarded", "{n} dead letters discarded", self.quarantined
            ).format(n=quarantined)
            dropped = ngettext("{n} held row dropped", "{n} held rows dropped", self.held).format(
                n=format_int(self.held)
            )
            said = _(
                "Batch {batch} was discarded whole: nothing of it loaded ({rows}: {discarded}, "
                "{dropped})."
            )
            return said.format(batch=batch, rows=rows, discarded=discarded, dropped=dropped)
        if self.already_loaded and self.state == BatchState.HELD:
            said = ngettext(
                "Batch {batch} is held, all or nothing: nothing to do for its file ({rows}: "
                "{quarantined} quarantined); held: {n} row waits until every dead letter of "
                "the batch is fixed (then: redrive --batch {batch}).",
                "Batch {batch} is held, all or nothing: nothing to do for its file ({rows}: "
                "{quarantined} quarantined); held: {n} rows wait until every dead letter of "
                "the batch is fixed (then: redrive --batch {batch}).",
                self.held,
            )
            return said.format(
                batch=batch, rows=rows, quarantined=quarantined, n=format_int(self.held)
            )
        if self.already_loaded:
            said = _(
                "Batch {batch} was already loaded: nothing to do ({rows}: {loaded} loaded, "
                "{superseded} superseded, {quarantined} quarantined)."
            )
            return said.format(
                batch=batch,
                rows=rows,
                loaded=loaded,
                superseded=superseded,
                quarantined=quarantined,
            )
        if self.cancelled:
            said = _(
                "Cancelled {batch}: {rows}, {loaded} loaded, {superseded} superseded, "
                "{quarantined} quarantined ({classes}) in {seconds} s."
            )
        elif self.resumed:
            said = _(
                "Resumed batch {batch}: {rows}, {loaded} loaded, {superseded} superseded, "
                "{quarantined} quarantined ({classes}) in {seconds} s."
            )
        else:
            said = _(
                "Batch {batch}: {rows}, {loaded} loaded, {superseded} superseded, "
                "{quarantined} quarantined ({classes}) in {seconds} s."
            )
        text = said.format(
            batch=batch,
            rows=rows,
            loaded=loaded,
            superseded=superseded,
            quarantined=quarantined,
            classes=describe_classes(self.by_class) or _("none"),
            seconds=format_number(self.seconds, 2),
        )
        if self.cancelled:
            text += " " + _("Run the same file again to resume where it stopped.")
        if self.state == BatchState.HELD:
            held = ngettext(
                "Nothing loaded, all or nothing: held: {n} row waits until every dead letter "
                "of the batch is fixed (then: redrive --batch {batch}).",
                "Nothing loaded, all or nothing: held: {n} rows wait until every dead letter "
                "of the batch is fixed (then: redrive --batch {batch}).",
                self.held,
            )
            text += " " + held.format(n=format_int(self.held), batch=batch)
        return text


# A count of dead letters by error class, in a summary: "2 data, 1 code".
_CLASS_COUNTS: dict[str, str] = {
    ErrorClass.DATA: N_("{n} data"),
    ErrorClass.CODE: N_("{n} code"),
    ErrorClass.TRANSIENT: N_("{n} transient"),
}


def describe_classes(by_class: dict[str, int]) -> str:
    """``2 data, 1 code``: counts by error class, in the order given; "" for none."""
    said = []
    for c, n in by_class.items():
        label = _CLASS_COUNTS.get(c)
        if label is None:  # a class this version does not know: its stored name
            said.append(f"{format_int(n)} {c}")
        else:
            said.append(_(label).format(n=format_int(n)))
    return ", ".join(said)


def batch_identity(sha256: str, transform: Transform, fmt: str) -> str:
    return hashlib.sha256(f"{sha256}|{transform.ref}|{fmt}".encode()).hexdigest()[:16]


def _summary(
    b: Row[Any],
    *,
    already: bool,
    resumed: bool,
    cancelled: bool,
    seconds: float,
    kept: bool = False,
    problem: str = "",
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
        source_kept=kept,
        source_problem=problem,
        held=b.held,
        state=b.state,
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
    opened: OpenedFile | None = None,
) -> BatchSummary:
    """Run ``path`` through ``transform_ref`` (``NAME@VERSION``) into the workspace.

    ``path`` ``-`` reads standard input (``fmt`` then required). A batch that was
    interrupted (killed, cancelled, a database that stayed away, a source that changed while
    it was read) resumes from its last committed chunk when the same file is run through the
    same transform. ``lanes`` (1 or 2) overrides the choice of processes; the result is the
    same. ``opened`` is the file where the caller opened (and hashed) it already: the CLI
    does, while it imports; it is closed when the run ends.
    """
    started = time.perf_counter()
    progress = progress or NoProgress()
    retry = retry or RetryPolicy()
    actor = actor or actor_for(ws.store)
    try:
        reg = registry or default_registry()
        transform = reg.get(transform_ref)
        # Refusals that need no file, before anything is opened, spooled or written.
        check_input_format(transform, source_format(path, fmt), reg)
        if chunk_size < 1:
            raise TriageError(_("the chunk size must be at least 1"))
    except BaseException:
        if opened is not None:
            opened.close()
        raise
    with Source.open(path, fmt, opened=opened, spool_dir=ws.config.folder) as source:
        batch_id = batch_identity(source.sha256, transform, source.format)
        # One loader at a time, from reading the stored batch to marking it complete: a
        # second run of the file is refused in one line naming the first (loading_lock.py).
        # Taken before the second lane is forked, which then holds it too while it lives.
        with hold_batch(ws.store, batch_id):
            custom = registry not in (None, default_registry())
            n_lanes = lanes or lanes_for(source.size, custom)
            if transform.atomic:
                n_lanes = 1  # its rows are held in the store: a lane's turn gains nothing
            if source.path is None and os.name != "posix":
                n_lanes = 1  # spooled standard input, and no way to hand its descriptor on
            partner = Partner(ws, source.fd) if n_lanes == 2 else None
            try:
                header = source.csv_header() if source.format == "csv" else None
                stored = _open_batch(ws, source, batch_id, transform, header, actor, retry, sleep)
                if stored is not None and stored.state in _DONE:
                    # Complete, or an atomic batch held (it loads through its dead letters:
                    # redrive --batch) or discarded whole: the file has nothing more to give.
                    # Perhaps from before sources were kept, or its source since forgotten:
                    # one lookup, and kept now from the file in hand if not.
                    kept, problem = _keep_now(ws, source)
                    return _summary(
                        stored,
                        already=True,
                        resumed=False,
                        cancelled=False,
                        seconds=time.perf_counter() - started,
                        kept=kept,
                        problem=problem,
                    )
                resumed = stored is not None
                resume_after = stored.lines_done if stored is not None else 0
                task = _task(source, transform, batch_id, resume_after, chunk_size, actor, retry)
                # Compressed on a thread while the lanes run (after the second lane forked),
                # recorded once the batch is complete.
                keeping = _keeping(ws, source)
                try:
                    cancelled = run_lanes(
                        ws, task, transform, source, partner, progress, retry, sleep
                    )
                except BaseException:
                    if keeping is not None:
                        keeping.abandon()
                    raise
            finally:
                if partner is not None:
                    partner.close()  # closing twice is harmless; never leave it running
            state = None if cancelled else BatchState.COMPLETE
            if transform.atomic and not cancelled:
                state = atomic.finish(ws, transform, batch_id, actor, retry, sleep)
            elapsed = time.perf_counter() - started
            try:
                final = _finish(
                    ws, batch_id, state=state, seconds=elapsed, retry=retry, sleep=sleep
                )
            except BaseException:
                if keeping is not None:
                    keeping.abandon()
                raise
            kept, problem = True, ""
            if keeping is None:
                pass
            elif cancelled:
                keeping.abandon()
                kept = False
            else:
                crash_point("before-source-kept")  # complete; its copy made, not recorded
                keeping.finish()
                kept, problem = keeping.problem is None, keeping.problem or ""
    return _summary(
        final,
        already=False,
        resumed=resumed,
        cancelled=cancelled,
        seconds=elapsed,
        kept=kept,
        problem=problem,
    )


def _keeping(ws: Workspace, source: Source) -> Keeping | None:
    """The source's copy begun, unless it is kept already (one lookup)."""
    if is_kept(ws, source.sha256):
        return None
    return Keeping(ws, source.sha256, source.format, source.open_reader)


def _keep_now(ws: Workspace, source: Source) -> tuple[bool, str]:
    """Keep the source of a batch found complete, if it is not kept: (kept, why not)."""
    if is_kept(ws, source.sha256):
        return True, ""
    keeping = Keeping(ws, source.sha256, source.format, source.open_reader)
    keeping.finish()
    return keeping.problem is None, keeping.problem or ""


def _task(
    source: Source,
    transform: Transform,
    batch_id: str,
    resume_after: int,
    chunk_size: int,
    actor: str,
    retry: RetryPolicy,
) -> LaneTask:
    fingerprint = source.opened.fingerprint()
    return LaneTask(
        path=str(source.path.resolve()) if source.path is not None else "",
        fd=source.fd if os.name == "posix" else None,
        size=source.stamp.size,
        mtime_ns=source.stamp.mtime_ns,
        sha256=fingerprint.sha256,
        steps=list(fingerprint.steps),
        fmt=source.format,
        transform=transform.ref,
        batch_id=batch_id,
        resume_after=resume_after,
        chunk_size=chunk_size,
        actor=actor,
        retry_attempts=retry.attempts,
        retry_base=retry.base_delay,
        retry_max=retry.max_delay,
    )


def _by_id(batch_id: str) -> Select[Any]:
    return select(_BATCHES).where(_BATCHES.c.batch_id == batch_id)


def _open_batch(
    ws: Workspace,
    source: Source,
    batch_id: str,
    transform: Transform,
    header: bytes | None,
    actor: str,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> Row[Any] | None:
    """The stored batch if it was started before (complete, or to resume); None when it is
    new, recorded now (running, nothing done) with its ``actor``: the batch is the set
    record of the rows it quarantines, which get no event of their own."""
    with ws.store.connect() as conn:
        stored = conn.execute(_by_id(batch_id)).one_or_none()
    if stored is not None:
        if stored.actor is None and stored.state != BatchState.COMPLETE:
            # Begun before schema 0007 with nothing quarantined yet: the rows this run
            # quarantines are audited through the batch, so it must name who ran it.
            def _name() -> None:
                with ws.store.begin() as conn:
                    conn.execute(
                        update(_BATCHES)
                        .where(_BATCHES.c.batch_id == batch_id, _BATCHES.c.actor.is_(None))
                        .values(actor=actor)
                    )

            with_retry(_name, retry, sleep=sleep)
        return stored
    new = batch_begun(
        batch_id,
        # A name that is not UTF-8 is stored marked (\xNN), never refused.
        source_name=printable(source.name),
        source_sha256=source.sha256,
        transform=transform.ref,
        fmt=source.format,
        actor=actor,
        csv_header=header,
    )

    def _record() -> None:
        with ws.store.begin() as conn:
            conn.execute(new)

    with_retry(_record, retry, sleep=sleep)
    return None


def batch_begun(
    batch_id: str,
    *,
    source_name: str,
    source_sha256: str,
    transform: str,
    fmt: str,
    actor: str,
    **more: Any,
) -> Insert:
    """The insert of a batch begun: running, nothing counted yet, who ran it and when.
    ``more``: the other columns a kind of batch sets (a reprocess run's, a CSV header)."""
    return insert(_BATCHES).values(
        batch_id=batch_id,
        source_name=source_name,
        source_sha256=source_sha256,
        transform=transform,
        format=fmt,
        state=BatchState.RUNNING.value,
        lines_done=0,
        rows=0,
        loaded=0,
        superseded=0,
        quarantined=0,
        q_data=0,
        q_code=0,
        q_transient=0,
        held=0,
        seconds=0.0,
        started_at=utcnow(),
        actor=actor,
        **more,
    )


def _finish(
    ws: Workspace,
    batch_id: str,
    *,
    state: BatchState | None,
    seconds: float,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> Row[Any]:
    """Add this run's seconds (a resumed batch sums its runs), set its ``state`` (None when
    it was cancelled: still running), and read it back with the counters the lanes
    committed."""
    changes: dict[str, Any] = {"seconds": func.coalesce(_BATCHES.c.seconds, 0.0) + seconds}
    if state is BatchState.COMPLETE:
        changes |= {"state": BatchState.COMPLETE.value, "finished_at": utcnow()}
    elif state is not None:
        changes |= {"state": state.value}
    stmt = update(_BATCHES).where(_BATCHES.c.batch_id == batch_id).values(changes)

    def _update() -> Row[Any]:
        with ws.store.begin() as conn:
            conn.execute(stmt)
            return conn.execute(_by_id(batch_id)).one()

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
    held: int = 0


def list_batches(ws: Workspace, limit: int | None = None) -> list[BatchInfo]:
    """Stored batches, newest first."""
    stmt = select(_BATCHES).order_by(_BATCHES.c.started_at.desc(), _BATCHES.c.batch_id)
    if limit is not None:
        stmt = stmt.limit(limit)
    with ws.store.connect() as conn:
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
                b.held,
            )
            for b in conn.execute(stmt)
        ]
