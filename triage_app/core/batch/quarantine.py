"""Putting failing records into the dead-letter store, with the evidence of why."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from triage_app.core.db import AuditEvent, DeadLetter, event_insert
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


# PostgreSQL: the chunk's dead letters and their detail go through COPY into a staging
# table (temporary, emptied at every commit), then one statement moves them and writes the
# events of those that were new. On a bad day (a tenth of the rows failing) the multi-row
# INSERT ... RETURNING and the events' executemany took most of a batch's time.
_DL_COLUMNS = (
    "batch_id",
    "line",
    "original_payload",
    "payload",
    "payload_kind",
    "error",
    "error_class",
    "signature",
    "traceback",
    "attempts",
    "status",
    "transform",
    "first_failed_at",
    "last_failed_at",
)
_DL_STAGE = "_stage_dead_letters"
_NO_PRIVILEGE = "42501"
_no_staging: list[bool] = []  # not empty once the server refused a staging table


@functools.cache
def _copy_statements() -> tuple[str, str, str]:
    dl = DeadLetter.__tablename__
    events = AuditEvent.__tablename__
    cols = ", ".join(_DL_COLUMNS)
    create = (
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {_DL_STAGE} ON COMMIT DELETE ROWS AS "
        f"SELECT {cols}, ''::text AS detail FROM {dl} WITH NO DATA"
    )
    copy = f"COPY {_DL_STAGE} ({cols}, detail) FROM STDIN"
    # Ids in line order, as the multi-row insert gives them; a line already stored (a
    # replayed chunk) is skipped and gets no second event.
    move = (
        f"WITH added AS (INSERT INTO {dl} ({cols}) SELECT {cols} FROM {_DL_STAGE} "
        "ORDER BY line ON CONFLICT (batch_id, line) DO NOTHING RETURNING id, line) "
        f"INSERT INTO {events} (dead_letter_id, at, actor, action, detail, version) "
        "SELECT a.id, %s, %s, %s, s.detail, 1 FROM added a "  # born at version 1
        f"JOIN {_DL_STAGE} s ON s.line = a.line ORDER BY a.id"
    )
    return create, copy, move


def _quarantine_by_copy(
    conn: Connection,
    batch_id: str,
    transform_ref: str,
    payload_kind: str,
    failures: Sequence[Failure],
    actor: str,
    now: dt.datetime,
) -> int:
    create, copy_sql, move = _copy_statements()
    # The DBAPI connection of the caller's transaction: the COPY commits with the rest.
    cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cur.execute(create)
        with cur.copy(copy_sql) as copy:
            for f in failures:
                copy.write_row(
                    (
                        batch_id,
                        f.line,
                        f.raw,
                        f.raw,
                        payload_kind,
                        f.error,
                        f.error_class.value,
                        f.signature,
                        f.traceback,
                        1,
                        Status.OPEN.value,
                        transform_ref,
                        now,
                        now,
                        f"{f.error_class.value} via {transform_ref}: {f.error}",
                    )
                )
        cur.execute(move, (now, actor, AuditAction.QUARANTINED.value))
        return int(max(cur.rowcount, 0))
    finally:
        cur.close()


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
    and one for their events. On PostgreSQL a COPY and one statement for both."""
    if not failures:
        return 0
    by_line = {f.line: f for f in failures}
    if conn.dialect.name == "postgresql" and not _no_staging:
        try:
            with conn.begin_nested():  # a refused staging table leaves the rest as it was
                return _quarantine_by_copy(
                    conn, batch_id, transform_ref, payload_kind, list(by_line.values()), actor, now
                )
        except Exception as exc:
            if getattr(exc, "sqlstate", None) != _NO_PRIVILEGE:
                raise
            _no_staging.append(True)  # a role without TEMPORARY: the statements below
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
