"""The chunk commit: where invariant 1 (nothing lost, nothing doubled) is kept.

A chunk commits in two halves, always in this order: its rows to the warehouse (one
transaction), then its dead letters, its ledger row and the batch's checkpoint (one
transaction in the store). A crash between the two replays the chunk on resume: the upsert
is idempotent and dead letters are unique per (batch, line), so nothing is doubled, and the
ledger says exactly which lines each committed chunk counted. An atomic batch's chunk
writes nothing to the warehouse: its rows are held in the store half (``atomic.py``).
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, Update, bindparam, insert, update

from triage_app.core.batch.atomic import held_rows_of, hold
from triage_app.core.batch.chunks import Chunk
from triage_app.core.batch.quarantine import (
    Failure,
    failure_from_message,
    ladder_in_force,
    quarantine,
)
from triage_app.core.batch.readers import Format, read_csv, skip_bom, strip_eol
from triage_app.core.batch.source import Source
from triage_app.core.clock import utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    Batch,
    BatchChunk,
    WarehouseWriter,
    Workspace,
    batch_versions,
    notify_change,
)
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Transform
from triage_app.core.vocabulary import ErrorClass


@dataclass(frozen=True)
class Written:
    """What a chunk's warehouse write came to, for the store half of its commit."""

    loaded: int
    superseded: int
    failures: list[Failure]
    # An atomic batch's chunk: its healthy rows as ``held_rows`` parameters (atomic.py).
    held: list[dict[str, Any]] | None = None


class ChunkCommitter:
    """Commits the chunks one lane parsed, for one batch."""

    def __init__(
        self,
        ws: Workspace,
        transform: Transform,
        *,
        batch_id: str,
        source: Source,
        fmt: Format,
        actor: str,
        retry: RetryPolicy,
        sleep: Callable[[float], None],
        two_lanes: bool = False,
    ) -> None:
        self.ws = ws
        self.transform = transform
        self.batch_id = batch_id
        self.source = source
        self.fmt = fmt
        self.actor = actor
        self.retry = retry
        self.sleep = sleep
        self._header: bytes | None = None
        self._checkpointing: threading.Thread | None = None
        # The retry ladder its transient rows start on, read once per batch; an atomic
        # batch's rows load only with the whole batch, never retried one by one.
        self.ladder = None if transform.atomic else ladder_in_force(ws.store, transform)
        # Creating the table is a write too: a locked or lost warehouse is retried here.
        self.writer = with_retry(
            lambda: WarehouseWriter(
                ws.warehouse,
                transform,
                batch_id,
                checkpoints_apart=two_lanes,
                versions=batch_versions(ws.store),
            ),
            retry,
            sleep=sleep,
        )

    def commit(self, chunk: Chunk) -> None:
        """Write a chunk to the warehouse, then store its outcome: one lane's whole turn."""
        self.store(chunk, self.write(chunk))

    def stage(self, chunk: Chunk) -> None:
        """Before the warehouse turn, with two lanes: the part of the chunk's write that may
        go ahead of the other lane's (PostgreSQL: COPY into a staging table, uncommitted),
        so the turn holds less. Elsewhere nothing."""
        self.writer.stage(chunk.rows)

    def write(self, chunk: Chunk) -> Written:
        """The warehouse half of a chunk's commit (the warehouse turn). Only while the source
        is as it was opened: every byte of the chunk was read before this check, so a file
        changed since raises SourceChanged here and nothing of the chunk is written."""
        self.source.check_unchanged()
        crash_point("before-chunk-commit")
        if self.transform.atomic:
            # Nothing of an atomic batch reaches the warehouse before all of it passes: its
            # rows wait with the batch, stored in the store half of this commit.
            held, unkept = held_rows_of(chunk.rows, chunk.raws or {})
            return Written(0, chunk.superseded, chunk.failures + unkept, held)
        result = with_retry(lambda: self.writer.upsert(chunk.rows), self.retry, sleep=self.sleep)
        crash_point("after-warehouse-commit")
        failures = chunk.failures
        if result.failed:
            failures = failures + self._sink_failures(chunk.rows, result.failed)
        superseded = chunk.superseded + (len(chunk.rows) - len(result.failed) - result.changed)
        return Written(result.changed, superseded, failures)

    def masking_header(self, failures: Sequence[Failure]) -> bytes | None:
        """The CSV header the personal fields are found by: read once, and only for a CSV
        batch of a transform that has some, on a chunk with failures."""
        if self.fmt != "csv" or not failures or not self.transform.personal_fields:
            return None
        if self._header is None:
            self._header = self.source.csv_header()
        return self._header

    def store(self, chunk: Chunk, written: Written) -> None:
        """The store half (the store turn): the chunk's dead letters, its ledger row and the
        checkpoint, in one transaction."""
        failures, loaded, superseded = written.failures, written.loaded, written.superseded
        by_class = dict.fromkeys(ErrorClass, 0)
        for f in failures:
            by_class[f.error_class] += 1
        now = utcnow()

        def _commit() -> None:
            with self.ws.store.begin() as conn:
                notify_change(conn)  # PostgreSQL: windows watching the store read it again
                quarantine(
                    conn,
                    batch_id=self.batch_id,
                    transform_ref=self.transform.ref,
                    payload_kind=self.fmt,
                    failures=failures,
                    actor=self.actor,
                    now=now,
                    personal=self.transform.personal_fields,
                    csv_header=self.masking_header(failures),
                    ladder=self.ladder,
                )
                if written.held is not None:
                    hold(conn, self.batch_id, written.held)
                conn.execute(
                    ledger_row(),
                    {
                        "batch_id": self.batch_id,
                        "first_line": chunk.first_line,
                        "last_line": chunk.last_line,
                        "records": chunk.records,
                        "loaded": loaded,
                        "superseded": superseded,
                        "quarantined": len(failures),
                        "committed_at": now,
                    },
                )
                conn.execute(
                    batch_advance(),
                    {
                        "id_": self.batch_id,
                        "lines_done_": chunk.last_line,
                        "rows_": chunk.records,
                        "loaded_": loaded,
                        "superseded_": superseded,
                        "quarantined_": len(failures),
                        "q_data_": by_class[ErrorClass.DATA],
                        "q_code_": by_class[ErrorClass.CODE],
                        "q_transient_": by_class[ErrorClass.TRANSIENT],
                        "held_": len(written.held or ()),
                    },
                )

        with_retry(_commit, self.retry, sleep=self.sleep)
        crash_point("after-chunk-commit")

    def checkpoint(self) -> None:
        """Called just after passing the warehouse turn on: this lane copies WAL pages into
        the database while the other one writes, so the writer's commits never pay for a
        checkpoint (at 1,000,000 rows they cost 0.15 us a row there). It runs on a thread:
        half of a checkpoint is waiting for the disk, which the lane spends parsing its
        next chunk instead. One at a time; if the last one still runs, this one is skipped.
        """
        if not self.writer.checkpoints_apart:
            return
        if self._checkpointing is not None and self._checkpointing.is_alive():
            return
        self._checkpointing = threading.Thread(
            target=self._checkpoint_quietly, name="wal-checkpoint", daemon=True
        )
        self._checkpointing.start()

    def _checkpoint_quietly(self) -> None:
        # A checkpoint that fails is left to the next one, or to SQLite when the batch ends.
        with contextlib.suppress(Exception):
            self.writer.checkpoint()

    def close(self) -> None:
        """Wait for a checkpoint still running and roll back rows staged for a turn that
        never came: nothing of the lane's outlives it."""
        self.writer.discard_staged()
        if self._checkpointing is not None:
            self._checkpointing.join()
            self._checkpointing = None

    def _sink_failures(
        self, rows: list[tuple[Any, ...]], refused: list[tuple[int, str]]
    ) -> list[Failure]:
        """Rows the warehouse refused (say, an integer too large for its column) become dead
        letters of their own; their raw bytes are read again, the hot path keeps none."""
        wanted = {rows[i][-1]: msg for i, msg in refused}
        raws: dict[int, bytes] = {}
        with self.source.open_reader() as f:
            if self.fmt == "csv":
                found: Iterable[tuple[int, bytes]] = read_csv(f)[1].after(0)
            else:
                skip_bom(f)  # as the chunks were read: the mark is not part of line 1
                found = enumerate(f, 1)
            for line, raw in found:
                if line in wanted:
                    raws[line] = strip_eol(raw)
                    if len(raws) == len(wanted):
                        break
        self.source.check_unchanged()  # the evidence was read from the file as hashed
        return [
            failure_from_message(line, raws.get(line, b""), msg, ErrorClass.DATA)
            for line, msg in sorted(wanted.items())
        ]


# A chunk's store statements, built once: building them costs more than running them.
@functools.cache
def ledger_row() -> Insert:
    return insert(BatchChunk)


@functools.cache
def batch_advance() -> Update:
    """The batch's checkpoint and running totals, moved on by one chunk."""
    counts = (
        "rows",
        "loaded",
        "superseded",
        "quarantined",
        "q_data",
        "q_code",
        "q_transient",
        "held",
    )
    return (
        update(Batch)
        .where(Batch.batch_id == bindparam("id_"))
        .values(
            lines_done=bindparam("lines_done_"),
            **{c: getattr(Batch, c) + bindparam(f"{c}_") for c in counts},
        )
    )
