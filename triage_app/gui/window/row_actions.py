"""What a steward does to the selected rows by hand: reclassify, park, discard (with a
reason), reopen, add a note. Each is one audited core call on the query thread; the
actions sit in the Re-drive menu and the table's context menu."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from triage_app.core.db import Workspace
from triage_app.core.deadletters import add_note, reclassify, set_status
from triage_app.core.vocabulary import ErrorClass, Status
from triage_app.gui.workers import QueryThread

# Acting on more rows than this by id is refused; acting on "all matching" goes by filter.
MAX_SELECTED_IDS = 10_000


def _on_ids(fn: Callable[..., int], ids: Sequence[int], *args: Any, **kw: Any) -> Any:
    def run(ws: Workspace) -> int:
        return fn(ws, list(ids), *args, **kw)

    return run


class RowActions(QObject):
    """The actions, and running them on the rows ``selected_ids()`` returns (None: more
    than MAX_SELECTED_IDS are selected)."""

    message = Signal(str)  # one line for the status bar
    changed = Signal()  # rows changed: read the store again

    def __init__(self, selected_ids: Callable[[int], list[int] | None], parent: QWidget) -> None:
        super().__init__(parent)
        self._window = parent
        self._selected_ids = selected_ids
        self.queries: QueryThread | None = None

        def act(text: str, slot: Callable[[], None], tip: str = "") -> QAction:
            action = QAction(text, parent)
            if tip:
                action.setStatusTip(tip)
                action.setToolTip(tip)
            action.triggered.connect(slot)
            parent.addAction(action)
            return action

        self.as_data_action = act("Reclassify as &data", partial(self.reclassify, ErrorClass.DATA))
        self.as_code_action = act("Reclassify as &code", partial(self.reclassify, ErrorClass.CODE))
        self.park_action = act("&Park", self.park, "Set aside: needs a person")
        self.discard_action = act("&Discard…", self.discard, "Junk: kept for the audit")
        self.reopen_action = act("Re&open", self.reopen, "Back to open")
        self.note_action = act("Add &note…", self.add_note)

    def actions(self) -> list[QAction]:
        return [
            self.as_data_action,
            self.as_code_action,
            self.park_action,
            self.discard_action,
            self.reopen_action,
            self.note_action,
        ]

    def set_enabled(self, enabled: bool) -> None:
        for action in self.actions():
            action.setEnabled(enabled)

    def ids_or_complain(self) -> list[int] | None:
        """The selected ids, or None after saying why there are none to act on."""
        ids = self._selected_ids(MAX_SELECTED_IDS)
        if ids is None:
            self.message.emit(
                f"more than {MAX_SELECTED_IDS:,} rows selected: narrow the filter, "
                "or use Re-drive / Export on the whole filter"
            )
            return None
        if not ids:
            self.message.emit("select one or more dead letters first")
            return None
        return ids

    # -- the actions ----------------------------------------------------------------------
    def reclassify(self, error_class: ErrorClass, _checked: bool = False) -> None:
        ids = self.ids_or_complain()
        if ids:
            self._run(_on_ids(reclassify, ids, error_class), f"reclassified as {error_class}")

    @Slot()
    def park(self) -> None:
        ids = self.ids_or_complain()
        if ids:
            self._run(_on_ids(set_status, ids, Status.PARKED, reason="parked by hand"), "parked")

    @Slot()
    def discard(self) -> None:
        ids = self.ids_or_complain()
        if not ids:
            return
        reason, ok = QInputDialog.getText(
            self._window,
            "Discard",
            f"Why are these {len(ids):,} dead letters junk? (kept for the audit)",
        )
        if ok and reason.strip():
            self._run(_on_ids(set_status, ids, Status.DISCARDED, reason=reason), "discarded")
        elif ok:
            self.message.emit("discarding needs a reason")

    @Slot()
    def reopen(self) -> None:
        ids = self.ids_or_complain()
        if ids:
            self._run(_on_ids(set_status, ids, Status.OPEN, reason="reopened"), "reopened")

    @Slot()
    def add_note(self) -> None:
        ids = self.ids_or_complain()
        if not ids:
            return
        note, ok = QInputDialog.getMultiLineText(
            self._window, "Add a note", "Note for the history:"
        )
        if ok and note.strip():
            self._run(_on_ids(add_note, ids, note), "noted")

    # -- running --------------------------------------------------------------------------
    def _run(self, fn: Callable[[Workspace], int], verb: str) -> None:
        if self.queries is not None:
            self.queries.submit(fn, partial(self._done, verb), self._failed)

    def _done(self, verb: str, n: int) -> None:
        self.message.emit(f"{n:,} dead letter{'s' if n != 1 else ''} {verb}")
        self.changed.emit()

    def _failed(self, message: str) -> None:
        QMessageBox.warning(self._window, "Not done", message)
