"""What the window remembers between runs: geometry, splitters, columns, recent places.

Connections are remembered with their password hidden (core's ``redact_url``): no
password is ever written to settings. The password itself goes to the system keyring
(core's ``db/secrets.py``), where one exists, and the connect dialog fills it back.

Where: the platform's place for an app's settings (``QSettings``: the registry on Windows,
``~/.config/TriageDesk/`` on Linux), unless ``TRIAGE_SETTINGS_DIR`` names a folder, which
then holds them in ``triage-desk.ini``. The self-test and the test suite set it, so that
nothing they do reaches what the user's window remembers; a portable install may set it
too.

The file is the user's alone (0600, an existing one's mode fixed too), and so is the folder
the app keeps it in (0700: ``TriageDesk``, or a ``TRIAGE_SETTINGS_DIR`` the app creates):
it names the team's database hosts and users. Qt rewrites the file through a new file that
takes the old one's permissions, so making it private once, before Qt writes, keeps it so.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QIcon

from triage_app.core.db import redact_url, remember_password
from triage_app.core.places import SETTINGS_DIR_ENV, resources_dir

MAX_RECENT = 8
RECENT_WORKSPACES = "recent/workspaces"
RECENT_CONNECTIONS = "recent/connections"
ORGANIZATION = "TriageDesk"
APPLICATION = "triage-desk"
SETTINGS_FILE = "triage-desk.ini"


def settings_store() -> QSettings:
    """The settings every part of the window reads and writes (see the module's text),
    in a file only the user can read."""
    folder = os.environ.get(SETTINGS_DIR_ENV)
    if folder:
        settings = QSettings(str(Path(folder) / SETTINGS_FILE), QSettings.Format.IniFormat)
        keep_private(Path(settings.fileName()), own_folder=not Path(folder).exists())
    else:
        settings = QSettings()
        keep_private(Path(settings.fileName()), own_folder=True)
    return settings


def keep_private(path: Path, *, own_folder: bool) -> None:
    """``path`` readable and writable by the user alone, made empty if missing;
    ``own_folder``: its folder is the app's (made here, or Qt's ``TriageDesk``), so it is
    the user's alone too. Where this fails (a read-only home) Qt's own write fails the
    same way, and the window goes on without remembering, as before."""
    if os.name == "nt" or not path.is_absolute():  # the registry, or no file at all
        return
    try:
        if own_folder:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            path.parent.chmod(0o700)
        if path.parent.is_dir():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
            path.chmod(0o600)
    except OSError:
        return


def app_icon() -> QIcon:
    folder = resources_dir() / "icons"
    icon = QIcon()
    for name in ("triage-desk.svg", "triage-desk-256.png", "triage-desk-64.png"):
        if (folder / name).is_file():
            icon.addFile(str(folder / name))
    return icon


def _list(settings: QSettings, key: str) -> list[str]:
    value = settings.value(key, [])
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in (value or [])]


class Settings:
    def __init__(self) -> None:
        self._s = settings_store()

    def file_name(self) -> str:
        """Where they are kept (a file, or a registry key on Windows)."""
        return self._s.fileName()

    # -- recent places --------------------------------------------------------------------
    def recent_workspaces(self) -> list[str]:
        return _list(self._s, RECENT_WORKSPACES)

    def add_recent_workspace(self, folder: str) -> None:
        items = [folder] + [f for f in self.recent_workspaces() if f != folder]
        self._s.setValue(RECENT_WORKSPACES, items[:MAX_RECENT])

    def remove_recent_workspace(self, folder: str) -> None:
        self._s.setValue(RECENT_WORKSPACES, [f for f in self.recent_workspaces() if f != folder])

    def recent_connections(self) -> list[tuple[str, str]]:
        pairs = []
        for item in _list(self._s, RECENT_CONNECTIONS):
            wh, _, dl = item.partition("\n")
            pairs.append((wh, dl))
        return pairs

    def add_recent_connection(self, warehouse_url: str, dead_letter_url: str) -> int:
        """Remember a connection: its URLs, passwords hidden, in settings; the passwords
        in the system keyring. How many passwords the keyring keeps now (0 without one)."""
        item = f"{redact_url(warehouse_url)}\n{redact_url(dead_letter_url)}"
        items = [item] + [i for i in _list(self._s, RECENT_CONNECTIONS) if i != item]
        self._s.setValue(RECENT_CONNECTIONS, items[:MAX_RECENT])
        return sum(remember_password(url) for url in (warehouse_url, dead_letter_url))

    # -- window state ---------------------------------------------------------------------
    def bytes_value(self, key: str) -> QByteArray | None:
        value = self._s.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def value(self, key: str, default: object = None) -> object:
        return self._s.value(key, default)

    def set_value(self, key: str, value: object) -> None:
        self._s.setValue(key, value)

    def sync(self) -> None:
        self._s.sync()
