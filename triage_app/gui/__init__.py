"""The window (PySide6): ``window/`` assembles it, ``quarantine/`` is the steward's table and
editor, ``dialogs/`` the batch, re-drive and connection dialogs, ``trends/`` the lead's
charts and the report. It uses only the public interfaces of core's sub-packages.

``open_window`` is the testability contract the acceptance scripts use: it returns the
main window, shown, without entering the event loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triage_app.gui.window.main_window import MainWindow


def open_window(
    workspace: str | None = None,
    *,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
) -> MainWindow:
    from triage_app.gui.app import open_window as _open

    return _open(workspace, warehouse_url=warehouse_url, dead_letter_url=dead_letter_url)


__all__ = ["open_window"]
