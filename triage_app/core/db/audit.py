"""The audit trail: who did what to a dead letter, and when. Every change appends an event;
none is ever rewritten.

Who: the OS user and the host (``alice@laptop``), and on PostgreSQL the database user too
(``alice@laptop (db: steward1)``): on a team store several people may share a laptop
account or a database login, and the pair tells them apart."""

from __future__ import annotations

import datetime as dt
import functools
import getpass
import os
import socket
import threading
import weakref

from sqlalchemy import Connection, Engine, Insert, insert, text

from triage_app.core.clock import utcnow
from triage_app.core.db.models import AuditEvent
from triage_app.core.places import printable
from triage_app.core.vocabulary import AuditAction

# The actor column's width (models.AuditEvent.actor).
ACTOR_CHARS = 200

_actors: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()
_actors_lock = threading.Lock()


def _os_user() -> str:
    """The OS account this process runs as, from its real user id: ``LOGNAME`` and ``USER``
    are whatever the caller set (``LOGNAME=ceo triage-app park 1``), the user id is not.
    Without a password database (Windows) the login name the system gives
    (``getpass.getuser``: the same variables there, then the Windows API); a user id with
    no entry (a container's) is named by its number."""
    try:
        import pwd
    except ImportError:  # Windows: no user ids
        try:
            return printable(getpass.getuser()) or "unknown"
        except (OSError, KeyError, ImportError):
            return "unknown"
    uid = os.getuid()
    try:
        return printable(pwd.getpwuid(uid).pw_name) or f"uid {uid}"
    except KeyError:
        return f"uid {uid}"


def _host() -> str:
    try:
        return printable(socket.gethostname()) or "unknown-host"
    except OSError:
        return "unknown-host"


def current_actor() -> str:
    """Who does it, as far as this process knows without a database: ``user@host``."""
    return f"{_os_user()}@{_host()}"[:ACTOR_CHARS]


def _database_user(conn: Connection) -> str | None:
    """The user this connection logged in as: PostgreSQL's ``session_user`` (not
    ``current_user``, which ``SET ROLE`` changes). None where the database has no users
    (SQLite)."""
    if conn.dialect.name != "postgresql":
        return None
    return str(conn.execute(text("SELECT session_user")).scalar_one())


def actor_for(bind: Engine | Connection) -> str:
    """The actor of events written through ``bind``: ``current_actor()``, plus the database
    user on PostgreSQL (``alice@laptop (db: steward1)``). Computed once per engine; a
    Connection is asked on itself, so the first call inside a transaction needs no second
    connection."""
    conn: Connection | None = None
    if isinstance(bind, Connection):
        conn, engine = bind, bind.engine
    else:
        engine = bind
    with _actors_lock:
        known = _actors.get(engine)
    if known is not None:
        return known
    actor = current_actor()
    if engine.dialect.name == "postgresql":
        if conn is not None:
            db_user = _database_user(conn)
        else:
            with engine.connect() as own:
                db_user = _database_user(own)
        if db_user:
            actor = f"{actor} (db: {db_user})"[:ACTOR_CHARS]
    with _actors_lock:
        _actors[engine] = actor
    return actor


@functools.cache
def event_insert() -> Insert:
    """The insert of audit events, built once: many rows at a time on the hot paths."""
    return insert(AuditEvent)


def record_event(
    s: Connection,
    dl_id: int,
    action: AuditAction,
    detail: str,
    actor: str | None = None,
    now: dt.datetime | None = None,
) -> None:
    """Append one event, in the caller's transaction."""
    s.execute(
        event_insert(),
        {
            "dead_letter_id": dl_id,
            "at": now or utcnow(),
            "actor": actor or actor_for(s),
            "action": action.value,
            "detail": detail,
        },
    )
