"""A workspace: where the warehouse and the dead-letter store live.

By default a folder holding ``warehouse.db`` and ``dead_letter.db`` (SQLite in WAL mode
with a busy timeout); any SQLAlchemy URL replaces either one.
"""

from __future__ import annotations

import getpass
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from triage_app.core.errors import TriageError
from triage_app.core.sqlite_pragmas import BUSY_TIMEOUT_MS, apply_pragmas
from triage_app.core.store import Base

SUPPORTED_DIALECTS = ("sqlite", "postgresql")


def default_workspace_dir() -> Path:
    import platformdirs  # 20 ms at every start, for users who name no workspace

    return Path(platformdirs.user_data_dir("triage-desk", appauthor=False)) / "workspace"


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
    folder_s = workspace or env.get("TRIAGE_WORKSPACE")
    folder = Path(folder_s).expanduser() if folder_s else default_workspace_dir()
    wh = warehouse_url or env.get("TRIAGE_WAREHOUSE_URL")
    dl = dead_letter_url or env.get("TRIAGE_DEAD_LETTER_URL")
    uses_folder = wh is None or dl is None
    return WorkspaceConfig(
        folder=folder.resolve() if uses_folder else None,
        warehouse_url=wh or _sqlite_url(folder / "warehouse.db"),
        dead_letter_url=dl or _sqlite_url(folder / "dead_letter.db"),
    )


def _sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.expanduser().resolve()}"


_CREDENTIALS = re.compile(r"(\w+://)([^:/@\s]+):([^@\s]*)@")


def redact_url(url: str) -> str:
    """A URL fit for logs and settings: the password replaced by ***."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return redact_text(url)


def redact_text(text: str) -> str:
    """Hide ``user:password@`` in any text (error messages quote URLs)."""
    return _CREDENTIALS.sub(r"\1\2:***@", text)


def refusal_message(exc: BaseException) -> str | None:
    """The one line a user sees for a failure they can act on (bad input, a database that
    is unreachable or refuses), with any password hidden; None for anything else, a bug."""
    if isinstance(exc, TriageError):
        return redact_text(str(exc))
    if isinstance(exc, SQLAlchemyError):
        reason = getattr(exc, "orig", None) or exc
        return "database error: " + redact_text(" ".join(str(reason).split())[:300])
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    return None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    apply_pragmas(dbapi_conn)


def make_engine(url: str, role: str) -> Engine:
    """An engine for ``url``; ``role`` (warehouse or dead-letter store) names it in errors."""
    try:
        parsed = make_url(url)
    except ArgumentError:
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
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(parsed, pool_pre_ping=True)
    except NoSuchModuleError:
        raise TriageError(f"{role}: no driver for {parsed.drivername}") from None
    except OSError as exc:
        raise TriageError(f"{role}: cannot create the database folder: {exc.strerror}") from None
    return engine


class Workspace:
    """Two engines, opened and checked; close it when done."""

    def __init__(self, config: WorkspaceConfig) -> None:
        self.config = config
        self.warehouse = make_engine(config.warehouse_url, "warehouse")
        self.store = make_engine(config.dead_letter_url, "dead-letter store")
        try:
            for engine, role in ((self.warehouse, "warehouse"), (self.store, "dead-letter store")):
                check_reachable(engine, role)
            _ensure_schema(self.store)
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

    def warehouse_tables(self) -> list[str]:
        return inspect(self.warehouse).get_table_names()


def _schema_stamp() -> int:
    """A number that changes whenever a table, column or index of the store does."""
    import zlib

    import triage_app.core.stats_cache  # noqa: F401  (its table is in Base too)

    parts = []
    for table in Base.metadata.sorted_tables:
        parts.append(table.name + ":" + ",".join(c.name for c in table.columns))
        parts += sorted(str(i.name) for i in table.indexes)
    return zlib.crc32("|".join(parts).encode()) & 0x7FFFFFFF


def _ensure_schema(engine: Engine) -> None:
    """Create what the store lacks. A SQLite store remembers (PRAGMA user_version) that it
    is current, so that every later start skips the checks: some 50 ms of each command."""
    stamp = _schema_stamp()
    sqlite = engine.dialect.name == "sqlite"
    if sqlite:
        with engine.connect() as conn:
            if conn.exec_driver_sql("PRAGMA user_version").scalar() == stamp:
                return
    Base.metadata.create_all(engine)
    _add_missing_indexes(engine)
    if sqlite:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"PRAGMA user_version = {stamp}")


def _add_missing_indexes(engine: Engine) -> None:
    """Stores made by an earlier version get the indexes added since (create_all only
    creates what is missing whole: tables, not indexes on tables that exist)."""
    for table in Base.metadata.sorted_tables:
        for index in table.indexes:
            index.create(engine, checkfirst=True)


def check_reachable(engine: Engine, role: str) -> None:
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except DBAPIError as exc:
        reason = " ".join(str(exc.orig).split()) if exc.orig is not None else str(exc)
        raise TriageError(
            f"cannot reach the {role} at {redact_url(str(engine.url))}: {redact_text(reason)}"
        ) from None


def open_workspace(
    workspace: str | os.PathLike[str] | None = None,
    *,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
) -> Workspace:
    return Workspace(resolve_config(workspace, warehouse_url, dead_letter_url))


def current_actor() -> str:
    """Who did it, for the audit trail: the OS user."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"
