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

from triage_app.core.db.engines import check_reachable, make_engine
from triage_app.core.db.messages import redact_url
from triage_app.core.db.schema import ensure_schema
from triage_app.core.places import (
    DEAD_LETTER_URL_ENV,
    STORE_FILE,
    WAREHOUSE_FILE,
    WAREHOUSE_URL_ENV,
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
    wh = warehouse_url or env.get(WAREHOUSE_URL_ENV)
    dl = dead_letter_url or env.get(DEAD_LETTER_URL_ENV)
    uses_folder = wh is None or dl is None
    return WorkspaceConfig(
        folder=folder.resolve() if uses_folder else None,
        warehouse_url=wh or _sqlite_url(folder / WAREHOUSE_FILE),
        dead_letter_url=dl or _sqlite_url(folder / STORE_FILE),
    )


def _sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.expanduser().resolve()}"


class Workspace:
    """Two engines, opened and checked; close it when done."""

    def __init__(self, config: WorkspaceConfig) -> None:
        self.config = config
        self.warehouse: Engine = make_engine(config.warehouse_url, "warehouse")
        self.store: Engine = make_engine(config.dead_letter_url, "dead-letter store")
        try:
            for engine, role in ((self.warehouse, "warehouse"), (self.store, "dead-letter store")):
                check_reachable(engine, role)
            ensure_schema(self.store)
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
) -> Workspace:
    return Workspace(resolve_config(workspace, warehouse_url, dead_letter_url))


def open_config(config: WorkspaceConfig) -> Workspace:
    """The workspace a resolved config names (the window and its workers keep configs)."""
    return Workspace(config)
