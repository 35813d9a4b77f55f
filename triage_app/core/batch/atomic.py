"""All-or-nothing batches (issue 25): a batch through an atomic transform
(``Transform.atomic``, the sample ``jurnal@1``) loads nothing until every row of it passes.

While it runs, each chunk's healthy rows go to ``held_rows`` (the row and the record's
bytes), in the store transaction of its dead letters, ledger row and checkpoint, never to
the warehouse: a killed run resumes as any batch does, nothing doubled. At the end
(``finish``) the transform's whole-batch check runs over the held rows; the lines it names
become data dead letters. Then, if no dead letter of the batch waits, every held row loads
in ONE warehouse transaction and the store marks the batch complete; otherwise the batch is
``held``, ``batches.held`` rows waiting, until a steward fixes its dead letters and loads it
whole (``deadletters/held_batches.py``).

The two commits are warehouse first, then store. A crash between them leaves the batch as
it was (running or held) with its held rows, and the next run or load writes the same rows
again (the upsert is idempotent) and finishes it.

Counting: a batch's ``rows`` = loaded + superseded + quarantined + held. A ledger chunk's
held rows are its lines in ``held_rows``; when they load, each moves to its chunk's
``loaded`` (or ``superseded``: another line of the batch with the same key won).
"""

from __future__ import annotations

import bisect
import datetime as dt
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, delete, func, insert, select, update

from triage_app.core.batch.quarantine import Failure, failure_from_message, quarantine
from triage_app.core.clock import utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    Batch,
    BatchChunk,
    DeadLetter,
    HeldRow,
    UpsertResult,
    WarehouseWriter,
    Workspace,
    batch_versions,
    notify_change,
)
from triage_app.core.errors import TriageError
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry, personal_fields_of
from triage_app.core.vocabulary import WAITING, BatchState, ErrorClass

_LEN = struct.Struct("<I")


# -- a held row: the transform's row (its line last) and the record's bytes ---------------


def encode_held(row: Sequence[Any], raw: bytes) -> bytes:
    """``row`` (the line last, as a chunk carries it) as JSON, then the raw record."""
    body = orjson.dumps(list(row))
    return _LEN.pack(len(body)) + body + raw


@dataclass(frozen=True)
class HeldLine:
    line: int
    row: tuple[Any, ...]  # the transform's row, without the line
    raw: bytes


def decode_held(line: int, blob: bytes) -> HeldLine:
    (n,) = _LEN.unpack_from(blob)
    values = orjson.loads(blob[_LEN.size : _LEN.size + n])
    return HeldLine(line, tuple(values[:-1]), bytes(blob[_LEN.size + n :]))


def held_rows_of(
    rows: Sequence[tuple[Any, ...]], raws: dict[int, bytes]
) -> tuple[list[dict[str, Any]], list[Failure]]:
    """A chunk's rows as ``held_rows`` parameters; a row that cannot be kept (a value JSON
    cannot hold) is a data failure instead."""
    out: list[dict[str, Any]] = []
    failures: list[Failure] = []
    for row in rows:
        line = row[-1]
        raw = raws.get(line, b"")
        try:
            blob = encode_held(row, raw)
        except (TypeError, orjson.JSONEncodeError) as exc:
            msg = f"DataError: baris tidak bisa ditahan: {exc}"
            failures.append(failure_from_message(line, raw, msg, ErrorClass.DATA))
            continue
        out.append({"batch_id": "", "line": line, "row": blob})
    return out, failures


def hold(conn: Connection, batch_id: str, params: list[dict[str, Any]]) -> None:
    """Insert a chunk's held rows (in the chunk's store transaction)."""
    if params:
        for p in params:
            p["batch_id"] = batch_id
        conn.execute(insert(HeldRow), params)


def read_held(conn: Connection, batch_id: str) -> list[HeldLine]:
    stmt = (
        select(HeldRow.line, HeldRow.row).where(HeldRow.batch_id == batch_id).order_by(HeldRow.line)
    )
    return [decode_held(int(line), blob) for line, blob in conn.execute(stmt)]


def held_by_chunk(conn: Connection, batch_id: str) -> dict[int, int]:
    """How many held rows each ledger chunk has, by the chunk's first line."""
    chunks = _chunk_starts(conn, batch_id)
    lines = conn.execute(select(HeldRow.line).where(HeldRow.batch_id == batch_id)).scalars()
    return _per_chunk(chunks, lines)


# -- the whole batch -----------------------------------------------------------------------


def whole_check(
    transform: Transform, rows: Sequence[tuple[int, tuple[Any, ...]]]
) -> list[tuple[int, str]]:
    """The transform's check over the batch's rows together: the lines it fails, with why."""
    if transform.check_whole is None or not rows:
        return []
    try:
        found = transform.check_whole(rows)
    except Exception as exc:  # a bug in the check: every line waits, with why
        why = f"{type(exc).__name__}: the whole-batch check of {transform.ref} failed: {exc}"
        return [(line, why) for line, _ in rows]
    return [(int(line), str(why)) for line, why in found]


def newest_per_key(
    transform: Transform, rows: Sequence[tuple[int, tuple[Any, ...]]]
) -> tuple[list[tuple[Any, ...]], list[int]]:
    """One row per key, as a batch writes them (the larger ``ordering`` value wins, else the
    later line), each with its line last; and the lines of the others (superseded)."""
    names = transform.column_names
    key = names.index(transform.key)
    order = names.index(transform.ordering) if transform.ordering else None
    best: dict[Any, tuple[int, tuple[Any, ...]]] = {}
    dropped: list[int] = []
    for line, row in sorted(rows, key=lambda r: r[0]):
        k = row[key]
        prev = best.get(k)
        if prev is not None:
            if order is not None and _smaller(row[order], prev[1][order]):
                dropped.append(line)
                continue
            dropped.append(prev[0])
        best[k] = (line, row)
    kept = [(*row, line) for line, row in best.values()]
    return kept, sorted(dropped)


def _smaller(a: Any, b: Any) -> bool:
    try:
        return bool(a < b)
    except TypeError:
        return False


def load(ws: Workspace, transform: Transform, batch_id: str, rows: Sequence[Any]) -> UpsertResult:
    """``rows`` (each with its line last) into the warehouse in ONE transaction: all, or
    none and the refused ones named (by index into ``rows``)."""
    writer = WarehouseWriter(ws.warehouse, transform, batch_id, versions=batch_versions(ws.store))
    result = writer.load_whole(rows)
    if not result.failed:
        crash_point("atomic-after-load")
    return result


# -- the store's side ----------------------------------------------------------------------


def _chunk_starts(conn: Connection, batch_id: str) -> list[tuple[int, int]]:
    return [
        (int(a), int(b))
        for a, b in conn.execute(
            select(BatchChunk.first_line, BatchChunk.last_line)
            .where(BatchChunk.batch_id == batch_id)
            .order_by(BatchChunk.first_line)
        )
    ]


def _per_chunk(chunks: Sequence[tuple[int, int]], lines: Iterable[int]) -> dict[int, int]:
    starts = [a for a, _ in chunks]
    out: dict[int, int] = {}
    for line in lines:
        i = bisect.bisect_right(starts, line) - 1
        if i >= 0 and line <= chunks[i][1]:
            out[starts[i]] = out.get(starts[i], 0) + 1
    return out


def _add_to_chunks(conn: Connection, batch_id: str, column: str, lines: Sequence[int]) -> None:
    if not lines:
        return
    col = BatchChunk.__table__.c[column]
    for first, n in _per_chunk(_chunk_starts(conn, batch_id), lines).items():
        conn.execute(
            update(BatchChunk)
            .where(BatchChunk.batch_id == batch_id, BatchChunk.first_line == first)
            .values({column: col + n})
        )


def unhold(conn: Connection, batch_id: str, lines: Sequence[int] | None) -> None:
    """Delete the batch's held rows: those of ``lines``, or (None) all of them."""
    stmt = delete(HeldRow).where(HeldRow.batch_id == batch_id)
    if lines is None:
        conn.execute(stmt)
        return
    for start in range(0, len(lines), 5_000):
        conn.execute(stmt.where(HeldRow.line.in_(list(lines[start : start + 5_000]))))


def quarantine_held(
    conn: Connection,
    batch: Any,
    failures: Sequence[Failure],
    actor: str,
    now: dt.datetime,
) -> None:
    """Held lines that fail after all (the whole-batch check, a row the warehouse refused)
    become dead letters of the batch, in the caller's store transaction: out of
    ``held_rows``, counted quarantined instead of held, in their ledger chunks too."""
    if not failures:
        return
    lines = [f.line for f in failures]
    quarantine(
        conn,
        batch_id=batch.batch_id,
        transform_ref=batch.transform,
        payload_kind=batch.format,
        failures=failures,
        actor=actor,
        now=now,
        personal=personal_fields_of(batch.transform),
        csv_header=getattr(batch, "csv_header", None),
    )
    unhold(conn, batch.batch_id, lines)
    _add_to_chunks(conn, batch.batch_id, "quarantined", lines)
    n = len(failures)
    conn.execute(
        update(Batch)
        .where(Batch.batch_id == batch.batch_id)
        .values(
            held=Batch.held - n,
            quarantined=Batch.quarantined + n,
            q_data=Batch.q_data + n,
        )
    )


def mark_loaded(
    conn: Connection,
    batch_id: str,
    loaded: Sequence[int],
    superseded: Sequence[int],
    now: dt.datetime,
) -> None:
    """The held rows loaded (``loaded`` and ``superseded``: their lines), in the caller's
    store transaction: gone from ``held_rows``, counted in their chunks and the batch, and
    the batch complete."""
    unhold(conn, batch_id, None)
    _add_to_chunks(conn, batch_id, "loaded", loaded)
    _add_to_chunks(conn, batch_id, "superseded", superseded)
    conn.execute(
        update(Batch)
        .where(Batch.batch_id == batch_id)
        .values(
            held=0,
            loaded=Batch.loaded + len(loaded),
            superseded=Batch.superseded + len(superseded),
            state=BatchState.COMPLETE.value,
            finished_at=now,
        )
    )


def waiting_dead_letters(conn: Connection, batch_id: str) -> int:
    return int(
        conn.execute(
            select(func.count())
            .select_from(DeadLetter)
            .where(
                DeadLetter.batch_id == batch_id,
                DeadLetter.status.in_([s.value for s in WAITING]),
            )
        ).scalar_one()
    )


def finish(
    ws: Workspace,
    transform: Transform,
    batch_id: str,
    actor: str,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> BatchState:
    """The end of an atomic batch's run (every chunk committed): its whole-batch check, then
    the whole batch into the warehouse if nothing of it fails, else held. The state it is
    left in; a held batch's state is written here, a complete one's too."""

    def _read() -> tuple[Any, list[HeldLine]]:
        with ws.store.connect() as conn:
            batch = conn.execute(select(Batch.__table__).where(Batch.batch_id == batch_id)).one()
            return batch, read_held(conn, batch_id)

    batch, held = with_retry(_read, retry, sleep=sleep)
    rows = [(h.line, h.row) for h in held]
    raws = {h.line: h.raw for h in held}
    flagged = whole_check(transform, rows)
    failures = [
        failure_from_message(line, raws.get(line, b""), f"DataError: {why}", ErrorClass.DATA)
        for line, why in flagged
    ]
    if failures:
        _quarantine_and_hold(ws, batch, failures, actor, retry, sleep)
        return BatchState.HELD
    with ws.store.connect() as conn:
        if waiting_dead_letters(conn, batch_id):
            _set_state(conn, batch_id, BatchState.HELD)
            conn.commit()
            return BatchState.HELD
    kept, dropped = newest_per_key(transform, rows)
    result = with_retry(lambda: load(ws, transform, batch_id, kept), retry, sleep=sleep)
    if result.failed:
        refused = [
            failure_from_message(kept[i][-1], raws.get(kept[i][-1], b""), msg, ErrorClass.DATA)
            for i, msg in result.failed
        ]
        _quarantine_and_hold(ws, batch, refused, actor, retry, sleep)
        return BatchState.HELD

    def _complete() -> None:
        with ws.store.begin() as conn:
            notify_change(conn)
            mark_loaded(conn, batch_id, [r[-1] for r in kept], dropped, utcnow())

    with_retry(_complete, retry, sleep=sleep)
    return BatchState.COMPLETE


def _set_state(conn: Connection, batch_id: str, state: BatchState) -> None:
    conn.execute(update(Batch).where(Batch.batch_id == batch_id).values(state=state.value))


def _quarantine_and_hold(
    ws: Workspace,
    batch: Any,
    failures: Sequence[Failure],
    actor: str,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> None:
    def _commit() -> None:
        with ws.store.begin() as conn:
            notify_change(conn)
            quarantine_held(conn, batch, failures, actor, utcnow())
            _set_state(conn, batch.batch_id, BatchState.HELD)

    with_retry(_commit, retry, sleep=sleep)


def is_atomic(transform_ref: str, registry: Registry | None = None) -> bool:
    """Whether ``transform_ref`` names an atomic transform (False when it is not installed)."""
    try:
        return (registry or default_registry()).get(transform_ref).atomic
    except TriageError:
        return False


def atomic_batches(conn: Connection, batch_ids: Iterable[str]) -> dict[str, str]:
    """Of ``batch_ids``, those of an atomic transform that are not complete (held, running
    or discarded whole): batch id -> state. Their rows are changed only as a whole."""
    ids = sorted(set(batch_ids))
    out: dict[str, str] = {}
    for start in range(0, len(ids), 5_000):
        part = ids[start : start + 5_000]
        rows = conn.execute(
            select(Batch.batch_id, Batch.transform, Batch.state).where(
                Batch.batch_id.in_(part), Batch.state != BatchState.COMPLETE.value
            )
        )
        for bid, ref, state in rows:
            if state == BatchState.HELD or is_atomic(ref):
                out[bid] = state
    return out
