"""The main window's layout as the steward left it: its geometry, its toolbars and docks,
the quarantine splitter and the table's columns, saved on closing and restored on opening
(in the settings of ``gui/settings.py``).

A remembered geometry is restored only where it can still be used: on screens that may be
gone (a laptop undocked from its monitor) it is fitted onto those there are, and a window
with no remembered place takes its first one (``placement.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHeaderView, QMainWindow, QSplitter

from triage_app.gui.settings import Settings
from triage_app.gui.window.placement import fitted, place_first

GEOMETRY_KEY = "window/geometry"


class RememberedLayout:
    """Saves and restores ``window``'s layout: the window's own state, ``splitter``'s sizes
    and ``header``'s columns, each under a settings key of its own."""

    def __init__(
        self, window: QMainWindow, splitter: QSplitter, header: QHeaderView, settings: Settings
    ) -> None:
        self.window = window
        self.settings = settings
        # (settings key, save, restore) of each part whose layout is remembered.
        self._parts: tuple[tuple[str, Callable[[], Any], Callable[[Any], Any]], ...] = (
            ("window/state", window.saveState, window.restoreState),
            ("window/splitter", splitter.saveState, splitter.restoreState),
            ("window/columns", header.saveState, header.restoreState),
        )

    def restore(self) -> None:
        window = self.window
        geometry = self.settings.bytes_value(GEOMETRY_KEY)
        if geometry is None or not window.restoreGeometry(geometry):
            place_first(window)  # and again once shown, its frame counted
        else:
            screens = [s.availableGeometry() for s in QGuiApplication.screens()]
            place = fitted(window.geometry(), screens)
            if place != window.geometry():
                window.setGeometry(place)
        for key, _save, restore in self._parts:
            value = self.settings.bytes_value(key)
            if value is not None:
                restore(value)

    def save(self) -> None:
        self.settings.set_value(GEOMETRY_KEY, self.window.saveGeometry())
        for key, save, _restore in self._parts:
            self.settings.set_value(key, save())
        self.settings.sync()
