"""Where the main window opens: at a size that fits the screen it opens on, and where it
was last time only while that place is still on a screen.

A laptop's 1280x800 screen is smaller than the window's preferred size, and a laptop
undocked from its monitor still remembers a place on the monitor: without these, the
window's edges (the workspace label, the status bar) or the whole window lie off-screen.
Plain rectangle arithmetic, so that it is tested without a display.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QMargins, QObject, QRect, QSize, QTimer
from PySide6.QtWidgets import QWidget

PREFERRED = QSize(1400, 900)
# The first window leaves a little of the desktop around it rather than covering it all.
FIRST_SHARE = 0.92
# How much of the window's top edge (its title bar) must lie on a screen for the window to
# count as reachable there: enough to grab it and drag it.
GRIP = QSize(160, 24)


def first_geometry(
    available: QRect, preferred: QSize = PREFERRED, frame: QMargins | None = None
) -> QRect:
    """The window's first place (its client area, as ``setGeometry`` takes it) on a screen
    whose usable area is ``available``: the preferred size or less, and with its ``frame``
    (title bar, borders) at most FIRST_SHARE of the screen, centred."""
    frame = frame or QMargins()
    width = min(preferred.width(), int(available.width() * FIRST_SHARE) - _across(frame))
    height = min(preferred.height(), int(available.height() * FIRST_SHARE) - _down(frame))
    outer = QRect(0, 0, max(width, 1) + _across(frame), max(height, 1) + _down(frame))
    outer.moveCenter(available.center())
    return outer.marginsRemoved(frame)


def _across(m: QMargins) -> int:
    return m.left() + m.right()


def _down(m: QMargins) -> int:
    return m.top() + m.bottom()


class _FrameCounted(QObject):
    """Places a window at its first geometry again once its frame is known, frame counted.
    Only then does the platform know the frame: a window manager adds it on mapping the
    window, and says how thick it is a moment later (a move or resize follows)."""

    PATIENCE = 2.0  # seconds after showing: a frame told later is not waited for

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._shown_at: float | None = None
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window:
            kind = event.type()
            if kind == QEvent.Type.Show and self._shown_at is None:
                self._shown_at = time.monotonic()
                QTimer.singleShot(0, self, self._place)
            elif kind in (QEvent.Type.Move, QEvent.Type.Resize) and self._shown_at is not None:
                self._place()
        return False

    def _place(self) -> None:
        w = self._window
        if self._shown_at is None or time.monotonic() - self._shown_at > self.PATIENCE:
            w.removeEventFilter(self)
            return
        g, f = w.geometry(), w.frameGeometry()
        frame = QMargins(
            g.left() - f.left(), g.top() - f.top(), f.right() - g.right(), f.bottom() - g.bottom()
        )
        if frame.isNull():
            return  # not known yet
        w.removeEventFilter(self)
        self._shown_at = None
        if not (w.isMaximized() or w.isFullScreen()):
            w.setGeometry(first_geometry(w.screen().availableGeometry(), frame=frame))


def place_first(window: QWidget) -> None:
    """A window with no remembered place: at its first geometry now, and again with its
    frame counted once it is shown."""
    window.setGeometry(first_geometry(window.screen().availableGeometry()))
    _FrameCounted(window)


def fitted(geometry: QRect, screens: Sequence[QRect]) -> QRect:
    """``geometry`` kept on the screens there are: unchanged when its top edge can be
    grabbed on one of them and it fits that screen; otherwise shrunk to the screen it
    overlaps most (the first one when it overlaps none) and moved inside it."""
    if not screens:
        return QRect(geometry)
    home = max(screens, key=lambda s: _overlap(geometry, s))
    if _overlap(geometry, home) == 0:
        home = screens[0]
    if _grippable(geometry, home) and _fits(geometry.size(), home.size()):
        return QRect(geometry)
    size = geometry.size().boundedTo(home.size())
    rect = QRect(geometry.topLeft(), size)
    # Inside the screen, right and bottom edges first, so the top-left wins when both bind.
    rect.moveRight(min(rect.right(), home.right()))
    rect.moveBottom(min(rect.bottom(), home.bottom()))
    rect.moveLeft(max(rect.left(), home.left()))
    rect.moveTop(max(rect.top(), home.top()))
    return rect


def _overlap(a: QRect, b: QRect) -> int:
    common = a.intersected(b)
    return 0 if common.isEmpty() else common.width() * common.height()


def _grippable(geometry: QRect, screen: QRect) -> bool:
    top_edge = QRect(geometry.left(), geometry.top(), geometry.width(), GRIP.height())
    on_screen = top_edge.intersected(screen)
    return (
        not on_screen.isEmpty()
        and on_screen.width() >= min(GRIP.width(), geometry.width())
        and geometry.top() >= screen.top()
    )


def _fits(size: QSize, screen: QSize) -> bool:
    return size.width() <= screen.width() and size.height() <= screen.height()


# A dialog over the window leaves room for its own title bar and the desktop's panels.
DIALOG_SHARE = 0.85


def dialog_size(available: QRect, preferred: QSize) -> QSize:
    """A dialog's first size on a screen whose usable area is ``available``: the preferred
    size or less (a 1000x640 dialog on a 1280x720 laptop lost its top edge)."""
    return QSize(
        min(preferred.width(), int(available.width() * DIALOG_SHARE)),
        min(preferred.height(), int(available.height() * DIALOG_SHARE)),
    )
