"""When someone else changed the dead letter being edited: the conflict flow.

A save is optimistic: it names the version the editor was loaded from, and core refuses it
when someone changed the dead letter since. The refusal comes back as a value (theirs, as
stored now), and the banner above the editor offers Reload (theirs) or Compare (theirs and
mine side by side, then Keep mine or Take theirs). When the window notices another
steward's change to the row being edited, the same offer appears; the edit is never
replaced without the steward's word.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QMessageBox

from triage_app.core.deadletters import DeadLetterDetail, editable_payload
from triage_app.gui.audit.model import action_label
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.conflict_dialog import Choice, ConflictDialog
from triage_app.gui.quarantine.model import shown_time

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import SignalInstance

    from triage_app.gui.quarantine.payload_editor import PayloadEditor


@dataclass(frozen=True)
class SaveConflict:
    """A save refused because the dead letter moved on since the editor loaded it."""

    message: str
    theirs: DeadLetterDetail  # as stored now


@dataclass(frozen=True)
class SaveRefused:
    """A save refused for a reason no choice fixes now (a re-drive holds the row, or its
    status takes no edit); the edit stays in the editor."""

    message: str


SaveResult = DeadLetterDetail | SaveConflict | SaveRefused


def changed_by(d: DeadLetterDetail) -> str:
    """The latest change in the history: ``edited by alice at 1 Mar 2026 10:00:00``."""
    if not d.events:
        return translate("ConflictFlow", "changed")
    e = d.events[-1]
    return fill(
        translate("ConflictFlow", "%1 by %2 at %3"),
        action_label(e.action),
        e.actor,
        shown_time(e.at, seconds=True),
    )


class EditingPane(Protocol):
    """What the flow asks of the pane whose edit it guards (``DetailPane``, which builds the
    flow: a protocol keeps the import arrow one way)."""

    payload: PayloadEditor
    message: SignalInstance

    def is_dirty(self) -> bool: ...
    def problem(self) -> str: ...
    def validate_now(self) -> None: ...
    def update_title(self) -> None: ...
    def version(self) -> int | None: ...
    def save_then(self, after: Callable[[], None] | None) -> bool: ...
    def show_detail(self, d: DeadLetterDetail, *, keep_text: bool) -> None: ...


class ConflictFlow(QObject):
    """The pane's newer version of the row (``theirs``), the banner that offers it, and
    what Reload and Compare do with the edit."""

    def __init__(self, pane: EditingPane) -> None:
        super().__init__(pane)
        self.pane = pane
        self.banner = pane.payload.banner
        # The dead letter as someone else stored it after the editor loaded it, while the
        # editor holds an unsaved edit: what Reload and Compare offer. None otherwise.
        self.theirs: DeadLetterDetail | None = None
        self.dialog: ConflictDialog | None = None  # while Compare is open
        self.banner.reloadClicked.connect(self.reload_theirs)
        self.banner.compareClicked.connect(self.compare)

    def offer(self, theirs: DeadLetterDetail, saving: bool) -> None:
        """The banner: who changed the row and when, with Reload and Compare; the pane's
        title says the row as stored now (its status, its attempts)."""
        self.theirs = theirs
        self.pane.update_title()
        last = theirs.events[-1] if theirs.events else None
        e = html.escape
        if last is not None:
            who = fill(
                translate("ConflictFlow", "Changed by %1 at %2 (%3)"),
                e(last.actor),
                e(shown_time(last.at, seconds=True)),
                e(action_label(last.action)),
            )
        else:
            who = fill(translate("ConflictFlow", "Changed (now version %1)"), str(theirs.version))
        if saving:
            text = fill(
                translate(
                    "ConflictFlow",
                    "<b>Not saved:</b> #%1 changed after you opened it. %2; your edit is kept.",
                ),
                str(theirs.id),
                who,
            )
        else:
            text = fill(
                translate("ConflictFlow", "<b>%1</b> while you were editing; your edit is kept."),
                who,
            )
        self.banner.offer(text)

    def forget(self) -> None:
        self.theirs = None
        self.banner.hide()
        self.pane.update_title()

    def refused(self, result: SaveConflict | SaveRefused) -> None:
        """A save that did not go through: theirs offered, or why no choice helps now."""
        if isinstance(result, SaveConflict):
            self.offer(result.theirs, saving=True)
        else:
            self.banner.say(
                fill(
                    translate("ConflictFlow", "<b>Not saved:</b> %1. Your edit is kept."),
                    html.escape(result.message),
                )
            )
        self.pane.message.emit(fill(translate("ConflictFlow", "not saved: %1"), result.message))

    @Slot()
    def reload_theirs(self) -> None:
        """Banner > Reload: theirs replaces the edit, once the steward says so."""
        theirs, pane = self.theirs, self.pane
        if theirs is None:
            return
        if pane.is_dirty():
            box = QMessageBox(
                QMessageBox.Icon.Question,
                translate("ConflictFlow", "Reload"),
                fill(
                    translate(
                        "ConflictFlow",
                        "Drop your edit of dead letter #%1 and show it as stored now (%2)?",
                    ),
                    str(theirs.id),
                    changed_by(theirs),
                ),
                QMessageBox.StandardButton.Cancel,
                pane,
            )
            box.setObjectName("reloadTheirsDialog")
            drop = box.addButton(
                translate("ConflictFlow", "Drop my edit and reload"),
                QMessageBox.ButtonRole.DestructiveRole,
            )
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            confirmed = box.clickedButton() is drop
            dispose(box)
            if not confirmed:
                return
        pane.show_detail(theirs, keep_text=False)
        pane.message.emit(
            fill(
                translate("ConflictFlow", "dead letter %1 reloaded (%2)"),
                str(theirs.id),
                changed_by(theirs),
            )
        )

    @Slot()
    def compare(self) -> None:
        """Banner > Compare: theirs and mine side by side; Keep mine saves the edit at
        their version (the edit's event keeps theirs), Take theirs drops it."""
        theirs, pane = self.theirs, self.pane
        mine_based_on = pane.version()
        if theirs is None or mine_based_on is None:
            return
        theirs_text = editable_payload(
            theirs.payload_bytes, theirs.payload_kind, theirs.csv_header
        ).text
        dialog = ConflictDialog(theirs, theirs_text, pane.payload.text(), mine_based_on, pane)
        self.dialog = dialog
        dialog.exec()
        self.dialog = None
        choice = dialog.choice
        dispose(dialog)
        if choice is Choice.TAKE_THEIRS:
            pane.show_detail(theirs, keep_text=False)
            pane.message.emit(
                fill(
                    translate("ConflictFlow", "dead letter %1: took theirs (%2)"),
                    str(theirs.id),
                    changed_by(theirs),
                )
            )
        elif choice is Choice.KEEP_MINE:
            # Their version becomes the one the edit replaces; the editor keeps mine.
            pane.show_detail(theirs, keep_text=True)
            pane.validate_now()
            if not pane.is_dirty():
                pane.message.emit(
                    fill(
                        translate("ConflictFlow", "dead letter %1: yours and theirs are the same"),
                        str(theirs.id),
                    )
                )
            elif not pane.save_then(None):
                problem = pane.problem() or translate("ConflictFlow", "it takes no edit now")
                pane.message.emit(fill(translate("ConflictFlow", "not saved: %1"), problem))
