"""Noticing that someone else changed the store, cheaply, so that a window can read it again.

Two stewards (or a steward and a batch, or a purge) work on one store at once. A window
that shows the store polls a ``StoreWatch`` a few times a second; the poll must cost next
to nothing and never wait, because it runs between the window's paints.

- SQLite: ``PRAGMA data_version`` on one dedicated connection. Its value changes when any
  *other* connection commits to the file (a few microseconds; no lock is taken, the
  connection never writes).
- PostgreSQL: ``LISTEN`` on one dedicated connection in autocommit. Writers call
  ``notify_change(conn)`` inside their transaction; the server delivers it at commit, and
  not at all on rollback. The payload names the writer's schema, since channels are
  database-wide and several stores may share a database in different schemas, and the
  writer's process.

Both see the watcher's own process's commits too (they come from other connections); a
window that has just read the store again after its own change calls ``seen()``. On
PostgreSQL a notice travels on its own, and may arrive after that ``seen()``: a watch made
with ``own_changes=False`` ignores the notices its own process sent instead.
"""

from __future__ import annotations

import os
import time
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, text

from triage_app.core.db.roles import STORE_SCHEMA_SQL
from triage_app.core.errors import TriageError
from triage_app.core.messages import _

CHANNEL = "triage_changes"

# One short statement inside the writer's transaction; several in one transaction are
# delivered once. The payload: "<schema> <pid>".
_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', current_schema() || ' ' || :pid)")


def notify_change(conn: Connection) -> None:
    """Tell the windows watching this store that it changed, once ``conn``'s transaction
    commits. Only PostgreSQL needs telling; on SQLite it does nothing."""
    if conn.dialect.name == "postgresql":
        conn.execute(_NOTIFY, {"pid": str(os.getpid())})


def _lost(reason: str) -> str:
    return _("lost the connection that watches the store: {reason}").format(reason=reason)


def _cannot_watch(exc: BaseException) -> str:
    return _("cannot watch the store for changes: {reason}").format(reason=exc)


class StoreWatch(Protocol):
    def changed(self, timeout: float = 0.0) -> bool:
        """True when another connection committed since the last call (or ``seen``),
        waiting at most ``timeout`` seconds for one. Raises TriageError when the watching
        connection is lost."""
        ...

    def seen(self) -> None:
        """Forget the changes so far: the caller has just read the store again."""
        ...

    def close(self) -> None: ...


class _SqliteWatch:
    # How often changed(timeout) looks while it waits.
    STEP = 0.02

    def __init__(self, dbapi: Any) -> None:
        self._conn = dbapi
        self._version = self._read()

    def _read(self) -> int:
        try:
            return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        except Exception as exc:  # sqlite3.Error, or a closed connection
            raise TriageError(_lost(str(exc))) from None

    def changed(self, timeout: float = 0.0) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            now = self._read()
            if now != self._version:
                self._version = now
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(self.STEP)

    def seen(self) -> None:
        self._version = self._read()

    def close(self) -> None:
        self._conn.close()


class _PostgresWatch:
    def __init__(self, conn: Any, own_changes: bool) -> None:
        self._conn = conn
        self._ignored_pid = None if own_changes else str(os.getpid())
        try:
            conn.rollback()  # whatever the pool's checkout began; LISTEN needs autocommit
            conn.autocommit = True
            # The store's schema, not current_schema(): a viewer's search_path puts the
            # masked views' schema first (role_setup.use_masked_views).
            schema = conn.execute(f"SELECT {STORE_SCHEMA_SQL}").fetchone()
            self._schema = schema[0] if schema else None
            conn.execute(f"LISTEN {CHANNEL}")
        except Exception as exc:
            conn.close()
            raise TriageError(_cannot_watch(exc)) from None

    def _drain(self, timeout: float) -> bool:
        """True when a notice about this store arrived, waiting at most ``timeout`` for
        the first; the notices already there are all taken (a burst is one change)."""
        deadline = time.monotonic() + timeout
        got = False
        try:
            for _round in range(10_000):  # bounded: a store that never stops changing
                wait = 0.0 if got else max(0.0, deadline - time.monotonic())
                batch = list(self._conn.notifies(timeout=wait, stop_after=1))
                if not batch:
                    break
                got = got or any(self._about_this_store(n.payload) for n in batch)
            return got
        except Exception as exc:  # psycopg.OperationalError: the server went away
            raise TriageError(_lost(" ".join(str(exc).split()))) from None

    def _about_this_store(self, payload: str) -> bool:
        # '' is any writer that does not say its schema (psql, another tool).
        schema, _space, pid = payload.partition(" ")
        return schema in ("", self._schema) and (pid == "" or pid != self._ignored_pid)

    def changed(self, timeout: float = 0.0) -> bool:
        return self._drain(timeout)

    def seen(self) -> None:
        self._drain(0.0)

    def close(self) -> None:
        self._conn.close()


class _NoWatch:
    """An in-memory store: no other connection can see it, so nothing changes it."""

    def changed(self, timeout: float = 0.0) -> bool:
        return False

    def seen(self) -> None:
        return None

    def close(self) -> None:
        return None


def watch_store(engine: Engine, *, own_changes: bool = True) -> StoreWatch:
    """A watch on the database behind ``engine``, on a connection of its own (taken from
    the engine, so tuned and authenticated as its others, then detached from its pool).
    ``own_changes=False``: on PostgreSQL, the notices this process sent are ignored (a
    window reads its own changes itself). Raises TriageError when the database cannot be
    reached."""
    if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
        return _NoWatch()
    try:
        fairy = engine.raw_connection()
    except Exception as exc:
        raise TriageError(_cannot_watch(exc)) from None
    dbapi = fairy.dbapi_connection
    fairy.detach()  # ours alone: closed by close(), never handed to another caller
    if engine.dialect.name == "postgresql":
        return _PostgresWatch(dbapi, own_changes)
    return _SqliteWatch(dbapi)
