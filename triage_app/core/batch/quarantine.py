"""Putting failing records into the dead-letter store, with the evidence of why."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from sqlalchemy import Connection

from triage_app.core.db import (
    AuditEvent,
    DeadLetter,
    event_insert,
    keep_signatures,
    keep_tracebacks,
    stored_error,
)
from triage_app.core.errors import classify, error_message, redacted_traceback, signature
from triage_app.core.vocabulary import AuditAction, ErrorClass, Status


class Failure(NamedTuple):
    """One record that failed, as it will be stored. A named tuple, not a frozen dataclass:
    one is made per failing record, and a frozen dataclass's ``__init__`` (a
    ``object.__setattr__`` per field) took a third of the time of making one on a bad day."""

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
def _insert_ignoring_duplicates():  # type: ignore[no-untyped-def]
    """PostgreSQL without a staging table: a multi-row insert that returns (id, line)."""
    # Imported here: the PostgreSQL dialect costs a SQLite user 45 ms at every start.
    from sqlalchemy.dialects import postgresql

    stmt = postgresql.insert(DeadLetter).on_conflict_do_nothing(index_elements=["batch_id", "line"])
    return stmt.returning(DeadLetter.id, DeadLetter.line)


# The columns a new dead letter is written with; ``payload`` stays NULL (the original is
# the working copy until an edit), ``version`` is 1.
_DL_COLUMNS = (
    "batch_id",
    "line",
    "original_payload",
    "payload_kind",
    "error",
    "error_class",
    "signature_id",
    "traceback_id",
    "attempts",
    "status",
    "transform",
    "first_failed_at",
    "last_failed_at",
)
# An event's detail, made by the database from the row it is about.
_DETAIL_SQL = (
    "error_class || ' via ' || transform || ': ' || coalesce(error, "
    "(SELECT s.text FROM signatures s WHERE s.id = dead_letters.signature_id))"
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
        f"SELECT {cols} FROM {dl} WITH NO DATA"
    )
    copy = f"COPY {_DL_STAGE} ({cols}) FROM STDIN"
    # Ids in line order, as the multi-row insert gives them; a line already stored (a
    # replayed chunk) is skipped and gets no second event.
    move = (
        f"WITH added AS (INSERT INTO {dl} ({cols}) SELECT {cols} FROM {_DL_STAGE} "
        "ORDER BY line ON CONFLICT (batch_id, line) DO NOTHING "
        f"RETURNING id, {_DETAIL_SQL} AS detail) "
        f"INSERT INTO {events} (dead_letter_id, at, actor, action, detail, version) "
        "SELECT id, %s, %s, %s, detail, 1 FROM added ORDER BY id"  # born at version 1
    )
    return create, copy, move


def _rows(
    batch_id: str,
    transform_ref: str,
    payload_kind: str,
    failures: Iterable[Failure],
    tracebacks: dict[str, int],
    signatures: dict[str, int],
    now: object,
) -> list[tuple[object, ...]]:
    """Each failure as a row of ``_DL_COLUMNS``."""
    code, open_ = ErrorClass.CODE, Status.OPEN.value
    code_value = code.value  # an enum's .value costs a Python call per row; a bad day is code
    return [
        (
            batch_id,
            f.line,
            f.raw,
            payload_kind,
            stored_error(f.error, f.signature),
            code_value if f.error_class is code else f.error_class.value,
            signatures[f.signature],
            tracebacks[f.traceback] if f.error_class is code and f.traceback else None,
            1,
            open_,
            transform_ref,
            now,
            now,
        )
        for f in failures
    ]


def _quarantine_by_copy(
    conn: Connection,
    rows: list[tuple[object, ...]],
    actor: str,
    now: dt.datetime,
) -> int:
    create, copy_sql, move = _copy_statements()
    # The DBAPI connection of the caller's transaction: the COPY commits with the rest.
    cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cur.execute(create)
        with cur.copy(copy_sql) as copy:
            for row in rows:
                copy.write_row(row)
        cur.execute(move, (now, actor, AuditAction.QUARANTINED.value))
        return int(max(cur.rowcount, 0))
    finally:
        cur.close()


@functools.cache
def _sqlite_statements() -> tuple[str, str]:
    dl, events = DeadLetter.__tablename__, AuditEvent.__tablename__
    cols = ", ".join(_DL_COLUMNS)
    marks = ", ".join("?" * len(_DL_COLUMNS))
    add = f"INSERT INTO {dl} ({cols}) VALUES ({marks}) ON CONFLICT (batch_id, line) DO NOTHING"
    # New rows take ids above the largest (no AUTOINCREMENT: max(rowid) + 1), and the
    # write lock is held: the rows above the mark are exactly this chunk's new ones.
    note = (
        f"INSERT INTO {events} (dead_letter_id, at, actor, action, detail, version) "
        f"SELECT id, ?, ?, ?, {_DETAIL_SQL}, 1 FROM {dl} WHERE id > ? ORDER BY id"
    )
    return add, note


def _quarantine_sqlite(
    conn: Connection, rows: list[tuple[object, ...]], actor: str, stamp: object
) -> int:
    """The driver's own executemany with tuples: SQLAlchemy's per-row parameter handling
    cost more than the inserts on a batch where every row fails."""
    add, note = _sqlite_statements()
    dbapi = conn.connection.driver_connection
    cur = dbapi.cursor()  # type: ignore[union-attr]
    try:
        if not dbapi.in_transaction:  # type: ignore[union-attr]
            # pysqlite begins at the first write; the mark below needs the lock first.
            cur.execute("BEGIN IMMEDIATE")
        mark = cur.execute(f"SELECT coalesce(max(id), 0) FROM {DeadLetter.__tablename__}")
        before = mark.fetchone()[0]
        cur.executemany(add, rows)
        cur.execute(note, (stamp, actor, AuditAction.QUARANTINED.value, before))
        return int(cur.rowcount)
    finally:
        cur.close()


def _as_stored(conn: Connection, moment: dt.datetime) -> object:
    """A time as the engine's DateTime keeps it (SQLite: text with microseconds, which SQL
    compares as text), for rows the driver writes itself."""
    process = DeadLetter.first_failed_at.type.dialect_impl(conn.dialect).bind_processor(
        conn.dialect
    )
    return moment if process is None else process(moment)


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

    A few statements for the whole chunk, whatever its number of failures: the tracebacks
    and signatures (each text once), the rows by the driver's executemany (SQLite) or COPY
    (PostgreSQL), and the events of the rows that were new, made from the rows by one
    INSERT ... SELECT.
    """
    if not failures:
        return 0
    by_line = {f.line: f for f in failures}
    tracebacks = keep_tracebacks(
        conn, (f.traceback for f in by_line.values() if f.error_class is ErrorClass.CODE)
    )
    signatures = keep_signatures(conn, (f.signature for f in by_line.values()))
    sqlite = conn.dialect.name == "sqlite"
    stamp = _as_stored(conn, now) if sqlite else now
    rows = _rows(
        batch_id, transform_ref, payload_kind, by_line.values(), tracebacks, signatures, stamp
    )
    if sqlite:
        return _quarantine_sqlite(conn, rows, actor, stamp)
    if not _no_staging:
        try:
            with conn.begin_nested():  # a refused staging table leaves the rest as it was
                return _quarantine_by_copy(conn, rows, actor, now)
        except Exception as exc:
            if getattr(exc, "sqlstate", None) != _NO_PRIVILEGE:
                raise
            _no_staging.append(True)  # a role without TEMPORARY: the statements below
    added = conn.execute(
        _insert_ignoring_duplicates(),
        [dict(zip(_DL_COLUMNS, row, strict=True)) for row in rows],
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
