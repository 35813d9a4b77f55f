"""Theirs and mine, side by side: the dead letter as someone else stored it while the
steward was editing, next to the steward's unsaved edit, differing lines highlighted.

"Keep mine" saves the edit over theirs (the edit's audit event keeps the payload it
replaced, so theirs is never lost), "Take theirs" drops the edit. The lines come from
core's ``payload_diff`` (pretty-printed when both are JSON); this module only lays the two
sides out so that the same line sits at the same height on both.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QFontDatabase, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.deadletters import DeadLetterDetail, DiffLine, payload_diff, reformat
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import WAITING
from triage_app.gui import style
from triage_app.gui.audit.model import action_label
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import status_label
from triage_app.gui.quarantine.model import shown_time
from triage_app.gui.window.placement import dialog_size

# What a row of the two columns is: the same on both sides, changed, only theirs, only
# mine, or a stretch of equal lines left out.
SAME, CHANGED, THEIRS_ONLY, MINE_ONLY, GAP = "same", "changed", "theirs", "mine", "gap"
_FILL = {
    CHANGED: (style.REMOVED, style.ADDED),
    THEIRS_ONLY: (style.REMOVED, style.GREY_FILL),
    MINE_ONLY: (style.GREY_FILL, style.ADDED),
    GAP: (style.GAP, style.GAP),
}


_FROM_THE_TOP = re.compile(r"@@ -[01][, ]")


class Choice(Enum):
    KEEP_MINE = "mine"
    TAKE_THEIRS = "theirs"


@dataclass(frozen=True)
class Row:
    theirs: str | None  # None: nothing on this side (the other side has a line more)
    mine: str | None
    kind: str


def side_by_side(lines: list[DiffLine]) -> list[Row]:
    """A unified diff (theirs → mine) as two aligned columns: a run of removed lines and
    the run of added lines after it are paired line by line, the longer run padded."""
    rows: list[Row] = []
    gone: list[str] = []
    new: list[str] = []

    def flush() -> None:
        for i in range(max(len(gone), len(new))):
            a = gone[i] if i < len(gone) else None
            b = new[i] if i < len(new) else None
            kind = (
                CHANGED
                if a is not None and b is not None
                else (THEIRS_ONLY if b is None else MINE_ONLY)
            )
            rows.append(Row(a, b, kind))
        gone.clear()
        new.clear()

    for ln in lines:
        if ln.op == "-":
            gone.append(ln.text)
        elif ln.op == "+":
            new.append(ln.text)
        else:
            flush()
            if ln.op == "@":
                # A hunk that starts at the first line leaves nothing out before it.
                if rows or not _FROM_THE_TOP.match(ln.text):
                    rows.append(Row("⋯", "⋯", GAP))
            else:
                rows.append(Row(ln.text, ln.text, SAME))
    flush()
    return rows


def _shown(text: str) -> str:
    try:
        return reformat(text)
    except TriageError:
        return text


class _Side(QPlainTextEdit):
    def __init__(self, name: str, spoken: str) -> None:
        super().__init__(objectName=name, readOnly=True)
        self.setAccessibleName(spoken)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))

    def show_rows(self, texts: list[str], fills: list[str | None]) -> None:
        self.setPlainText("\n".join(texts))
        marks = []
        block = self.document().firstBlock()
        for colour in fills:
            if colour is not None:
                sel = QTextEdit.ExtraSelection()
                sel.format.setBackground(QColor(colour))
                sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                sel.cursor = QTextCursor(block)
                marks.append(sel)
            block = block.next()
        self.setExtraSelections(marks)


class ConflictDialog(QDialog):
    """Modal; ``choice`` says what the steward chose (None: Cancel)."""

    def __init__(
        self,
        theirs: DeadLetterDetail,
        theirs_text: str,
        mine_text: str,
        base_version: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("conflictDialog")
        self.setWindowTitle(
            fill(
                translate("ConflictDialog", "Dead letter #%1 changed while you were editing it"),
                str(theirs.id),
            )
        )
        self.choice: Choice | None = None
        self.theirs = theirs
        self.mine_text = mine_text
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(980, 560)))

        last = theirs.events[-1] if theirs.events else None
        e = html.escape
        if last is not None:
            text = fill(
                translate(
                    "ConflictDialog",
                    "<b>%1</b> changed it at %2 (%3) after you opened it (version %4 → %5). "
                    "Your edit is not saved yet.",
                ),
                e(last.actor),
                e(shown_time(last.at, seconds=True)),
                e(action_label(last.action)),
                str(base_version),
                str(theirs.version),
            )
        else:
            text = fill(
                translate(
                    "ConflictDialog",
                    "It was changed after you opened it (version %1 → %2). "
                    "Your edit is not saved yet.",
                ),
                str(base_version),
                str(theirs.version),
            )
        header = QLabel(objectName="conflictHeader", wordWrap=True)
        header.setText(text)

        lines = payload_diff(theirs_text, mine_text)
        rows = side_by_side(lines) if lines else None
        if rows is None:
            left = _shown(theirs_text).splitlines()
            right = _shown(mine_text).splitlines()
            fills: list[tuple[str | None, str | None]] = [(None, None)] * max(len(left), len(right))
            summary = translate(
                "ConflictDialog", "Both hold the same JSON: they differ in layout only."
            )
        else:
            left = [r.theirs if r.theirs is not None else "" for r in rows]
            right = [r.mine if r.mine is not None else "" for r in rows]
            fills = [_FILL.get(r.kind, (None, None)) for r in rows]
            n = sum(r.kind not in (SAME, GAP) for r in rows)
            summary = translate(
                "ConflictDialog",
                "%Ln line(s) differ (shown indented when both are JSON; each is saved as written).",
                "",
                n,
            )
        self.summary = QLabel(summary, objectName="conflictSummary")
        self.summary.setStyleSheet(style.HINT)

        self.theirs_view = _Side("theirsView", translate("ConflictDialog", "Theirs, stored now"))
        self.mine_view = _Side("mineView", translate("ConflictDialog", "Yours, not saved"))
        self.theirs_view.show_rows(left, [f[0] for f in fills])
        self.mine_view.show_rows(right, [f[1] for f in fills])
        # One scroll for both: the same line stays at the same height.
        for a, b in ((self.theirs_view, self.mine_view), (self.mine_view, self.theirs_view)):
            a.verticalScrollBar().valueChanged.connect(b.verticalScrollBar().setValue)
            a.horizontalScrollBar().valueChanged.connect(b.horizontalScrollBar().setValue)

        grid = QGridLayout()
        stored = fill(
            translate("ConflictDialog", "Theirs: stored now (version %1, %2)"),
            str(theirs.version),
            status_label(theirs.status),
        )
        grid.addWidget(QLabel(f"<b>{html.escape(stored)}</b>"), 0, 0)
        yours = translate("ConflictDialog", "Yours: not saved")
        grid.addWidget(QLabel(f"<b>{html.escape(yours)}</b>"), 0, 1)
        grid.addWidget(self.theirs_view, 1, 0)
        grid.addWidget(self.mine_view, 1, 1)

        buttons = QDialogButtonBox()
        self.keep_mine = QPushButton(
            translate("ConflictDialog", "Keep mine"), objectName="keepMineButton"
        )
        self.take_theirs = QPushButton(
            translate("ConflictDialog", "Take theirs"), objectName="takeTheirsButton"
        )
        self.keep_mine.setToolTip(
            translate(
                "ConflictDialog",
                "Save your edit over theirs; the history keeps theirs (the edit event holds "
                "the payload it replaced)",
            )
        )
        self.take_theirs.setToolTip(translate("ConflictDialog", "Drop your edit and show theirs"))
        if theirs.status not in WAITING:
            self.keep_mine.setEnabled(False)
            self.keep_mine.setToolTip(
                fill(
                    translate("ConflictDialog", "It is %1 now: it takes no edit"),
                    status_label(theirs.status),
                )
            )
        buttons.addButton(self.keep_mine, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.take_theirs, QDialogButtonBox.ButtonRole.DestructiveRole)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setToolTip(
            translate("ConflictDialog", "Decide later; your edit stays in the editor")
        )
        self.keep_mine.clicked.connect(lambda: self._choose(Choice.KEEP_MINE))
        self.take_theirs.clicked.connect(lambda: self._choose(Choice.TAKE_THEIRS))
        buttons.rejected.connect(self.reject)

        v = QVBoxLayout(self)
        v.addWidget(header)
        v.addLayout(grid, 1)
        v.addWidget(self.summary)
        v.addWidget(buttons)
        self.take_theirs.setFocus(Qt.FocusReason.OtherFocusReason)

    def _choose(self, choice: Choice) -> None:
        self.choice = choice
        self.accept()
