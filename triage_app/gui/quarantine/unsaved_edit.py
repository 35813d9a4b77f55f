"""An edit in the payload editor is never dropped without asking: before anything that
would replace it (another row, a refresh, a re-drive, another workspace, closing), the
steward is asked Save / Discard / Cancel, as an editor asks."""

from __future__ import annotations

import enum
from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QMessageBox, QWidget

from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.detail_pane import DetailPane

Button = QMessageBox.StandardButton


class Doing(enum.Enum):
    """What would replace the edit: each has its own whole questions (a translator sees
    the sentence, never a verb glued into one)."""

    REFRESHING = "refreshing"
    CLOSING = "closing"
    SHOWING = "showing"  # another dead letter: %1 is its id
    OPENING = "opening"  # another workspace
    REDRIVING = "redriving"
    LOADING_BATCH = "loading_batch"
    FIXING = "fixing"


# Doing -> (the question when the edit can be saved, the one when it cannot).
_QUESTIONS = {
    Doing.REFRESHING: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard", "Save the edit before refreshing? (The original is kept.)"
        ),
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard", "Discard it before refreshing, or Cancel and fix it?"
        ),
    ),
    Doing.CLOSING: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard", "Save the edit before closing? (The original is kept.)"
        ),
        QT_TRANSLATE_NOOP("UnsavedEditGuard", "Discard it before closing, or Cancel and fix it?"),
    ),
    Doing.SHOWING: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard", "Save the edit before showing #%1? (The original is kept.)"
        ),
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard", "Discard it before showing #%1, or Cancel and fix it?"
        ),
    ),
    Doing.OPENING: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Save the edit before opening another workspace? (The original is kept.)",
        ),
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Discard it before opening another workspace, or Cancel and fix it?",
        ),
    ),
    Doing.REDRIVING: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Save the edit before re-driving (a re-drive uses stored payloads)? "
            "(The original is kept.)",
        ),
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Discard it before re-driving (a re-drive uses stored payloads), or Cancel and fix it?",
        ),
    ),
    Doing.LOADING_BATCH: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Save the edit before loading a whole batch (it uses stored payloads)? "
            "(The original is kept.)",
        ),
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Discard it before loading a whole batch (it uses stored payloads), "
            "or Cancel and fix it?",
        ),
    ),
    Doing.FIXING: (
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Save the edit before fixing rows (a fix patches stored payloads)? "
            "(The original is kept.)",
        ),
        QT_TRANSLATE_NOOP(
            "UnsavedEditGuard",
            "Discard it before fixing rows (a fix patches stored payloads), or Cancel and fix it?",
        ),
    ),
}


class UnsavedEditGuard:
    """Asks about the detail pane's unsaved edit, with ``parent`` as the question's window."""

    def __init__(self, detail: DetailPane, parent: QWidget) -> None:
        self.detail = detail
        self.parent = parent

    def ask(self, doing: Doing, dead_letter: int | None = None) -> Button:
        """Save / Discard / Cancel for the edit, before ``doing`` (``dead_letter``: the one
        it would show). An edit that is not valid JSON cannot be saved: Discard / Cancel
        only."""
        self.detail.validate_now()
        save_first, discard_first = _QUESTIONS[doing]
        which = "" if dead_letter is None else str(dead_letter)  # an id: never grouped
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            translate("UnsavedEditGuard", "Unsaved edit"),
            fill(
                translate(
                    "UnsavedEditGuard", "The payload of dead letter #%1 was edited and not saved."
                ),
                str(self.detail.current_id()),
            ),
            Button.NoButton,
            self.parent,
        )
        box.setObjectName("unsavedEditDialog")
        if self.detail.can_save():
            box.setInformativeText(fill(translate("UnsavedEditGuard", save_first), which))
            box.setStandardButtons(Button.Save | Button.Discard | Button.Cancel)
            box.setDefaultButton(Button.Save)
        else:
            problem = self.detail.problem() or translate("UnsavedEditGuard", "not valid")
            box.setInformativeText(
                fill(translate("UnsavedEditGuard", "It cannot be saved: %1."), problem)
                + "\n"
                + fill(translate("UnsavedEditGuard", discard_first), which)
            )
            box.setStandardButtons(Button.Discard | Button.Cancel)
            box.setDefaultButton(Button.Cancel)
        box.setEscapeButton(Button.Cancel)
        box.exec()
        clicked = box.clickedButton()
        answer = box.standardButton(clicked) if clicked is not None else Button.Cancel
        dispose(box)  # now: a later event loop may belong to another workspace
        return answer if answer in (Button.Save, Button.Discard) else Button.Cancel

    def then(
        self, doing: Doing, action: Callable[[], None], *, dead_letter: int | None = None
    ) -> bool:
        """Run ``action`` now when the editor holds no unsaved edit; otherwise ask. Save runs
        it once the edit is stored, Discard at once; Cancel (False) does not run it."""
        if not self.detail.is_dirty():
            action()
            return True
        answer = self.ask(doing, dead_letter)
        if answer == Button.Save:
            return self.detail.save_then(action)
        if answer == Button.Discard:
            self.detail.discard_edit()
            action()
            return True
        return False
