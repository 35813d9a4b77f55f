"""The right-hand pane: one dead letter's payload editor, original, diff, error, history.

Reading the dead letter, saving an edit and trying a transform all run on the query
thread; the pane only shows what comes back.

A save is optimistic: it names the version the editor was loaded from, and core refuses it
when someone changed the dead letter since. The refusal comes back as a value (theirs, as
stored now), and the pane offers Reload (theirs) or Compare (theirs and mine side by side,
then Keep mine or Take theirs). When the window notices another steward's change to the
row being edited, the same offer appears above the editor; the edit is never replaced
without the steward's word.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.clock import readable
from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    ChangedMeanwhile,
    DeadLetterDetail,
    EditablePayload,
    Refused,
    check_edit,
    edit_payload,
    editable_payload,
    error_position,
    get_dead_letter,
    payload_diff,
    reformat,
    try_payload,
    without_position,
)
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import WAITING, is_csv_kind, original_kind, plural
from triage_app.gui import style
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.changed_banner import ChangedBanner
from triage_app.gui.quarantine.conflict_dialog import Choice, ConflictDialog
from triage_app.gui.quarantine.json_editor import JsonEditor, editor_safe, one_line
from triage_app.gui.shortcuts import button_keys
from triage_app.gui.workers import QueryThread

TAB_PAYLOAD, TAB_ORIGINAL, TAB_DIFF, TAB_ERROR, TAB_HISTORY = range(5)
TRY_KEYS = "Ctrl+Return"  # "run it", as in notebooks; the editor types no Ctrl+Return
# Validate on every key press below this size; above it, once typing pauses.
VALIDATE_NOW_LIMIT = 100_000


def _load(dl_id: int) -> Any:
    def run(ws: Workspace) -> DeadLetterDetail:
        return get_dead_letter(ws, dl_id)

    return run


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


def _save(dl_id: int, text: str, version: int) -> Any:
    def run(ws: Workspace) -> SaveResult:
        try:
            return edit_payload(ws, dl_id, text, if_version=version)
        except ChangedMeanwhile as exc:
            return SaveConflict(str(exc), get_dead_letter(ws, dl_id))
        except Refused as exc:
            return SaveRefused(str(exc))

    return run


def changed_by(d: DeadLetterDetail) -> str:
    """The latest change in the history: ``edited by alice at 2026-03-01 10:00:00``."""
    if not d.events:
        return "changed"
    e = d.events[-1]
    return f"{e.action} by {e.actor} at {readable(e.at)}"


def _try(ref: str, text: str, kind: str) -> Any:
    def run(_ws: Workspace) -> tuple[str, dict[str, Any] | None, str | None, str | None]:
        transform = default_registry().get(ref)
        row, failure = try_payload(transform, text.encode("utf-8", "surrogatepass"), kind)
        if failure is not None:
            return ref, None, failure.error, failure.error_class.value
        return ref, row, None, None

    return run


def _mono(widget: QWidget) -> None:
    widget.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))


CHOOSE_A_ROW = "Select a dead letter to see its payload, error and history."


def headline(d: DeadLetterDetail) -> str:
    """The pane's title for ``d`` as stored: which row, where from, its status."""
    owned = f" · group owned by {d.group_owner}" if d.group_owner else ""
    return (
        f"#{d.id} · batch {d.batch_id[:8]} line {d.line} · {d.status} · "
        f"{plural(d.attempts, 'attempt')}{owned}"
    )


class DetailPane(QWidget):
    saved = Signal(int)  # a dead letter's payload was saved
    message = Signal(str)  # one line for the status bar
    saveFailed = Signal(str)  # a save did not go through; the edit is still in the editor
    editDropped = Signal()  # the editor holds no unsaved edit any more (saved or reverted)

    def __init__(self, queries: QueryThread | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._queries = queries
        self._detail: DeadLetterDetail | None = None
        self._editable: EditablePayload | None = None
        self._shown_text = ""  # the stored payload as the editor holds it
        self._valid = False
        self._saving = False
        self._problem = ""
        # The dead letter as someone else stored it after the editor loaded it, while the
        # editor holds an unsaved edit: what Reload and Compare offer. None otherwise.
        self._theirs: DeadLetterDetail | None = None
        self.conflict_dialog: ConflictDialog | None = None  # while Compare is open
        # The row shown is not the table's chosen row any more (filtered out, moved on): it
        # stays only for its unsaved edit, and the title says so.
        self._unlisted = False
        self._loading: int | None = None  # the row asked for, until it is read
        self._validate_timer = QTimer(self, singleShot=True, interval=250)
        self._validate_timer.timeout.connect(self._validate)

        self.stack = QStackedWidget()
        self.placeholder = QLabel(CHOOSE_A_ROW, objectName="detailPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet(f"color: {style.MUTED}; padding: 24px;")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("detailTabs")
        self.tabs.setAccessibleName("Dead letter details")
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.tabs)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setObjectName("detailTitle")
        self.title.setStyleSheet("font-weight: bold; padding: 2px 4px;")
        layout.addWidget(self.title)
        layout.addWidget(self.stack)

        self.tabs.addTab(self._build_payload_tab(), "Payload")
        self.original = QPlainTextEdit(objectName="originalView", readOnly=True)
        self.original.setAccessibleName("Original payload")
        self.original.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        _mono(self.original)
        self.tabs.addTab(self.original, "Original")
        self.diff = QTextBrowser(objectName="diffView")
        self.diff.setAccessibleName("Changes to the payload")
        self.tabs.addTab(self.diff, "Diff")
        self.error_view = QTextBrowser(objectName="errorView")
        self.error_view.setAccessibleName("Error")
        self.tabs.addTab(self.error_view, "Error")
        self.history = QTreeWidget(objectName="historyView")
        self.history.setAccessibleName("History")
        self.history.setHeaderLabels(["when (UTC)", "who", "action", "detail"])
        self.history.setRootIsDecorated(False)
        self.history.setAlternatingRowColors(True)
        self.tabs.addTab(self.history, "History")
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.show_nothing()

    def _build_payload_tab(self) -> QWidget:
        tab = QWidget()
        v = QVBoxLayout(tab)
        v.setContentsMargins(4, 4, 4, 4)
        self.note = QLabel(objectName="payloadNote", wordWrap=True)
        self.note.setStyleSheet(
            f"color: {style.NOTE_TEXT}; background: {style.NOTE_FILL}; padding: 4px;"
        )
        self.note.hide()
        v.addWidget(self.note)
        self.banner = ChangedBanner()
        self.banner.reloadClicked.connect(self.reload_theirs)
        self.banner.compareClicked.connect(self.compare)
        v.addWidget(self.banner)
        self.editor = JsonEditor()
        self.editor.setObjectName("payloadEditor")
        self.editor.setAccessibleName("Payload editor")
        self.editor.textChanged.connect(self._on_text_changed)
        v.addWidget(self.editor, 1)
        self.validation = QLabel(objectName="validationLabel", wordWrap=True)
        self.validation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        v.addWidget(self.validation)

        row = QHBoxLayout()
        self.format_button = QPushButton("Format", objectName="formatButton")
        self.format_button.setToolTip("Indent the JSON by two spaces")
        self.format_button.clicked.connect(self._format)
        self.compact_button = QPushButton("Compact", objectName="compactButton")
        self.compact_button.setToolTip("Put the JSON on one line")
        self.compact_button.clicked.connect(self._compact)
        self.revert_button = QPushButton("Revert", objectName="revertButton")
        self.revert_button.setToolTip("Back to the stored payload")
        self.revert_button.clicked.connect(self._revert)
        row.addWidget(self.format_button)
        row.addWidget(self.compact_button)
        row.addWidget(self.revert_button)
        row.addSpacing(16)
        row.addWidget(QLabel("Try with"))
        self.try_combo = QComboBox(objectName="tryTransformCombo")
        self.try_combo.setAccessibleName("Transform version to try")
        self.try_combo.addItems([t.ref for t in default_registry().all()])
        row.addWidget(self.try_combo)
        self.try_button = QPushButton("Try", objectName="tryButton")
        self.try_button.setShortcut(TRY_KEYS)
        button_keys(
            self.try_button, "Run the payload in the editor through this transform; writes nothing"
        )
        self.try_button.clicked.connect(self._try)
        row.addWidget(self.try_button)
        row.addStretch(1)
        self.save_button = QPushButton("Save", objectName="saveEditButton")
        self.save_button.setShortcut(QKeySequence.StandardKey.Save)
        button_keys(self.save_button, "Save the edited payload; the original is kept")
        self.save_button.clicked.connect(self.save)
        row.addWidget(self.save_button)
        v.addLayout(row)
        self.try_result = QPlainTextEdit(objectName="tryResult", readOnly=True)
        self.try_result.setAccessibleName("Try result")
        self.try_result.setMaximumHeight(72)
        self.try_result.setPlaceholderText(
            "Try with a transform version to see the warehouse row it would produce, "
            "or the error; nothing is written."
        )
        _mono(self.try_result)
        v.addWidget(self.try_result)
        return tab

    # -- what the window calls ------------------------------------------------------------
    def focus_order(self) -> list[QWidget]:
        """The pane's controls in the order Tab visits them, top to bottom: the tabs, the
        banner's buttons, the editor and the row under it, then the other tabs' views (Tab
        skips those not shown)."""
        b = self.banner
        return [
            self.tabs,  # Tab gives it to its tab bar (its focus proxy): the two go together
            self.tabs.tabBar(),
            b.reload_button,
            b.compare_button,
            b.close_button,
            self.editor,
            self.format_button,
            self.compact_button,
            self.revert_button,
            self.try_combo,
            self.try_button,
            self.save_button,
            self.try_result,
            self.original,
            self.diff,
            self.error_view,
            self.history,
        ]

    def focus_payload(self) -> bool:
        """The Payload tab, the keyboard in its editor; False when no row is shown."""
        return self._focus(TAB_PAYLOAD, self.editor)

    def focus_error(self) -> bool:
        """The Error tab, the keyboard in it (to read it line by line); False when no row
        is shown."""
        return self._focus(TAB_ERROR, self.error_view)

    def _focus(self, tab: int, widget: QWidget) -> bool:
        if self._detail is None:
            return False
        self.tabs.setCurrentIndex(tab)
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def set_queries(self, queries: QueryThread | None) -> None:
        self._queries = queries
        self.show_nothing()

    def current_id(self) -> int | None:
        return self._detail.id if self._detail else None

    def is_dirty(self) -> bool:
        """True while the editor holds an edit that is not stored (a save in flight is
        not dirty: its result arrives before anything submitted after it)."""
        return (
            self._editable is not None
            and not self._saving
            and self.editor.toPlainText() != self._shown_text
        )

    def can_save(self) -> bool:
        """The edit is valid and differs from the stored payload."""
        return self.save_button.isEnabled()

    def problem(self) -> str:
        """Why the edit cannot be saved, in one line ('' when it can)."""
        return self._problem

    def validate_now(self) -> None:
        """Validate at once (large payloads otherwise wait for typing to pause)."""
        self._validate_timer.stop()
        self._validate()

    def discard_edit(self) -> None:
        """Back to the stored payload, without an undo step: the edit is thrown away."""
        if self._editable is not None:
            self.editor.setPlainText(self._editable.text)

    def show_nothing(self, why: str | None = None) -> None:
        """No row: the placeholder says why (the default: choose one)."""
        self._detail = None
        self._editable = None
        self._unlisted = False
        self._loading = None
        self._forget_theirs()
        self.title.setText("")
        self.placeholder.setText(why or CHOOSE_A_ROW)
        self.stack.setCurrentWidget(self.placeholder)
        self._update_buttons()

    def showing(self) -> int | None:
        """The row the pane shows or is loading (None: the placeholder)."""
        return self._loading if self._loading is not None else self.current_id()

    def set_unlisted(self, unlisted: bool) -> None:
        """The row shown is no longer the table's chosen one but holds an unsaved edit:
        the title says so until the edit is saved or reverted."""
        if unlisted != self._unlisted:
            self._unlisted = unlisted
            self._update_title()

    def is_unlisted(self) -> bool:
        return self._unlisted

    def _update_title(self) -> None:
        d = self._theirs or self._detail
        if d is None:
            self.title.setText("")
            return
        text = headline(d)
        if self._theirs is not None and self._detail is not None:
            text += f" (changed by another steward: {changed_by(self._theirs)})"
        if self._unlisted:
            text += " · not the row chosen in the table: save or revert this edit"
        self.title.setText(text)
        self.title.setToolTip(text)

    def show_dead_letter(self, dl_id: int) -> None:
        if self._queries is None:
            return
        if self._detail is not None and self._detail.id == dl_id and self._loading is None:
            self.set_unlisted(False)
            return
        if self._loading == dl_id:
            return
        self._loading = dl_id
        self._queries.submit(_load(dl_id), self._on_loaded, self._on_load_failed, key="detail")

    def reload(self) -> None:
        if self._detail is not None and self._queries is not None:
            self._queries.submit(
                _load(self._detail.id), self._on_reloaded, self._on_error, key="detail"
            )

    def check_for_change(self) -> None:
        """Someone else changed the store: read the dead letter shown again. Without an
        unsaved edit a new version replaces it quietly; with one, the banner offers
        Reload and Compare and the edit stays."""
        if self._detail is not None and self._queries is not None:
            self._queries.submit(
                _load(self._detail.id), self._on_checked, self._on_check_failed, key="check"
            )

    def theirs(self) -> DeadLetterDetail | None:
        """The newer version the banner offers, if any."""
        return self._theirs

    def version(self) -> int | None:
        """The version the editor was loaded from (what a save names)."""
        return self._detail.version if self._detail else None

    @Slot()
    def save(self) -> None:
        self.save_then(None)

    def save_then(self, after: Callable[[], None] | None) -> bool:
        """Save the edit through core's audited edit; ``after`` runs once it is stored (not
        when the save fails: the edit stays in the editor). False when there is nothing
        valid to save."""
        if not self.save_button.isEnabled() or self._detail is None or self._queries is None:
            return False
        self._saving = True
        self.editor.setReadOnly(True)  # typing now would be lost when the saved text returns
        self._update_buttons()
        self._queries.submit(
            _save(self._detail.id, self.editor.toPlainText(), self._detail.version),
            partial(self._on_saved, after),
            self._on_save_failed,
        )
        return True

    # -- someone else's version -------------------------------------------------------------
    @Slot()
    def reload_theirs(self) -> None:
        """Banner > Reload: theirs replaces the edit, once the steward says so."""
        theirs = self._theirs
        if theirs is None:
            return
        if self.is_dirty():
            box = QMessageBox(
                QMessageBox.Icon.Question,
                "Reload",
                f"Drop your edit of dead letter #{theirs.id} and show it as stored now "
                f"({changed_by(theirs)})?",
                QMessageBox.StandardButton.Cancel,
                self,
            )
            box.setObjectName("reloadTheirsDialog")
            drop = box.addButton("Drop my edit and reload", QMessageBox.ButtonRole.DestructiveRole)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            confirmed = box.clickedButton() is drop
            dispose(box)
            if not confirmed:
                return
        self._show(theirs, keep_text=False)
        self.message.emit(f"dead letter {theirs.id} reloaded ({changed_by(theirs)})")

    @Slot()
    def compare(self) -> None:
        """Banner > Compare: theirs and mine side by side; Keep mine saves the edit at
        their version (the edit's event keeps theirs), Take theirs drops it."""
        theirs = self._theirs
        if theirs is None or self._detail is None:
            return
        theirs_text = editable_payload(
            theirs.payload_bytes, theirs.payload_kind, theirs.csv_header
        ).text
        mine = self.editor.toPlainText()
        dialog = ConflictDialog(theirs, theirs_text, mine, self._detail.version, self)
        self.conflict_dialog = dialog
        dialog.exec()
        self.conflict_dialog = None
        choice = dialog.choice
        dispose(dialog)
        if choice is Choice.TAKE_THEIRS:
            self._show(theirs, keep_text=False)
            self.message.emit(f"dead letter {theirs.id}: took theirs ({changed_by(theirs)})")
        elif choice is Choice.KEEP_MINE:
            # Their version becomes the one the edit replaces; the editor keeps mine.
            self._show(theirs, keep_text=True)
            self.validate_now()
            if not self.is_dirty():
                self.message.emit(f"dead letter {theirs.id}: yours and theirs are the same")
            elif not self.save_then(None):
                self.message.emit(f"not saved: {self._problem or 'it takes no edit now'}")

    def _offer_theirs(self, theirs: DeadLetterDetail, saving: bool) -> None:
        """The banner: who changed the row and when, with Reload and Compare; the title
        says the row as stored now (its status, its attempts)."""
        self._theirs = theirs
        self._update_title()
        last = theirs.events[-1] if theirs.events else None
        who = (
            f"Changed by {html.escape(last.actor)} at {html.escape(readable(last.at))}"
            if last is not None
            else f"Changed (now version {theirs.version})"
        )
        what = f" ({html.escape(last.action)})" if last is not None else ""
        if saving:
            text = (
                f"<b>Not saved:</b> #{theirs.id} changed after you opened it. "
                f"{who}{what}; your edit is kept."
            )
        else:
            text = f"<b>{who}</b>{what} while you were editing; your edit is kept."
        self.banner.offer(text)

    def _forget_theirs(self) -> None:
        self._theirs = None
        self.banner.hide()
        self._update_title()

    # -- results --------------------------------------------------------------------------
    def _on_loaded(self, detail: DeadLetterDetail) -> None:
        if self._loading is not None and detail.id != self._loading:
            return  # another row was asked for since
        self._loading = None
        self._unlisted = False
        self._show(detail, keep_text=False)

    def _on_load_failed(self, message: str) -> None:
        self._loading = None
        self._on_error(message)

    def _on_reloaded(self, detail: DeadLetterDetail) -> None:
        d = self._detail
        same = d is not None and d.id == detail.id
        if d is not None and same and self.is_dirty() and detail.payload_bytes != d.payload_bytes:
            # The payload under the edit changed: the steward decides, not the reload.
            if detail.version != (self._theirs or d).version:
                self._offer_theirs(detail, saving=False)
            return
        self._show(detail, keep_text=same and self.is_dirty())

    def _on_checked(self, detail: DeadLetterDetail) -> None:
        d = self._detail
        if d is None or detail.id != d.id or self._saving:
            return  # another row by now, or our own save's result is on its way
        if detail.version == (self._theirs or d).version:
            return  # nothing new
        if self.is_dirty():
            self._offer_theirs(detail, saving=False)
        else:
            self._show(detail, keep_text=False)

    def _on_check_failed(self, message: str) -> None:
        # A watch's look is not the steward's request: a failure (the row purged, the
        # store away for a moment) is not worth a dialog; the next change looks again.
        self.message.emit(message)

    def _on_saved(self, after: Callable[[], None] | None, result: SaveResult) -> None:
        self._saving = False
        if isinstance(result, SaveConflict | SaveRefused):
            d = self._detail
            self.editor.setReadOnly(d is None or d.status not in WAITING)
            self._update_buttons()
            if isinstance(result, SaveConflict):
                self._offer_theirs(result.theirs, saving=True)
                self.message.emit(f"not saved: {result.message}")
            else:
                self.banner.say(
                    f"<b>Not saved:</b> {html.escape(result.message)}. Your edit is kept."
                )
                self.message.emit(f"not saved: {result.message}")
            return
        detail = result
        unlisted = self._unlisted
        self._show(detail, keep_text=False)
        self.message.emit(f"dead letter {detail.id} saved; the original is kept")
        self.saved.emit(detail.id)
        if unlisted:
            self.editDropped.emit()
        if after is not None:
            after()

    def _on_save_failed(self, message: str) -> None:
        self._saving = False
        d = self._detail
        self.editor.setReadOnly(d is None or d.status not in WAITING)
        self.saveFailed.emit(message)
        self._on_error(f"not saved: {message}")

    def _on_error(self, message: str) -> None:
        self.message.emit(message)
        self._update_buttons()

    def _show(self, d: DeadLetterDetail, *, keep_text: bool) -> None:
        if self._detail is None or self._detail.id != d.id or not keep_text:
            self._forget_theirs()
        elif self._theirs is not None and d.version >= self._theirs.version:
            self._forget_theirs()  # the editor is now based on theirs (or newer)
        self._detail = d
        header = d.csv_header
        self._editable = editable_payload(d.payload_bytes, d.payload_kind, header)
        self._update_title()
        if self._editable.note:
            self.note.setText(self._editable.note)
            self.note.show()
        else:
            self.note.hide()
        self._shown_text = editor_safe(self._editable.text)
        if not keep_text:
            self.editor.setPlainText(self._editable.text)
            self.try_result.clear()
        self.editor.setReadOnly(d.status not in WAITING)
        self._fill_original(d)
        self._fill_error(d)
        self._fill_history(d)
        name = d.transform.split("@", 1)[0]
        try:
            newest = default_registry().newest(name).ref
        except TriageError:
            newest = d.transform
        i = self.try_combo.findText(newest)
        if i >= 0:
            self.try_combo.setCurrentIndex(i)
        self.stack.setCurrentWidget(self.tabs)
        self._validate()
        self._on_tab_changed(self.tabs.currentIndex())

    def _fill_original(self, d: DeadLetterDetail) -> None:
        lines = []
        if d.csv_header is not None and is_csv_kind(d.payload_kind):
            lines.append(f"# CSV header: {d.csv_header}")
        lines.append(d.original_payload)
        self.original.setPlainText("\n".join(lines))
        self.original.setToolTip(
            f"{len(d.original_bytes)} bytes exactly as read; bytes that are not UTF-8 "
            "are shown escaped as \\xNN"
        )

    def _fill_error(self, d: DeadLetterDetail) -> None:
        e = html.escape
        parts = [
            f"<p><b>{e(d.error)}</b></p>",
            "<table cellpadding='3'>",
            f"<tr><td>class</td><td><b>{e(d.error_class)}</b></td></tr>",
            f"<tr><td>signature</td><td><code>{e(d.signature)}</code></td></tr>",
            f"<tr><td>transform</td><td>{e(d.transform)}</td></tr>",
            f"<tr><td>attempts</td><td>{d.attempts}</td></tr>",
            f"<tr><td>first failed</td><td>{e(d.first_failed_at)}</td></tr>",
            f"<tr><td>last failed</td><td>{e(d.last_failed_at)}</td></tr>",
        ]
        # The error group's owner, tags and note: who works on this cause, what it waits on.
        for label, value in (
            ("group owner", d.group_owner or ""),
            ("group tags", ", ".join(d.group_tags)),
            ("group note", d.group_note),
        ):
            if value:
                parts.append(f"<tr><td>{label}</td><td>{e(value)}</td></tr>")
        parts.append("</table>")
        if d.traceback:
            parts.append(f"<p>traceback (redacted):</p><pre>{e(d.traceback)}</pre>")
        else:
            parts.append(
                f"<p style='color:{style.MUTED}'>No traceback: kept for code errors only.</p>"
            )
        self.error_view.setHtml("".join(parts))

    def _fill_history(self, d: DeadLetterDetail) -> None:
        self.history.clear()
        for ev in d.events:
            item = QTreeWidgetItem([readable(ev.at), ev.actor, ev.action])
            item.setText(3, one_line(ev.detail, 300))
            tip = ev.detail
            if ev.replaced_payload is not None:
                tip += "\n\nThe payload this edit replaced:\n" + one_line(ev.replaced_payload, 2000)
            item.setToolTip(3, tip)
            self.history.addTopLevelItem(item)
        for col in range(3):
            self.history.resizeColumnToContents(col)

    # -- editing --------------------------------------------------------------------------
    @Slot()
    def _on_text_changed(self) -> None:
        if len(self.editor.toPlainText()) < VALIDATE_NOW_LIMIT:
            self._validate()
        else:
            self._valid = False
            self._update_buttons()
            self._validate_timer.start()
        if self.tabs.currentIndex() == TAB_DIFF:
            self._fill_diff()
        if self._unlisted and not self.is_dirty():
            self.editDropped.emit()  # reverted: the pane can follow the table again

    @Slot()
    def _validate(self) -> None:
        if self._detail is None:
            return
        text = self.editor.toPlainText()
        problem = check_edit(text, self._detail.payload_kind)
        self._valid = problem is None
        self._problem = ""
        if problem is None:
            self.editor.clear_error()
            changed = " · edited, not saved" if self.is_dirty() else ""
            self.validation.setText(style.coloured("✓ valid JSON", style.VALID) + changed)
        else:
            pos = error_position(problem)
            if pos is not None:
                self.editor.mark_error(*pos)
                # Said once, in front: the parser's own "line 2 column 11 (char 20)" goes.
                where = f"line {pos[0]} col {pos[1]}: "
                problem = without_position(problem)
            else:
                self.editor.clear_error()
                where = ""
            self._problem = where + one_line(problem)
            self.validation.setText(style.coloured(f"✗ {html.escape(self._problem)}", style.ERROR))
        self._update_buttons()

    def _update_buttons(self) -> None:
        d = self._detail
        editable = d is not None and d.status in WAITING
        self.save_button.setEnabled(bool(editable and self._valid and self.is_dirty()))
        self.format_button.setEnabled(bool(editable and self._valid))
        self.compact_button.setEnabled(bool(editable and self._valid))
        self.revert_button.setEnabled(bool(editable and self.is_dirty()))
        self.try_button.setEnabled(d is not None)

    @Slot()
    def _format(self) -> None:
        try:
            self.editor.replace_all(reformat(self.editor.toPlainText()))
        except TriageError as exc:
            self.message.emit(str(exc))

    @Slot()
    def _compact(self) -> None:
        try:
            self.editor.replace_all(reformat(self.editor.toPlainText(), compact=True))
        except TriageError as exc:
            self.message.emit(str(exc))

    @Slot()
    def _revert(self) -> None:
        if self._theirs is not None:
            self._show(self._theirs, keep_text=False)  # back to what is stored now
        elif self._editable is not None:
            self.editor.replace_all(self._editable.text)

    @Slot()
    def _try(self) -> None:
        if self._detail is None or self._editable is None or self._queries is None:
            return
        ref = self.try_combo.currentText()
        self.try_result.setPlainText(f"trying with {ref}…")
        self._queries.submit(
            _try(ref, self.editor.toPlainText(), self._editable.edit_kind),
            self._on_tried,
            self._on_try_error,
            key="try",
        )

    def _on_tried(self, result: tuple[str, dict[str, Any] | None, str | None, str | None]) -> None:
        ref, row, error, error_class = result
        if row is not None:
            text = json.dumps(row, ensure_ascii=False, default=str)
            self.try_result.setPlainText(f"✓ {ref} would load this warehouse row: {text}")
            self.try_result.setStyleSheet(f"color: {style.LOADS};")
        else:
            self.try_result.setPlainText(f"✗ {ref} still fails [{error_class}]: {error}")
            self.try_result.setStyleSheet(f"color: {style.ERROR_STRONG};")

    def _on_try_error(self, message: str) -> None:
        self.try_result.setPlainText(f"✗ {message}")

    # -- the diff -------------------------------------------------------------------------
    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        if index == TAB_DIFF:
            self._fill_diff()

    def _fill_diff(self) -> None:
        d = self._detail
        if d is None:
            self.diff.clear()
            return
        original = editable_payload(d.original_bytes, original_kind(d.payload_kind), d.csv_header)
        lines = payload_diff(original.text, self.editor.toPlainText())
        if not lines:
            self.diff.setHtml(
                f"<p style='color:{style.MUTED}'>No changes: the payload is the original.</p>"
            )
            return
        colours = {"+": style.ADDED, "-": style.REMOVED, "@": style.GAP, " ": "transparent"}
        out = [
            f"<p style='color:{style.TEXT}'>original → current "
            f"(<span style='background:{style.REMOVED}'>− removed</span> "
            f"<span style='background:{style.ADDED}'>+ added</span>)</p>",
            "<pre style='margin:0'>",
        ]
        for ln in lines:
            sign = "" if ln.op == "@" else (ln.op if ln.op != " " else " ")
            out.append(
                f"<span style='background:{colours[ln.op]}'>{html.escape(sign + ln.text)}</span>"
            )
        out.append("</pre>")
        self.diff.setHtml("\n".join(out))
