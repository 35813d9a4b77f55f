"""Starting the app: no display gives one line and exit 2, never Qt's abort; the window
remembers its geometry; the icon ships."""

from __future__ import annotations

import os
import subprocess
import sys

from triage_app.core.places import resources_dir
from triage_app.gui.app import XCB_PACKAGES, display_problem


def test_no_display_is_explained_on_linux():
    problem = display_problem({}, "linux", lambda name: "lib.so")
    assert problem is not None and "DISPLAY" in problem
    assert XCB_PACKAGES in problem and "QT_QPA_PLATFORM=offscreen" in problem


def test_missing_xcb_libraries_are_named():
    problem = display_problem(
        {"DISPLAY": ":0"}, "linux", lambda name: None if name == "xcb-cursor" else "x.so"
    )
    assert problem is not None and "libxcb-cursor" in problem and "xvfb" in problem


def test_display_is_fine_when_set_or_chosen():
    assert display_problem({"DISPLAY": ":0"}, "linux", lambda name: "x.so") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({}, "win32") is None


def test_cli_without_display_says_so_in_one_line_and_exits_2(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    for args in (["gui"], []):
        proc = subprocess.run(
            [sys.executable, "-m", "triage_app", "--workspace", str(tmp_path), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "no display" in lines[0] and "xvfb" in lines[0]


def test_geometry_and_splitter_are_remembered(qtbot, open_main_window, demo_workspace):
    # The offscreen screen is 800x800: stay inside it so nothing is clamped.
    w = open_main_window(demo_workspace)
    w.resize(w.width(), 611)
    w.quarantine.setSizes([500, 300])
    w.table.setColumnWidth(0, 91)
    w.close()
    saved = w.quarantine.saveState()
    again = open_main_window(demo_workspace)
    assert again.height() == 611
    assert again.settings.bytes_value("window/splitter") == saved
    assert again.table.columnWidth(0) == 91


def test_recent_workspaces_keep_no_password(qtbot, window, demo_workspace):
    window.settings.add_recent_connection(
        "postgresql://steward:s3cret@db/warehouse", "postgresql://steward:s3cret@db/triage"
    )
    assert str(demo_workspace) in window.settings.recent_workspaces()
    ((wh, dl),) = window.settings.recent_connections()
    assert "s3cret" not in wh + dl and "steward:***@db" in wh


def test_the_app_icon_ships():
    icons = resources_dir() / "icons"
    assert (icons / "triage-desk.svg").is_file()
    assert (icons / "triage-desk-256.png").is_file()


def test_shortcuts(window):
    shortcuts = {a.text().replace("&", ""): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["Find"] == "Ctrl+F"
    assert shortcuts["Re-drive…"] == "Ctrl+R"
    assert shortcuts["Refresh"] == "F5"
    assert window.detail.payload.save_button.shortcut().toString() == "Ctrl+S"


def test_settings_go_where_triage_settings_dir_says(tmp_path, demo_workspace):
    """The app started as a user would, with TRIAGE_SETTINGS_DIR set: what it remembers
    (the workspace it opened) is in that folder, and nothing in the config home."""
    from tests.support import cli

    home, kept = tmp_path / "home", tmp_path / "kept"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "TRIAGE_EXIT_AFTER_PAINT": str(tmp_path / "painted"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "TRIAGE_SETTINGS_DIR": str(kept),
    }
    out = cli("--workspace", str(demo_workspace), "gui", env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert str(demo_workspace.resolve()) in (kept / "triage-desk.ini").read_text()
    assert not (home / ".config" / "TriageDesk").exists()
