"""A one-line label that never widens its window: a text longer than its room is cut in the
middle with "…" (a team store's two URLs are longer than a laptop's screen), the whole of
it in the tooltip, and fitted again whenever the room changes."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

# The least room it asks for: a few words of the text still show.
_LEAST = 120


class ElidedLabel(QLabel):
    """``text()`` is the whole text, as given; the label shows what fits."""

    def __init__(self, parent: QWidget | None = None, **kw: Any) -> None:
        super().__init__(parent, **kw)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def setText(self, text: str) -> None:
        self._full = text
        self.updateGeometry()
        self._fit()

    def text(self) -> str:
        return self._full

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(self.fontMetrics().horizontalAdvance(self._full) + 4, hint.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(min(_LEAST, self.sizeHint().width()), super().minimumSizeHint().height())

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = self.fontMetrics().elidedText(
            self._full, Qt.TextElideMode.ElideMiddle, max(self.width(), 0)
        )
        super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")
