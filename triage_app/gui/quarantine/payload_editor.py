"""The detail pane's Payload tab: the working payload in a JSON editor, checked as it is
typed, Format, Compact and Revert, Try with a transform version (what it would load, or the
error; nothing written) and Save. The banner above the editor is the conflict flow's
(``conflict_flow.py``); which row is shown, and whether it takes an edit, is the pane's.
"""

from __future__ import annotations

import html
import json
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    check_edit,
    error_position,
    reformat,
    try_payload,
    without_position,
)
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import class_label
from triage_app.gui.quarantine.changed_banner import ChangedBanner
from triage_app.gui.quarantine.json_editor import JsonEditor, one_line
from triage_app.gui.shortcuts import button_keys, with_keys
from triage_app.gui.workers import QueryThread

TRY_KEYS = "Ctrl+Return"  # "run it", as in notebooks; the editor types no Ctrl+Return
# Validate on every key press below this size; above it, once typing pauses.
VALIDATE_NOW_LIMIT = 100_000

TryResult = tuple[str, dict[str, Any] | None, str | None, str | None]


def _try(ref: str, text: str, kind: str) -> Any:
    def run(_ws: Workspace) -> TryResult:
        transform = default_registry().get(ref)
        row, failure = try_payload(transform, text.encode("utf-8", "surrogatepass"), kind)
        if failure is not None:
            return ref, None, failure.error, failure.error_class.value
        return ref, row, None, None

    return run


def mono(widget: QWidget) -> None:
    widget.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))


class PayloadEditor(QWidget):
    """The Payload tab. ``message``: one line for the status bar (a Format that failed)."""

    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.valid = False
        self.problem = ""  # why the text cannot be saved, in one line ('' when it can)
        self.validate_timer = QTimer(self, singleShot=True, interval=250)

        v = QVBoxLayout(self)
        v.setContentsMargins(4, 4, 4, 4)
        self.note = QLabel(objectName="payloadNote", wordWrap=True)
        self.note.setStyleSheet(
            f"color: {style.NOTE_TEXT}; background: {style.NOTE_FILL}; padding: 4px;"
        )
        self.note.hide()
        v.addWidget(self.note)
        self.banner = ChangedBanner()
        v.addWidget(self.banner)
        self.editor = JsonEditor()
        self.editor.setObjectName("payloadEditor")
        self.editor.setAccessibleName(translate("PayloadEditor", "Payload editor"))
        v.addWidget(self.editor, 1)
        self.validation = QLabel(objectName="validationLabel", wordWrap=True)
        self.validation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        v.addWidget(self.validation)

        row = QHBoxLayout()
        self.format_button = QPushButton(
            translate("PayloadEditor", "Format"), objectName="formatButton"
        )
        self.format_button.setToolTip(translate("PayloadEditor", "Indent the JSON by two spaces"))
        self.format_button.clicked.connect(self.format)
        self.compact_button = QPushButton(
            translate("PayloadEditor", "Compact"), objectName="compactButton"
        )
        self.compact_button.setToolTip(translate("PayloadEditor", "Put the JSON on one line"))
        self.compact_button.clicked.connect(self.compact)
        self.revert_button = QPushButton(
            translate("PayloadEditor", "Revert"), objectName="revertButton"
        )
        self.revert_button.setToolTip(translate("PayloadEditor", "Back to the stored payload"))
        row.addWidget(self.format_button)
        row.addWidget(self.compact_button)
        row.addWidget(self.revert_button)
        row.addSpacing(16)
        row.addWidget(QLabel(translate("PayloadEditor", "Try with")))
        self.try_combo = QComboBox(objectName="tryTransformCombo")
        self.try_combo.setAccessibleName(translate("PayloadEditor", "Transform version to try"))
        self.try_combo.addItems([t.ref for t in default_registry().all()])
        row.addWidget(self.try_combo)
        self.try_button = QPushButton(translate("PayloadEditor", "Try"), objectName="tryButton")
        self.try_button.setShortcut(TRY_KEYS)
        button_keys(
            self.try_button,
            translate(
                "PayloadEditor",
                "Run the payload in the editor through this transform; writes nothing",
            ),
        )
        row.addWidget(self.try_button)
        row.addStretch(1)
        self.save_button = QPushButton(
            translate("PayloadEditor", "Save"), objectName="saveEditButton"
        )
        self.save_button.setShortcut(QKeySequence.StandardKey.Save)
        button_keys(
            self.save_button,
            translate("PayloadEditor", "Save the edited payload; the original is kept"),
        )
        row.addWidget(self.save_button)
        v.addLayout(row)
        self.try_result = QPlainTextEdit(objectName="tryResult", readOnly=True)
        self.try_result.setAccessibleName(translate("PayloadEditor", "Try result"))
        self.try_result.setMaximumHeight(72)
        self.try_result.setPlaceholderText(
            translate(
                "PayloadEditor",
                "Try with a transform version to see the warehouse row it would produce, "
                "or the error; nothing is written.",
            )
        )
        mono(self.try_result)
        v.addWidget(self.try_result)

    def controls(self) -> list[QWidget]:
        """The tab's controls in the order Tab visits them, top to bottom."""
        b = self.banner
        return [
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
        ]

    def text(self) -> str:
        return self.editor.toPlainText()

    def show_note(self, note: str) -> None:
        """What the payload's form needs said (a CSV row edited as JSON), or nothing."""
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def choose_transform(self, ref: str) -> None:
        """Try with the newest version of ``ref``'s transform (``ref`` when it is gone)."""
        name = ref.split("@", 1)[0]
        try:
            newest = default_registry().newest(name).ref
        except TriageError:
            newest = ref
        i = self.try_combo.findText(newest)
        if i >= 0:
            self.try_combo.setCurrentIndex(i)

    def typed_large(self) -> bool:
        """Above this size the text is checked once typing pauses, not on every key."""
        return len(self.text()) >= VALIDATE_NOW_LIMIT

    def validate(self, kind: str, dirty: bool) -> None:
        """Check the text as a payload of ``kind``: the line under it says valid, or where
        and why not, with the place marked in the editor."""
        problem = check_edit(self.text(), kind)
        self.valid = problem is None
        self.problem = ""
        if problem is None:
            self.editor.clear_error()
            valid = style.coloured(
                html.escape(translate("PayloadEditor", "✓ valid JSON")), style.VALID
            )
            if dirty:
                valid = fill(translate("PayloadEditor", "%1 · edited, not saved"), valid)
            self.validation.setText(valid)
            return
        pos = error_position(problem)
        if pos is not None:
            self.editor.mark_error(*pos)
            # Said once, in front: the parser's own "line 2 column 11 (char 20)" goes.
            problem = without_position(problem)
            self.problem = fill(
                translate("PayloadEditor", "line %1 col %2: %3"), pos[0], pos[1], one_line(problem)
            )
        else:
            self.editor.clear_error()
            self.problem = one_line(problem)
        self.validation.setText(style.coloured(f"✗ {html.escape(self.problem)}", style.ERROR))

    # Why this login may not save an edit on this store (its role), or None: set by the
    # window when a workspace opens (core.db.why_not).
    not_allowed: str | None = None

    def update_buttons(self, *, shown: bool, editable: bool, dirty: bool) -> None:
        """``shown``: a row is in the pane; ``editable``: its status takes an edit."""
        allowed = self.not_allowed is None
        self.save_button.setEnabled(allowed and editable and self.valid and dirty)
        self.save_button.setToolTip(
            self.not_allowed
            or with_keys(
                translate("PayloadEditor", "Save the edited payload"), self.save_button.shortcut()
            )
        )
        self.format_button.setEnabled(editable and self.valid)
        self.compact_button.setEnabled(editable and self.valid)
        self.revert_button.setEnabled(editable and dirty)
        self.try_button.setEnabled(shown)

    @Slot()
    def format(self) -> None:
        try:
            self.editor.replace_all(reformat(self.text()))
        except TriageError as exc:
            self.message.emit(str(exc))

    @Slot()
    def compact(self) -> None:
        try:
            self.editor.replace_all(reformat(self.text(), compact=True))
        except TriageError as exc:
            self.message.emit(str(exc))

    def try_with(self, queries: QueryThread, kind: str) -> None:
        """Run the text, as a payload of ``kind``, through the chosen transform version on
        the query thread; the line under the buttons says what it would load."""
        ref = self.try_combo.currentText()
        self.try_result.setPlainText(fill(translate("PayloadEditor", "trying with %1…"), ref))
        queries.submit(_try(ref, self.text(), kind), self._on_tried, self._on_try_error, key="try")

    def _on_tried(self, result: TryResult) -> None:
        ref, row, error, error_class = result
        if row is not None:
            text = json.dumps(row, ensure_ascii=False, default=str)
            self.try_result.setPlainText(
                fill(
                    translate("PayloadEditor", "✓ %1 would load this warehouse row: %2"), ref, text
                )
            )
            self.try_result.setStyleSheet(f"color: {style.LOADS};")
        else:
            self.try_result.setPlainText(
                fill(
                    translate("PayloadEditor", "✗ %1 still fails [%2]: %3"),
                    ref,
                    class_label(error_class or ""),
                    error,
                )
            )
            self.try_result.setStyleSheet(f"color: {style.ERROR_STRONG};")

    def _on_try_error(self, message: str) -> None:
        self.try_result.setPlainText(f"✗ {message}")
