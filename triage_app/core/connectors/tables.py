"""A pipeline's own dead-letter table as a connector (issue 26): the desk imports its rows
(``DeadLetterTableSource``) and re-drives the fixed ones into the pipeline's own table
(``TableSink``), on SQLite, PostgreSQL, MySQL or MariaDB.

The connector's options name the table and which of its columns holds what (seed 000's
``dead_letter``: ``SEED_MAPPING``)::

    {"table": "dead_letter",
     "columns": {"id": "dl_id", "payload": "payload", "error": "galat", "class": "kelas",
                 "attempts": "percobaan", "time": None, "line": "baris"},
     "sink": {"table": "pesanan", "after_load": "keep" | "delete" | "mark:COLUMN",
              "url": None}}

Import reads the table in key order, a page at a time (keyset on the id column: a row
deleted or added meanwhile moves no other row, as an OFFSET would), and writes nothing
there: each row's identity is ``table:id``, so importing again finds every row stored and
doubles none. A re-drive upserts each row the transform made into the sink table by the
transform's key, and only then, in the same transaction when the sink is in the same
database, does to the dead-letter row what ``after_load`` says: nothing, delete it (as the
seed's ``retry_dead_letter`` does) or set a column that says it was loaded. A row marked
so is not read again by an import.
"""

from __future__ import annotations

import base64
import datetime as dt
import sqlite3
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    Table,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    NoSuchModuleError,
    NoSuchTableError,
    SQLAlchemyError,
)

from triage_app.core.bilingual import both, reason_of, said
from triage_app.core.clock import iso, utcnow
from triage_app.core.connectors.letters import OutsideLetter
from triage_app.core.connectors.origins import OriginInfo
from triage_app.core.connectors.stored import MAPPING_FIELDS, SEED_000
from triage_app.core.db import (
    complete_url,
    recall_password,
    redact_text,
    redact_url,
    split_password,
)
from triage_app.core.deadletters import Parcel
from triage_app.core.errors import TriageError, classify_named, outside_error
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_
from triage_app.core.retry import is_transient
from triage_app.core.transforms import Transform

# Seed 000's loader: its dead_letter table, column by column (document 000).
SEED_MAPPING = SEED_000  # the sample mapping: seed 000's own dead_letter table

FIELDS = MAPPING_FIELDS
REQUIRED = ("id", "payload")
KEEP, DELETE, MARK = "keep", "delete", "mark:"
EVIDENCE_TABLE = "dead_letter_table"  # the evidence's key for the table a row came from
NO_ROW = N_("a table sink takes rows: choose a transform")
CONNECT_SECONDS = 5  # an unreachable server says so within this, not a driver's minutes
BUSY_SECONDS = 30.0  # SQLite: how long a writer waits for another's lock
KEYS_PER_STATEMENT = 500  # ids in one IN list: within every dialect's parameter limit
TRIES = 3  # a sink transaction a deadlock or lost connection undid is tried again
# MySQL and MariaDB: lock wait timeout, deadlock, server gone away, lost connection. A
# deadlock there rolls back the whole transaction, its savepoints with it.
_MYSQL_WHOLE = frozenset({1205, 1213, 2006, 2013})


# -- the connector's options -------------------------------------------------------------


@dataclass(frozen=True)
class _Mapping:
    table: str
    columns: dict[str, str]  # field -> column name as given, for those mapped


def _mapping(options: Mapping[str, Any]) -> _Mapping:
    """The table and its mapped columns from the connector's options, checked for shape
    (which columns exist is the reflected table's to say)."""
    table = options.get("table")
    if not isinstance(table, str) or not table.strip():
        raise TriageError(both(N_("a table connector needs the dead-letter table's name (table)")))
    given = options.get("columns")
    if not isinstance(given, Mapping):
        raise TriageError(
            both(
                N_(
                    "a table connector needs its columns: which holds the id and the payload "
                    "(and optionally {roles})"
                ),
                roles=", ".join(FIELDS[2:]),
            )
        )
    unknown = sorted(str(k) for k in given if k not in FIELDS)
    if unknown:
        raise TriageError(
            both(
                N_("table {table}: unknown column role {unknown}; the roles are {roles}"),
                table=table,
                unknown=", ".join(unknown),
                roles=", ".join(FIELDS),
            )
        )
    columns: dict[str, str] = {}
    for role in FIELDS:
        name = given.get(role)
        if name is None or name == "":
            if role in REQUIRED:
                raise TriageError(
                    both(
                        N_("table {table}: say which column holds the {role}"),
                        table=table,
                        role=role,
                    )
                )
            continue
        if not isinstance(name, str):
            raise TriageError(
                both(
                    N_("table {table}: the {role} column is named by text"), table=table, role=role
                )
            )
        columns[role] = name
    return _Mapping(table.strip(), columns)


@dataclass(frozen=True)
class _SinkOptions:
    table: str | None  # None: the transform's table
    after_load: str  # KEEP, DELETE or MARK + column
    url: str | None  # None: the connector's own database

    @property
    def mark_column(self) -> str | None:
        return self.after_load[len(MARK) :] if self.after_load.startswith(MARK) else None


def _sink_options(options: Mapping[str, Any]) -> _SinkOptions:
    given = options.get("sink") or {}
    if not isinstance(given, Mapping):
        raise TriageError(
            both(N_("a table connector's sink is a table and what to do after loading"))
        )
    unknown = sorted(str(k) for k in given if k not in ("table", "after_load", "url"))
    if unknown:
        raise TriageError(
            both(
                N_("unknown sink option {unknown}: the options are table, after_load, url"),
                unknown=", ".join(unknown),
            )
        )
    table = given.get("table") or None
    after = str(given.get("after_load") or KEEP).strip()
    if after not in (KEEP, DELETE) and not (after.startswith(MARK) and len(after) > len(MARK)):
        raise TriageError(
            both(
                N_(
                    "after_load {after}: say keep, delete, or mark:COLUMN (the dead-letter "
                    "table's column to set once its row is loaded)"
                ),
                after=repr(after[:40]),
            )
        )
    url = given.get("url") or None
    if table is not None and not isinstance(table, str):
        raise TriageError(both(N_("the sink's table is named by text")))
    if url is not None and not isinstance(url, str):
        raise TriageError(both(N_("the sink's url is text")))
    if url is not None and split_password(url)[1]:
        # The options are kept in the store as they are, for every steward to read.
        raise TriageError(
            both(
                N_(
                    "the sink's url {url} carries a password: give it without one "
                    "(the password kept in this desk's keyring for that address is used)"
                ),
                url=redact_url(url),
            )
        )
    return _SinkOptions(table, after, url)


# -- engines ------------------------------------------------------------------------------


_DRIVERS = {
    "postgresql": "postgresql+psycopg",
    "mysql": "mysql+pymysql",
    "mariadb": "mariadb+pymysql",
}


def _parsed(url: str) -> URL:
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise TriageError(
            both(N_("bad dead-letter table URL: {url}"), url=redact_url(url))
        ) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql", "mysql", "mariadb"):
        raise TriageError(
            both(
                N_(
                    "{url}: {backend} is not supported for a dead-letter table; use "
                    "sqlite, postgresql, mysql or mariadb"
                ),
                url=redact_url(url),
                backend=backend,
            )
        )
    if parsed.drivername in _DRIVERS:
        parsed = parsed.set(drivername=_DRIVERS[parsed.drivername])
    return parsed


def _engine(url: str, *, writes: bool) -> Engine:
    """An engine on the pipeline's database. It is theirs: nothing here changes how it is
    set up (no journal mode, no pragmas), and a SQLite file that is not there is refused
    rather than made. ``writes`` False opens a SQLite file read-only, so that an import
    cannot write there whatever it runs."""
    parsed = _parsed(url)
    try:
        if parsed.get_backend_name() == "sqlite":
            return _sqlite_engine(url, parsed, writes)
        args: dict[str, Any] = {}
        if "connect_timeout" not in parsed.query:
            args["connect_timeout"] = CONNECT_SECONDS
        extra: dict[str, Any] = {}
        if parsed.get_backend_name() in ("mysql", "mariadb"):
            # Without gap locks: two stewards' deletes of absent keys then inserts into the
            # same gap deadlock each other under REPEATABLE READ.
            extra["isolation_level"] = "READ COMMITTED"
        return create_engine(parsed, connect_args=args, pool_pre_ping=True, **extra)
    except (NoSuchModuleError, ImportError):
        raise TriageError(both(N_("no driver for {driver}"), driver=parsed.drivername)) from None


def _sqlite_engine(url: str, parsed: URL, writes: bool) -> Engine:
    name = parsed.database or ""
    if name in ("", ":memory:") or name.startswith("file:"):
        raise TriageError(
            both(N_("{url}: name the SQLite file the pipeline writes"), url=redact_url(url))
        )
    path = Path(name)
    if not path.is_file():
        raise TriageError(
            both(N_("no SQLite file at {path} ({url})"), path=str(path), url=redact_url(url))
        )
    uri = f"file:{quote(str(path.resolve()))}?mode={'rw' if writes else 'ro'}"

    def connect() -> sqlite3.Connection:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, check_same_thread=False)
        # pysqlite begins transactions late and never for a SAVEPOINT; the hook below
        # begins each one itself.
        conn.isolation_level = None
        return conn

    engine = create_engine("sqlite://", creator=connect)

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # A writer takes the write lock first: two processes that each read then write
        # would otherwise deadlock, one of them told "locked" without waiting.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine


def _reason(exc: BaseException) -> str:
    """A database's refusal in one line, passwords hidden."""
    orig = getattr(exc, "orig", None) or exc
    return redact_text(" ".join(str(orig).split()))[:300]


def _reflect(engine: Engine, table: str, where: str) -> Table:
    try:
        return Table(table, MetaData(), autoload_with=engine)
    except NoSuchTableError:
        raise TriageError(
            both(N_("no table {table} in {where}"), table=table, where=where)
        ) from None
    except DBAPIError as exc:
        raise TriageError(
            both(N_("cannot reach {where}: {why}"), where=where, why=_reason(exc))
        ) from None
    except SQLAlchemyError as exc:
        raise TriageError(
            both(
                N_("cannot read table {table} in {where}: {why}"),
                table=table,
                where=where,
                why=_reason(exc),
            )
        ) from None


def _column(table: Table, name: str, role: str) -> Column[Any]:
    """The table's column called ``name``; its case as the database keeps it when the name
    was typed in another (PostgreSQL folds names to lower case, MySQL ignores case)."""
    if name in table.c:
        return table.c[name]
    same = [c for c in table.c if c.name.lower() == name.lower()]
    if len(same) == 1:
        return same[0]
    has = ", ".join(c.name for c in table.c)
    raise TriageError(
        both(
            N_("table {table} has no column {name} ({role}); it has: {columns}"),
            table=table.name,
            name=name,
            role=role,
            columns=has,
        )
    )


def _python_type(col: Column[Any]) -> type | None:
    try:
        return col.type.python_type
    except NotImplementedError:
        return None


def _numeric(col: Column[Any]) -> bool:
    kind = _python_type(col)
    return kind is not None and issubclass(kind, int | float | Decimal)


# -- reading rows as letters --------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A column's value as JSON can keep it (the evidence)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return "base64:" + base64.b64encode(raw).decode("ascii")
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def _payload(value: Any) -> bytes:
    """The payload's bytes as the table holds them: text in UTF-8, a BLOB as it is. A JSON
    column (which the driver hands over parsed) is written back compactly."""
    if value is None:
        return b""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return orjson.dumps(value, default=str)


def _time(value: Any) -> dt.datetime | None:
    """When the pipeline failed the row, as naive UTC like every time the desk keeps."""
    when: dt.datetime | None = None
    if isinstance(value, dt.datetime):
        when = value
    elif isinstance(value, dt.date):
        when = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str) and value.strip():
        try:
            when = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        try:
            when = dt.datetime.fromtimestamp(float(value), dt.UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if when is not None and when.tzinfo is not None:
        when = when.astimezone(dt.UTC).replace(tzinfo=None)
    return when


def _attempts(value: Any) -> int:
    try:
        return max(1, int(value))
    except (TypeError, ValueError):
        return 1


def _unmarked(col: Column[Any]) -> Any:
    """The rows a ``mark:COLUMN`` sink has not marked loaded: NULL, or 0 in a number or
    flag column (a column that starts at 0 must not hide every row)."""
    if _numeric(col):
        return func.coalesce(col, 0) == 0
    return col.is_(None)


class DeadLetterTableSource:
    """A pipeline's dead-letter table, read as ``OutsideLetter``s in the order of its key."""

    def __init__(self, url: str, options: Mapping[str, Any]) -> None:
        mapping = _mapping(options)
        sink = _sink_options(options)
        self._table_name = mapping.table
        self.name: str = both(
            N_("table {table} at {url}"), table=mapping.table, url=redact_url(url)
        )
        self._engine = _engine(url, writes=False)
        try:
            self._table = _reflect(self._engine, mapping.table, redact_url(url))
            self._cols = {
                role: _column(self._table, name, both(N_("the {role} column"), role=role))
                for role, name in mapping.columns.items()
            }
            mark = sink.mark_column
            self._where = [_unmarked(_column(self._table, mark, _mark_column()))] if mark else []
        except BaseException:
            self._engine.dispose()
            raise
        self._destination = sink.table
        self._last: Any = None
        self._started = False

    def take(self, most: int) -> Sequence[OutsideLetter]:
        """The next ``most`` rows after the last taken, by key: a row taken once in this
        run is not given again, acknowledged or not (the table keeps them all)."""
        ident = self._cols["id"]
        query = select(self._table).where(*self._where)
        if self._started:
            query = query.where(ident > self._last)
        else:
            query = query.where(ident.is_not(None))
        query = query.order_by(ident).limit(max(1, most))
        try:
            with self._engine.connect() as conn:
                rows = conn.execute(query).mappings().all()
        except DBAPIError as exc:
            raise TriageError(
                both(N_("cannot read {source}: {why}"), source=self.name, why=_reason(exc))
            ) from None
        if rows:
            self._last = rows[-1][ident.name]
            self._started = True
        return [self._letter(r) for r in rows]

    def _letter(self, row: Mapping[Any, Any]) -> OutsideLetter:
        cols = self._cols

        def value(role: str) -> Any:
            col = cols.get(role)
            return row[col.name] if col is not None else None

        error_text = value("error")
        error, type_name = outside_error(None if error_text is None else str(error_text))
        stated = value("class")
        payload_name = cols["payload"].name
        # str(): SQLAlchemy names columns by a str subclass, which orjson refuses as a key.
        evidence = {str(k): _plain(v) for k, v in row.items() if k != payload_name}
        evidence[EVIDENCE_TABLE] = self._table_name
        return OutsideLetter(
            identity=f"{self._table_name}:{_plain(value('id'))}",
            payload=_payload(value("payload")),
            error=error,
            error_class=classify_named(type_name, None if stated is None else str(stated)),
            attempts=_attempts(value("attempts")) if "attempts" in cols else 1,
            failed_at=_time(value("time")),
            destination=self._destination,
            evidence=evidence,
        )

    def acknowledge(self, letters: Sequence[OutsideLetter]) -> None:
        """Nothing to do: an import marks nothing in the table (the rows stay until a
        re-drive's ``after_load`` says otherwise), and the cursor moved on at ``take``."""

    def close(self) -> None:
        self._engine.dispose()


# -- re-driving rows into the pipeline's table --------------------------------------------


def _whole(exc: DBAPIError) -> bool:
    """A failure that undid the whole transaction (a lost connection, a deadlock), not
    one row's refusal: the transaction is tried again, never settled row by row."""
    if exc.connection_invalidated:
        return True
    code = exc.orig.args[0] if exc.orig is not None and exc.orig.args else None
    return code in _MYSQL_WHOLE or is_transient(exc)


class TableSink:
    """``KindSink`` into the pipeline's own table: each parcel's row, as the transform made
    it, upserted by the transform's key; then ``after_load`` on its dead-letter row."""

    def __init__(self, url: str, options: Mapping[str, Any], transform: Transform) -> None:
        opts = _sink_options(options)
        self._transform = transform
        self._after = opts.after_load
        sink_url = complete_url(opts.url, recall_password(opts.url)) if opts.url else url
        self._same = opts.url is None or opts.url == url
        table = opts.table or transform.table
        self.name: str = both(N_("table {table} at {url}"), table=table, url=redact_url(sink_url))
        self._engines: list[Engine] = []
        try:
            self._engine = self._open(sink_url)
            self._table = _reflect(self._engine, table, redact_url(sink_url))
            self._columns = [
                _column(
                    self._table, n, both(N_("which {transform} writes"), transform=transform.ref)
                )
                for n in transform.column_names
            ]
            self._key = self._columns[transform.column_names.index(transform.key)]
            self._source: Table | None = None
            self._source_engine = self._engine
            self._mark: Column[Any] | None = None
            if self._after != KEEP:
                self._prepare_source(url, options)
        except BaseException:
            self.close()
            raise

    def _open(self, url: str) -> Engine:
        engine = _engine(url, writes=True)
        self._engines.append(engine)
        return engine

    def _prepare_source(self, url: str, options: Mapping[str, Any]) -> None:
        mapping = _mapping(options)
        self._source_engine = self._engine if self._same else self._open(url)
        where = redact_url(url)
        self._source = _reflect(self._source_engine, mapping.table, where)
        self._source_id = _column(
            self._source, mapping.columns["id"], both(N_("the {role} column"), role="id")
        )
        self._prefix = f"{mapping.table}:"
        mark = _sink_options(options).mark_column
        self._mark = _column(self._source, mark, _mark_column()) if mark else None

    def deliver(
        self, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> dict[int, str]:
        """Write the parcels' rows in one transaction, each refused row alone (the others
        are written); ``after_load`` on the dead-letter rows of those written. Raises
        TriageError when nothing could be written (unreachable, or undone every try)."""
        out: dict[int, str] = {}
        width = len(self._columns)
        rows: list[Parcel] = []
        for p in parcels:
            if p.row is None:
                out[p.id] = both(NO_ROW)
            elif len(p.row) != width:
                out[p.id] = _wrong_width(self._transform.ref, len(p.row), width)
            else:
                rows.append(p)
        if not rows:
            return out

        def write(conn: Connection) -> dict[int, str]:
            return self._write(conn, rows, origins)

        refused = self._transaction(self._engine, write)
        out.update(refused)
        if self._source is not None and not self._same:
            written = [p for p in rows if p.id not in refused]
            out.update(self._after_elsewhere(written, origins))
        return out

    def _transaction(
        self, engine: Engine, work: Callable[[Connection], dict[int, str]]
    ) -> dict[int, str]:
        for attempt in range(TRIES):
            try:
                with engine.begin() as conn:
                    return work(conn)
            except DBAPIError as exc:
                if attempt + 1 < TRIES and _whole(exc):
                    time.sleep(0.05 * (attempt + 1))
                    continue
                raise TriageError(
                    both(N_("nothing written to {sink}: {why}"), sink=self.name, why=_reason(exc))
                ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(
        self, conn: Connection, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> dict[int, str]:
        """All at once, the common case; when the database refuses, row by row, each in a
        savepoint of its own, so that a refused row costs only itself."""
        try:
            with conn.begin_nested():
                self._apply(conn, parcels, origins)
            return {}
        except DBAPIError as exc:
            if _whole(exc):
                raise
        refused: dict[int, str] = {}
        for p in parcels:
            try:
                with conn.begin_nested():
                    self._apply(conn, [p], origins)
            except DBAPIError as exc:
                if _whole(exc):
                    raise
                refused[p.id] = both(
                    N_("refused by {sink}: {why}"), sink=self.name, why=_reason(exc)
                )
        return refused

    def _apply(
        self, conn: Connection, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> None:
        """Delete by key, then insert: an upsert every dialect has, which needs no unique
        constraint on the key and replaces the whole row, as the seed's INSERT OR REPLACE
        does."""
        at = self._transform.column_names.index(self._transform.key)
        keys = list(dict.fromkeys(p.row[at] for p in parcels if p.row is not None))
        for start in range(0, len(keys), KEYS_PER_STATEMENT):
            part = keys[start : start + KEYS_PER_STATEMENT]
            conn.execute(delete(self._table).where(self._key.in_(part)))
        names = [c.name for c in self._columns]
        conn.execute(
            insert(self._table),
            [dict(zip(names, p.row, strict=True)) for p in parcels if p.row is not None],
        )
        if self._source is not None and self._same:
            self._after_load(conn, parcels, origins)

    def _source_ids(
        self, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> list[Any]:
        """The dead-letter rows the parcels were imported from, by the table's key: from
        each origin's identity (``table:id``), or its evidence when the identity was too
        long to keep as it was."""
        assert self._source is not None
        kind = _python_type(self._source_id)
        ids: list[Any] = []
        for p in parcels:
            o = origins.get(p.id)
            if o is None:
                continue
            if o.identity.startswith(self._prefix):
                raw: Any = o.identity[len(self._prefix) :]
            elif self._source_id.name in o.evidence:
                raw = o.evidence[self._source_id.name]
            else:
                continue
            if kind in (int, Decimal, uuid.UUID):  # the identity keeps the key as text
                try:
                    raw = kind(raw)
                except (TypeError, ValueError, ArithmeticError):
                    continue
            ids.append(raw)
        return ids

    def _after_load(
        self, conn: Connection, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> None:
        assert self._source is not None
        ids = self._source_ids(parcels, origins)
        for start in range(0, len(ids), KEYS_PER_STATEMENT):
            where = self._source_id.in_(ids[start : start + KEYS_PER_STATEMENT])
            if self._mark is None:
                conn.execute(delete(self._source).where(where))
            else:
                conn.execute(
                    update(self._source).where(where).values({self._mark.name: _mark(self._mark)})
                )

    def _after_elsewhere(
        self, written: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> dict[int, str]:
        """``after_load`` in the dead-letter table's own database, right after the sink's
        commit. Its failure leaves the rows open with why: a later re-drive writes them
        again (the same rows, by key) and tries once more."""
        if not written:
            return {}

        def work(conn: Connection) -> dict[int, str]:
            self._after_load(conn, written, origins)
            return {}

        try:
            return self._transaction(self._source_engine, work)
        except TriageError as exc:
            if self._mark is None:
                text = N_("written to {sink}, but could not delete its dead-letter row: {why}")
            else:
                text = N_("written to {sink}, but could not mark its dead-letter row: {why}")
            why = both(text, sink=self.name, why=reason_of(exc))
            return {p.id: why for p in written}

    def close(self) -> None:
        for engine in self._engines:
            engine.dispose()
        self._engines.clear()


def _wrong_width(ref: str, n: int, width: int) -> Any:
    """Why a row the transform made does not fit the sink's table."""
    return said(
        lambda _, ngettext, lang: ngettext(
            "{transform} made {n} value for {width} columns",
            "{transform} made {n} values for {width} columns",
            n,
        ).format(transform=ref, n=format_int(n, lang), width=format_int(width, lang))
    )


def _mark_column() -> Any:
    """The mark column's role, said when the column is missing."""
    return both(N_("after_load's mark column"))


def _mark(col: Column[Any]) -> Any:
    """What a ``mark:COLUMN`` sink writes: the time in a time column, 1 in a number or
    flag, else the time as text (``2026-01-12T10:05:00Z``)."""
    kind = _python_type(col)
    now = utcnow()
    if kind is not None and issubclass(kind, dt.datetime):
        return now
    if _numeric(col):
        return 1
    return iso(now)
