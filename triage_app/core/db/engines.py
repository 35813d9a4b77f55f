"""Engines for the two databases: SQLite tuned for many short writers, PostgreSQL through
psycopg. Only these two dialects are supported."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, NullPool, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from triage_app.core.db.lock_waits import BUSY_TIMEOUT_MS, on_connect_postgres
from triage_app.core.db.messages import (
    FOLDER,
    READ_ONLY_ERROR,
    ReadOnlyWorkspace,
    as_url,
    database_name,
    read_only_message,
    redact_text,
    redact_url,
)
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.places import printable

SUPPORTED_DIALECTS = ("sqlite", "postgresql")


def apply_pragmas(dbapi_conn: Any) -> None:
    """How every SQLite connection of a workspace is tuned."""
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    _into_wal(cur)
    # NORMAL is durable against a killed process in WAL mode; only power loss may lose
    # the last commits, and never corrupts.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _into_wal(cur: Any) -> None:
    """WAL mode, which a new file gets from its first connection. Two processes that start
    together on a new file both try: SQLite answers one of them "locked" at once, without
    waiting (the busy timeout does not apply), so that one tries again until it is in."""
    if cur.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _on_connect(dbapi_conn: Any, _record: Any) -> None:
    apply_pragmas(dbapi_conn)


def _on_connect_postgres(dbapi_conn: Any, _record: Any) -> None:
    on_connect_postgres(dbapi_conn)  # every lock wait bounded (lock_waits.py)
    _without_jit(dbapi_conn)


def _without_jit(dbapi_conn: Any) -> None:
    """No JIT compilation on the store's connections. Its queries are index walks that
    stop after a page or a row, which the planner costs as if they read all they might:
    Trends' walk per error group cost above ``jit_above_cost`` and spent 100 ms of its
    0.35 s at ten million rows compiling (PostgreSQL 11 and later have JIT)."""
    if getattr(getattr(dbapi_conn, "info", None), "server_version", 0) < 110000:
        return
    cur = dbapi_conn.cursor()
    try:
        cur.execute("SET jit = off")
    finally:
        cur.close()
    dbapi_conn.commit()


def make_engine(url: str, role: str, *, read_only: bool = False) -> Engine:
    """An engine for ``url``; ``role`` (warehouse or dead-letter store) names it in errors.
    ``read_only``: a SQLite file this user cannot write, opened so that it can be read."""
    try:
        parsed = make_url(as_url(url))  # a libpq keyword string connects as its URL would
    except (ArgumentError, ValueError):  # a port that is not a number is a ValueError
        raise TriageError(
            _("bad {database} URL: {url}").format(database=database_name(role), url=redact_url(url))
        ) from None
    if parsed.get_backend_name() not in SUPPORTED_DIALECTS:
        raise TriageError(
            _("{database}: {backend} is not supported; use sqlite or postgresql").format(
                database=database_name(role), backend=parsed.get_backend_name()
            )
        )
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    try:
        if parsed.get_backend_name() == "sqlite" and read_only and parsed.database:
            path = Path(parsed.database)
            engine = create_engine(parsed, creator=lambda: _connect_read_only(path))
            event.listen(engine, "handle_error", _refuse_writes(path, role))
        elif parsed.get_backend_name() == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            event.listen(engine, "connect", _on_connect)
        else:
            engine = create_engine(parsed, pool_pre_ping=True)
            event.listen(engine, "connect", _on_connect_postgres)
    except (NoSuchModuleError, ImportError):  # an unknown dialect, or a driver not installed
        raise TriageError(
            _("{database}: no driver for {driver}").format(
                database=database_name(role), driver=parsed.drivername
            )
        ) from None
    except OSError as exc:
        raise TriageError(
            _("{database}: cannot create the database folder: {reason}").format(
                database=database_name(role), reason=exc.strerror
            )
        ) from None
    return engine


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes. A WAL store is read through its shared-memory file,
    which SQLite creates when missing; in a folder this user cannot write, it cannot, and
    then, if no write-ahead log is there either (no writer has the store open, and none
    can appear in a folder that is read-only), the file is read as immutable."""
    uri = f"file:{quote(str(path))}?mode=ro"
    timeout = BUSY_TIMEOUT_MS / 1000
    conn = sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        conn.close()
        if Path(f"{path}-wal").exists():
            raise
        conn = sqlite3.connect(
            uri + "&immutable=1", uri=True, timeout=timeout, check_same_thread=False
        )
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA query_only=ON")
    return conn


def _refuse_writes(path: Path, role: str) -> Callable[[Any], None]:
    """A read-only engine's error hook: a write (any command that changes the workspace)
    fails as "attempt to write a readonly database", which said nothing of why. Replaced
    by one line naming the folder, when it is the folder this user cannot write, or the
    file."""

    def _hook(context: Any) -> None:
        failed = context.sqlalchemy_exception
        if READ_ONLY_ERROR in str(context.original_exception) and failed is not None:
            raise ReadOnlyWorkspace(_read_only(path, role), failed)

    return _hook


def _read_only(path: Path, role: str) -> str:
    """The refusal for a write to ``path``: its folder named when that is what this user
    cannot write (SQLite's journal goes beside the file), else the file."""
    if not os.access(path.parent, os.W_OK):
        return read_only_message(FOLDER, printable(path.parent))
    return read_only_message(role, printable(path))


def write_locked_engine(engine: Engine, *, foreign_keys: bool = True) -> Engine:
    """An engine on the same SQLite file whose every transaction begins with the write lock
    (``BEGIN IMMEDIATE``) and holds DDL too: pysqlite on its own begins late and lets DDL
    commit by itself, so a check-then-create could interleave with another process's.
    ``foreign_keys`` False for a schema change that copies a table others refer to (SQLite
    can only switch them outside a transaction; the caller checks them before committing).
    Dispose of it after use."""
    locked = create_engine(
        engine.url,
        poolclass=NullPool,
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
    )

    @event.listens_for(locked, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        apply_pragmas(dbapi_conn)
        if not foreign_keys:
            dbapi_conn.execute("PRAGMA foreign_keys=OFF")
        dbapi_conn.isolation_level = None  # pysqlite begins nothing; the hook below does

    @event.listens_for(locked, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return locked


def check_reachable(engine: Engine, role: str) -> None:
    """One round trip, or a one-line TriageError naming the database (password hidden)."""
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except DBAPIError as exc:
        reason = " ".join(str(exc.orig).split()) if exc.orig is not None else str(exc)
        if READ_ONLY_ERROR in reason and engine.dialect.name == "sqlite" and engine.url.database:
            raise TriageError(_read_only(Path(engine.url.database), role)) from None
        raise TriageError(
            _("cannot reach the {database} at {url}: {reason}").format(
                database=database_name(role),
                url=redact_url(str(engine.url)),
                reason=redact_text(reason),
            )
        ) from None
