"""Where things live: the resources shipped with the app, and the user's own data folder.

Only the standard library at import time: the CLI's fast paths use this module without
loading the engine.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP_NAME = "triage-desk"
# A workspace folder holds these two SQLite databases; these variables name other places.
WAREHOUSE_FILE = "warehouse.db"
STORE_FILE = "dead_letter.db"
# The dead-letter store's schema revision this code writes (db/migrations). Here, not in
# db/, so that quick_stats can check it without importing the engine.
STORE_SCHEMA_REVISION = "0013"
WORKSPACE_ENV = "TRIAGE_WORKSPACE"
WAREHOUSE_URL_ENV = "TRIAGE_WAREHOUSE_URL"
DEAD_LETTER_URL_ENV = "TRIAGE_DEAD_LETTER_URL"
URL_ENVS = (WAREHOUSE_URL_ENV, DEAD_LETTER_URL_ENV)
# A folder for the window's settings instead of the platform's place (gui/settings.py).
SETTINGS_DIR_ENV = "TRIAGE_SETTINGS_DIR"


def resources_dir() -> Path:
    """The shipped resources (demo data, icons), installed or in a checkout."""
    here = Path(__file__).resolve().parent.parent
    installed = here / "_resources"  # wheels map the top-level resources/ here
    if installed.is_dir():
        return installed
    return here.parent / "resources"


def user_data_dir() -> Path:
    """The platform's data folder for this app (created by whoever writes there)."""
    import platformdirs  # 20 ms at every start, for users who name no workspace

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_workspace_dir() -> Path:
    """The workspace used when none is named."""
    return user_data_dir() / "workspace"


def demo_workspace_dir() -> Path:
    """Where ``demo`` and the window's "Open the demo" put the demo workspace."""
    return user_data_dir() / "demo"


def is_first_run(
    workspace: str | os.PathLike[str] | None = None,
    urls: tuple[str | None, str | None] = (None, None),
    env: Mapping[str, str] | None = None,
) -> bool:
    """Nothing named (no folder or URL, as arguments or in the environment) and nothing in
    the default workspace yet: the window then welcomes rather than make an empty one."""
    env = os.environ if env is None else env
    named = (workspace, *urls, *(env.get(k) for k in (WORKSPACE_ENV, *URL_ENVS)))
    if any(named):
        return False
    return not (default_workspace_dir() / STORE_FILE).exists()


def workspace_folder(
    workspace: str | os.PathLike[str] | None, env: Mapping[str, str] | None = None
) -> Path:
    """The workspace folder named, else the one ``TRIAGE_WORKSPACE`` names, else the
    default."""
    env = os.environ if env is None else env
    named = workspace or env.get(WORKSPACE_ENV)
    return Path(named).expanduser() if named else default_workspace_dir()


def printable(name: str | os.PathLike[str]) -> str:
    """A name the OS gave (a file name, a user, a host) as text every database, JSON
    writer and terminal takes. POSIX names are bytes; Python keeps those that are not
    UTF-8 as lone surrogates, which no encoder accepts. They become ``\\xNN`` here: clearly
    marked, and the original bytes can be read back from it."""
    text = os.fspath(name)
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that stands for no byte: not from the OS
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")
