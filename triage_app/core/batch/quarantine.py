"""Putting failing records into the dead-letter store, with the evidence of why.

A row quarantined here gets no audit event of its own: its batch (``batches.actor``, the
transform) is the set record, and the trail synthesizes the row's ``quarantined`` event
from the two (``deadletters/expanded_events.py``)."""

from __future__ import annotations

import datetime as dt
import functools
import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from sqlalchemy import Connection, Engine, select

from triage_app.core.db import (
    DeadLetter,
    StoreSetting,
    for_driver,
    keep_signatures,
    keep_tracebacks,
    store_setting,
    stored_error,
    summary,
)
from triage_app.core.errors import (
    TriageError,
    classify,
    error_message,
    redacted_traceback,
    signature,
)
from triage_app.core.masking import mask_text, mask_with_values
from triage_app.core.messages import _
from triage_app.core.retry import DEFAULT_LADDER, LADDER_KEY, Ladder
from triage_app.core.transforms import Transform
from triage_app.core.vocabulary import ErrorClass, Status


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


def masked_failures(
    failures: Iterable[Failure],
    fields: Sequence[str],
    payload_kind: str,
    csv_header: bytes | None = None,
) -> tuple[list[Failure], dict[int, bytes]]:
    """The failures with the personal values of each one's payload masked in its error (and
    its signature made again from the masked error when that changed it), and by line each
    payload masked, where ``fields`` found something to mask (issue 27). A transform with no
    personal fields pays nothing: the failures come back as they are."""
    if not fields:
        return list(failures), {}
    out: list[Failure] = []
    masked: dict[int, bytes] = {}
    for f in failures:
        m, values = mask_with_values(f.raw, payload_kind, fields, csv_header)
        if m is None:
            out.append(f)
            continue
        masked[f.line] = m
        error = f.error
        if not any(str(v) in error for v in values):  # the common case: not quoted
            out.append(f)
            continue
        error = mask_text(f.error, values)
        if error != f.error:
            f = f._replace(error=error, signature=signature(error))
        out.append(f)
    return out, masked


def failure_from_message(line: int, raw: bytes, message: str, error_class: ErrorClass) -> Failure:
    """A failure reported as text, by a process that kept the exception to itself."""
    return Failure(line, raw, message, error_class, signature(message), None)


def workspace_ladder(store: Engine | Connection) -> Ladder | None:
    """The retry ladder the team set for the workspace (``ladder set``), or None. Given a
    connection, read in its transaction."""
    if isinstance(store, Connection):
        raw = store.execute(
            select(StoreSetting.value).where(StoreSetting.key == LADDER_KEY)
        ).scalar()
    else:
        raw = store_setting(store, LADDER_KEY)
    if raw is None:
        return None
    try:
        return Ladder.parse(raw)
    except TriageError:
        shown = raw[:60].encode("unicode_escape").decode("ascii")
        said = _(
            "the store's retry ladder is not readable: {ladder}; set it again "
            "(triage-app ladder set 5m,30m,2h) or reset it (triage-app ladder reset)"
        )
        raise TriageError(said.format(ladder=repr(shown))) from None


def ladder_in_force(store: Engine | Connection, transform: Transform | None) -> Ladder:
    """The ladder of ``transform``'s transient dead letters: its own, else the workspace's,
    else the default (5m,30m,2h)."""
    if transform is not None and transform.retry_ladder is not None:
        return transform.retry_ladder
    return workspace_ladder(store) or DEFAULT_LADDER


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
    "masked_original",
    "next_attempt_at",
)
_DL_STAGE = "_stage_dead_letters"
_NO_PRIVILEGE = "42501"
_no_staging: list[bool] = []  # not empty once the server refused a staging table


@functools.cache
def _copy_statements() -> tuple[str, str, str]:
    dl = DeadLetter.__tablename__
    cols = ", ".join(_DL_COLUMNS)
    create = (
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {_DL_STAGE} ON COMMIT DELETE ROWS AS "
        f"SELECT {cols} FROM {dl} WITH NO DATA"
    )
    copy = f"COPY {_DL_STAGE} ({cols}) FROM STDIN"
    # Ids in line order, as the multi-row insert gives them; a line already stored (a
    # replayed chunk) is skipped.
    move = (
        f"INSERT INTO {dl} ({cols}) SELECT {cols} FROM {_DL_STAGE} "
        "ORDER BY line ON CONFLICT (batch_id, line) DO NOTHING"
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
    masked: Mapping[int, bytes],
    due: object = None,
) -> list[tuple[object, ...]]:
    """Each failure as a row of ``_DL_COLUMNS``; ``masked``: by line, the masked payload; a
    transient one due for its first retry at ``due`` (None: not on a ladder)."""
    mask = masked.get
    code, open_ = ErrorClass.CODE, Status.OPEN.value
    transient = ErrorClass.TRANSIENT
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
            mask(f.line),
            due if f.error_class is transient else None,
        )
        for f in failures
    ]


def _quarantine_by_copy(conn: Connection, rows: list[tuple[object, ...]]) -> int:
    create, copy_sql, move = _copy_statements()
    # The DBAPI connection of the caller's transaction: the COPY commits with the rest.
    cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cur.execute(create)
        with cur.copy(copy_sql) as copy:
            for row in rows:
                copy.write_row(row)
        cur.execute(move)
        return int(max(cur.rowcount, 0))
    finally:
        cur.close()


@functools.cache
def _sqlite_statements() -> str:
    dl = DeadLetter.__tablename__
    cols = ", ".join(_DL_COLUMNS)
    marks = ", ".join("?" * len(_DL_COLUMNS))
    return f"INSERT INTO {dl} ({cols}) VALUES ({marks}) ON CONFLICT (batch_id, line) DO NOTHING"


def _quarantine_sqlite(conn: Connection, rows: list[tuple[object, ...]]) -> int:
    """The driver's own executemany with tuples: SQLAlchemy's per-row parameter handling
    cost more than the inserts on a batch where every row fails."""
    add = _sqlite_statements()
    dbapi = conn.connection.driver_connection
    cur = dbapi.cursor()  # type: ignore[union-attr]
    try:
        if not dbapi.in_transaction:  # type: ignore[union-attr]
            # pysqlite begins at the first write; take the lock for the whole chunk first.
            cur.execute("BEGIN IMMEDIATE")
        cur.executemany(add, rows)
        # executemany sums the rows each insert added: a replayed line adds none.
        return int(cur.rowcount)
    finally:
        cur.close()


def _stored_lines(conn: Connection, batch_id: str, lines: Sequence[int]) -> set[int]:
    """Which of ``lines`` the batch has stored already (a replayed chunk): they are skipped
    by the insert and are counted in the summary already. Read under the write lock
    (SQLite) or with the rows locked against a purge (PostgreSQL); one loader per batch
    (``loading_lock.py``), so nobody else adds these lines meanwhile."""
    dl = DeadLetter
    if conn.dialect.name == "sqlite":
        dbapi = conn.connection.driver_connection
        if not dbapi.in_transaction:  # type: ignore[union-attr]
            # pysqlite begins at the first write; what is read here must stay true.
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    stmt = select(dl.line).where(
        dl.batch_id == batch_id, dl.line >= min(lines), dl.line <= max(lines)
    )
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(key_share=True)
    wanted = set(lines)
    return {int(n) for n in conn.execute(stmt).scalars() if n in wanted}


def _new_cells(
    failures: Iterable[Failure],
    signatures: dict[str, int],
    batch_id: str,
    transform_ref: str,
    now: dt.datetime,
    attempts: Mapping[int, int] | None = None,
) -> Counter[summary.Cell]:
    """The summary's cells of new dead letters, counted in Python from the failures: every
    such row is open, at one attempt (or those ``attempts`` says), failed first now."""
    open_ = Status.OPEN.value
    if attempts:
        counted = Counter((f.error_class, f.signature, attempts.get(f.line, 1)) for f in failures)
        return Counter(
            {
                summary.cell(c.value, signatures[sig], open_, a, now, batch_id, transform_ref): n
                for (c, sig, a), n in counted.items()
            }
        )
    by_group = Counter(map(_group_of, failures))  # C-speed: a batch may fail every row
    return Counter(
        {
            summary.cell(c.value, signatures[sig], open_, 1, now, batch_id, transform_ref): n
            for (c, sig), n in by_group.items()
        }
    )


_group_of = operator.attrgetter("error_class", "signature")


def quarantine(
    conn: Connection,
    *,
    batch_id: str,
    transform_ref: str,
    payload_kind: str,
    failures: Sequence[Failure],
    actor: str,
    now: dt.datetime,
    attempts: Mapping[int, int] | None = None,
    personal: Sequence[str] = (),
    csv_header: bytes | None = None,
    ladder: Ladder | None = None,
) -> int:
    """Insert dead letters; unique per (batch, line), so a replayed chunk cannot double
    them. ``attempts``: by line, the attempts a row starts at when not one (an imported
    dead letter's, as its source counted them). Returns how many were new. No event per
    row: the batch, which names ``actor`` (written when it was recorded, batch/run.py), is
    their set record.

    ``ladder``: the retry ladder of the batch's transient rows; each starts on its first
    step (``retry_step`` 0), due at ``now`` plus the first wait. None: no row waits (an
    import's letters go back to their own pipeline by hand; an atomic batch loads whole).

    A few statements for the whole chunk, whatever its number of failures: the tracebacks
    and signatures (each text once), and the rows by the driver's executemany (SQLite) or
    COPY (PostgreSQL). ``personal``: the transform's personal fields (``csv_header`` the
    batch's header, for a CSV row), masked in the stored copy ``masked_original`` and in
    the error.
    """
    if not failures:
        return 0
    # Personal fields (the transform's): each payload's masked copy, and errors that quote
    # a personal value stored masked. None for a transform without any.
    failures, masked = masked_failures(failures, personal, payload_kind, csv_header)
    by_line = {f.line: f for f in failures}
    tracebacks = keep_tracebacks(
        conn, (f.traceback for f in by_line.values() if f.error_class is ErrorClass.CODE)
    )
    signatures = keep_signatures(conn, (f.signature for f in by_line.values()))
    sqlite = conn.dialect.name == "sqlite"
    stamp = for_driver(conn.dialect)(now)
    due = for_driver(conn.dialect)(now + ladder.waits[0]) if ladder is not None else None
    rows = _rows(
        batch_id,
        transform_ref,
        payload_kind,
        by_line.values(),
        tracebacks,
        signatures,
        stamp,
        masked,
        due,
    )
    if attempts:
        at = _DL_COLUMNS.index("attempts")
        rows = [(*r[:at], attempts.get(int(r[1]), 1), *r[at + 1 :]) for r in rows]  # type: ignore[call-overload]
    # The summary: the chunk's new rows, counted from the failures (a replayed line is
    # stored and counted already), written in this transaction.
    replayed = _stored_lines(conn, batch_id, list(by_line))
    fresh = (
        [f for ln, f in by_line.items() if ln not in replayed] if replayed else [*by_line.values()]
    )
    cells = _new_cells(fresh, signatures, batch_id, transform_ref, now, attempts)
    if sqlite:
        return _counted(conn, cells, len(fresh), _quarantine_sqlite(conn, rows))
    if not _no_staging:
        try:
            with conn.begin_nested():  # a refused staging table leaves the rest as it was
                copied = _quarantine_by_copy(conn, rows)
            return _counted(conn, cells, len(fresh), copied)
        except Exception as exc:
            if getattr(exc, "sqlstate", None) != _NO_PRIVILEGE:
                raise
            _no_staging.append(True)  # a role without TEMPORARY: the statements below
    added = conn.execute(
        _insert_ignoring_duplicates(),
        [dict(zip(_DL_COLUMNS, row, strict=True)) for row in rows],
    ).all()
    return _counted(conn, cells, len(fresh), len(added))


def _counted(conn: Connection, cells: Counter[summary.Cell], expected: int, added: int) -> int:
    """Write the new rows' cells; ``added``, which must be the rows counted: under the locks
    taken no other line can have come or gone, and a summary written blind would drift."""
    if added != expected:
        raise RuntimeError(f"{added} dead letters stored where {expected} were new")
    summary.apply(conn, cells)
    return added
