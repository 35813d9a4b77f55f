"""How long the app takes from launch to a painted window, as ops see it: with
``TRIAGE_EXIT_AFTER_PAINT=FILE`` set, the window writes the wall-clock time (``time.time()``)
at which its first paint reached the screen to FILE, and the app exits.

``packaging/budgets.py`` launches the frozen app so, under Xvfb, and subtracts the time it
launched it at: the interpreter's and Qt's start, the imports, the window's building and its
first paint, all of them, and nothing of the measuring script.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

EXIT_AFTER_PAINT_ENV = "TRIAGE_EXIT_AFTER_PAINT"


class _FirstPaint(QObject):
    def __init__(self, window: QWidget, report: Path) -> None:
        super().__init__(window)
        self._window = window
        self._report = report
        self._seen = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            not self._seen
            and event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and watched.window() is self._window
        ):
            self._seen = True
            # The paint pass ends with the flush to the screen; the next turn of the event
            # loop comes after it.
            QTimer.singleShot(0, self._done)
        return False

    def _done(self) -> None:
        self._report.write_text(f"{time.time():.6f}\n")
        QApplication.quit()


def report_first_paint(window: QWidget) -> None:
    """When asked by the environment, report the window's first paint and exit."""
    target = os.environ.get(EXIT_AFTER_PAINT_ENV)
    app = QApplication.instance()
    if not target or app is None:
        return
    probe = _FirstPaint(window, Path(target))
    app.installEventFilter(probe)
