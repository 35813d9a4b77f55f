"""Waiting for a lock, for a bounded time, and then saying who holds it.

A steward's discard once waited 24 minutes, silent, behind a re-drive whose process was
stopped inside its transaction (PostgreSQL); on SQLite it gave up after 15 s with "database
is locked" and nothing more. Every wait here is bounded: PostgreSQL's ``lock_timeout`` is set
on every connection (``TRIAGE_LOCK_WAIT_SECONDS``, 15 s), SQLite's busy timeout is the same
15 s (``TRIAGE_BUSY_TIMEOUT_MS``). When a change of dead letters gives up, it says in one line
who holds the lock and since when:

- PostgreSQL: a transaction that changes the store names itself (a transaction-local
  ``application_name``: ``triage-app ani@laptop pid 4242``), and the server knows when each
  transaction began (``pg_stat_activity.xact_start``) and which hold locks on
  ``dead_letters`` (``pg_locks``).
- SQLite locks the whole file and cannot say who: the process holding its write lock for
  a change of dead letters leaves a note beside the store (``<store>.holder``: pid, host,
  actor, since), removed before it commits. A note whose process is gone is not believed.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, text

from triage_app.core.clock import iso, utcnow
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int, format_number
from triage_app.core.messages import _

# How long SQLite itself waits on a lock before our retries take over; tests shorten it.
# Here, not in engines.py, so that the message saying how long a wait lasted needs nothing
# from the module that opens connections (engines imports this one).
BUSY_TIMEOUT_MS = int(os.environ.get("TRIAGE_BUSY_TIMEOUT_MS", "15000"))

LOCK_WAIT_ENV = "TRIAGE_LOCK_WAIT_SECONDS"
DEFAULT_LOCK_WAIT_SECONDS = 15.0
APP_NAME = "triage-app"  # how a store's writers name themselves to PostgreSQL
_LOCK_NOT_AVAILABLE = "55P03"


def lock_wait_seconds() -> float:
    """How long a statement waits for a lock on PostgreSQL before it gives up."""
    try:
        return max(0.05, float(os.environ.get(LOCK_WAIT_ENV, DEFAULT_LOCK_WAIT_SECONDS)))
    except ValueError:
        return DEFAULT_LOCK_WAIT_SECONDS


class LockWaitTimeout(TriageError):
    """A change gave up waiting for a lock another transaction holds: not transient (the
    wait was the retry), one line naming the holder."""


def is_lock_wait(exc: BaseException) -> bool:
    """A statement that gave up waiting for a lock (SQLite busy, PostgreSQL lock_timeout)."""
    orig = getattr(exc, "orig", None)
    if isinstance(orig, BaseException):
        exc = orig
    if isinstance(exc, sqlite3.OperationalError):
        msg = str(exc).lower()
        return "database is locked" in msg or "database table is locked" in msg
    return getattr(exc, "sqlstate", None) == _LOCK_NOT_AVAILABLE


def on_connect_postgres(dbapi_conn: Any) -> None:
    """Every PostgreSQL connection waits a bounded time for any lock (``lock_timeout``)."""
    ms = int(lock_wait_seconds() * 1000)
    cur = dbapi_conn.cursor()
    try:
        cur.execute("SELECT set_config('lock_timeout', %s, false)", (f"{ms}ms",))
    finally:
        cur.close()
    dbapi_conn.commit()


def _who() -> str:
    from triage_app.core.db.audit import current_actor  # audit imports nothing of this

    return f"{current_actor()} pid {os.getpid()}"


def _holder_note(engine: Engine) -> Path | None:
    db = engine.url.database
    if engine.dialect.name != "sqlite" or not db or db == ":memory:" or db.startswith("file:"):
        return None
    return Path(f"{db}.holder")


@contextlib.contextmanager
def holding(engine: Engine, conn: Connection) -> Iterator[None]:
    """Inside a write transaction that holds the lock: say who holds it, for as long as it
    is held. PostgreSQL: one statement (the name is transaction-local). SQLite: the note
    beside the store, removed before the commit (whoever takes the lock next writes its
    own)."""
    if conn.dialect.name == "postgresql":
        name = f"{APP_NAME} {_who()}"[:63]
        conn.execute(text("SELECT set_config('application_name', :n, true)"), {"n": name})
        yield
        return
    note = _holder_note(engine)
    if note is not None:
        since = iso(utcnow())
        body = {"who": _who(), "pid": os.getpid(), "host": socket.gethostname(), "since": since}
        with contextlib.suppress(OSError):  # a read-only folder: no note, no harm
            note.write_text(json.dumps(body), encoding="utf-8")
    try:
        yield
    finally:
        if note is not None:
            with contextlib.suppress(OSError):
                note.unlink()


def shown_seconds(seconds: float) -> str:
    """``15``, ``0.5`` / ``0,5``: a number of seconds as the user's language writes it."""
    if seconds == int(seconds):
        return format_int(int(seconds))
    digits = len(f"{seconds:g}".partition(".")[2]) or 1
    return format_number(seconds, digits)


def explain(engine: Engine, exc: BaseException) -> LockWaitTimeout:
    """The one line for a lock wait that gave up: who holds the lock, since when."""
    if engine.dialect.name == "postgresql":
        waited = lock_wait_seconds()
        holder = _postgres_holder(engine)
    else:
        waited = BUSY_TIMEOUT_MS / 1000
        holder = _sqlite_holder(engine)
    who = holder or _("another transaction (it did not say who)")
    said = _(
        "the dead letters are locked by {holder}; waited {seconds} s: try again when it ends "
        "(a stopped process holds its lock until it is resumed or ended)"
    )
    return LockWaitTimeout(said.format(holder=who, seconds=shown_seconds(waited)))


def _postgres_holder(engine: Engine) -> str | None:
    """The oldest other transaction holding a lock on ``dead_letters``: its name (ours say
    who and which process), database user, client and the time it began."""
    query = text(
        "SELECT a.application_name, a.usename, host(a.client_addr) AS client, a.pid,"
        " a.xact_start FROM pg_stat_activity a"
        " WHERE a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL AND a.pid IN ("
        "  SELECT l.pid FROM pg_locks l WHERE l.granted"
        "  AND l.relation = to_regclass('dead_letters')"
        "  AND l.mode IN ('RowShareLock', 'RowExclusiveLock', 'ShareRowExclusiveLock',"
        "  'ExclusiveLock', 'AccessExclusiveLock'))"
        " ORDER BY a.xact_start LIMIT 1"
    )
    try:
        with engine.connect() as conn:
            row = conn.execute(query).first()
    except Exception:  # explaining must never hide the refusal itself
        return None
    if row is None:
        return None
    name = row.application_name or ""
    who = name[len(APP_NAME) + 1 :] if name.startswith(APP_NAME + " ") else None
    label = who or _("{application} (server pid {pid})").format(
        application=name or _("a client"), pid=row.pid
    )
    # The instant as it is stored (ISO 8601, UTC): exact, and the same in every language.
    since = iso(row.xact_start)
    if row.usename and row.client:
        said = _("{holder}, database user {user} from {client}, in a transaction since {since}")
    elif row.usename:
        said = _("{holder}, database user {user}, in a transaction since {since}")
    elif row.client:
        said = _("{holder} from {client}, in a transaction since {since}")
    else:
        said = _("{holder}, in a transaction since {since}")
    return said.format(holder=label, user=row.usename, client=row.client, since=since)


def _sqlite_holder(engine: Engine) -> str | None:
    note = _holder_note(engine)
    if note is None:
        return None
    try:
        body = json.loads(note.read_text(encoding="utf-8"))
        pid, host, who, since = int(body["pid"]), str(body["host"]), body["who"], body["since"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid == os.getpid() or (host == socket.gethostname() and not _alive(pid)):
        return None  # our own, or left by a process that is gone
    return _("{who} on {host}, writing since {since}").format(who=who, host=host, since=since)


def _alive(pid: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - no signal 0 there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
