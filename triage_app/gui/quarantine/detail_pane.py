"""The right-hand pane: one dead letter's payload editor, original, diff, error, history.

Reading the dead letter, saving an edit and trying a transform all run on the query
thread; the pane only shows what comes back.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
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
    DeadLetterDetail,
    EditablePayload,
    check_edit,
    edit_payload,
    editable_payload,
    error_position,
    get_dead_letter,
    payload_diff,
    reformat,
    try_payload,
)
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import WAITING, is_csv_kind, original_kind
from triage_app.gui import style
from triage_app.gui.quarantine.json_editor import JsonEditor, editor_safe, one_line
from triage_app.gui.workers import QueryThread

TAB_PAYLOAD, TAB_ORIGINAL, TAB_DIFF, TAB_ERROR, TAB_HISTORY = range(5)
# Validate on every key press below this size; above it, once typing pauses.
VALIDATE_NOW_LIMIT = 100_000


def _load(dl_id: int) -> Any:
    def run(ws: Workspace) -> DeadLetterDetail:
        return get_dead_letter(ws, dl_id)

    return run


def _save(dl_id: int, text: str) -> Any:
    def run(ws: Workspace) -> DeadLetterDetail:
        return edit_payload(ws, dl_id, text)

    return run


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


class DetailPane(QWidget):
    saved = Signal(int)  # a dead letter's payload was saved
    message = Signal(str)  # one line for the status bar
    saveFailed = Signal(str)  # a save did not go through; the edit is still in the editor

    def __init__(self, queries: QueryThread | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._queries = queries
        self._detail: DeadLetterDetail | None = None
        self._editable: EditablePayload | None = None
        self._shown_text = ""  # the stored payload as the editor holds it
        self._valid = False
        self._saving = False
        self._problem = ""
        self._validate_timer = QTimer(self, singleShot=True, interval=250)
        self._validate_timer.timeout.connect(self._validate)

        self.stack = QStackedWidget()
        self.placeholder = QLabel("Select a dead letter to see its payload, error and history.")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet(f"color: {style.MUTED}; padding: 24px;")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("detailTabs")
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
        self.original.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        _mono(self.original)
        self.tabs.addTab(self.original, "Original")
        self.diff = QTextBrowser(objectName="diffView")
        self.tabs.addTab(self.diff, "Diff")
        self.error_view = QTextBrowser(objectName="errorView")
        self.tabs.addTab(self.error_view, "Error")
        self.history = QTreeWidget(objectName="historyView")
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
        self.editor = JsonEditor()
        self.editor.setObjectName("payloadEditor")
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
        self.try_combo.addItems([t.ref for t in default_registry().all()])
        row.addWidget(self.try_combo)
        self.try_button = QPushButton("Try", objectName="tryButton")
        self.try_button.setToolTip(
            "Run the payload in the editor through this transform; writes nothing"
        )
        self.try_button.clicked.connect(self._try)
        row.addWidget(self.try_button)
        row.addStretch(1)
        self.save_button = QPushButton("Save", objectName="saveEditButton")
        self.save_button.setToolTip("Save the edited payload (the original is kept)  Ctrl+S")
        self.save_button.setShortcut(QKeySequence.StandardKey.Save)
        self.save_button.clicked.connect(self.save)
        row.addWidget(self.save_button)
        v.addLayout(row)
        self.try_result = QPlainTextEdit(objectName="tryResult", readOnly=True)
        self.try_result.setMaximumHeight(72)
        self.try_result.setPlaceholderText(
            "Try with a transform version to see the warehouse row it would produce, "
            "or the error; nothing is written."
        )
        _mono(self.try_result)
        v.addWidget(self.try_result)
        return tab

    # -- what the window calls ------------------------------------------------------------
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
        self._detail = None
        self._editable = None
        self.title.setText("")
        if why:
            self.placeholder.setText(why)
        self.stack.setCurrentWidget(self.placeholder)
        self._update_buttons()

    def show_dead_letter(self, dl_id: int) -> None:
        if self._queries is None:
            return
        if self._detail is not None and self._detail.id == dl_id:
            return
        self._queries.submit(_load(dl_id), self._on_loaded, self._on_error, key="detail")

    def reload(self) -> None:
        if self._detail is not None and self._queries is not None:
            self._queries.submit(
                _load(self._detail.id), self._on_reloaded, self._on_error, key="detail"
            )

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
            _save(self._detail.id, self.editor.toPlainText()),
            partial(self._on_saved, after),
            self._on_save_failed,
        )
        return True

    # -- results --------------------------------------------------------------------------
    def _on_loaded(self, detail: DeadLetterDetail) -> None:
        self._show(detail, keep_text=False)

    def _on_reloaded(self, detail: DeadLetterDetail) -> None:
        same = self._detail is not None and self._detail.id == detail.id
        self._show(detail, keep_text=same and self.is_dirty())

    def _on_saved(self, after: Callable[[], None] | None, detail: DeadLetterDetail) -> None:
        self._saving = False
        self._show(detail, keep_text=False)
        self.message.emit(f"dead letter {detail.id} saved; the original is kept")
        self.saved.emit(detail.id)
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
        self._detail = d
        header = d.csv_header
        self._editable = editable_payload(d.payload_bytes, d.payload_kind, header)
        self.title.setText(
            f"#{d.id} · batch {d.batch_id[:8]} line {d.line} · {d.status} · "
            f"{d.attempts} attempt{'s' if d.attempts != 1 else ''}"
        )
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
            "</table>",
        ]
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
            item.setToolTip(3, ev.detail)
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
                where = f"line {pos[0]} col {pos[1]}: "
            else:
                self.editor.clear_error()
                where = ""
            self._problem = where + one_line(problem)
            self.validation.setText(
                style.coloured(f"✗ {html.escape(where + one_line(problem))}", style.ERROR)
            )
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
        if self._editable is not None:
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
