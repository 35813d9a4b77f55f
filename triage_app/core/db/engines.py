"""Engines for the two databases: SQLite tuned for many short writers, PostgreSQL through
psycopg. Only these two dialects are supported."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from triage_app.core.db.messages import redact_text, redact_url
from triage_app.core.errors import TriageError

SUPPORTED_DIALECTS = ("sqlite", "postgresql")
# How long SQLite itself waits on a lock before our retries take over; tests shorten it.
BUSY_TIMEOUT_MS = int(os.environ.get("TRIAGE_BUSY_TIMEOUT_MS", "15000"))


def apply_pragmas(dbapi_conn: Any) -> None:
    """How every SQLite connection of a workspace is tuned."""
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode=WAL")
    # NORMAL is durable against a killed process in WAL mode; only power loss may lose
    # the last commits, and never corrupts.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _on_connect(dbapi_conn: Any, _record: Any) -> None:
    apply_pragmas(dbapi_conn)


def make_engine(url: str, role: str) -> Engine:
    """An engine for ``url``; ``role`` (warehouse or dead-letter store) names it in errors."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # a port that is not a number is a ValueError
        raise TriageError(f"bad {role} URL: {redact_url(url)}") from None
    if parsed.get_backend_name() not in SUPPORTED_DIALECTS:
        raise TriageError(
            f"{role}: {parsed.get_backend_name()} is not supported; use sqlite or postgresql"
        )
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    try:
        if parsed.get_backend_name() == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            event.listen(engine, "connect", _on_connect)
        else:
            engine = create_engine(parsed, pool_pre_ping=True)
    except (NoSuchModuleError, ImportError):  # an unknown dialect, or a driver not installed
        raise TriageError(f"{role}: no driver for {parsed.drivername}") from None
    except OSError as exc:
        raise TriageError(f"{role}: cannot create the database folder: {exc.strerror}") from None
    return engine


def check_reachable(engine: Engine, role: str) -> None:
    """One round trip, or a one-line TriageError naming the database (password hidden)."""
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except DBAPIError as exc:
        reason = " ".join(str(exc.orig).split()) if exc.orig is not None else str(exc)
        raise TriageError(
            f"cannot reach the {role} at {redact_url(str(engine.url))}: {redact_text(reason)}"
        ) from None
