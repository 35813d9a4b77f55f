"""``write_report``: non-empty, valid PNGs of each chart, CSVs, and a summary a lead can
mail; in a process without a display."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.crafted_trends import MAR, QTY, build_crafted
from triage_app.core.db import open_workspace

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CHARTS = {
    "failures_per_day",
    "failures_per_batch",
    "backlog",
    "quarantine_rate",
    "attempts",
    "error_groups",
}


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crafted") / "ws"
    build_crafted(folder)
    return folder


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC
    assert data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_report_writes_charts_tables_and_summaries(crafted: Path, tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    from triage_app.gui.trends.report import write_report

    with open_workspace(crafted) as ws:
        s = write_report(ws, tmp_path / "out")
    assert {p.stem for p in s.images} == CHARTS
    for png in s.images:
        data = png.read_bytes()
        width, height = _png_size(data)
        assert width >= 600 and height >= 300, png.name
        image = QImage(str(png))
        assert not image.isNull()
        # not a blank canvas: a chart has many colours (bars, axes, text)
        colours = {image.pixel(x, y) for x in range(0, width, 7) for y in range(0, height, 7)}
        assert len(colours) > 5, png.name
    assert {p.stem for p in s.tables} == CHARTS
    assert s.dead_letters == 7 and s.spikes == 0
    md = s.markdown.read_text(encoding="utf-8")
    assert "1 Mar 2026 to 4 Mar 2026 (UTC days)" in md
    assert "5 dead letters wait for a person" in md
    # Who works on it (nobody), and since when: its first row's time, batch, file, version.
    # (the crafted days are fixed, so its wait grows with the clock).
    q = re.escape(f"| `{QTY}` |")
    assert re.search(rf"{q} data \| 3 \| 1 \| \d+ d \| unowned \|  \|  \|", md), md
    assert re.search(
        rf"{q} 1 Mar 2026 10:00 \| [0-9a-f]{{8}} \| b1\.jsonl \| pesanan@1 \| quiet", md
    )
    assert "![Backlog: open vs resolved](backlog.png)" in md
    page = s.html.read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == len(CHARTS)
    assert "The largest cause is DataError: qty tidak valid: &lt;n&gt; (data)" in page
    assert s.to_json()["dead_letters"] == 7


def test_report_since(crafted: Path, tmp_path: Path) -> None:
    from triage_app.gui.trends.report import write_report

    with open_workspace(crafted) as ws:
        s = write_report(ws, tmp_path / "out", since=MAR[1])
    assert "since 2 Mar 2026 (UTC days)" in s.markdown.read_text(encoding="utf-8")
    assert s.dead_letters == 3  # e, f, g
    day_rows = (tmp_path / "out" / "failures_per_day.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in day_rows[1:]] == ["2026-03-02", "2026-03-03", "2026-03-04"]


def test_report_needs_no_display(crafted: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    code = (
        "import sys; from triage_app.core.db import open_workspace;"
        "from triage_app.gui.trends.report import write_report;"
        f"ws = open_workspace({str(crafted)!r});"
        f"s = write_report(ws, {str(tmp_path / 'out')!r}); print(len(s.images))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(CHARTS))
