"""What the screenshot scripts share: each runs its own ``shoot`` in a child process per
screen, under Xvfb with Qt's real X platform (xcb), on a demo workspace, as a first run
would (no remembered settings). Imported by ``laptop_screenshots.py`` and
``scope_screenshots.py`` (run from this folder, so it is on ``sys.path``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (name, X screen, Qt's scale factor)
Screen = tuple[str, str, str]


def settle(seconds: float) -> None:
    """Let the window's event loop run for ``seconds`` (reads, layouts, paints)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def on_screens(
    script: str,
    out: Path,
    screens: Sequence[Screen],
    prepare: Callable[[Path], None] | None = None,
) -> int:
    """Run ``script --child WORKSPACE OUT NAME`` once per screen under Xvfb, on the demo
    workspace or on the one ``prepare(folder)`` makes."""
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        sys.exit("xvfb-run is not installed: apt-get install xvfb (and the README's xcb libraries)")
    out.mkdir(parents=True, exist_ok=True)
    from triage_app.core.db import open_workspace
    from triage_app.core.demo import make_demo

    with tempfile.TemporaryDirectory(prefix="triage-shots-") as tmp:
        workspace = Path(tmp) / "ws"
        if prepare is not None:
            prepare(workspace)
        else:
            with open_workspace(workspace) as ws:
                make_demo(ws)
        for name, screen, scale in screens:
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
                    script,
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


def main(
    script: str,
    shoot: Callable[[Path, Path, str], None],
    screens: Sequence[Screen],
    prepare: Callable[[Path], None] | None = None,
) -> int:
    """The script's entry point: the parent starts a child per screen; a child shoots."""
    if sys.argv[1:2] == ["--child"]:
        shoot(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
        return 0
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    return on_screens(script, out, screens, prepare)
