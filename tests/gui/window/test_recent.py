"""A recent workspace that is gone is said to be gone, and offered to be taken off the list,
never made anew; a folder without a workspace becomes one only when the steward says so
(issue 20: on an unmounted share a steward saw an empty queue and thought the rows gone)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QCommandLinkButton, QMessageBox

from triage_app.core.db import open_workspace
from triage_app.core.places import STORE_FILE
from triage_app.gui.app import first_window
from triage_app.gui.settings import Settings
from triage_app.gui.window.main_window import MainWindow
from triage_app.gui.window.opening import GONE_NOTE

Yes, No, Cancel = (
    QMessageBox.StandardButton.Yes,
    QMessageBox.StandardButton.No,
    QMessageBox.StandardButton.Cancel,
)


@pytest.fixture
def windows(qtbot):  # type: ignore[no-untyped-def]
    made: list[MainWindow] = []

    def keep(w: MainWindow) -> MainWindow:
        qtbot.addWidget(w)
        w.show()
        made.append(w)
        return w

    yield keep
    for w in made:
        w.close_workspace()


@pytest.fixture
def share(tmp_path: Path) -> Path:
    """A workspace on a share, opened once (so it is a recent one), then unmounted: its
    folder is gone."""
    folder = tmp_path / "share" / "orders"
    with open_workspace(folder):
        pass
    Settings().add_recent_workspace(str(folder))
    shutil.rmtree(tmp_path / "share")
    return folder


def recent_action(w: MainWindow, folder: Path):  # type: ignore[no-untyped-def]
    w.menu.recent_menu.aboutToShow.emit()  # as when the menu opens
    (action,) = [a for a in w.menu.recent_menu.actions() if a.text().startswith(str(folder))]
    return action


def test_a_gone_recent_workspace_from_the_file_menu_is_said_gone_never_made(
    windows, share: Path, dialogs
) -> None:  # type: ignore[no-untyped-def]
    w = windows(MainWindow(None))
    action = recent_action(w, share)
    assert action.text() == f"{share}  (not found)"
    assert GONE_NOTE in action.statusTip()

    dialogs.answer(No)  # keep it: the share may come back
    action.trigger()
    (box,) = dialogs.seen
    assert box["name"] == "recentGoneBox"
    assert f"is gone: the folder {share} is not there" in box["text"]
    assert f"nothing was created in {share}" in box["text"]
    assert not share.parent.exists()  # nothing made
    assert w.showing_welcome() and w.ws is None
    assert Settings().recent_workspaces() == [str(share)]

    dialogs.answer(Yes)  # remove it from the list
    recent_action(w, share).trigger()
    assert Settings().recent_workspaces() == []
    assert not share.parent.exists()
    assert "removed" in w.statusBar().currentMessage()


def test_the_welcome_page_marks_a_gone_workspace_and_offers_to_forget_it(
    windows, share: Path, demo_workspace: Path, dialogs, qtbot
) -> None:  # type: ignore[no-untyped-def]
    Settings().add_recent_workspace(str(demo_workspace))
    w = windows(MainWindow(None))
    buttons = {b.text(): b for b in w.welcome.findChildren(QCommandLinkButton, "welcomeRecent")}
    assert buttons[str(share)].description() == GONE_NOTE
    assert buttons[str(demo_workspace)].description() == ""  # it is there

    dialogs.answer(Yes)
    buttons[str(share)].click()
    assert [d["name"] for d in dialogs.seen] == ["recentGoneBox"]
    assert not share.parent.exists()
    assert Settings().recent_workspaces() == [str(demo_workspace)]
    qtbot.waitUntil(
        lambda: (
            [b.text() for b in w.welcome.findChildren(QCommandLinkButton, "welcomeRecent")]
            == [str(demo_workspace)]
        )
    )


def test_an_empty_mount_point_is_not_taken_for_an_empty_workspace(
    windows, tmp_path: Path, dialogs
) -> None:  # type: ignore[no-untyped-def]
    mount = tmp_path / "mnt" / "team"
    with open_workspace(mount):
        pass
    Settings().add_recent_workspace(str(mount))
    for name in mount.iterdir():  # unmounted: the mount point is there, empty
        name.unlink()
    w = windows(MainWindow(None))
    dialogs.answer(No)
    recent_action(w, mount).trigger()
    assert "has no dead_letter.db" in dialogs.seen[0]["text"]
    assert list(mount.iterdir()) == [] and w.ws is None


def test_a_chosen_folder_without_a_workspace_becomes_one_only_if_confirmed(
    windows, tmp_path: Path, dialogs, qtbot
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "new"
    folder.mkdir()
    w = windows(MainWindow(None))
    dialogs.answer(Cancel)
    w.workspaces.open_folder(str(folder))  # what Open workspace folder… does with the chosen folder
    (box,) = dialogs.seen
    assert box["name"] == "newWorkspaceBox"
    assert "Make a new, empty workspace" in box["text"] and STORE_FILE in box["text"]
    assert list(folder.iterdir()) == [] and w.showing_welcome()

    dialogs.answer(Yes)
    w.workspaces.open_folder(str(folder))
    qtbot.waitUntil(lambda: w.model.total() is not None)
    assert (folder / STORE_FILE).is_file() and not w.showing_welcome()
    assert w.model.total() == 0


def test_a_chosen_folder_with_a_workspace_opens_without_a_question(
    windows, demo_workspace: Path, dialogs, qtbot
) -> None:  # type: ignore[no-untyped-def]
    w = windows(MainWindow(None))
    w.workspaces.open_folder(str(demo_workspace))
    qtbot.waitUntil(lambda: w.model.total() is not None)
    assert dialogs.seen == [] and w.model.total() == 4


def test_started_on_a_named_folder_that_is_gone_the_app_asks_first(
    windows, tmp_path: Path, dialogs, qtbot
) -> None:  # type: ignore[no-untyped-def]
    gone = tmp_path / "unmounted" / "ws"
    dialogs.answer(Cancel)
    w = windows(first_window(gone))  # triage-app --workspace …/unmounted/ws
    assert dialogs.seen[0]["name"] == "newWorkspaceBox"
    assert "is not there" in dialogs.seen[0]["text"]
    assert w.showing_welcome() and not gone.parent.exists()

    dialogs.answer(Yes)
    w2 = windows(first_window(gone))
    qtbot.waitUntil(lambda: w2.model.total() is not None)
    assert (gone / STORE_FILE).is_file() and not w2.showing_welcome()
