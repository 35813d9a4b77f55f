"""Before any workspace is open the window shows the ways in (issue 12): the demo, a
folder, a team store, an empty workspace, the recent ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from triage_app.core.db import open_workspace
from triage_app.core.places import STORE_FILE, is_first_run
from triage_app.gui.settings import Settings
from triage_app.gui.window.main_window import MainWindow


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The platform's data folder (platformdirs reads XDG_DATA_HOME), empty, and nothing
    named in the environment."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    for name in ("TRIAGE_WORKSPACE", "TRIAGE_WAREHOUSE_URL", "TRIAGE_DEAD_LETTER_URL"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def welcome(qtbot):  # type: ignore[no-untyped-def]
    windows = []

    def make() -> MainWindow:
        w = MainWindow(None)
        qtbot.addWidget(w)
        w.show()
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.close_workspace()


def test_a_first_run_is_nothing_named_and_no_default_workspace(data_home: Path) -> None:
    assert is_first_run()
    assert not is_first_run("some/folder")
    assert not is_first_run(urls=("postgresql://h/db", None))
    assert not is_first_run(env={"TRIAGE_WORKSPACE": "elsewhere"})
    with open_workspace(data_home / "triage-desk" / "workspace"):
        pass
    assert (data_home / "triage-desk" / "workspace" / STORE_FILE).is_file()
    assert not is_first_run()  # the default workspace is there now


def test_with_no_workspace_the_window_welcomes(data_home: Path, welcome) -> None:  # type: ignore[no-untyped-def]
    w = welcome()
    assert w.showing_welcome()
    names = {b.accessibleName() for b in w.welcome.buttons.values()}
    assert names == {
        "Open the demo",
        "Open a workspace folder",
        "Connect to a team store",
        "Start an empty workspace",
    }
    assert all(b.accessibleDescription() for b in w.welcome.buttons.values())
    assert not w.welcome.recent_title.isVisible()  # nothing opened yet


def test_open_the_demo_makes_it_once_and_opens_it(data_home: Path, welcome, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = welcome()
    qtbot.mouseClick(w.welcome.buttons["demo"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.model.total() is not None)
    assert not w.showing_welcome()
    demo = data_home / "triage-desk" / "demo"
    assert w.config is not None and w.config.folder == demo.resolve()
    assert w.model.total() == 4  # the seed batch's four dead letters
    w.workspaces.open_demo()  # again: the batch is not run twice
    qtbot.waitUntil(lambda: w.model.total() is not None and not w.queries.busy())
    assert w.model.total() == 4


def test_start_an_empty_workspace_in_the_data_folder(data_home: Path, welcome, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = welcome()
    qtbot.mouseClick(w.welcome.buttons["new"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.model.total() is not None)
    assert not w.showing_welcome() and w.model.total() == 0
    assert (data_home / "triage-desk" / "workspace" / STORE_FILE).is_file()


def test_a_recent_workspace_opens_from_the_welcome_page(
    data_home: Path, welcome, qtbot, demo_workspace: Path
) -> None:  # type: ignore[no-untyped-def]
    Settings().add_recent_workspace(str(demo_workspace))
    w = welcome()
    assert w.welcome.recent_title.isVisible()
    (button,) = w.welcome.findChildren(type(w.welcome.buttons["demo"]), "welcomeRecent")
    assert button.text() == str(demo_workspace)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.model.total() is not None)
    assert not w.showing_welcome() and w.config.folder == demo_workspace.resolve()
