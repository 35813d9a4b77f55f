"""The store's schema version: current, created, upgraded, or refused in one line.

The versions are Alembic revisions (``migrations/versions/``). A current store is known in
one query and without importing Alembic: SQLite keeps the revision's number in ``PRAGMA
user_version``, PostgreSQL has ``alembic_version``. Anything else happens under a lock, so
that two commands starting together on a new store both succeed: PostgreSQL takes an
advisory transaction lock, SQLite an immediate (write-locked) transaction.

- A new store is created at the head revision.
- An older SQLite store is copied next to itself (the backup API) and upgraded, said once.
  One from before Alembic has no ``alembic_version`` (its ``user_version`` holds a CRC of
  its column names): it is recognised by its tables and columns first.
- An older PostgreSQL store is refused until someone runs ``triage-app migrate``: a shared
  database is upgraded on purpose, after a backup, not by whichever laptop starts first.
- A store made by a newer version, or one that matches no revision, is refused and left
  as it is.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import logging
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    delete,
    insert,
    inspect,
    select,
)
from sqlalchemy.exc import ProgrammingError

from triage_app.core.crashpoints import crash_point
from triage_app.core.db.engines import write_locked_engine
from triage_app.core.db.messages import redact_url
from triage_app.core.db.models import Base
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.places import STORE_SCHEMA_REVISION

# The newest revision this code knows, and all of them in order. A test holds them equal to
# what Alembic finds in migrations/versions/; the fast path must not import Alembic to ask.
HEAD_REVISION = STORE_SCHEMA_REVISION
REVISIONS = (
    "0001",
    "0002",
    "0003",
    "0004",
    "0005",
    "0006",
    "0007",
    "0008",
    "0009",
    "0010",
    "0011",
    "0012",
    "0013",
)
# user_version holds a revision's number. The releases before Alembic left a CRC of the
# column names there (31 bits), which is always far above any revision number.
_REVISION_NUMBERS = 100_000
# Any of these tables means a store is there; none of them means a new one.
_STORE_TABLES = frozenset(
    {"batches", "batch_chunks", "dead_letters", "audit_events", "stats_cache"}
    | {
        "purges",
        "store_settings",
        "tracebacks",
        "signatures",
        "change_sets",
        "change_set_rows",
        "error_groups",
        "dead_letter_counts",
        "redrive_runs",
        "resolutions",
        "change_set_reverts",
        "kept_sources",
        "source_blobs",
        "held_rows",
        "connectors",
        "dead_letter_origins",
    }
)
# Alembic's own version table, declared here so that a new store is stamped without it.
_VERSIONS = Table(
    "alembic_version",
    MetaData(),
    Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
)

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SchemaChange:
    """What was done to a store: created (``before`` None) or upgraded, and where the copy
    made before the upgrade is (SQLite)."""

    store: str
    before: str | None
    after: str
    backup: Path | None = None

    @property
    def message(self) -> str:
        if self.before is None:
            said = _("created the dead-letter store at {store} at schema {after}")
        elif self.backup:
            said = _(
                "upgraded the dead-letter store at {store} from schema {before} to {after}; "
                "the store as it was is kept in {backup}"
            )
        else:
            said = _("upgraded the dead-letter store at {store} from schema {before} to {after}")
        return said.format(
            store=self.store, before=self.before, after=self.after, backup=self.backup
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "from": self.before,
            "to": self.after,
            "backup": None if self.backup is None else str(self.backup),
        }


def ensure_schema(
    engine: Engine, *, create: bool = True, read_only: bool = False
) -> SchemaChange | None:
    """Make sure the store is at the head revision, or refuse in one line (TriageError).

    ``create``: a store with none of our tables is made (else refused). ``read_only``: the
    store cannot be written here, so it is only ever read. An upgrade is logged once."""
    if _is_current(engine):
        return None
    with _snapshot(engine) as conn:  # without the lock first: refusals take none
        state = _state(conn, store_name(engine))
    if state.revision == HEAD_REVISION and (state.recorded or read_only):
        return None  # a store current but not stamped yet is stamped when it can be written
    if read_only or (state.revision is None and not create):
        _refuse_to_write(engine, state, read_only)
    sqlite = engine.dialect.name == "sqlite"
    with _locked(engine) as conn:
        state = _state(conn, store_name(engine))
        change = _bring_to_head(conn, state, create=create, upgrade=sqlite)
    if change is not None and change.before is not None:
        _log.warning(change.message)
    return change


def migrate_store(engine: Engine) -> SchemaChange | None:
    """``triage-app migrate``: bring the store to the head revision (creating a store with
    none of our tables), under the same lock; None when it was current."""
    with _locked(engine) as conn:
        state = _state(conn, store_name(engine))
        change = _bring_to_head(conn, state, create=True, upgrade=True)
    if change is not None and change.before is not None:
        _log.info(change.message)
    return change


def apply_every_migration(engine: Engine) -> str:
    """Run every revision, through Alembic, on an empty store (not the way a new store is
    made, which creates the head's tables directly); the revision it reached. The
    self-test's proof that a package carries the revision files and that they apply."""
    from triage_app.core.db.migrations import runner

    with engine.begin() as conn:
        runner.upgrade(conn, "head")
        return str(conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar())


def store_name(engine: Engine) -> str:
    """The store as a user names it: a SQLite file's path, else the URL without password."""
    if engine.dialect.name == "sqlite" and engine.url.database:
        return engine.url.database
    return redact_url(engine.url.render_as_string(hide_password=False))


def store_revision(engine: Engine) -> str | None:
    """The schema revision the store records (None: no store there yet); it only reads."""
    with engine.connect() as conn:
        return _state(conn, store_name(engine)).revision


def _newer(where: str, rev: str) -> TriageError:
    said = _(
        "the dead-letter store at {where} was made by a newer Triage Desk: schema {revision}; "
        "this version knows up to {head}"
    )
    return TriageError(said.format(where=where, revision=rev, head=HEAD_REVISION))


def _check_known(rev: str, where: str) -> str:
    if rev not in REVISIONS:
        raise _newer(where, rev)
    return rev


def _is_current(engine: Engine) -> bool:
    """The fast path: one query, no Alembic. A store made by a newer version is refused
    here already, untouched."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            number = int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())
            if int(HEAD_REVISION) < number < _REVISION_NUMBERS:
                raise _newer(store_name(engine), f"{number:04d}")
            return number == int(HEAD_REVISION)
        try:
            rows = conn.execute(select(_VERSIONS.c.version_num)).scalars().all()
        except ProgrammingError as exc:
            if getattr(exc.orig, "sqlstate", None) == "42P01":  # undefined_table
                return False
            raise
        if len(rows) == 1:
            _check_known(rows[0], store_name(engine))
        return list(rows) == [HEAD_REVISION]


@dataclass(frozen=True)
class _State:
    revision: str | None  # None: none of our tables, a new store
    recorded: bool  # the revision is written down (alembic_version, and user_version)
    recognised: bool = False  # from before Alembic: known only by its tables and columns


def _state(conn: Connection, where: str) -> _State:
    sqlite = conn.dialect.name == "sqlite"
    number = int(conn.exec_driver_sql("PRAGMA user_version").scalar_one()) if sqlite else None
    tables = set(inspect(conn).get_table_names())
    if _VERSIONS.name in tables:
        rows = conn.execute(select(_VERSIONS.c.version_num)).scalars().all()
        if len(rows) > 1:
            raise _newer(where, " + ".join(rows))  # branches: not ours
        if rows:
            rev = _check_known(rows[0], where)
            return _State(rev, recorded=number in (None, int(rev)))
    if number is not None and 0 < number < _REVISION_NUMBERS:
        return _State(_check_known(f"{number:04d}", where), recorded=False)
    if not tables & _STORE_TABLES:
        return _State(None, recorded=False)
    from triage_app.core.db.migrations import runner

    return _State(runner.recognise(conn, where), recorded=False, recognised=True)


def _refuse_to_write(engine: Engine, state: _State, read_only: bool) -> None:
    where = store_name(engine)
    if state.revision is None:
        raise TriageError(_no_store(where))
    if read_only:
        said = _(
            "the dead-letter store at {where} is at schema {revision} and this version needs "
            "{head}, but it is read-only here: open it once with write access"
        )
        raise TriageError(said.format(where=where, revision=state.revision, head=HEAD_REVISION))


def _no_store(where: str) -> str:
    return _("no dead-letter store at {where}: it holds no Triage Desk tables").format(where=where)


@contextlib.contextmanager
def _snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection whose reads all see one committed state of the store. Reading the
    version, the tables and their columns statement by statement while another process
    committed its upgrade once saw half of each, a store that matched no schema."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN")  # deferred: a read transaction, one snapshot
        else:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        yield conn


@contextlib.contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """One transaction that no other process creating or upgrading the store runs beside."""
    if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
        with engine.begin() as conn:  # in memory: no other process can see it
            yield conn
        return
    if engine.dialect.name == "sqlite":
        # Foreign keys off: an upgrade may copy a table that others refer to (SQLite's way
        # of changing a column); _bring_to_head checks them all before the commit.
        locked = write_locked_engine(engine, foreign_keys=False)
        try:
            with locked.begin() as conn:  # BEGIN IMMEDIATE: the write lock, taken now
                yield conn
        finally:
            locked.dispose()
        return
    with engine.begin() as conn:
        # Another process's upgrade may take minutes: wait for it longer than for a row
        # (lock_waits.py), but not for ever.
        conn.exec_driver_sql("SET LOCAL lock_timeout = '10min'")
        # Per schema: stores in two schemas of one database do not wait for each other.
        conn.exec_driver_sql(
            "SELECT pg_advisory_xact_lock("
            "hashtext('triage-desk store ' || coalesce(current_schema(), '')))"
        )
        yield conn


def _bring_to_head(
    conn: Connection, state: _State, *, create: bool, upgrade: bool
) -> SchemaChange | None:
    where = _name_of(conn)
    if state.revision is None:
        if not create:
            raise TriageError(_no_store(where))
        Base.metadata.create_all(conn)
        _record(conn, HEAD_REVISION)
        return SchemaChange(where, None, HEAD_REVISION)
    current = state.revision == HEAD_REVISION
    if not current and not upgrade:
        said = _(
            "the dead-letter store at {where} is at schema {revision} and this version needs "
            "{head}: back it up, then run `triage-app migrate`"
        )
        raise TriageError(said.format(where=where, revision=state.revision, head=HEAD_REVISION))
    if state.recognised:
        from triage_app.core.db.migrations import runner

        runner.add_missing_indexes(conn, state.revision)
    if current:
        if not state.recorded:
            _record(conn, HEAD_REVISION)
        return None
    backup = _backup(conn, state.revision) if conn.dialect.name == "sqlite" else None
    _record(conn, state.revision)
    from triage_app.core.db.migrations import runner

    # One transaction from the first revision to the last: a process killed between two
    # (the crash point) leaves the store at the revision it started from.
    # A team store's masked views read the tables a revision may change: dropped for the
    # upgrade and made again over the new tables, in the same transaction.
    from triage_app.core.db.role_setup import drop_masked_views, remake_masked_views

    had_views = drop_masked_views(conn)
    runner.upgrade(conn, HEAD_REVISION, after_each=lambda: crash_point("migrate-mid-upgrade"))
    if had_views:
        remake_masked_views(conn)
    _check_references(conn, where)
    _record(conn, HEAD_REVISION)
    return SchemaChange(where, state.revision, HEAD_REVISION, backup)


def _check_references(conn: Connection, where: str) -> None:
    """On SQLite, after an upgrade made with foreign keys off: every reference still points
    at a row, or the upgrade rolls back."""
    if conn.dialect.name != "sqlite":
        return
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        tables = sorted({str(r[0]) for r in broken})
        n = len(broken)
        said = ngettext(
            "the upgrade of the dead-letter store at {where} would leave {n} broken reference "
            "(in {tables}); it was rolled back",
            "the upgrade of the dead-letter store at {where} would leave {n} broken references "
            "(in {tables}); it was rolled back",
            n,
        )
        raise TriageError(said.format(where=where, n=format_int(n), tables=", ".join(tables)))


def _name_of(conn: Connection) -> str:
    return store_name(conn.engine)


def _record(conn: Connection, rev: str) -> None:
    """Write the revision down: ``alembic_version``, and on SQLite ``user_version`` too (in
    the same transaction: SQLite keeps it in the file's header, under the same lock)."""
    _VERSIONS.create(conn, checkfirst=True)
    conn.execute(delete(_VERSIONS))
    conn.execute(insert(_VERSIONS).values(version_num=rev))
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"PRAGMA user_version = {int(rev)}")


# Pages the backup copies a step (1 MiB of 4 KiB pages): a step holds the source's read lock
# briefly, and a kill between steps is a point a test can reach.
_BACKUP_PAGES = 256


def _backup(conn: Connection, rev: str) -> Path:
    """A copy of the store as it is, next to it, named with its revision and the time. Taken
    while ``conn`` holds the write lock and before it writes, so the copy is exactly the
    store the upgrade starts from; read through a second connection, because SQLite's
    backup cannot read through one that is in a write transaction (WAL lets it read).

    The copy is written under a ``.partial`` name and renamed once whole and on disk: a
    process killed mid copy must not leave a file that looks like the store as it was but
    holds half of it. A partial copy a killed upgrade left is removed here (the write lock
    says no other upgrade is copying now)."""
    path = Path(_name_of(conn))
    at = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.stem}.schema-{rev}.{at}{path.suffix}")
    for stale in path.parent.glob(f"{glob.escape(path.stem)}.schema-*.partial*"):
        stale.unlink(missing_ok=True)
    partial = target.with_name(f"{path.stem}.schema-{rev}.{at}.partial{path.suffix}")
    source = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    copy = sqlite3.connect(partial)
    try:
        source.backup(
            copy, pages=_BACKUP_PAGES, progress=lambda *_: crash_point("migrate-mid-backup")
        )
    finally:
        copy.close()
        source.close()
    with open(partial, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(partial, target)
    return target
