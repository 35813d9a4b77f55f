"""File → Connect to databases…: two URLs and a Test button that really connects; a
password typed into a URL reaches neither the settings nor the logs."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox, QPushButton
from sqlalchemy.engine import make_url

from triage_app.gui.dialogs.connect_dialog import ConnectDialog
from triage_app.gui.settings import settings_store

SECRET = "s3cret-Pa55"


def _test(qtbot, dialog: ConnectDialog) -> str:  # type: ignore[no-untyped-def]
    button = dialog.findChild(QPushButton, "testConnectionButton")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: button.isEnabled(), timeout=20_000)
    return dialog.result.text()


def _settings_text() -> str:
    """Everything the app's settings hold, keys and values, as written to disk."""
    s = settings_store()
    s.sync()
    path = Path(s.fileName())
    on_disk = path.read_text(errors="replace") if path.exists() else ""
    values = " ".join(f"{k}={s.value(k)!r}" for k in s.allKeys())
    return on_disk + "\n" + values


def test_test_button_reaches_two_sqlite_databases(qtbot, tmp_path):
    dialog = ConnectDialog(
        f"sqlite:///{tmp_path / 'warehouse.db'}", f"sqlite:///{tmp_path / 'dead_letter.db'}"
    )
    qtbot.addWidget(dialog)
    text = _test(qtbot, dialog)
    assert text.splitlines() == ["✓ warehouse: reachable", "✓ dead-letter store: reachable"]


def test_test_button_reports_bad_urls_without_the_password(qtbot, tmp_path):
    dialog = ConnectDialog()
    qtbot.addWidget(dialog)
    dialog.findChild(QLineEdit, "warehouseUrl").setText(
        f"postgresql+psycopg://steward:{SECRET}@127.0.0.1:1/warehouse"  # nothing listens
    )
    dialog.findChild(QLineEdit, "deadLetterUrl").setText("not a database url")
    text = _test(qtbot, dialog)
    wh, dl = text.splitlines()
    assert wh.startswith("✗") and dl.startswith("✗")
    assert SECRET not in text
    assert "steward:***@" in wh or "127.0.0.1" in wh
    # The dialog still works after a failed test: now a good pair.
    dialog.warehouse.setText(f"sqlite:///{tmp_path / 'w.db'}")
    dialog.dead_letter.setText(f"sqlite:///{tmp_path / 'd.db'}")
    assert _test(qtbot, dialog).count("✓") == 2


def _fill_connect_dialog(wh: str, dl: str, seen: list[str]) -> None:
    """Types the URLs into the real modal dialog once it shows, and presses OK."""

    def fill(tries: int = 0) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, ConnectDialog):
            if tries < 500:
                QTimer.singleShot(10, lambda: fill(tries + 1))
            return
        seen.append(box.windowTitle())
        box.warehouse.setText(wh)
        box.dead_letter.setText(dl)
        box.buttons.button(box.buttons.StandardButton.Ok).click()

    QTimer.singleShot(0, fill)


@pytest.mark.postgres
def test_connecting_with_a_password_keeps_it_out_of_settings_and_logs(
    qtbot, open_main_window, tmp_path, pg_urls, caplog
):
    caplog.set_level(logging.DEBUG)
    window = open_main_window(tmp_path / "ws")
    # The test server trusts local connections, so any password is accepted.
    wh, dl = (
        make_url(u).set(password=SECRET).render_as_string(hide_password=False) for u in pg_urls
    )
    assert SECRET in wh
    seen: list[str] = []
    _fill_connect_dialog(wh, dl, seen)
    window.menu.connect_action.trigger()
    assert seen == ["Connect to databases"]
    qtbot.waitUntil(lambda: window.ws is not None and window.ws.store.dialect.name == "postgresql")
    qtbot.waitUntil(lambda: window.model.total() == 0)
    assert SECRET not in window.windowTitle() + window.workspace_label.text()
    window.remembered.save()
    stored = _settings_text()
    assert "postgresql" in stored  # the connection is remembered...
    assert SECRET not in stored  # ...without its password
    ((r_wh, r_dl),) = window.settings.recent_connections()[:1]
    assert ":***@" in r_wh and ":***@" in r_dl
    assert SECRET not in caplog.text
    # Connecting again offers the remembered URLs, password removed: it is typed again.
    dialog = ConnectDialog(*window.settings.recent_connections()[0])
    qtbot.addWidget(dialog)
    assert SECRET not in dialog.warehouse.text() + dialog.dead_letter.text()


def test_a_connection_that_fails_is_not_remembered(
    qtbot, open_main_window, tmp_path, caplog, dialogs
):
    caplog.set_level(logging.DEBUG)
    window = open_main_window(tmp_path / "ws")
    before = window.settings.recent_connections()
    seen: list[str] = []
    _fill_connect_dialog(
        f"postgresql+psycopg://steward:{SECRET}@127.0.0.1:1/warehouse",
        f"postgresql+psycopg://steward:{SECRET}@127.0.0.1:1/triage",
        seen,
    )
    dialogs.answer(QMessageBox.StandardButton.Ok)  # "Cannot open"
    window.menu.connect_action.trigger()
    assert seen
    qtbot.waitUntil(lambda: dialogs.pending == 0, timeout=20_000)
    (warning,) = dialogs.seen
    assert SECRET not in str(warning["text"])
    assert window.config is not None and window.config.folder == tmp_path / "ws"  # still open
    assert window.settings.recent_connections() == before
    window.remembered.save()
    assert SECRET not in _settings_text()
    assert SECRET not in caplog.text
