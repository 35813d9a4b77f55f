"""The window's status bar: its passing messages, cut at a word, never mid-word; and on its
right, before a running job's widgets, how many dead letters match and the last batch.

A message shares the bar with the permanent widgets on its right (how many rows match, the
last batch, a running job), and on a laptop a batch's summary is longer than the room they
leave. Qt would clip it wherever the room ends ("... to resume where it stopped. R"). Here a
message that does not fit ends at the last whole word with "…", the whole of it in the
bar's tooltip, and it is fitted again whenever the room changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, QTimer, Slot
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QSizeGrip, QStatusBar, QWidget

from triage_app.core.batch import BatchInfo
from triage_app.core.vocabulary import Status
from triage_app.gui.i18n import fill, translate

ELLIPSIS = "…"
# Qt draws the message from 6 px in to 2 px short of the first permanent widget
# (QStatusBarPrivate::messageRect); a cut message keeps a little more from it, so that its
# "…" does not run into the count.
_LEFT, _GAP, _RIGHT = 6, 2 + 10, 12

# The roles of a team store (core.db.Role's values) as the badge and the title name them.
ROLE_LABELS = {
    "viewer": QT_TRANSLATE_NOOP("RowCounts", "viewer"),
    "steward": QT_TRANSLATE_NOOP("RowCounts", "steward"),
    "lead": QT_TRANSLATE_NOOP("RowCounts", "lead"),
}


def role_label(role: str) -> str:
    """A role's name in the user's language (a role the window does not know, as stored)."""
    label = ROLE_LABELS.get(role)
    return translate("RowCounts", label) if label is not None else role


def elide_words(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` whole when it fits ``width`` pixels, else as many whole words as fit with
    "…" after them; cut within a word only when not even the first one fits."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    words = text.split(" ")

    def head(n: int) -> str:
        return " ".join(words[:n]).rstrip(" ,;:·—-") + ELLIPSIS

    fits, too_many = 0, len(words)
    while too_many - fits > 1:  # the most words that fit, by halves
        mid = (fits + too_many) // 2
        if metrics.horizontalAdvance(head(mid)) <= width:
            fits = mid
        else:
            too_many = mid
    if fits == 0:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(width, 0))
    return head(fits)


class MessageBar(QStatusBar):
    """A QStatusBar whose ``showMessage`` fits the message at a word boundary (see the
    module's text); ``currentMessage`` is the whole message, as it was given."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusBar")
        self._full = ""
        self._shown = ""
        self._expiry = QTimer(self, singleShot=True)
        self._expiry.timeout.connect(self.clearMessage)
        # Qt sets messages of its own too (an action's status tip while a menu is open):
        # those replace ours, as they would in any QStatusBar.
        self.messageChanged.connect(self._on_message_changed)

    def showMessage(self, text: str, timeout: int = 0) -> None:
        self._full = text
        self._expiry.stop()
        if timeout > 0:
            self._expiry.start(timeout)
        self._fit()

    @Slot()
    def clearMessage(self) -> None:
        self._full = ""
        self._expiry.stop()
        self.setToolTip("")
        self._shown = ""
        super().clearMessage()

    def currentMessage(self) -> str:
        return self._full

    def shown_message(self) -> str:
        """The message as the bar draws it (cut at a word, when it had to be)."""
        return super().currentMessage()

    def message_room(self) -> int:
        """The pixels the message is drawn in: up to the first permanent widget shown."""
        right = self.width() - _RIGHT
        for child in self.children():
            shown = isinstance(child, QWidget) and child.isVisible()
            if shown and not isinstance(child, QSizeGrip):
                right = min(right, child.x() - _GAP)
        return right - _LEFT

    def event(self, event: QEvent) -> bool:
        done = super().event(event)
        # The room changes with the bar's width and with the permanent widgets' texts.
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest):
            self._fit()
        return done

    def _fit(self) -> None:
        if not self._full:
            return
        shown = elide_words(self._full, self.fontMetrics(), self.message_room())
        self.setToolTip(self._full if shown != self._full else "")
        if shown != self._shown or shown != super().currentMessage():
            self._shown = shown
            super().showMessage(shown)

    @Slot(str)
    def _on_message_changed(self, text: str) -> None:
        if text != self._shown:  # set by Qt, not by showMessage here
            self._full = self._shown = text
            self._expiry.stop()
            self.setToolTip("")


class RowCounts:
    """The bar's two permanent labels: how many dead letters match the filter and how many
    are selected ("3 open dead letters match · 1 selected"), and the last batch's counts."""

    def __init__(self, bar: QStatusBar) -> None:
        self.count_label = QLabel(objectName="countLabel")
        self.batch_label = QLabel(objectName="lastBatchLabel")
        # Permanent, and left of the job's widgets: a passing message must not hide how
        # many rows match.
        bar.insertPermanentWidget(0, self.count_label)
        bar.insertPermanentWidget(1, self.batch_label)
        # This login's role on a team store ("viewer"), hidden on SQLite: the one user there
        # may do all of it.
        self.role_label = QLabel(objectName="roleLabel")
        self.role_label.hide()
        bar.insertPermanentWidget(2, self.role_label)

    def show_role(self, role: str | None, may_not: Sequence[str]) -> None:
        """The role badge: its name, and what it may not do as its tooltip."""
        if role is None:
            self.role_label.hide()
            return
        self.role_label.setText(fill(translate("RowCounts", " role: %1 "), role_label(role)))
        self.role_label.setStyleSheet(
            "QLabel { border: 1px solid palette(mid); border-radius: 3px; padding: 0 4px;"
            + (" background: #fff3cd; color: #664d03; }" if may_not else " }")
        )
        self.role_label.setToolTip(
            translate("RowCounts", "You may do everything on this store.")
            if not may_not
            else fill(translate("RowCounts", "On this store:\n%1"), "\n".join(may_not))
        )
        self.role_label.show()

    def show_count(
        self,
        total: int | None,
        status: str,
        selected: int,
        *,
        has_workspace: bool,
        searching: bool = False,
    ) -> None:
        """``total`` rows of ``status`` match (None: still counting; ``searching``: a
        search's first page is still being read), ``selected`` chosen."""
        if not has_workspace:
            matched = translate("RowCounts", "no workspace open")
        elif searching:
            matched = translate("RowCounts", "searching the payloads and errors…")
        elif total is None:
            matched = translate("RowCounts", "counting…")
        else:
            matched = matching(total, status)
        self.count_label.setText(
            fill(translate("RowCounts", "%1 · %2 selected"), matched, selected)
        )

    def show_last_batch(self, batches: Sequence[BatchInfo]) -> None:
        """The newest of ``batches`` (newest first), or nothing without one."""
        if not batches:
            self.batch_label.setText("")
            return
        b = batches[0]
        if b.held:
            text = fill(
                translate("RowCounts", "· last batch %1: %2 loaded / %3 quarantined / %4 held"),
                b.source_name,
                b.loaded,
                b.quarantined,
                b.held,
            )
        else:
            text = fill(
                translate("RowCounts", "· last batch %1: %2 loaded / %3 quarantined"),
                b.source_name,
                b.loaded,
                b.quarantined,
            )
        self.batch_label.setText(text)


def matching(n: int, status: str) -> str:
    """``3 open dead letters match``: one whole sentence per status, for the translator."""
    if status == Status.OPEN:
        return translate("RowCounts", "%Ln open dead letter(s) match", "", n)
    if status == Status.PARKED:
        return translate("RowCounts", "%Ln parked dead letter(s) match", "", n)
    if status == Status.RESOLVED:
        return translate("RowCounts", "%Ln resolved dead letter(s) match", "", n)
    if status == Status.DISCARDED:
        return translate("RowCounts", "%Ln discarded dead letter(s) match", "", n)
    return translate("RowCounts", "%Ln dead letter(s) match", "", n)
