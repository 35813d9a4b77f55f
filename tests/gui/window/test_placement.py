"""The window fits the laptop it opens on (issue 12): its first size comes from the
screen, and a place remembered on a screen that is gone is brought back."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMargins, QRect, QSize

from tests.support import REPO
from triage_app.gui.window.placement import FIRST_SHARE, PREFERRED, first_geometry, fitted

LAPTOP = QRect(0, 0, 1280, 720)
MONITOR = QRect(1280, 0, 2560, 1440)


def inside(inner: QRect, outer: QRect) -> bool:
    return outer.contains(inner)


@pytest.mark.parametrize(
    "available",
    [QRect(0, 0, 1280, 720), QRect(0, 0, 1366, 768), QRect(0, 32, 1280, 768), LAPTOP],
)
def test_the_first_window_fits_a_laptop_screen_and_is_centred(available: QRect) -> None:
    place = first_geometry(available)
    assert inside(place, available)
    assert place.size().width() < available.width() and place.height() < available.height()
    assert abs(place.center().x() - available.center().x()) <= 1
    assert abs(place.center().y() - available.center().y()) <= 1


def test_a_large_screen_gets_the_preferred_size() -> None:
    assert first_geometry(QRect(0, 0, 3840, 2160)).size() == PREFERRED


def test_the_frame_counts_in_the_first_size() -> None:
    frame = QMargins(1, 30, 1, 2)  # a title bar and thin borders
    place = first_geometry(LAPTOP, frame=frame)
    outer = place.marginsAdded(frame)
    assert outer.size() == QSize(int(1280 * FIRST_SHARE), int(720 * FIRST_SHARE))
    assert abs(outer.center().x() - LAPTOP.center().x()) <= 1
    assert abs(outer.center().y() - LAPTOP.center().y()) <= 1


def test_a_place_on_a_screen_stays_where_it_was() -> None:
    place = QRect(100, 50, 1000, 600)
    assert fitted(place, [LAPTOP]) == place
    on_monitor = QRect(2000, 300, 1400, 900)
    assert fitted(on_monitor, [LAPTOP, MONITOR]) == on_monitor


def test_a_place_on_a_monitor_that_is_gone_comes_back_to_the_laptop() -> None:
    remembered = QRect(2000, 300, 1400, 900)  # on the monitor, which is unplugged now
    place = fitted(remembered, [LAPTOP])
    assert inside(place, LAPTOP)
    assert place.size() == QSize(1280, 720)  # shrunk to the laptop, not cut off


def test_a_window_too_large_for_its_screen_is_shrunk_onto_it() -> None:
    assert fitted(QRect(10, 10, 1400, 900), [LAPTOP]) == LAPTOP  # shrunk, then moved in
    assert fitted(QRect(10, 10, 1400, 600), [LAPTOP]) == QRect(0, 10, 1280, 600)


def test_a_title_bar_above_the_screen_is_brought_down() -> None:
    place = fitted(QRect(200, -300, 800, 500), [LAPTOP])
    assert inside(place, LAPTOP) and place.size() == QSize(800, 500)


def test_a_window_mostly_off_the_left_edge_is_brought_back() -> None:
    place = fitted(QRect(-780, 100, 800, 500), [LAPTOP])  # 20 px left to grab
    assert inside(place, LAPTOP) and place.size() == QSize(800, 500)


def test_no_screens_leave_the_place_alone() -> None:
    assert fitted(QRect(1, 2, 3, 4), []) == QRect(1, 2, 3, 4)


# -- the real window, on screens described to Qt's offscreen platform --------------------
def screens_file(tmp_path: Path, *screens: QRect, frame: bool = False) -> Path:
    """Qt's offscreen platform on these screens; with ``frame``, windows get a frame (2 px
    each side) as a window manager gives them one."""
    path = tmp_path / f"screens-{len(screens)}{'-framed' if frame else ''}.json"
    path.write_text(
        json.dumps(
            {
                "synchronousWindowSystemEvents": True,
                "windowFrameMargins": frame,
                "screens": [
                    {
                        "name": f"screen{i}",
                        "x": s.x(),
                        "y": s.y(),
                        "width": s.width(),
                        "height": s.height(),
                        "logicalDpi": 96,
                        "logicalBaseDpi": 96,
                        "dpr": 1,
                    }
                    for i, s in enumerate(screens)
                ],
            }
        )
    )
    return path


PROBE = REPO / "tests" / "support" / "window_placement.py"


def place_window(
    home: Path,
    ws: Path,
    platform: str,
    *,
    prefix: tuple[str, ...] = (),
    move: tuple[int, ...] = (),
    trends: bool = False,
    lang: str = "en",
) -> dict[str, Any]:
    """The probe's report of the window opened on ``ws`` in a process of its own, with its
    own settings in ``home`` (the remembered geometry among them); with ``trends``, of the
    Trends tab shown too."""
    env = {**os.environ, "QT_QPA_PLATFORM": platform, "XDG_CONFIG_HOME": str(home)}
    env.update(HOME=str(home), TRIAGE_SETTINGS_DIR=str(home), TRIAGE_LANG=lang)
    args = [str(ws), *(["--move", *map(str, move)] if move else [])]
    args += ["--trends"] if trends else []
    out = subprocess.run(
        [*prefix, sys.executable, str(PROBE), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def open_on(config: Path, home: Path, ws: Path, *move: int) -> dict[str, Any]:
    return place_window(home, ws, f"offscreen:configfile={config}", move=move)


@pytest.mark.parametrize("frame", [False, True], ids=["frameless", "framed"])
@pytest.mark.parametrize("screen", [QRect(0, 0, 1280, 720), QRect(0, 0, 1366, 768)])
def test_the_window_opens_whole_on_a_laptop_screen(
    tmp_path: Path, demo_workspace: Path, screen: QRect, frame: bool
) -> None:
    got = open_on(screens_file(tmp_path, screen, frame=frame), tmp_path / "home", demo_workspace)
    window = QRect(*got["window"])
    assert inside(window, screen)
    # At most 92% of the screen, frame and all (issue 20: it opened at 95% of 1280 px, held
    # wide by the filter bar's minimum width), and centred.
    outer = QRect(*got["frame"])
    assert outer.width() <= int(screen.width() * FIRST_SHARE)
    assert outer.height() <= int(screen.height() * FIRST_SHARE)
    assert outer.width() >= int(screen.width() * FIRST_SHARE) - 1  # not smaller either
    assert abs(outer.center().x() - screen.center().x()) <= 1
    assert (outer != window) == frame
    # The edges that fell off a 1280x800 screen at 1400x900: the workspace label (top
    # right) and the status bar (bottom).
    assert inside(QRect(*got["workspace_label"]), screen)
    assert inside(QRect(*got["status_bar"]), screen)
    assert got["minimum"][0] <= screen.width() and got["minimum"][1] <= screen.height()


@pytest.mark.slow
def test_undocked_the_window_comes_back_from_the_monitor(
    tmp_path: Path, demo_workspace: Path
) -> None:
    demo = demo_workspace
    home = tmp_path / "home"
    docked = screens_file(tmp_path, LAPTOP, MONITOR)
    there = open_on(docked, home, demo, 2000, 200, 1600, 1000)
    assert QRect(*there["window"]) == QRect(2000, 200, 1600, 1000)  # remembered on the monitor
    again = open_on(docked, home, demo)
    assert QRect(*again["window"]) == QRect(2000, 200, 1600, 1000)  # and restored there
    undocked = open_on(screens_file(tmp_path, LAPTOP), home, demo)
    window = QRect(*undocked["window"])
    assert inside(window, LAPTOP)
    assert inside(QRect(*undocked["status_bar"]), LAPTOP)


# -- the same under X, with Qt's real xcb platform (Xvfb) ---------------------------------
def xvfb_run() -> str:
    path = shutil.which("xvfb-run")
    if path is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb libxcb-cursor0 ...; .ci/run does)")
    return path


@pytest.mark.parametrize("lang", ["en", "id"])  # issue 28: Indonesian's longer words too
@pytest.mark.parametrize("size", ["1280x720", "1366x768"])
def test_under_x_the_window_opens_whole_on_a_laptop_screen(
    tmp_path: Path, demo_workspace: Path, size: str, lang: str
) -> None:
    width, height = (int(v) for v in size.split("x"))
    xvfb = (xvfb_run(), "--auto-servernum", f"--server-args=-screen 0 {size}x24")
    got = place_window(tmp_path / "home", demo_workspace, "xcb", prefix=xvfb, lang=lang)
    screen = QRect(0, 0, width, height)
    assert [QRect(*s) for s in got["screens"]] == [screen]  # really the X server's screen
    assert inside(QRect(*got["window"]), screen)
    assert inside(QRect(*got["workspace_label"]), screen)
    assert inside(QRect(*got["status_bar"]), screen)
    assert got["minimum"][0] <= width, got["minimum"]  # nothing squeezed past its minimum


def test_on_a_narrow_window_the_error_column_stays_readable(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from triage_app.gui.quarantine.model import COL_ERROR
    from triage_app.gui.quarantine.table import MIN_ERROR_WIDTH

    table = window.table
    window.resize(1177, 662)  # the first window on a 1280x720 laptop
    qtbot.waitUntil(lambda: table.columnWidth(COL_ERROR) >= MIN_ERROR_WIDTH)
    assert table.horizontalScrollBar().maximum() > 0  # the rest scrolls sideways
    window.resize(2400, 1000)  # room again: the error takes what the others leave
    qtbot.waitUntil(lambda: table.columnWidth(COL_ERROR) > MIN_ERROR_WIDTH)
    assert table.horizontalScrollBar().maximum() == 0


@pytest.mark.parametrize("size", [QSize(1177, 662), QSize(1256, 706)])  # 1280 and 1366 px
def test_on_a_laptop_the_status_column_is_shown_whole(window, qtbot, size: QSize) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: at 1280 px the status was cut to "stat" at the table's right edge."""
    from triage_app.core.vocabulary import Status
    from triage_app.gui.quarantine.model import COL_STATUS, HEADERS

    table, hh = window.table, window.table.horizontalHeader()
    window.resize(size)
    qtbot.waitUntil(lambda: window.width() == size.width())
    qtbot.wait(50)
    left = hh.sectionViewportPosition(COL_STATUS)
    assert left >= 0 and left + hh.sectionSize(COL_STATUS) <= table.viewport().width()
    widest = max(table.fontMetrics().horizontalAdvance(s.value) for s in Status)
    assert hh.sectionSize(COL_STATUS) >= widest + 8
    header = hh.fontMetrics().horizontalAdvance(HEADERS[COL_STATUS])
    assert hh.sectionSize(COL_STATUS) >= header + 8


@pytest.mark.parametrize("size", ["1280x720", "1366x768"])
def test_under_x_trends_answers_the_lead_without_scrolling(tmp_path: Path, size: str) -> None:
    """Issue 24: on a laptop screen, as a first run opens the window, with the spike banner
    up: the headline and the error groups with the lead's columns, whole, on the screen."""
    from triage_app.core.db import open_workspace
    from triage_app.core.demo.morning import fill_morning

    ws = tmp_path / "morning"
    with open_workspace(ws) as w:
        fill_morning(w, "data")
    width, height = (int(v) for v in size.split("x"))
    xvfb = (xvfb_run(), "--auto-servernum", f"--server-args=-screen 0 {size}x24")
    got = place_window(tmp_path / "home", ws, "xcb", prefix=xvfb, trends=True)
    screen = QRect(0, 0, width, height)
    assert got["banner"] is not None and inside(QRect(*got["banner"]), screen)
    for tile in got["tiles"]:
        assert inside(QRect(*tile), screen), tile
    viewport = QRect(*got["groups_viewport"])
    assert inside(viewport, screen)
    for left, width_ in got["columns"]:  # oldest open, owner, tags, note
        assert left >= 0 and left + width_ <= viewport.width()
    assert got["rows_seen"] >= 5
    assert got["owned_rows"] and max(got["owned_rows"]) < got["rows_seen"]
