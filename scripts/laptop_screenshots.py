"""Screenshots of the window as a laptop shows it: Qt's real X platform (xcb) under Xvfb,
on screens of 1280x720 and 1366x768, and at scale 1.5 and 2 (a 1920x1080 and a 2560x1440
screen that show 1280x720 logical pixels). Each is the whole screen, so a window that does
not fit shows as cut off. Look at them after running.

    .venv/bin/python scripts/laptop_screenshots.py [OUT_DIR]

Needs ``xvfb-run`` and the xcb libraries the README names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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

    def settle(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

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


def main(out: Path) -> int:
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        sys.exit("xvfb-run is not installed: apt-get install xvfb (and the README's xcb libraries)")
    out.mkdir(parents=True, exist_ok=True)
    from triage_app.core.db import open_workspace
    from triage_app.core.demo import make_demo

    with tempfile.TemporaryDirectory(prefix="triage-laptop-") as tmp:
        workspace = Path(tmp) / "ws"
        with open_workspace(workspace) as ws:
            make_demo(ws)
        for name, screen, scale in SCREENS:
            home = Path(tmp) / f"home-{name}"  # a first run: no remembered geometry
            env = {
                **os.environ,
                "QT_QPA_PLATFORM": "xcb",
                "QT_SCALE_FACTOR": scale,
                "XDG_CONFIG_HOME": str(home),
                "HOME": str(home),
            }
            subprocess.run(
                [
                    xvfb,
                    "--auto-servernum",
                    f"--server-args=-screen 0 {screen}x24",
                    sys.executable,
                    __file__,
                    "--child",
                    str(workspace),
                    str(out),
                    name,
                ],
                env=env,
                check=True,
                timeout=300,
            )
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        shoot(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
        sys.exit(0)
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"))
