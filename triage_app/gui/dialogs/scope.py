"""Which rows a dialog acts on: one rule for every action on many rows (re-drive, fix,
discard).

The dialog's scope is live: it follows the table's filter and selection while the dialog is
open, and names the rows (their ids, or the filter in words and its count). A preview
freezes the rows it covered; the action acts on exactly those and leaves out, naming them,
any that changed since. When the table's scope changes after a preview, the preview is
dropped and the dialog says so; when only the store changed under the same scope, the
preview stays and the dialog says what the action will and will not cover.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel, QRadioButton, QVBoxLayout, QWidget

from triage_app.core.deadletters import DeadLetterFilter
from triage_app.core.vocabulary import named_ids
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate

SHOWN_IDS = 6  # ids a scope names before "and N more"


@dataclass(frozen=True)
class TableScope:
    """The table as it is now: its store, its filter and how many rows match it, and the
    selection."""

    store: str  # which workspace: the same ids name other rows in another store
    where: DeadLetterFilter
    matching: int | None  # None: still counting
    selected: tuple[int, ...] | None  # ids, in order; None: more than can be named
    selected_count: int


@dataclass(frozen=True)
class ChosenRows:
    """The rows a dialog names: the selected ids, or every row matching a filter, of one
    store."""

    store: str
    ids: tuple[int, ...] | None
    where: DeadLetterFilter | None
    count: int | None  # how many (the filter's count when it was read)

    def same_rows(self, other: ChosenRows | None) -> bool:
        """The same ids, or the same filter (its count may differ: the store moved)."""
        return (
            other is not None
            and self.store == other.store
            and self.ids == other.ids
            and self.where == other.where
        )

    def is_empty(self) -> bool:
        return self.count == 0

    def describe(self) -> str:
        if self.ids is not None:
            n = len(self.ids)
            if n == 0:
                return translate(
                    "ChosenRows", "the selected dead letters (none is selected in the table)"
                )
            text = translate("ChosenRows", "the %Ln selected dead letter(s): %1", "", n)
            return fill(text, named_ids(self.ids, SHOWN_IDS))
        assert self.where is not None
        where = self.where.describe()
        n = self.count
        if n is None:
            return fill(translate("ChosenRows", "every dead letter matching %1"), where)
        if n == 0:
            return fill(translate("ChosenRows", "no dead letters matching %1"), where)
        # English: "the 1 dead letter matching …", "all 3 dead letters matching …".
        return fill(translate("ChosenRows", "all %Ln dead letter(s) matching %1", "", n), where)


class ScopeSource(QObject):
    """The window's table, as the dialogs that act on its rows see it. ``changed`` comes
    once per burst of changes (a range selected, a filter typed), after the table has
    them; ``storeChanged`` when the store changed under the same filter."""

    changed = Signal()
    storeChanged = Signal()

    def __init__(self, read: Callable[[], TableScope], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._read = read
        self._pending = False

    def current(self) -> TableScope:
        return self._read()

    @Slot()
    def table_changed(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self._emit)

    @Slot()
    def store_changed(self) -> None:
        self.storeChanged.emit()
        self.table_changed()

    @Slot()
    def _emit(self) -> None:
        self._pending = False
        self.changed.emit()


class RowsScope(QWidget):
    """The scope chooser: the selected rows, or every row matching the filter, each named
    as the table has it now, and the preview's hold on them.

    ``freeze()`` at a preview takes the rows named; ``covered(n)`` when the preview has
    counted them. While frozen, a change of the rows named drops the preview
    (``previewDropped``) and the note says so; a change of the store under the same rows
    keeps it, and the note says that ``verb`` (the action's button, translated) acts on the
    previewed rows only."""

    changed = Signal()  # the rows named changed
    previewDropped = Signal()

    def __init__(self, source: ScopeSource, verb: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.verb = verb
        self._frozen: ChosenRows | None = None
        self._covered: int | None = None  # rows the preview found to act on
        self.selected = QRadioButton(objectName="scopeSelected")
        self.filter = QRadioButton(objectName="scopeFilter")
        for radio in (self.selected, self.filter):
            radio.setAccessibleName(translate("RowsScope", "Rows to act on"))
        self.note = QLabel(objectName="scopeNote", wordWrap=True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setStyleSheet(
            f"color: {style.NOTE_TEXT}; background: {style.NOTE_FILL}; padding: 4px;"
        )
        self.note.hide()
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(self.selected)
        v.addWidget(self.filter)
        v.addWidget(self.note)
        now = source.current()
        (self.selected if now.selected_count else self.filter).setChecked(True)
        self._last = self.chosen()
        self._label(now)
        source.changed.connect(self._on_table_changed)
        source.storeChanged.connect(self._on_store_changed)
        self.selected.toggled.connect(self._on_table_changed)

    def chosen(self) -> ChosenRows:
        """The rows named now."""
        now = self.source.current()
        if self.selected.isChecked():
            ids = now.selected if now.selected is not None else ()
            return ChosenRows(now.store, ids, None, len(ids))
        return ChosenRows(now.store, None, now.where, now.matching)

    def say(self, text: str | None) -> None:
        """The note under the choice (None hides it)."""
        self.note.setVisible(bool(text))
        self.note.setText(text or "")

    # -- the preview's hold ---------------------------------------------------------------
    def freeze(self) -> ChosenRows | None:
        """The rows named now, held for a preview; None (the note says why) when there
        are none to preview."""
        now = self.source.current()
        chosen = self.chosen()
        if self.selected.isChecked() and now.selected is None:
            self.say(
                translate(
                    "RowsScope",
                    "Too many rows selected to name them: choose the filter's rows instead.",
                )
            )
            return None
        if chosen.is_empty():
            self.say(fill(translate("RowsScope", "Nothing to preview: %1."), chosen.describe()))
            return None
        self._frozen, self._covered = chosen, None
        self.say(None)
        return chosen

    def covered(self, n: int) -> None:
        """The preview is in: the action would act on these ``n`` rows."""
        self._covered = n

    def thaw(self) -> None:
        """The preview is used up or dropped: the scope only follows the table again."""
        self._frozen = self._covered = None

    def frozen(self) -> ChosenRows | None:
        return self._frozen

    @Slot()
    def _on_table_changed(self) -> None:
        if not self.window().isVisible():
            return  # a closed dialog follows nothing (its workspace may be closing)
        now = self.source.current()
        self._label(now)
        chosen = self.chosen()
        if chosen == self._last:
            return
        self._last = chosen
        self.changed.emit()
        frozen = self._frozen
        if frozen is None:
            return
        if chosen.same_rows(frozen):
            # A count that was not known yet when the preview froze (a search's page and
            # count are read off the GUI thread) and is known now says nothing moved.
            known = chosen.count is not None and frozen.count is not None
            if known and chosen.count != frozen.count:
                self._say_store_moved(chosen)
            return
        was = frozen.count if frozen.count is not None else self._covered
        self.thaw()
        if was is None:
            text = translate(
                "RowsScope",
                "The rows changed since the preview: this now names %1. Nothing will be done "
                "until you preview again.",
            )
        else:
            text = translate(
                "RowsScope",
                "The rows changed since the preview (the preview was of %Ln row(s)): this now "
                "names %1. Nothing will be done until you preview again.",
                "",
                was,
            )
        self.say(fill(text, chosen.describe()))
        self.previewDropped.emit()

    @Slot()
    def _on_store_changed(self) -> None:
        if self._frozen is not None and self._covered is not None:
            self._say_store_moved(self.chosen())

    def _say_store_moved(self, now: ChosenRows) -> None:
        n = self._covered
        if n is None:
            return
        if now.where is not None and now.count is not None:
            text = translate(
                "RowsScope",
                "The store changed since the preview. The filter now matches %1; the preview "
                "covered %2. %3 acts on the %Ln previewed row(s) only, and leaves out, naming "
                "them, any changed since. Preview again to include the others.",
                "",
                n,
            )
            self.say(fill(text, now.count, n, self.verb))
            return
        text = translate(
            "RowsScope",
            "The store changed since the preview. %1 acts on the %Ln previewed row(s) only, "
            "and leaves out, naming them, any changed since. Preview again to include the "
            "others.",
            "",
            n,
        )
        self.say(fill(text, self.verb))

    def _label(self, now: TableScope) -> None:
        n = now.selected_count
        if now.selected is None:
            text = translate(
                "RowsScope",
                "the %Ln selected dead letter(s) (too many to name: narrow the filter)",
                "",
                n,
            )
        else:
            text = ChosenRows(now.store, now.selected, None, n).describe()
        self.selected.setText(text)
        self.selected.setToolTip(text)
        every = ChosenRows(now.store, None, now.where, now.matching).describe()
        self.filter.setText(every)
        self.filter.setToolTip(every)
