"""Screenshots of Trends as a team lead sees it in the morning: Qt's real X platform (xcb)
under Xvfb, on screens of 1280x720, 1366x768 and 1920x1080, over ten nightly batches whose
last one spiked with data errors (``core/demo/morning.py``), and over the same week without
the spike. Each is the whole screen, so what needs scrolling shows as cut off. Look at them
after running.

    .venv/bin/python scripts/trends_screens.py [OUT_DIR]

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
    ("1920x1080", "1920x1080", "1"),
)
SPIKES = {"spike": "data", "quiet": None}


def prepare(folder: Path) -> None:
    """One workspace per case, beside ``folder``: ``<folder>-spike``, ``<folder>-quiet``."""
    from triage_app.core.db import open_workspace
    from triage_app.core.demo.morning import fill_morning

    for case, spike in SPIKES.items():
        with open_workspace(folder.with_name(f"{folder.name}-{case}")) as ws:
            fill_morning(ws, spike)


def shoot(workspace: Path, out: Path, name: str) -> None:
    """In the Xvfb child: open each case's window as a first run would, show Trends, save
    the whole screen."""
    from PySide6.QtWidgets import QApplication, QTabWidget

    from triage_app.gui import open_window

    app = QApplication.instance() or QApplication([])
    for case in SPIKES:
        w = open_window(str(workspace.with_name(f"{workspace.name}-{case}")))
        settle(1.5)
        w.findChild(QTabWidget).setCurrentWidget(w.trends)
        settle(2.5)
        path = out / f"trends-{name}-{case}.png"
        app.primaryScreen().grabWindow(0).save(str(path))
        print(f"wrote {path}")
        w.close()
        settle(0.3)


if __name__ == "__main__":
    sys.exit(main(__file__, shoot, SCREENS, prepare))
