"""The warehouse side: target tables, newest-wins upserts, and the content hash.

The hot path writes through the driver's own ``executemany`` with tuples: SQLAlchemy Core
with dict parameters costs several times as much per row here. The SQL is the same
``INSERT ... ON CONFLICT (key) DO UPDATE`` on SQLite and PostgreSQL; only the parameter
marker differs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any

from sqlalchemy import BigInteger, Column, Engine, Float, Integer, MetaData, Table, Text, inspect
from sqlalchemy import select as sa_select

from triage_app.core.crashpoints import crash_point
from triage_app.core.errors import TriageError, error_message
from triage_app.core.retry import is_transient
from triage_app.core.transforms import Transform

LINEAGE = ("_batch_id", "_line")  # which batch and line last wrote the row
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
    cols += [Column("_batch_id", Text()), Column("_line", BigInteger())]
    return Table(transform.table, md, *cols)


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
) -> UpsertResult:
    """The driver's executemany in one transaction; if the sink refuses the chunk, each row
    again in a savepoint, so that one bad row (an integer too large for its column) fails
    alone and the rest of its chunk still loads. With ``blocks``, most rows go in blocks of
    many rows per statement, the rest one by one."""
    cur = conn.cursor()
    try:
        changed = 0
        whole = 0
        # Only rows of the declared width are flattened: one short row and one long one in
        # the same block would otherwise shift every value between them into a wrong column.
        if (
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
        conn.commit()
        return UpsertResult(changed, [])
    except Exception as exc:
        conn.rollback()
        if is_transient(exc):
            raise
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
    conn.commit()
    return UpsertResult(changed, failed)


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
    ) -> None:
        self.engine = engine
        self.transform = transform
        self.table = target_table(transform)
        self._ensure_table()
        self.sql = upsert_sql(transform, engine.dialect.name, batch_id)
        self.blocks: Blocks | None = None
        if engine.dialect.name == "sqlite":
            # A hundred rows per statement: a quarter less time per row than one, and within
            # the 999 values per statement that SQLite before 3.32 allows.
            width = len(transform.columns) + (1 if batch_id is not None else 2)
            per = min(100, 999 // width)
            self.blocks = Blocks(upsert_sql(transform, "sqlite", batch_id, per), per, width)
        # With two lanes, SQLite's WAL checkpoints leave the writer's commits and run from
        # checkpoint(), called by a lane while the other one writes (see batch/lanes.py).
        self.checkpoints_apart = checkpoints_apart and engine.dialect.name == "sqlite"

    def _ensure_table(self) -> None:
        insp = inspect(self.engine)
        name = self.transform.table
        if not insp.has_table(name):
            self.table.metadata.create_all(self.engine)
            return
        have = [c["name"] for c in insp.get_columns(name)]
        want = [c.name for c in self.table.columns]
        if sorted(have) != sorted(want):
            raise TriageError(
                f"warehouse table {name} has columns {', '.join(have)}; "
                f"{self.transform.ref} writes {', '.join(want)}"
            )

    def upsert(self, rows: Sequence[Sequence[Any]]) -> UpsertResult:
        """Write ``rows`` in one transaction and commit. Transient errors (a lock, a lost
        connection) propagate for the caller to retry."""
        if not rows:
            return UpsertResult(0, [])
        conn = self.engine.raw_connection()
        try:
            if not self.checkpoints_apart:
                return upsert_rows(
                    conn, self.sql, rows, self.engine.dialect.name == "sqlite", self.blocks
                )
            cur = conn.cursor()
            cur.execute("PRAGMA wal_autocheckpoint=0")
            try:
                return upsert_rows(conn, self.sql, rows, True, self.blocks)
            finally:
                cur.execute(f"PRAGMA wal_autocheckpoint={DEFAULT_AUTOCHECKPOINT}")
        finally:
            conn.close()

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


def upsert_sql(
    transform: Transform, dialect: str, batch_id: str | None = None, rows: int = 1
) -> str:
    """The upsert of ``rows`` rows at once. Several rows per statement are for SQLite only:
    there a key may come twice in one statement, and the later row wins as it would in
    separate statements; PostgreSQL refuses that."""
    names = [*transform.column_names, *LINEAGE]
    marker = "?" if dialect == "sqlite" else "%s"
    values = [marker] * len(names)
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
