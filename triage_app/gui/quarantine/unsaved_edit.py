"""An edit in the payload editor is never dropped without asking: before anything that
would replace it (another row, a refresh, a re-drive, another workspace, closing), the
steward is asked Save / Discard / Cancel, as an editor asks."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget

from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.detail_pane import DetailPane

Button = QMessageBox.StandardButton


class UnsavedEditGuard:
    """Asks about the detail pane's unsaved edit, with ``parent`` as the question's window."""

    def __init__(self, detail: DetailPane, parent: QWidget) -> None:
        self.detail = detail
        self.parent = parent

    def ask(self, doing: str) -> Button:
        """Save / Discard / Cancel for the edit, before ``doing``. An edit that is not
        valid JSON cannot be saved: Discard / Cancel only."""
        self.detail.validate_now()
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Unsaved edit",
            f"The payload of dead letter #{self.detail.current_id()} was edited and not saved.",
            Button.NoButton,
            self.parent,
        )
        box.setObjectName("unsavedEditDialog")
        if self.detail.can_save():
            box.setInformativeText(f"Save the edit before {doing}? (The original is kept.)")
            box.setStandardButtons(Button.Save | Button.Discard | Button.Cancel)
            box.setDefaultButton(Button.Save)
        else:
            box.setInformativeText(
                f"It cannot be saved: {self.detail.problem() or 'not valid'}.\n"
                f"Discard it before {doing}, or Cancel and fix it?"
            )
            box.setStandardButtons(Button.Discard | Button.Cancel)
            box.setDefaultButton(Button.Cancel)
        box.setEscapeButton(Button.Cancel)
        box.exec()
        clicked = box.clickedButton()
        answer = box.standardButton(clicked) if clicked is not None else Button.Cancel
        dispose(box)  # now: a later event loop may belong to another workspace
        return answer if answer in (Button.Save, Button.Discard) else Button.Cancel

    def then(self, doing: str, action: Callable[[], None]) -> bool:
        """Run ``action`` now when the editor holds no unsaved edit; otherwise ask. Save runs
        it once the edit is stored, Discard at once; Cancel (False) does not run it."""
        if not self.detail.is_dirty():
            action()
            return True
        answer = self.ask(doing)
        if answer == Button.Save:
            return self.detail.save_then(action)
        if answer == Button.Discard:
            self.detail.discard_edit()
            action()
            return True
        return False
