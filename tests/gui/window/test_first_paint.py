"""``TRIAGE_EXIT_AFTER_PAINT``: the window reports when it first reached the screen and the
app exits, which is how packaging/budgets.py times launch to a painted window (issue 12)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.support import cli


def test_the_window_reports_its_first_paint_and_exits(tmp_path: Path) -> None:
    ws = str(tmp_path / "ws")
    assert cli("--workspace", ws, "demo").returncode == 0
    report = tmp_path / "painted"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TRIAGE_EXIT_AFTER_PAINT": str(report)}

    start = time.time()
    out = cli("--workspace", ws, "gui", env=env, timeout=60)
    end = time.time()

    assert out.returncode == 0, out.stderr
    painted = float(report.read_text())
    assert start < painted < end
