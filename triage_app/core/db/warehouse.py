"""The warehouse side: target tables, newest-wins upserts, and the content hash.

On SQLite the hot path writes through the driver's own ``executemany`` with tuples (many
rows per statement): SQLAlchemy Core with dict parameters costs several times as much per
row here. On PostgreSQL a chunk is ``COPY``-ed (binary) into a temporary staging table
and moved into the target by one set-wise ``INSERT ... SELECT ... ON CONFLICT (key) DO
UPDATE`` (issue 11: a 300,000-row batch went from 8.9 s to under 1.5 s). Either way the
conflict clause is the same, newest wins included; a chunk the sink refuses goes again by
executemany, then row by row, so a bad row fails alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    Table,
    Text,
    inspect,
    text,
)
from sqlalchemy import select as sa_select

from triage_app.core.crashpoints import crash_point
from triage_app.core.db.engines import write_locked_engine
from triage_app.core.errors import TriageError, error_message
from triage_app.core.messages import _
from triage_app.core.retry import is_transient
from triage_app.core.transforms import Transform

# Which batch, line and transform version last wrote the row. The version is part of each
# statement's text (a writer serves one transform), so no row binds a value more for it.
LINEAGE = ("_batch_id", "_line", "_transform")
_REF = re.compile(r"[A-Za-z0-9_.-]{1,80}@[0-9]{1,9}")
DEFAULT_AUTOCHECKPOINT = 1000  # SQLite's own, in pages


def _sql_type(kind: str, is_key: bool) -> Any:
    if kind == "int":
        # SQLite only makes INTEGER PRIMARY KEY the rowid: one B-tree instead of two.
        return BigInteger().with_variant(Integer(), "sqlite") if is_key else BigInteger()
    if kind == "real":
        return Float()
    return Text()


def target_table(transform: Transform, metadata: MetaData | None = None) -> Table:
    md = metadata or MetaData()
    cols = [
        Column(
            c.name, _sql_type(c.type, c.name == transform.key), primary_key=c.name == transform.key
        )
        for c in transform.columns
    ]
    cols += [
        Column("_batch_id", Text()),
        Column("_line", BigInteger()),
        Column("_transform", Text()),
    ]
    return Table(transform.table, md, *cols)


def version_literal(transform: Transform) -> str:
    """The transform's ref as an SQL string literal, for the statements' text: checked to
    hold nothing a literal could not (a plugin names its own transforms)."""
    if not _REF.fullmatch(transform.ref):
        said = _("transform {ref}: a name of letters, digits, _ . - only")
        raise TriageError(said.format(ref=repr(transform.ref)))
    return f"'{transform.ref}'"


@dataclass
class Staged:
    """PostgreSQL's bulk path: ``copy`` fills the staging table (made by ``create``, emptied
    at every commit), ``move`` upserts it into the target in one statement.

    ``insert`` is the same move without ``ON CONFLICT``: PostgreSQL's conflict check inserts
    every row speculatively, which doubles the cost of a row that is new. So while no chunk
    has met a key already in the target (a first load), a chunk goes in by ``insert``, in a
    savepoint; the first key already there makes it fail whole, it is rolled back to the
    savepoint and goes by ``move``, and so do all chunks after it (``keys_met``). Either
    way the target ends the same: ``insert`` succeeds only when every key is new, and then
    ``move`` would have inserted every row too."""

    create: str
    copy: str
    types: tuple[str, ...]  # of the copied columns, for the binary COPY
    move: str
    insert: str
    keys_met: bool = False
    unavailable: bool = False  # the server refused the staging table (no TEMPORARY)


@dataclass
class UpsertResult:
    changed: int  # rows inserted or replaced
    failed: list[tuple[int, str]]  # (index into the rows, "Type: message") the sink refused


@dataclass(frozen=True)
class Blocks:
    """A statement that writes ``rows`` rows of ``width`` values each at once."""

    sql: str
    rows: int
    width: int


def upsert_rows(
    conn: Any,
    sql: str,
    rows: Sequence[Sequence[Any]],
    is_sqlite: bool,
    blocks: Blocks | None = None,
    staged: Staged | None = None,
    copied: bool = False,
    all_or_none: bool = False,
) -> UpsertResult:
    """The driver's executemany in one transaction; if the sink refuses the chunk, each row
    again in a savepoint, so that one bad row (an integer too large for its column) fails
    alone and the rest of its chunk still loads. With ``blocks``, most rows go in blocks of
    many rows per statement, the rest one by one. With ``staged`` (PostgreSQL), the chunk
    goes through COPY and one set-wise upsert instead of executemany; ``copied`` when the
    open transaction of ``conn`` already copied ``rows`` into the staging table.

    ``all_or_none`` (an atomic batch): all rows or none. A refused row is still found row by row,
    to say which, but then everything is rolled back and ``changed`` is 0."""
    cur = conn.cursor()
    try:
        changed = 0
        whole = 0
        if staged is not None:
            # A row of the wrong width or a value the column refuses fails the COPY or the
            # move, and with it the chunk: then executemany, then row by row (below).
            if not copied:
                copy_into_stage(cur, staged, rows)
            changed = move_stage(cur, staged)
            whole = len(rows)
        # Only rows of the declared width are flattened: one short row and one long one in
        # the same block would otherwise shift every value between them into a wrong column.
        elif (
            blocks is not None
            and len(rows) >= blocks.rows
            and set(map(len, rows)) == {blocks.width}
        ):
            whole = len(rows) - len(rows) % blocks.rows
            flat = list(chain.from_iterable(islice(rows, whole)))
            step = blocks.rows * blocks.width
            cur.executemany(blocks.sql, [flat[i : i + step] for i in range(0, len(flat), step)])
            changed = max(cur.rowcount, 0)
        if whole < len(rows):
            cur.executemany(sql, rows[whole:])
            changed += max(cur.rowcount, 0)
        crash_point("mid-upsert")
        if all_or_none:
            crash_point("atomic-mid-load")
        conn.commit()
        return UpsertResult(changed, [])
    except Exception as exc:
        conn.rollback()
        if is_transient(exc):
            raise
        if staged is not None:
            # The chunk again by executemany, as before COPY: a value of a type the binary
            # COPY does not take (a str for an int) costs one chunk's executemany, not a
            # savepoint a row; a value the column refuses fails that too, then row by row.
            if getattr(exc, "sqlstate", None) == _NO_PRIVILEGE:
                staged.unavailable = True  # no TEMPORARY on the database: never again
            return upsert_rows(conn, sql, rows, is_sqlite, blocks, all_or_none=all_or_none)
    if is_sqlite:
        cur.execute("BEGIN")
    changed = 0
    failed: list[tuple[int, str]] = []
    for i, row in enumerate(rows):
        cur.execute("SAVEPOINT one_row")
        try:
            cur.execute(sql, row)
            changed += max(cur.rowcount, 0)
            cur.execute("RELEASE SAVEPOINT one_row")
        except Exception as exc:
            if is_transient(exc):
                conn.rollback()
                raise
            cur.execute("ROLLBACK TO SAVEPOINT one_row")
            cur.execute("RELEASE SAVEPOINT one_row")
            failed.append((i, error_message(exc)))
    if all_or_none and failed:
        conn.rollback()
        return UpsertResult(0, failed)
    conn.commit()
    return UpsertResult(changed, failed)


def copy_into_stage(cur: Any, staged: Staged, rows: Sequence[Sequence[Any]]) -> None:
    cur.execute(staged.create)
    with cur.copy(staged.copy) as copy:
        copy.set_types(staged.types)
        for row in rows:
            copy.write_row(row)


_UNIQUE_VIOLATION = "23505"
_NO_PRIVILEGE = "42501"


def move_stage(cur: Any, staged: Staged) -> int:
    """Upsert the staging table into the target; how many rows were inserted or replaced."""
    if not staged.keys_met:
        cur.execute("SAVEPOINT all_new")
        try:
            cur.execute(staged.insert)
            inserted = int(max(cur.rowcount, 0))
            cur.execute("RELEASE SAVEPOINT all_new")
            return inserted
        except Exception as exc:
            if getattr(exc, "sqlstate", None) != _UNIQUE_VIOLATION:
                raise
            cur.execute("ROLLBACK TO SAVEPOINT all_new")
            staged.keys_met = True
    cur.execute(staged.move)
    return int(max(cur.rowcount, 0))


class WarehouseWriter:
    """Upserts rows of one transform's table. Rows carry the lineage last: ``(batch, line)``,
    or only the line when the writer serves one batch (``batch_id``), whose id is then part
    of the statement: one value fewer to bind per row on the hot path."""

    def __init__(
        self,
        engine: Engine,
        transform: Transform,
        batch_id: str | None = None,
        checkpoints_apart: bool = False,
        versions: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        self.engine = engine
        self.transform = transform
        self.table = target_table(transform)
        self._ensure_table(versions)
        self.sql = upsert_sql(transform, engine.dialect.name, batch_id)
        self.blocks: Blocks | None = None
        self.staged: Staged | None = None
        self._prestaged: tuple[Sequence[Sequence[Any]], Any] | None = None  # (rows, conn)
        if engine.dialect.name == "postgresql":
            self.staged = staged_sql(transform, batch_id)
        if engine.dialect.name == "sqlite":
            # A hundred rows per statement: a quarter less time per row than one, and within
            # the 999 values per statement that SQLite before 3.32 allows.
            width = len(transform.columns) + (1 if batch_id is not None else 2)
            per = min(100, 999 // width)
            self.blocks = Blocks(upsert_sql(transform, "sqlite", batch_id, per), per, width)
        # With two lanes, SQLite's WAL checkpoints leave the writer's commits and run from
        # checkpoint(), called by a lane while the other one writes (see batch/lanes.py).
        self.checkpoints_apart = checkpoints_apart and engine.dialect.name == "sqlite"

    def _ensure_table(self, versions: Callable[[], dict[str, str]] | None) -> None:
        insp = inspect(self.engine)
        name = self.transform.table
        if not insp.has_table(name):
            create_table_locked(self.engine, self.table)
            insp = inspect(self.engine)
        have = [c["name"] for c in insp.get_columns(name)]
        want = [c.name for c in self.table.columns]
        if sorted([*have, "_transform"]) == sorted(want):  # a table from before the version
            add_version_column(self.engine, self.table, versions() if versions else {})
            have.append("_transform")
        if sorted(have) != sorted(want):
            said = _("warehouse table {table} has columns {have}; {transform} writes {want}")
            raise TriageError(
                said.format(
                    table=name,
                    have=", ".join(have),
                    transform=self.transform.ref,
                    want=", ".join(want),
                )
            )

    def upsert(self, rows: Sequence[Sequence[Any]]) -> UpsertResult:
        """Write ``rows`` in one transaction and commit. Transient errors (a lock, a lost
        connection) propagate for the caller to retry."""
        if not rows:
            return UpsertResult(0, [])
        if self.staged is not None and self.staged.unavailable:
            self.staged = None
        pre = self._prestaged
        if pre is not None and pre[0] is rows:
            self._prestaged = None
            try:
                return upsert_rows(pre[1], self.sql, rows, False, None, self.staged, copied=True)
            finally:
                pre[1].close()
        self.discard_staged()
        conn = self.engine.raw_connection()
        try:
            if not self.checkpoints_apart:
                return upsert_rows(
                    conn,
                    self.sql,
                    rows,
                    self.engine.dialect.name == "sqlite",
                    self.blocks,
                    self.staged,
                )
            cur = conn.cursor()
            cur.execute("PRAGMA wal_autocheckpoint=0")
            try:
                return upsert_rows(conn, self.sql, rows, True, self.blocks)
            finally:
                cur.execute(f"PRAGMA wal_autocheckpoint={DEFAULT_AUTOCHECKPOINT}")
        finally:
            conn.close()

    def load_whole(self, rows: Sequence[Sequence[Any]]) -> UpsertResult:
        """An atomic batch's rows in ONE transaction: all of them, or (a row refused) none,
        with the refused ones named. Transient errors propagate, nothing written."""
        if not rows:
            return UpsertResult(0, [])
        self.discard_staged()
        if self.staged is not None and self.staged.unavailable:
            self.staged = None
        conn = self.engine.raw_connection()
        try:
            return upsert_rows(
                conn,
                self.sql,
                rows,
                self.engine.dialect.name == "sqlite",
                self.blocks,
                self.staged,
                all_or_none=True,
            )
        finally:
            conn.close()

    def stage(self, rows: Sequence[Sequence[Any]]) -> None:
        """PostgreSQL: COPY ``rows`` into a staging table now, in a transaction left open
        for ``upsert(rows)`` to finish (the same list). With two lanes a lane stages its
        chunk while the other one has the warehouse turn, which then holds only the
        set-wise upsert and the commit. Nothing reaches the target before that upsert; if
        staging fails (a value the column refuses, a lost connection) it is dropped, and
        ``upsert`` goes the usual way, refusals row by row."""
        self.discard_staged()
        if self.staged is None or self.staged.unavailable or not rows:
            return
        conn = self.engine.raw_connection()
        try:
            copy_into_stage(conn.cursor(), self.staged, rows)
        except Exception:
            with contextlib.suppress(Exception):
                conn.rollback()
            conn.close()
            return
        self._prestaged = (rows, conn)

    def discard_staged(self) -> None:
        """Roll back rows staged and never upserted (the batch stopped before its turn)."""
        pre, self._prestaged = self._prestaged, None
        if pre is not None:
            with contextlib.suppress(Exception):
                pre[1].rollback()
            pre[1].close()

    def checkpoint(self) -> None:
        """Copy committed WAL pages into the database file, waiting on no one (PASSIVE):
        another process may write meanwhile. Only where checkpoints are kept apart."""
        if not self.checkpoints_apart:
            return
        conn = self.engine.raw_connection()
        try:
            conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            conn.close()


_BATCH_ID = re.compile(r"[0-9a-f]{16}")


def batch_versions(store: Engine) -> Callable[[], dict[str, str]]:
    """Each batch's transform, read from the dead-letter store when asked (only a table
    from before the version column asks)."""
    from triage_app.core.db.models import Batch

    def read() -> dict[str, str]:
        with store.connect() as conn:
            return {b: t for b, t in conn.execute(sa_select(Batch.batch_id, Batch.transform))}

    return read


def add_version_column(engine: Engine, table: Table, versions: dict[str, str]) -> None:
    """Migrate a warehouse table from before lineage kept the version: add ``_transform``
    and fill it, for the rows a batch wrote, with that batch's transform (``versions``:
    batch id -> ref, from the dead-letter store's batches). A row a re-drive wrote before
    then stays NULL: which version wrote it was never recorded. Once, under the same lock
    as a table's creation; a second process finds the column there and does nothing."""

    def migrate(conn: Any) -> None:
        if "_transform" in {c["name"] for c in inspect(conn).get_columns(table.name)}:
            return
        conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN _transform TEXT"))
        by_version: dict[str, list[str]] = {}
        for batch_id, ref in versions.items():
            by_version.setdefault(ref, []).append(batch_id)
        for ref, batch_ids in by_version.items():
            for start in range(0, len(batch_ids), 500):
                conn.execute(
                    table.update()
                    .where(table.c._batch_id.in_(batch_ids[start : start + 500]))
                    .values(_transform=ref)
                )

    _under_table_lock(engine, table, migrate)


def create_table_locked(engine: Engine, table: Table) -> None:
    """Create ``table`` unless it exists, under a lock that every process creating a
    warehouse table takes: two files run into a fresh warehouse at once both found no table
    and both created it, and one failed with a raw duplicate key (PostgreSQL's
    ``pg_type_typname_nsp_index``) or "table already exists" (SQLite; issue 21). The check
    is made again under the lock, so the second creator finds the first one's table."""
    _under_table_lock(engine, table, lambda conn: table.create(conn, checkfirst=True))


def _under_table_lock(engine: Engine, table: Table, change: Callable[[Any], None]) -> None:
    """Run ``change(conn)`` (DDL on ``table``) in a transaction every process changing that
    table takes in turn. PostgreSQL: a transaction-scoped advisory lock per schema and
    table (DDL is transactional there); SQLite: a transaction that holds the write lock
    from its start, with the DDL inside it."""
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(
                text(
                    "SELECT pg_advisory_xact_lock(hashtext('triage-desk warehouse table '"
                    " || coalesce(current_schema(), '') || '.' || :name))"
                ),
                {"name": table.name},
            )
            change(conn)
        return
    if engine.url.database in (None, "", ":memory:"):  # no other process can see it
        with engine.begin() as conn:
            change(conn)
        return
    locked = write_locked_engine(engine)
    try:
        with locked.begin() as conn:  # BEGIN IMMEDIATE: the write lock, taken now
            change(conn)
    finally:
        locked.dispose()


def upsert_sql(
    transform: Transform, dialect: str, batch_id: str | None = None, rows: int = 1
) -> str:
    """The upsert of ``rows`` rows at once. Several rows per statement are for SQLite only:
    there a key may come twice in one statement, and the later row wins as it would in
    separate statements; PostgreSQL refuses that."""
    names = [*transform.column_names, *LINEAGE]
    marker = "?" if dialect == "sqlite" else "%s"
    values = [marker] * len(names)
    values[names.index("_transform")] = version_literal(transform)
    if batch_id is not None:
        if not _BATCH_ID.fullmatch(batch_id):  # it goes into the SQL text: hex only
            raise ValueError(f"not a batch id: {batch_id!r}")
        values[names.index("_batch_id")] = f"'{batch_id}'"
    table = transform.table
    updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != transform.key)
    one = f"({', '.join(values)})"
    sql = (
        f"INSERT INTO {table} ({', '.join(names)}) VALUES {', '.join([one] * rows)} "
        f"ON CONFLICT ({transform.key}) DO UPDATE SET {updates}"
    )
    if transform.ordering:
        # Newest wins: a late-arriving older version never replaces a newer one. Ties go to
        # the later write, so replaying a chunk counts the same rows as loaded again.
        o = transform.ordering
        sql += f" WHERE excluded.{o} >= {table}.{o}"
    return sql


def staged_sql(transform: Transform, batch_id: str | None = None) -> Staged:
    """PostgreSQL's COPY path for ``transform``: the same columns, the same lineage and the
    same conflict clause (newest wins) as ``upsert_sql``. The staging table is temporary,
    so private to the connection, and keeps only the NOT NULL of the target: a null key or
    a value out of range fails the COPY or the move, and the chunk goes again the old way.
    Keys are unique within a chunk (the chunk keeps the newest of each), which the single
    INSERT needs: it may not touch one target row twice."""
    names = [*transform.column_names, *LINEAGE]
    copied = [n for n in names if n != "_transform"]
    selected = list(names)
    selected[names.index("_transform")] = version_literal(transform)
    if batch_id is not None:
        if not _BATCH_ID.fullmatch(batch_id):  # it goes into the SQL text: hex only
            raise ValueError(f"not a batch id: {batch_id!r}")
        copied.remove("_batch_id")
        selected[names.index("_batch_id")] = f"'{batch_id}'"
    # Binary: half the client's time of text, and the server parses nothing. A value of
    # another type (a str for an int, an int past 64 bits) fails the COPY, and the chunk
    # goes by executemany, as before. A bool for an int is stored as 0 or 1 (as SQLite
    # stores it; executemany on PostgreSQL refused it).
    pg_type = {"int": "int8", "real": "float8", "text": "text"}
    kinds = {c.name: pg_type.get(c.type, "text") for c in transform.columns}
    kinds.update(_batch_id="text", _line="int8")
    table = transform.table
    stage = f"_stage_{table}"
    updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != transform.key)
    insert = f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(selected)} FROM {stage}"
    move = f"{insert} ON CONFLICT ({transform.key}) DO UPDATE SET {updates}"
    if transform.ordering:
        o = transform.ordering  # newest wins, ties to the later write, as in upsert_sql
        move += f" WHERE excluded.{o} >= {table}.{o}"
    return Staged(
        create=(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {stage} (LIKE {table}) ON COMMIT DELETE ROWS"
        ),
        copy=f"COPY {stage} ({', '.join(copied)}) FROM STDIN (FORMAT BINARY)",
        types=tuple(kinds[n] for n in copied),
        move=move,
        insert=insert,
    )


def table_sha256(engine: Engine, transform: Transform) -> str:
    """SHA-256 of the table's data columns in key order: equal content, equal hash."""
    table = target_table(transform)
    if not inspect(engine).has_table(transform.table):
        return hashlib.sha256(b"").hexdigest()
    cols = [table.c[n] for n in transform.column_names]
    h = hashlib.sha256()
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True, yield_per=10_000).execute(
            sa_select(*cols).order_by(table.c[transform.key])
        )
        for row in result:
            h.update("|".join("" if v is None else str(v) for v in row).encode())
            h.update(b"\n")
    return h.hexdigest()


def count_rows(engine: Engine, transform: Transform) -> int:
    from sqlalchemy import func

    if not inspect(engine).has_table(transform.table):
        return 0
    table = target_table(transform)
    with engine.connect() as conn:
        return int(conn.execute(sa_select(func.count()).select_from(table)).scalar_one())
