"""A workspace: where the warehouse and the dead-letter store live.

By default a folder holding ``warehouse.db`` and ``dead_letter.db`` (SQLite in WAL mode
with a busy timeout); any SQLAlchemy URL replaces either one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from triage_app.core.db.engines import check_reachable, make_engine
from triage_app.core.db.messages import (
    FOLDER,
    STORE,
    WAREHOUSE,
    as_url,
    is_refused,
    read_only_message,
    redact_url,
)
from triage_app.core.db.role_setup import check_access, refused_reading, use_masked_views
from triage_app.core.db.schema import SchemaChange, ensure_schema, migrate_store, store_name
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.places import (
    DEAD_LETTER_URL_ENV,
    STORE_FILE,
    WAREHOUSE_FILE,
    WAREHOUSE_URL_ENV,
    printable,
    workspace_folder,
)


@dataclass(frozen=True)
class WorkspaceConfig:
    folder: Path | None
    warehouse_url: str
    dead_letter_url: str

    @property
    def description(self) -> str:
        """For titles and logs: the folder, or the URLs with any password hidden."""
        parts = []
        if self.folder is not None:
            parts.append(str(self.folder))
        for url in (self.warehouse_url, self.dead_letter_url):
            if not url.startswith("sqlite"):
                parts.append(redact_url(url))
        return " · ".join(parts)


def resolve_config(
    workspace: str | os.PathLike[str] | None = None,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> WorkspaceConfig:
    """Arguments win over ``TRIAGE_*`` environment variables, which win over defaults."""
    env = os.environ if env is None else env
    folder = workspace_folder(workspace, env)
    # A libpq keyword string becomes its URL here, so that titles, settings and the
    # keyring only ever see one form, whose password they know how to hide.
    wh = as_url(warehouse_url or env.get(WAREHOUSE_URL_ENV) or "") or None
    dl = as_url(dead_letter_url or env.get(DEAD_LETTER_URL_ENV) or "") or None
    uses_folder = wh is None or dl is None
    return WorkspaceConfig(
        folder=folder.resolve() if uses_folder else None,
        warehouse_url=wh or _sqlite_url(folder / WAREHOUSE_FILE),
        dead_letter_url=dl or _sqlite_url(folder / STORE_FILE),
    )


def _sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.expanduser().resolve()}"


def _sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names; None for PostgreSQL or an in-memory database."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return None  # make_engine says what is wrong with it
    db = parsed.database
    if parsed.get_backend_name() != "sqlite" or not db or db == ":memory:":
        return None
    return Path(db)


class NoWorkspace(TriageError):
    """A command that only reads was pointed at a folder holding no workspace; ``folder``
    lets the caller say how to make one there."""

    def __init__(self, folder: Path, message: str) -> None:
        super().__init__(message)
        self.folder = folder


def _store_must_exist(config: WorkspaceConfig) -> None:
    store = _sqlite_file(config.dead_letter_url)
    if store is not None and not store.is_file():
        if config.folder is not None and store.parent == config.folder:
            said = _("no workspace at {folder}").format(folder=config.folder)
            raise NoWorkspace(config.folder, said)
        raise TriageError(_("no dead-letter store at {store}").format(store=store))


def missing_workspace(config: WorkspaceConfig) -> str | None:
    """Why the folder ``config`` names holds no workspace to open, or None when its store is
    there (or is not a file: a server's). It only looks: opening with ``create=True`` would
    make an empty workspace instead, which on a share that is not mounted looks like a queue
    whose rows are gone. The window asks before it lets that happen."""
    store = _sqlite_file(config.dead_letter_url)
    if store is None or store.is_file():
        return None
    folder = config.folder if config.folder is not None else store.parent
    if not folder.is_dir():
        return _("the folder {folder} is not there").format(folder=printable(folder))
    if config.folder is not None and store.parent == config.folder:
        return _("no workspace in {folder} (it has no {file})").format(
            folder=printable(folder), file=STORE_FILE
        )
    return _("no dead-letter store at {store}").format(store=printable(store))


def _must_exist(config: WorkspaceConfig) -> None:
    """For the commands that only read: a workspace that is not there is named, never made
    (a mistyped ``--workspace`` must not leave an empty workspace behind)."""
    _store_must_exist(config)
    warehouse = _sqlite_file(config.warehouse_url)
    if warehouse is not None and not warehouse.is_file():
        raise TriageError(_("no warehouse at {warehouse}").format(warehouse=warehouse))


def _cannot_write(path: Path | None) -> bool:
    """A SQLite file this user may read but not write, or in a folder it cannot write (where
    SQLite could not make its journal)."""
    return path is not None and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def _exists(path: Path | None) -> bool:
    return path is not None and path.exists()


def _can_create(path: Path | None) -> None:
    """A SQLite file that is not there yet, in a folder this user cannot write: refused in
    one line naming the folder (SQLite would say "unable to open database file")."""
    if path is None or path.exists() or not path.parent.is_dir():
        return
    if not os.access(path.parent, os.W_OK):
        raise TriageError(read_only_message(FOLDER, printable(path.parent)))


class Workspace:
    """Two engines, opened and checked; close it when done.

    ``create=False`` is for the commands that only read: nothing is created (a missing
    workspace is refused in one line) and files this user cannot write are opened
    read-only. ``schema_change`` says whether opening created or upgraded the store."""

    def __init__(
        self, config: WorkspaceConfig, *, create: bool = True, warehouse_optional: bool = False
    ) -> None:
        self.config = config
        # Without create, a file that is missing or not writable gets a read-only engine:
        # it makes no folder and no file, ever. With create, so does a file that is there
        # and that this user cannot write: the workspace is read, and a write is refused in
        # one line naming the read-only folder or file (engines._refuse_writes), where it
        # used to fail opening with "cannot reach the warehouse" (issue 21).
        wh_file = _sqlite_file(config.warehouse_url)
        store_file = _sqlite_file(config.dead_letter_url)
        if create:
            _can_create(wh_file)
            _can_create(store_file)
        wh_ro = _cannot_write(wh_file) and (not create or _exists(wh_file))
        store_ro = _cannot_write(store_file) and (not create or _exists(store_file))
        self.store_read_only = store_ro  # this user can read the store's file, not write it
        self.warehouse: Engine = make_engine(config.warehouse_url, WAREHOUSE, read_only=wh_ro)
        try:
            self.store: Engine = make_engine(config.dead_letter_url, STORE, read_only=store_ro)
            # A viewer of a team store reads the masked views (core/db/role_setup.py).
            use_masked_views(self.store)
        except Exception:
            self.warehouse.dispose()
            raise
        try:
            both: tuple[tuple[Engine, str], ...] = (
                (self.warehouse, WAREHOUSE),
                (self.store, STORE),
            )
            if warehouse_optional:
                # A retry pass opens the workspace whatever the warehouse's state: a
                # warehouse that is down is what moves its rows down the ladder.
                both = both[1:]
            # A server first (what is wrong with its URL is the news), then the files.
            for engine, role in both:
                if engine.dialect.name != "sqlite":
                    check_reachable(engine, role)
            if not create:
                _must_exist(config)
            for engine, role in both:
                if engine.dialect.name == "sqlite":
                    check_reachable(engine, role)
            check_access(self.store)  # a login with no role on a team store: said so
            try:
                self.schema_change: SchemaChange | None = ensure_schema(
                    self.store, create=create, read_only=store_ro
                )
            except SQLAlchemyError as exc:
                if not is_refused(exc):
                    raise
                raise refused_reading(self.store) from None
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        self.warehouse.dispose()
        self.store.dispose()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_workspace(
    workspace: str | os.PathLike[str] | None = None,
    *,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
    create: bool = True,
    warehouse_optional: bool = False,
) -> Workspace:
    """The workspace named; ``create=False`` for commands that only read (see Workspace);
    ``warehouse_optional``: opened even while the warehouse cannot be reached."""
    return Workspace(
        resolve_config(workspace, warehouse_url, dead_letter_url),
        create=create,
        warehouse_optional=warehouse_optional,
    )


def open_config(config: WorkspaceConfig, *, create: bool = True) -> Workspace:
    """The workspace a resolved config names (the window and its workers keep configs)."""
    return Workspace(config, create=create)


def migrate_workspace(
    workspace: str | os.PathLike[str] | None = None,
    *,
    dead_letter_url: str | None = None,
) -> tuple[str, SchemaChange | None]:
    """``triage-app migrate``: the store's name, and what bringing it to the head revision
    did (None: it was current). Only the store is opened; a SQLite file that is not there
    is refused, an empty PostgreSQL database gets a new store."""
    config = resolve_config(workspace, None, dead_letter_url)
    _store_must_exist(config)
    engine = make_engine(config.dead_letter_url, STORE)
    try:
        check_reachable(engine, STORE)
        return store_name(engine), migrate_store(engine)
    finally:
        engine.dispose()
