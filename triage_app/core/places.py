"""Where things live: the resources shipped with the app, and the user's own data folder.

Only the standard library at import time: the CLI's fast paths use this module without
loading the engine.
"""

from __future__ import annotations

from pathlib import Path

APP_NAME = "triage-desk"


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
