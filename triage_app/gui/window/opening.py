"""Opening a workspace folder without making one by surprise.

Opening a folder with no store in it would make an empty workspace there. For a recent
workspace that is a lie: its folder was moved or deleted, or it sits on a share that is not
mounted now, and an empty queue would look as if its rows were gone. So a recent workspace
that is not there is said to be gone, and offered to be taken off the list; a folder the
steward chose (Open workspace folder…, or named at start) becomes a new workspace only once
they say so. Core's ``missing_workspace`` decides what is missing; this asks.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QMessageBox, QWidget

from triage_app.core.db import missing_workspace, resolve_config
from triage_app.core.places import STORE_FILE, WAREHOUSE_FILE
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose

GONE_NOTE = QT_TRANSLATE_NOOP(
    "opening", "not found: moved, deleted, or on a drive or share that is not connected"
)


def gone_note() -> str:
    """What a recent workspace that is not there says, in the user's language."""
    return translate("opening", GONE_NOTE)


def gone_tip(problem: str) -> str:
    """Why a recent workspace is not there (core's words), and what that may mean."""
    return fill(translate("opening", "%1: %2"), problem, gone_note())


def folder_problem(folder: str) -> str | None:
    """Why ``folder`` holds no workspace to open, or None when it holds one."""
    return missing_workspace(resolve_config(folder, env={}))


def gone_recent(folders: Iterable[str]) -> dict[str, str]:
    """The recent folders that hold no workspace now, with why."""
    out = {}
    for folder in folders:
        problem = folder_problem(folder)
        if problem is not None:
            out[folder] = problem
    return out


def _box(parent: QWidget, name: str, title: str, text: str, more: str) -> QMessageBox:
    box = QMessageBox(parent)
    box.setObjectName(name)
    box.setWindowTitle(title)
    box.setText(text)
    box.setInformativeText(more)
    return box


def _asked(box: QMessageBox) -> int:
    """The steward's answer; the box is gone once it is given (gui/lifetime.py), not kept
    as the window's child until the window goes."""
    answer = box.exec()
    dispose(box)
    return answer


def ask_remove_recent(parent: QWidget, folder: str, problem: str) -> bool:
    """Says the recent workspace is gone; True when the steward takes it off the list."""
    box = _box(
        parent,
        "recentGoneBox",
        translate("opening", "Recent workspace not found"),
        fill(translate("opening", "The recent workspace is gone: %1."), problem),
        fill(
            translate(
                "opening",
                "It may have been moved or deleted, or it is on a drive or share that is not "
                "connected now. Nothing was opened, and nothing was created in %1.\n\n"
                "Remove it from the list of recent workspaces?",
            ),
            folder,
        ),
    )
    box.setIcon(QMessageBox.Icon.Warning)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.Yes).setText(translate("opening", "Remove from the list"))
    box.button(QMessageBox.StandardButton.No).setText(translate("opening", "Keep it"))
    box.setDefaultButton(QMessageBox.StandardButton.No)
    return _asked(box) == QMessageBox.StandardButton.Yes


def ask_create(parent: QWidget, folder: str, problem: str) -> bool:
    """Asks before a folder the steward chose becomes a new, empty workspace."""
    box = _box(
        parent,
        "newWorkspaceBox",
        translate("opening", "No workspace here"),
        fill(translate("opening", "%1."), problem[:1].upper() + problem[1:]),
        fill(
            translate(
                "opening",
                "Make a new, empty workspace in %1? It adds %2 and %3 there (and the folder, "
                "if it is not there); then load a file with Batch → Run batch…\n\n"
                "If you expected dead letters here, choose Cancel and check the folder: a "
                "workspace on a share shows only while the share is connected.",
            ),
            folder,
            WAREHOUSE_FILE,
            STORE_FILE,
        ),
    )
    box.setIcon(QMessageBox.Icon.Question)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText(translate("opening", "Make a new workspace"))
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return _asked(box) == QMessageBox.StandardButton.Yes
