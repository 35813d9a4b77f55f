"""Passwords of remembered connections: in the system keyring (an in-memory backend here)
and filled back by the connect dialog; where there is none (keyring's fail backend), asked
each time, with one line saying why. The settings files never hold a password."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QLineEdit
from sqlalchemy.engine import make_url

from tests.support.keyrings import MemoryKeyring, installed
from triage_app.core.db import resolve_config
from triage_app.core.db.messages import as_url
from triage_app.core.db.secrets import SERVICE
from triage_app.core.places import SETTINGS_DIR_ENV
from triage_app.gui.dialogs.connect_dialog import ConnectDialog
from triage_app.gui.settings import Settings, keep_private, settings_store

SECRET = "s3cret-Pa55"
WH = f"postgresql+psycopg://steward:{SECRET}@db.example/warehouse"
DL = f"postgresql+psycopg://auditor:{SECRET}x@db.example/triage"


def _settings_on_disk() -> str:
    s = settings_store()
    s.sync()
    path = Path(s.fileName())
    assert path.exists(), "settings were never written"
    values = " ".join(f"{k}={s.value(k)!r}" for k in s.allKeys())
    return path.read_text(errors="replace") + "\n" + values


def test_with_a_keyring_the_dialog_fills_the_passwords_back(qtbot) -> None:
    with installed(MemoryKeyring()) as kr:
        assert isinstance(kr, MemoryKeyring)
        settings = Settings()
        assert settings.add_recent_connection(WH, DL) == 2
        settings.sync()
        stored = _settings_on_disk()
        assert "db.example" in stored and SECRET not in stored
        ((wh, dl),) = settings.recent_connections()
        assert wh == "postgresql+psycopg://steward:***@db.example/warehouse"
        assert set(kr.items) == {(SERVICE, wh), (SERVICE, dl)}

        dialog = ConnectDialog(wh, dl)
        qtbot.addWidget(dialog)
        # The URLs show no password; the password fields hold them, masked.
        assert SECRET not in dialog.warehouse.text() + dialog.dead_letter.text()
        assert dialog.warehouse_password.text() == SECRET
        assert dialog.dead_letter_password.text() == SECRET + "x"
        assert dialog.warehouse_password.echoMode() == QLineEdit.EchoMode.Password
        assert dialog.urls() == (WH, DL)
        assert "kept in the system keyring" in dialog.hint.text()


def test_without_a_keyring_the_password_is_asked_each_time(qtbot) -> None:
    with installed(fail.Keyring()):
        settings = Settings()
        assert settings.add_recent_connection(WH, DL) == 0
        settings.sync()
        assert SECRET not in _settings_on_disk()
        ((wh, dl),) = settings.recent_connections()
        dialog = ConnectDialog(wh, dl)
        qtbot.addWidget(dialog)
        assert dialog.warehouse_password.text() == dialog.dead_letter_password.text() == ""
        hint = dialog.findChild(type(dialog.hint), "keyringHint")
        assert "No system keyring: the password is not remembered." in hint.text()
        # No password typed: the URL carries none (not a literal ***).
        assert dialog.urls()[0] == "postgresql+psycopg://steward@db.example/warehouse"
        # Typed into the field: it joins the URL for this connection only.
        dialog.warehouse_password.setText(SECRET)
        assert dialog.urls()[0] == WH
        settings.sync()
        assert SECRET not in _settings_on_disk()


@pytest.mark.postgres
def test_reconnecting_from_recent_uses_the_keyring(
    qtbot, open_main_window, tmp_path, pg_urls
) -> None:
    """The whole loop on the real window: connect with a password, reopen the recent
    connection, and the dialog's URLs connect without typing it again."""
    with installed(MemoryKeyring()) as kr:
        window = open_main_window(tmp_path / "ws")
        wh, dl = (
            make_url(u).set(password=SECRET).render_as_string(hide_password=False) for u in pg_urls
        )
        dialog = ConnectDialog(wh, dl)
        qtbot.addWidget(dialog)
        window.workspaces.open_now(resolve_config(None, *dialog.urls(), env={}))
        qtbot.waitUntil(
            lambda: window.ws is not None and window.ws.store.dialect.name == "postgresql"
        )
        window.remembered.save()
        assert SECRET not in _settings_on_disk()
        assert len(kr.items) == 2 and all(p == SECRET for p in kr.items.values())
        again = ConnectDialog(*window.settings.recent_connections()[0])
        qtbot.addWidget(again)
        assert again.urls() == (wh, dl)


# Issue 21: a password in the query (?password=), libpq's sslpassword, a keyword string.
QUERY_WH = f"postgresql://steward@db.example/warehouse?password={SECRET}"
WORDS_DL = f"host=db.example dbname=triage user=auditor password='{SECRET} y' sslpassword={SECRET}z"


def test_passwords_in_the_query_or_a_keyword_string_reach_the_keyring_only(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "new" / "settings"  # not there yet: the app makes it, private
    monkeypatch.setenv(SETTINGS_DIR_ENV, str(folder))
    with installed(MemoryKeyring()) as kr:
        assert isinstance(kr, MemoryKeyring)
        settings = Settings()
        assert settings.add_recent_connection(QUERY_WH, WORDS_DL) == 2
        settings.sync()
        stored = _settings_on_disk()
        assert "db.example" in stored and SECRET not in stored, stored
        ((wh, dl),) = settings.recent_connections()
        assert wh == "postgresql://steward@db.example/warehouse?password=***"
        assert dl == "postgresql+psycopg://auditor:***@db.example/triage?sslpassword=***"
        assert sorted(kr.items.values()) == [SECRET, f"{SECRET} y", f"{SECRET}z"]
        # Reopened from the list, the dialog connects as the typed text would have.
        dialog = ConnectDialog(wh, dl)
        qtbot.addWidget(dialog)
        assert dialog.warehouse_password.text() == SECRET
        assert dialog.dead_letter_password.text() == f"{SECRET} y"
        got_wh, got_dl = dialog.urls()
        assert make_url(got_wh) == make_url(QUERY_WH)
        assert make_url(got_dl) == make_url(as_url(WORDS_DL))
    path = Path(settings.file_name())
    assert path.parent == folder
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_an_existing_settings_file_is_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "chosen"  # a folder the user named and made: left as it is
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    path = folder / "triage-desk.ini"
    first, second = str(tmp_path / "x"), str(tmp_path / "y")
    path.write_text(f"[recent]\nworkspaces={first}\n")
    path.chmod(0o644)  # as an older version left it
    monkeypatch.setenv(SETTINGS_DIR_ENV, str(folder))
    settings = Settings()
    assert settings.recent_workspaces() == [first]
    settings.add_recent_workspace(second)
    settings.sync()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755


def test_the_default_place_is_private_too(tmp_path: Path) -> None:
    """Without TRIAGE_SETTINGS_DIR: Qt's own folder for the app (``TriageDesk``) is the
    app's, so it is made (or made again) the user's alone."""
    folder = tmp_path / "config" / "TriageDesk"
    folder.mkdir(parents=True, mode=0o755)
    folder.chmod(0o755)
    path = folder / "triage-desk.conf"
    path.write_text("")
    path.chmod(0o644)
    keep_private(path, own_folder=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
