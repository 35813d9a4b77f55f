"""The window's first page waits for no chart: opening it imports neither pyqtgraph nor
numpy (a third of a second of the first page at ten million rows, issue 23); the Trends
tab builds its charts when first shown, and draws the numbers it read before they existed.
Proven in a fresh process, since this one has imported them long ago."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import REPO
from triage_app.cli import main as cli

SNIPPET = r"""
import sys
import time
from triage_app.gui import open_window
from PySide6.QtWidgets import QApplication

window = open_window(sys.argv[1])
app = QApplication.instance()
app.processEvents()
tab = window.trends
print("opened", "pyqtgraph" in sys.modules, "numpy" in sys.modules, "failures" in tab.__dict__)
window.tabs.setCurrentWidget(tab)
deadline = time.monotonic() + 60
while getattr(tab.__dict__.get("failures"), "trends", None) is None:
    assert time.monotonic() < deadline, "the charts never got their numbers"
    app.processEvents()
    time.sleep(0.01)
print("shown", "pyqtgraph" in sys.modules, tab.failures.trends is tab.trends)
window.close()
"""


def test_the_window_opens_without_the_charts_and_builds_them_when_trends_is_shown(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "ws"
    assert cli(["--workspace", str(folder), "demo"]) == 0
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", SNIPPET, str(folder)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = [line for line in out.stdout.splitlines() if line.startswith(("opened", "shown"))]
    assert lines == ["opened False False False", "shown True True"], out.stdout
