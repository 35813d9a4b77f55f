"""One loader per batch: a run holds its batch's lock from before it reads the stored batch
until it has finished, so that a second run of the same file (and transform, and format)
is refused in one line naming who is loading it, where two runs used to write the same
chunks and the loser died on ``UNIQUE constraint failed: batch_chunks`` (issue 21).

The lock lives where the batch lives, in the dead-letter store's own terms, and it goes
with the process that holds it: a run that is killed leaves nothing to clear, and the
next run resumes the batch as before (invariant 4).

- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection of its
  own, for this schema and batch. The server drops it when the connection ends, which a
  killed process's does. The connection's ``application_name`` says which process holds
  it, and its ``backend_start`` since when, so that another run can say so.
- SQLite: ``flock`` on a file beside the store, ``<store>.loading-<batch>.lock``, which
  holds the pid, host and time as JSON. The kernel drops the lock with the process; the
  holder removes the file when it is done.

Refused, not waited for: the other run may take an hour, and running the same command
again when it ends reports ``already_loaded`` or resumes what it left.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import hashlib
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine

from triage_app.core.clock import iso, utcnow
from triage_app.core.db import WORKSPACE_FOLDER, read_only_message
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.places import printable

try:  # POSIX; elsewhere the SQLite lock is not taken (see hold_batch)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_APP_PREFIX = "triage-desk load "  # application_name of a lock's connection
_READ_TRIES = 25  # a holder writes its name just after it locks: wait that long for it


class BatchBeingLoaded(TriageError):
    """Another process is loading this batch now."""

    def __init__(self, pid: int | None, host: str | None, since: str | None) -> None:
        self.pid, self.host, self.since = pid, host, since
        known = pid is not None and bool(host)
        if known and since:
            said = _(
                "this file is being loaded by another process (pid {pid} on {host}) since "
                "{since}; run the same command again when it ends"
            )
        elif known:
            said = _(
                "this file is being loaded by another process (pid {pid} on {host}); run the "
                "same command again when it ends"
            )
        elif since:
            said = _(
                "this file is being loaded by another process since {since}; run the same "
                "command again when it ends"
            )
        else:
            said = _(
                "this file is being loaded by another process; run the same command again when "
                "it ends"
            )
        # ``since``: the instant as stored (ISO 8601, UTC), exact and the same in every
        # language (the lock's holder is named for whoever compares it with a log).
        super().__init__(said.format(pid=pid, host=host, since=since))


@dataclass(frozen=True)
class _Holder:
    pid: int
    host: str
    since: str

    @staticmethod
    def me() -> _Holder:
        return _Holder(os.getpid(), socket.gethostname(), iso(utcnow()))


@contextlib.contextmanager
def hold_batch(store: Engine, batch_id: str) -> Iterator[None]:
    """Hold ``batch_id``'s loading lock for the block, or raise ``BatchBeingLoaded``."""
    if store.dialect.name == "postgresql":
        with _hold_pg(store, batch_id):
            yield
        return
    database = store.url.database
    if database in (None, "", ":memory:") or fcntl is None:
        yield  # in memory no other process can see the batch; see the module's note
        return
    with _hold_file(Path(f"{database}.loading-{batch_id}.lock")):
        yield


# -- PostgreSQL -------------------------------------------------------------------------------


def _lock_key(schema: str, batch_id: str) -> int:
    """A signed 64-bit key for this store's batch: stores in two schemas of one database
    (the tests' way, and a team's) never wait for each other."""
    digest = hashlib.sha256(f"triage-desk batch {schema}.{batch_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextlib.contextmanager
def _hold_pg(store: Engine, batch_id: str) -> Iterator[None]:
    # A connection of its own, out of the pool (which may be disposed before a lane is
    # forked) and in autocommit: it idles for the whole run, never inside a transaction.
    proxied = store.raw_connection()
    proxied.detach()
    conn: Any = proxied.dbapi_connection
    try:
        conn.rollback()
        conn.autocommit = True
        me = _Holder.me()
        # application_name: at most 63 bytes; the host is cut before the pid ever is.
        name = f"{_APP_PREFIX}{me.pid}@{me.host}"[:63]
        cur = conn.cursor()
        cur.execute("SELECT set_config('application_name', %s, false)", (name,))
        cur.execute("SELECT coalesce(current_schema(), '')")
        key = _lock_key(cur.fetchone()[0], batch_id)
        cur.execute("SELECT pg_try_advisory_lock(%s)", (key,))
        if not cur.fetchone()[0]:
            raise _pg_holder(cur, key)
        yield
    finally:
        conn.close()  # the lock goes with the session


def _pg_holder(cur: Any, key: int) -> BatchBeingLoaded:
    """Who holds ``key``, as far as this user may see other sessions (a role that is not
    theirs sees no names): their process and host, and since when."""
    cur.execute(
        "SELECT a.application_name, a.backend_start FROM pg_locks l"
        " JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
        " AND l.classid::bigint = %s AND l.objid::bigint = %s",
        ((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF),
    )
    row = cur.fetchone()
    started = row[1] if row is not None else None  # timestamptz: aware
    since = iso(started.astimezone(dt.UTC).replace(tzinfo=None)) if started else None
    if row is None or not (row[0] or "").startswith(_APP_PREFIX):
        return BatchBeingLoaded(None, None, since)
    pid, _at, host = row[0][len(_APP_PREFIX) :].partition("@")
    return BatchBeingLoaded(int(pid) if pid.isdigit() else None, host, since)


# -- SQLite -----------------------------------------------------------------------------------


@contextlib.contextmanager
def _hold_file(path: Path) -> Iterator[None]:
    fd = _lock_file(path)
    try:
        me = _Holder.me()
        os.ftruncate(fd, 0)
        os.pwrite(fd, orjson.dumps({"pid": me.pid, "host": me.host, "since": me.since}), 0)
        yield
    finally:
        # Removed while still locked: a run that opened it meanwhile finds, once it has
        # the lock, that the name no longer leads to this file, and opens it again.
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)


def _lock_file(path: Path) -> int:
    """The lock file's descriptor, locked; ``BatchBeingLoaded`` when another holds it."""
    assert fcntl is not None
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if not isinstance(exc, PermissionError) and exc.errno != errno.EROFS:
                raise
            folder = printable(path.parent)
            raise TriageError(read_only_message(WORKSPACE_FOLDER, folder)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _file_holder(fd)
            os.close(fd)
            raise holder from None
        except BaseException:
            os.close(fd)
            raise
        # The holder before us may have removed the name between our open and our lock:
        # then this lock guards a file no one else will open. Try again with the name.
        with contextlib.suppress(FileNotFoundError):
            named, held = os.stat(path), os.fstat(fd)
            if (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino):
                return fd
        os.close(fd)


def _file_holder(fd: int) -> BatchBeingLoaded:
    """Who holds the file: what it says, once its holder has written it (just after its
    lock; a moment's wait at most)."""
    for _try in range(_READ_TRIES):
        try:
            said = orjson.loads(os.pread(fd, 4096, 0))
            return BatchBeingLoaded(int(said["pid"]), str(said["host"]), str(said["since"]))
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            time.sleep(0.02)
    return BatchBeingLoaded(None, None, None)
