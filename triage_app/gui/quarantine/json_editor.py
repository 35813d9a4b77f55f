"""A plain-text editor for JSON payloads: line numbers, highlighting, an error marker.

Highlighting is switched off above ``HIGHLIGHT_LIMIT`` characters: a 20 MB record must
stay editable, and re-highlighting it on every key press would not.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, QRegularExpression, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from triage_app.gui import style
from triage_app.gui.i18n import translate

HIGHLIGHT_LIMIT = 300_000
# Qt's text document turns these two into paragraph breaks, which toPlainText() returns
# as "\n": inside a JSON string that would turn a valid payload invalid. Escaped, they are
# the same JSON value, and a person can see them.
_QT_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029"})


def editor_safe(text: str) -> str:
    """``text`` as the editor can hold it without changing its JSON meaning."""
    return text.translate(_QT_LINE_BREAKS)


def _format(colour: str, bold: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    return fmt


class JsonHighlighter(QSyntaxHighlighter):
    """Keys, strings, numbers and literals in JSON, line by line."""

    _RULES = (
        (QRegularExpression(r"-?\b\d+(\.\d+)?([eE][-+]?\d+)?\b"), _format(style.JSON_NUMBER)),
        (QRegularExpression(r"\b(true|false|null)\b"), _format(style.JSON_LITERAL, bold=True)),
        (QRegularExpression(r'"(?:[^"\\]|\\.)*"'), _format(style.JSON_STRING)),
        (QRegularExpression(r'"(?:[^"\\]|\\.)*"(?=\s*:)'), _format(style.JSON_KEY, bold=True)),
    )

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self._RULES:
            it = pattern.globalMatch(text)
            while it.hasNext():
                m = it.next()
                self.setFormat(m.capturedStart(), m.capturedLength(), fmt)


class _LineNumberArea(QWidget):
    def __init__(self, editor: JsonEditor) -> None:
        super().__init__(editor)
        self._editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self._editor.line_number_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._editor.paint_line_numbers(event)


class JsonEditor(QPlainTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # one-line records
        self.setTabChangesFocus(False)  # Tab indents; Ctrl+Tab moves on (keyPressEvent)
        self.setAccessibleDescription(
            translate("JsonEditor", "JSON. Tab indents; Ctrl+Tab moves to the next control.")
        )
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 2)
        self._numbers = _LineNumberArea(self)
        self._highlighter = JsonHighlighter(self.document())
        self._highlight_on = True
        self._error: tuple[int, int] | None = None
        self.blockCountChanged.connect(self._update_number_width)
        self.updateRequest.connect(self._update_numbers)
        self.textChanged.connect(self._follow_size)
        self._update_number_width()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Tab is typed here, so Ctrl+Tab and Ctrl+Shift+Tab move the focus on and back (as
        # other editors that keep Tab do): the keyboard is never trapped in the editor.
        # QPlainTextEdit refuses to move the focus while Tab is typed, hence QWidget's.
        ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if ctrl and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            forward = event.key() == Qt.Key.Key_Tab and not shift
            QWidget.focusNextPrevChild(self, forward)
            event.accept()
            return
        super().keyPressEvent(event)

    def setPlainText(self, text: str) -> None:
        super().setPlainText(editor_safe(text))

    def replace_all(self, text: str) -> None:
        """Replace the whole text as one undoable step."""
        cursor = self.textCursor()
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(editor_safe(text))
        cursor.endEditBlock()

    # -- highlighting -----------------------------------------------------------------
    def highlighting(self) -> bool:
        return self._highlight_on

    def _follow_size(self) -> None:
        on = self.document().characterCount() <= HIGHLIGHT_LIMIT
        if on != self._highlight_on:
            self._highlight_on = on
            self._highlighter.setDocument(self.document() if on else None)  # type: ignore[arg-type]

    # -- the error marker -----------------------------------------------------------------
    def mark_error(self, line: int, column: int) -> None:
        """Underline the character at 1-based ``line``/``column`` and tint its line."""
        self._error = (line, column)
        block = self.document().findBlockByNumber(max(line - 1, 0))
        if not block.isValid():
            block = self.document().lastBlock()
        line_sel = QTextEdit.ExtraSelection()
        line_sel.format.setBackground(QColor(style.ERROR_LINE))
        line_sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        line_sel.cursor = QTextCursor(block)
        char_sel = QTextEdit.ExtraSelection()
        char_sel.format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        char_sel.format.setUnderlineColor(QColor(style.ALERT))
        char_sel.format.setBackground(QColor(style.ERROR_CHAR))
        cursor = QTextCursor(block)
        col = min(max(column - 1, 0), max(block.length() - 1, 0))
        cursor.movePosition(QTextCursor.MoveOperation.Right, n=col)
        if col >= block.length() - 1 and col > 0:
            cursor.movePosition(QTextCursor.MoveOperation.Left)
        cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor)
        char_sel.cursor = cursor
        self.setExtraSelections([line_sel, char_sel])
        self._numbers.update()

    def clear_error(self) -> None:
        if self._error is not None:
            self._error = None
            self.setExtraSelections([])
            self._numbers.update()

    def error_position(self) -> tuple[int, int] | None:
        return self._error

    # -- line numbers ---------------------------------------------------------------------
    def line_number_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 12 + self.fontMetrics().horizontalAdvance("9") * max(digits, 2)

    def _update_number_width(self, _count: int = 0) -> None:
        self.setViewportMargins(self.line_number_width(), 0, 0, 0)

    def _update_numbers(self, rect: QRect, dy: int) -> None:
        if dy:
            self._numbers.scroll(0, dy)
        else:
            self._numbers.update(0, rect.y(), self._numbers.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self._numbers.setGeometry(QRect(cr.left(), cr.top(), self.line_number_width(), cr.height()))

    def paint_line_numbers(self, event: QPaintEvent) -> None:
        painter = QPainter(self._numbers)
        painter.fillRect(event.rect(), QColor(style.GREY_FILL))
        block = self.firstVisibleBlock()
        number = block.blockNumber()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        bottom = top + round(self.blockBoundingRect(block).height())
        height = self.fontMetrics().height()
        error_line = self._error[0] - 1 if self._error else -1
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and bottom >= event.rect().top():
                painter.setPen(QColor(style.ALERT if number == error_line else style.MUTED))
                painter.drawText(
                    0,
                    top,
                    self._numbers.width() - 6,
                    height,
                    Qt.AlignmentFlag.AlignRight,
                    str(number + 1),
                )
            block = block.next()
            top = bottom
            bottom = top + round(self.blockBoundingRect(block).height())
            number += 1
        painter.end()


_WS = re.compile(r"\s+")


def one_line(text: str, limit: int = 160) -> str:
    """Text for a label: whitespace collapsed, cut at ``limit``."""
    text = _WS.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
