"""Screenshots of the window as a laptop shows it: Qt's real X platform (xcb) under Xvfb,
on screens of 1280x720 and 1366x768, and at scale 1.5 and 2 (a 1920x1080 and a 2560x1440
screen that show 1280x720 logical pixels). Each is the whole screen, so a window that does
not fit shows as cut off. Look at them after running.

    .venv/bin/python scripts/laptop_screenshots.py [OUT_DIR]

Needs ``xvfb-run`` and the xcb libraries the README names.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xvfb_screens import main, settle

# (name, X screen, Qt's scale factor)
SCREENS = (
    ("1280x720", "1280x720", "1"),
    ("1366x768", "1366x768", "1"),
    ("1280x720@1.5x", "1920x1080", "1.5"),
    ("1280x720@2x", "2560x1440", "2"),
)


def shoot(workspace: Path, out: Path, name: str) -> None:
    """In the Xvfb child: open the window as a first run would, select the first dead
    letter, and save the whole screen with each tab shown."""
    from PySide6.QtWidgets import QApplication, QTabWidget

    from triage_app.gui import open_window

    w = open_window(str(workspace))
    app = QApplication.instance()

    settle(1.5)
    w.table.selectRow(0)
    settle(1.0)
    tabs = w.findChild(QTabWidget)
    for i, tab in enumerate(("quarantine", "trends")):
        tabs.setCurrentIndex(i)
        settle(1.5)
        path = out / f"laptop-{name}-{tab}.png"
        app.primaryScreen().grabWindow(0).save(str(path))
        print(f"wrote {path}")
    w.close()


if __name__ == "__main__":
    sys.exit(main(__file__, shoot, SCREENS))
