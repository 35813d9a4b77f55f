"""What a steward does to the selected rows by hand: reclassify, park, discard (with a
reason), reopen, add a note. Each is one audited core call on the query thread; the
actions sit in the Re-drive menu and the table's context menu.

Each change names the versions the table showed (``expected=``): a row someone changed
since the table read it is refused with who changed it and when, and nothing is written;
the table is then read again, so the steward decides on what is there now."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    ChangedMeanwhile,
    ChangeReport,
    RowChange,
    apply_change,
    note,
    park,
    reclassify_as,
    reopen,
)
from triage_app.core.vocabulary import ErrorClass
from triage_app.gui.i18n import fill, translate
from triage_app.gui.workers import QueryThread

# Acting on more rows than this by id is refused; acting on "all matching" goes by filter.
MAX_SELECTED_IDS = 10_000


@dataclass(frozen=True)
class Stale:
    """A change refused because a row moved on since the table showed it."""

    message: str


def _change(
    make: Callable[[], RowChange], versions: Mapping[int, int], guarded: bool = True
) -> Callable[[Workspace], ChangeReport | Stale]:
    """The change on these rows, all or nothing; guarded by their versions unless not
    ``guarded``. ``make`` runs in the worker, so a bad reason is reported as any refusal."""
    ids = sorted(versions)
    expected = dict(versions) if guarded else None

    def run(ws: Workspace) -> ChangeReport | Stale:
        try:
            return apply_change(ws, ids, make(), expected=expected)
        except ChangedMeanwhile as exc:
            return Stale(str(exc))

    return run


class RowActions(QObject):
    """The actions, and running them on the rows ``selected_ids()`` returns (None: more
    than MAX_SELECTED_IDS are selected)."""

    message = Signal(str)  # one line for the status bar
    changed = Signal()  # rows changed: read the store again
    # Discard… opens the discard dialog (a preview naming the rows, then the count).
    discardRequested = Signal()

    def __init__(
        self,
        selected_ids: Callable[[int], list[int] | None],
        parent: QWidget,
        versions: Callable[[int], dict[int, int] | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._window = parent
        self._selected_ids = selected_ids
        # id -> version the table showed, for the selected rows (None: too many). Without
        # it the changes are guarded by status only.
        self._versions = versions
        self.queries: QueryThread | None = None

        def act(text: str, slot: Callable[[], None], tip: str = "") -> QAction:
            action = QAction(text, parent)
            if tip:
                action.setStatusTip(tip)
                action.setToolTip(tip)
            action.triggered.connect(slot)
            parent.addAction(action)
            return action

        self.as_data_action = act(
            translate("RowActions", "Reclassify as &data"),
            partial(self.reclassify, ErrorClass.DATA),
        )
        self.as_code_action = act(
            translate("RowActions", "Reclassify as &code"),
            partial(self.reclassify, ErrorClass.CODE),
        )
        self.park_action = act(
            translate("RowActions", "&Park"),
            self.park,
            translate("RowActions", "Set aside: needs a person"),
        )
        self.discard_action = act(
            translate("RowActions", "&Discard…"),
            self.discard,
            translate("RowActions", "Junk: kept for the audit; Reopen brings it back"),
        )
        self.reopen_action = act(
            translate("RowActions", "Re&open"), self.reopen, translate("RowActions", "Back to open")
        )
        self.note_action = act(translate("RowActions", "Add &note…"), self.add_note)

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
        versions = self.versions_or_complain()
        return None if versions is None else sorted(versions)

    def versions_or_complain(self) -> dict[int, int] | None:
        """Id -> the version the table showed for each selected row (0: not known, so
        not guarded), or None after saying why there are none to act on."""
        if self._versions is not None:
            versions = self._versions(MAX_SELECTED_IDS)
        else:
            ids = self._selected_ids(MAX_SELECTED_IDS)
            versions = None if ids is None else dict.fromkeys(ids, 0)
        if versions is None:
            self.message.emit(
                fill(
                    translate(
                        "RowActions",
                        "more than %1 rows selected: narrow the filter, "
                        "or use Re-drive / Export on the whole filter",
                    ),
                    MAX_SELECTED_IDS,
                )
            )
            return None
        if not versions:
            self.message.emit(translate("RowActions", "select one or more dead letters first"))
            return None
        return versions

    # -- the actions ----------------------------------------------------------------------
    def reclassify(self, error_class: ErrorClass, _checked: bool = False) -> None:
        versions = self.versions_or_complain()
        if versions:
            self._run(partial(reclassify_as, error_class), versions)

    @Slot()
    def park(self) -> None:
        versions = self.versions_or_complain()
        if versions:
            self._run(partial(park, "parked by hand"), versions)

    @Slot()
    def discard(self) -> None:
        """Discard… : the dialog previews the rows (the selection or the filter's), names
        the count, asks the reason, and discards exactly those."""
        self.discardRequested.emit()

    @Slot()
    def reopen(self) -> None:
        versions = self.versions_or_complain()
        if versions:
            self._run(partial(reopen, "reopened"), versions)

    @Slot()
    def add_note(self) -> None:
        versions = self.versions_or_complain()
        if not versions:
            return
        text, ok = QInputDialog.getMultiLineText(
            self._window,
            translate("RowActions", "Add a note"),
            translate("RowActions", "Note for the history:"),
        )
        if ok and text.strip():
            # A note says something about the row whatever happened to it since: unguarded.
            self._run(partial(note, text), versions, guarded=False)

    # -- running --------------------------------------------------------------------------
    def _run(
        self,
        make: Callable[[], RowChange],
        versions: Mapping[int, int],
        *,
        guarded: bool = True,
    ) -> None:
        if self.queries is None:
            return
        # Version 0 means "not known": then the rows are guarded by their status alone.
        self.queries.submit(
            _change(make, versions, guarded=guarded and all(versions.values())),
            self._done,
            self._failed,
        )

    def _done(self, result: ChangeReport | Stale) -> None:
        if isinstance(result, Stale):
            self.changed.emit()  # read the store again: the steward decides on what is there
            QMessageBox.warning(
                self._window,
                translate("RowActions", "Not done"),
                fill(
                    translate(
                        "RowActions",
                        "%1\n\nNothing was changed. The table now shows the rows as "
                        "they are; look again, then try again.",
                    ),
                    result.message,
                ),
            )
            return
        self.message.emit(result.describe())  # core's sentence, as the CLI prints it
        self.changed.emit()

    def _failed(self, message: str) -> None:
        QMessageBox.warning(self._window, translate("RowActions", "Not done"), message)
