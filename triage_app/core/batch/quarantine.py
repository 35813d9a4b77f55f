"""Putting failing records into the dead-letter store, with the evidence of why."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from triage_app.core.db import DeadLetter, event_insert
from triage_app.core.errors import classify, error_message, redacted_traceback, signature
from triage_app.core.vocabulary import AuditAction, ErrorClass, Status


@dataclass(frozen=True, slots=True)
class Failure:
    """One record that failed, as it will be stored."""

    line: int
    raw: bytes
    error: str
    error_class: ErrorClass
    signature: str
    traceback: str | None


def failure_from(
    line: int, raw: bytes, exc: BaseException, error_class: ErrorClass | None = None
) -> Failure:
    cls = error_class or classify(exc)
    msg = error_message(exc)
    # Tracebacks help the pipeline team only with code bugs; for data they are noise.
    tb = redacted_traceback(exc.__traceback__) if cls is ErrorClass.CODE else None
    return Failure(line, raw, msg, cls, signature(msg), tb)


def failure_from_message(line: int, raw: bytes, message: str, error_class: ErrorClass) -> Failure:
    """A failure reported as text, by a process that kept the exception to itself."""
    return Failure(line, raw, message, error_class, signature(message), None)


@functools.cache
def _insert_ignoring_duplicates(dialect: str):  # type: ignore[no-untyped-def]
    # Imported here: the PostgreSQL dialect costs a SQLite user 45 ms at every start.
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        stmt = postgresql.insert(DeadLetter).on_conflict_do_nothing(
            index_elements=["batch_id", "line"]
        )
        return stmt.returning(DeadLetter.id, DeadLetter.line)
    from sqlalchemy.dialects import sqlite

    lite = sqlite.insert(DeadLetter).on_conflict_do_nothing(index_elements=["batch_id", "line"])
    return lite.returning(DeadLetter.id, DeadLetter.line)


def quarantine(
    conn: Connection,
    *,
    batch_id: str,
    transform_ref: str,
    payload_kind: str,
    failures: Sequence[Failure],
    actor: str,
    now: dt.datetime,
) -> int:
    """Insert dead letters and their ``quarantined`` events; unique per (batch, line), so a
    replayed chunk cannot double them. Returns how many were new.

    Two statements for the whole chunk, whatever its number of failures: one multi-row
    insert that returns the (id, line) of each row it added, skipping lines already stored,
    and one for their events."""
    if not failures:
        return 0
    by_line = {f.line: f for f in failures}
    added = conn.execute(
        _insert_ignoring_duplicates(conn.dialect.name),
        [
            {
                "batch_id": batch_id,
                "line": f.line,
                "original_payload": f.raw,
                "payload": f.raw,
                "payload_kind": payload_kind,
                "error": f.error,
                "error_class": f.error_class.value,
                "signature": f.signature,
                "traceback": f.traceback,
                "attempts": 1,
                "status": Status.OPEN.value,
                "transform": transform_ref,
                "first_failed_at": now,
                "last_failed_at": now,
            }
            for f in by_line.values()
        ],
    ).all()
    if added:
        conn.execute(
            event_insert(),
            [
                {
                    "dead_letter_id": dl_id,
                    "at": now,
                    "actor": actor,
                    "action": AuditAction.QUARANTINED.value,
                    "detail": f"{by_line[line].error_class.value} via {transform_ref}: "
                    f"{by_line[line].error}",
                    "version": 1,  # a dead letter is born at version 1
                }
                for dl_id, line in added
            ],
        )
    return len(added)
