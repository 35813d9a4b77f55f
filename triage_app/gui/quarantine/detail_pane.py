"""The right-hand pane: one dead letter's payload editor, original, diff, error, history.

Reading the dead letter, saving an edit and trying a transform all run on the query
thread; the pane only shows what comes back. The Payload tab is ``payload_editor.py``'s;
what happens when someone else changed the row being edited (a save refused, the banner's
Reload and Compare) is ``conflict_flow.py``'s. The pane holds which row is shown, loads,
saves and watches it, and fills the other tabs.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal, Slot
from PySide6.QtWidgets import (
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

from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    ChangedMeanwhile,
    DeadLetterDetail,
    EditablePayload,
    Refused,
    edit_payload,
    editable_payload,
    get_dead_letter,
    payload_diff,
    reveal_dead_letter,
)
from triage_app.core.locale_format import format_int
from triage_app.core.vocabulary import WAITING, is_csv_kind, original_kind
from triage_app.gui import style
from triage_app.gui.audit.model import action_label
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import class_label, status_label
from triage_app.gui.quarantine.conflict_flow import (
    ConflictFlow,
    SaveConflict,
    SaveRefused,
    SaveResult,
    changed_by,
)
from triage_app.gui.quarantine.json_editor import editor_safe, one_line
from triage_app.gui.quarantine.model import shown_time
from triage_app.gui.quarantine.payload_editor import PayloadEditor, mono
from triage_app.gui.workers import QueryThread

TAB_PAYLOAD, TAB_ORIGINAL, TAB_DIFF, TAB_ERROR, TAB_HISTORY = range(5)


def _load(dl_id: int, revealed: bool = False) -> Any:
    """The row read; ``revealed``: unmasked, for the row its steward revealed (the reveal
    was audited; reading it again while it stays chosen is not another one)."""

    def run(ws: Workspace) -> DeadLetterDetail:
        return get_dead_letter(ws, dl_id, reveal=revealed)

    return run


def _reveal(dl_id: int) -> Any:
    def run(ws: Workspace) -> DeadLetterDetail:
        return reveal_dead_letter(ws, dl_id)

    return run


def _save(dl_id: int, text: str, version: int, revealed: bool = False) -> Any:
    def run(ws: Workspace) -> SaveResult:
        try:
            return edit_payload(ws, dl_id, text, if_version=version, revealed=revealed)
        except ChangedMeanwhile as exc:
            return SaveConflict(str(exc), get_dead_letter(ws, dl_id, reveal=revealed))
        except Refused as exc:
            return SaveRefused(str(exc))

    return run


CHOOSE_A_ROW = QT_TRANSLATE_NOOP(
    "DetailPane", "Select a dead letter to see its payload, error and history."
)


def headline(d: DeadLetterDetail) -> str:
    """The pane's title for ``d`` as stored: which row, where from, its status."""
    attempts = d.attempts
    if d.group_owner:
        text = translate(
            "DetailPane",
            "#%1 · batch %2 line %3 · %4 · %Ln attempt(s) · group owned by %5",
            "",
            attempts,
        )
        return fill(text, str(d.id), d.batch_id[:8], d.line, status_label(d.status), d.group_owner)
    text = translate("DetailPane", "#%1 · batch %2 line %3 · %4 · %Ln attempt(s)", "", attempts)
    return fill(text, str(d.id), d.batch_id[:8], d.line, status_label(d.status))


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
        self._saving = False
        # The row shown is not the table's chosen row any more (filtered out, moved on): it
        # stays only for its unsaved edit, and the title says so.
        self._unlisted = False
        self._loading: int | None = None  # the row asked for, until it is read
        # The row whose personal fields its steward revealed (audited): shown unmasked
        # until another row is chosen.
        self._revealed: int | None = None

        self.stack = QStackedWidget()
        self.placeholder = QLabel(
            translate("DetailPane", CHOOSE_A_ROW), objectName="detailPlaceholder"
        )
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet(f"color: {style.MUTED}; padding: 24px;")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("detailTabs")
        self.tabs.setAccessibleName(translate("DetailPane", "Dead letter details"))
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.tabs)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setObjectName("detailTitle")
        self.title.setStyleSheet("font-weight: bold; padding: 2px 4px;")
        layout.addWidget(self.title)
        # A dead letter of a held (all-or-nothing) batch says so: its batch loads only whole.
        self.held_banner = QLabel(objectName="heldBanner")
        self.held_banner.setWordWrap(True)
        self.held_banner.setStyleSheet(style.HELD_BANNER)
        self.held_banner.hide()
        layout.addWidget(self.held_banner)
        # Personal data (issue 27): which fields are masked, and Reveal (audited).
        self.privacy = QWidget(objectName="privacyBar")
        bar = QHBoxLayout(self.privacy)
        bar.setContentsMargins(4, 0, 4, 0)
        self.privacy_label = QLabel(objectName="privacyLabel")
        self.privacy_label.setWordWrap(True)
        self.privacy_label.setStyleSheet(f"color: {style.MUTED};")
        self.reveal_button = QPushButton(
            translate("DetailPane", "Reveal"), objectName="revealButton"
        )
        self.reveal_tip = translate(
            "DetailPane",
            "Show this row's personal fields unmasked, until another row is chosen. "
            "Recorded in the audit (revealed); stewards and leads only.",
        )
        self.reveal_button.setToolTip(self.reveal_tip)
        # Why this login's role may not reveal (a viewer), set by the window: the button
        # stays in place, greyed out, saying it.
        self.reveal_not_allowed: str | None = None
        self.reveal_button.clicked.connect(self.reveal)
        bar.addWidget(self.privacy_label, 1)
        bar.addWidget(self.reveal_button)
        self.privacy.hide()
        layout.addWidget(self.privacy)
        layout.addWidget(self.stack)

        self.payload = PayloadEditor()
        self.payload.editor.textChanged.connect(self._on_text_changed)
        self.payload.validate_timer.timeout.connect(self._validate)
        self.payload.revert_button.clicked.connect(self._revert)
        self.payload.try_button.clicked.connect(self._try)
        self.payload.save_button.clicked.connect(self.save)
        self.payload.message.connect(self.message)
        self.conflicts = ConflictFlow(self)
        self.tabs.addTab(self.payload, translate("DetailPane", "Payload"))
        self.original = QPlainTextEdit(objectName="originalView", readOnly=True)
        self.original.setAccessibleName(translate("DetailPane", "Original payload"))
        self.original.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        mono(self.original)
        self.tabs.addTab(self.original, translate("DetailPane", "Original"))
        self.diff = QTextBrowser(objectName="diffView")
        self.diff.setAccessibleName(translate("DetailPane", "Changes to the payload"))
        self.tabs.addTab(self.diff, translate("DetailPane", "Diff"))
        self.error_view = QTextBrowser(objectName="errorView")
        self.error_view.setAccessibleName(translate("DetailPane", "Error"))
        self.tabs.addTab(self.error_view, translate("DetailPane", "Error"))
        self.history = QTreeWidget(objectName="historyView")
        self.history.setAccessibleName(translate("DetailPane", "History"))
        self.history.setHeaderLabels(
            [
                translate("DetailPane", "when (UTC)"),
                translate("DetailPane", "who"),
                translate("DetailPane", "action"),
                translate("DetailPane", "detail"),
            ]
        )
        self.history.setRootIsDecorated(False)
        self.history.setAlternatingRowColors(True)
        self.tabs.addTab(self.history, translate("DetailPane", "History"))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.show_nothing()

    # -- what the window calls ------------------------------------------------------------
    def focus_order(self) -> list[QWidget]:
        """The pane's controls in the order Tab visits them, top to bottom: Reveal, the
        tabs, the banner's buttons, the editor and the row under it, then the other tabs' views (Tab
        skips those not shown)."""
        return [
            self.reveal_button,  # above the tabs: a row with personal fields shows it
            self.tabs,  # Tab gives it to its tab bar (its focus proxy): the two go together
            self.tabs.tabBar(),
            *self.payload.controls(),
            self.original,
            self.diff,
            self.error_view,
            self.history,
        ]

    def focus_payload(self) -> bool:
        """The Payload tab, the keyboard in its editor; False when no row is shown."""
        return self._focus(TAB_PAYLOAD, self.payload.editor)

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

    def current_detail(self) -> DeadLetterDetail | None:
        """The row shown, as it was read (None: the placeholder)."""
        return self._detail

    def is_dirty(self) -> bool:
        """True while the editor holds an edit that is not stored (a save in flight is
        not dirty: its result arrives before anything submitted after it)."""
        return (
            self._editable is not None
            and not self._saving
            and self.payload.editor.toPlainText() != self._shown_text
        )

    def can_save(self) -> bool:
        """The edit is valid and differs from the stored payload."""
        return self.payload.save_button.isEnabled()

    def problem(self) -> str:
        """Why the edit cannot be saved, in one line ('' when it can)."""
        return self.payload.problem

    def validate_now(self) -> None:
        """Validate at once (large payloads otherwise wait for typing to pause)."""
        self.payload.validate_timer.stop()
        self._validate()

    def discard_edit(self) -> None:
        """Back to the stored payload, without an undo step: the edit is thrown away."""
        if self._editable is not None:
            self.payload.editor.setPlainText(self._editable.text)

    def show_nothing(self, why: str | None = None) -> None:
        """No row: the placeholder says why (the default: choose one)."""
        self._detail = None
        self._editable = None
        self._unlisted = False
        self._loading = None
        self._revealed = None
        self.conflicts.forget()
        self.title.setText("")
        self.held_banner.hide()
        self.privacy.hide()
        self.placeholder.setText(why or translate("DetailPane", CHOOSE_A_ROW))
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
            self.update_title()

    def is_unlisted(self) -> bool:
        return self._unlisted

    def update_title(self) -> None:
        """The row shown, as stored now (theirs, when someone changed it meanwhile)."""
        theirs = self.conflicts.theirs
        d = theirs or self._detail
        if d is None:
            self.title.setText("")
            return
        text = headline(d)
        if theirs is not None and self._detail is not None:
            text = fill(
                translate("DetailPane", "%1 (changed by another steward: %2)"),
                text,
                changed_by(theirs),
            )
        if self._unlisted:
            text = fill(
                translate(
                    "DetailPane", "%1 · not the row chosen in the table: save or revert this edit"
                ),
                text,
            )
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
        if self._revealed != dl_id:
            self._revealed = None  # another row: masked again
        self._queries.submit(
            _load(dl_id, self._revealed == dl_id),
            self._on_loaded,
            self._on_load_failed,
            key="detail",
        )

    def reveal(self) -> None:
        """Show the row's personal fields unmasked: core audits it (``revealed``) and
        refuses a viewer in one line, shown in the status bar."""
        d = self._detail
        if d is None or self._queries is None or d.revealed:
            return
        self.reveal_button.setEnabled(False)
        self._queries.submit(_reveal(d.id), self._on_revealed, self._on_reveal_failed)

    def _on_revealed(self, detail: DeadLetterDetail) -> None:
        d = self._detail
        if d is None or d.id != detail.id:
            return  # another row was chosen meanwhile: it stays masked
        self._revealed = detail.id
        self.show_detail(detail, keep_text=self.is_dirty())
        self.message.emit(
            fill(
                translate(
                    "DetailPane", "dead letter %1: %2 shown unmasked (recorded in the audit)"
                ),
                str(detail.id),
                ", ".join(detail.personal_fields),
            )
        )

    def _on_reveal_failed(self, message: str) -> None:
        self._update_privacy()
        self._on_error(message)

    def is_revealed(self) -> bool:
        return self._detail is not None and self._detail.revealed

    def _update_privacy(self) -> None:
        d = self._detail
        if d is None or not d.personal_fields:
            self.privacy.hide()
            return
        fields = ", ".join(d.personal_fields)
        if d.revealed:
            self.privacy_label.setText(
                fill(
                    translate(
                        "DetailPane",
                        "Revealed: %1 shown unmasked (recorded in the audit) until another "
                        "row is chosen.",
                    ),
                    fields,
                )
            )
        else:
            self.privacy_label.setText(
                fill(
                    translate(
                        "DetailPane", "Personal data masked: %1. Searchable by exact value only."
                    ),
                    fields,
                )
            )
        # Kept in place, greyed once revealed: the pane does not jump under the steward.
        self.reveal_button.setText(
            translate("DetailPane", "Revealed") if d.revealed else translate("DetailPane", "Reveal")
        )
        self._update_reveal(d)
        self.privacy.show()

    def reload(self) -> None:
        if self._detail is not None and self._queries is not None:
            self._queries.submit(
                _load(self._detail.id, self._revealed == self._detail.id),
                self._on_reloaded,
                self._on_error,
                key="detail",
            )

    def check_for_change(self) -> None:
        """Someone else changed the store: read the dead letter shown again. Without an
        unsaved edit a new version replaces it quietly; with one, the banner offers
        Reload and Compare and the edit stays."""
        if self._detail is not None and self._queries is not None:
            self._queries.submit(
                _load(self._detail.id, self._revealed == self._detail.id),
                self._on_checked,
                self._on_check_failed,
                key="check",
            )

    def theirs(self) -> DeadLetterDetail | None:
        """The newer version the banner offers, if any."""
        return self.conflicts.theirs

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
        if not self.can_save() or self._detail is None or self._queries is None:
            return False
        self._saving = True
        self.payload.editor.setReadOnly(
            True
        )  # typing now would be lost when the saved text returns
        self._update_buttons()
        self._queries.submit(
            _save(
                self._detail.id,
                self.payload.editor.toPlainText(),
                self._detail.version,
                self._revealed == self._detail.id,
            ),
            partial(self._on_saved, after),
            self._on_save_failed,
        )
        return True

    # -- results --------------------------------------------------------------------------
    def _on_loaded(self, detail: DeadLetterDetail) -> None:
        if self._loading is not None and detail.id != self._loading:
            return  # another row was asked for since
        self._loading = None
        self._unlisted = False
        self.show_detail(detail, keep_text=False)

    def _on_load_failed(self, message: str) -> None:
        self._loading = None
        self._on_error(message)

    def _on_reloaded(self, detail: DeadLetterDetail) -> None:
        d = self._detail
        same = d is not None and d.id == detail.id
        if d is not None and same and self.is_dirty() and detail.payload_bytes != d.payload_bytes:
            # The payload under the edit changed: the steward decides, not the reload.
            if detail.version != (self.conflicts.theirs or d).version:
                self.conflicts.offer(detail, saving=False)
            return
        self.show_detail(detail, keep_text=same and self.is_dirty())

    def _on_checked(self, detail: DeadLetterDetail) -> None:
        d = self._detail
        if d is None or detail.id != d.id or self._saving:
            return  # another row by now, or our own save's result is on its way
        if detail.version == (self.conflicts.theirs or d).version:
            return  # nothing new
        if self.is_dirty():
            self.conflicts.offer(detail, saving=False)
        else:
            self.show_detail(detail, keep_text=False)

    def _on_check_failed(self, message: str) -> None:
        # A watch's look is not the steward's request: a failure (the row purged, the
        # store away for a moment) is not worth a dialog; the next change looks again.
        self.message.emit(message)

    def _on_saved(self, after: Callable[[], None] | None, result: SaveResult) -> None:
        self._saving = False
        if isinstance(result, SaveConflict | SaveRefused):
            d = self._detail
            self.payload.editor.setReadOnly(not self._may_edit(d))
            self._update_buttons()
            self.conflicts.refused(result)
            return
        detail = result
        unlisted = self._unlisted
        self.show_detail(detail, keep_text=False)
        self.message.emit(
            fill(
                translate("DetailPane", "dead letter %1 saved; the original is kept"),
                str(detail.id),
            )
        )
        self.saved.emit(detail.id)
        if unlisted:
            self.editDropped.emit()
        if after is not None:
            after()

    def _on_save_failed(self, message: str) -> None:
        self._saving = False
        d = self._detail
        self.payload.editor.setReadOnly(not self._may_edit(d))
        self.saveFailed.emit(message)
        self._on_error(fill(translate("DetailPane", "not saved: %1"), message))

    def _on_error(self, message: str) -> None:
        self.message.emit(message)
        self._update_buttons()

    def show_detail(self, d: DeadLetterDetail, *, keep_text: bool) -> None:
        """Show ``d`` as stored; ``keep_text``: the editor keeps the steward's edit (now
        based on ``d``'s version)."""
        theirs = self.conflicts.theirs
        if self._detail is None or self._detail.id != d.id or not keep_text:
            self.conflicts.forget()
        elif theirs is not None and d.version >= theirs.version:
            self.conflicts.forget()  # the editor is now based on theirs (or newer)
        self._detail = d
        held = d.held_note()
        self.held_banner.setText(held)
        self.held_banner.setVisible(bool(held))
        self._update_privacy()
        header = d.csv_header
        self._editable = editable_payload(d.payload_bytes, d.payload_kind, header)
        self.update_title()
        self.payload.show_note(self._editable.note or "")
        self._shown_text = editor_safe(self._editable.text)
        if not keep_text:
            self.payload.editor.setPlainText(self._editable.text)
            self.payload.try_result.clear()
        self.payload.editor.setReadOnly(not self._may_edit(d))
        self._fill_original(d)
        self._fill_error(d)
        self._fill_history(d)
        self.payload.choose_transform(d.transform)
        self.stack.setCurrentWidget(self.tabs)
        self._validate()
        self._on_tab_changed(self.tabs.currentIndex())

    def _fill_original(self, d: DeadLetterDetail) -> None:
        lines = []
        if d.csv_header is not None and is_csv_kind(d.payload_kind):
            lines.append(fill(translate("DetailPane", "# CSV header: %1"), d.csv_header))
        lines.append(d.original_payload)
        self.original.setPlainText("\n".join(lines))
        size = len(d.original_bytes)
        self.original.setToolTip(
            translate(
                "DetailPane",
                "%Ln byte(s) exactly as read; bytes that are not UTF-8 are shown escaped as \\xNN",
                "",
                size,
            )
        )

    def _fill_error(self, d: DeadLetterDetail) -> None:
        e = html.escape

        def row(label: str, value: str) -> str:
            return f"<tr><td>{e(label)}</td><td>{value}</td></tr>"

        parts = [
            f"<p><b>{e(d.error)}</b></p>",
            "<table cellpadding='3'>",
            row(translate("DetailPane", "class"), f"<b>{e(class_label(d.error_class))}</b>"),
            row(translate("DetailPane", "signature"), f"<code>{e(d.signature)}</code>"),
            row(translate("DetailPane", "transform"), e(d.transform)),
            row(translate("DetailPane", "attempts"), e(format_int(d.attempts))),
            row(translate("DetailPane", "first failed"), e(shown_time(d.first_failed_at))),
            row(translate("DetailPane", "last failed"), e(shown_time(d.last_failed_at))),
        ]
        # The error group's owner, tags and note: who works on this cause, what it waits on.
        for label, value in (
            (translate("DetailPane", "group owner"), d.group_owner or ""),
            (translate("DetailPane", "group tags"), ", ".join(d.group_tags)),
            (translate("DetailPane", "group note"), d.group_note),
        ):
            if value:
                parts.append(row(label, e(value)))
        parts.append("</table>")
        if d.traceback:
            said = translate("DetailPane", "traceback (redacted):")
            parts.append(f"<p>{e(said)}</p><pre>{e(d.traceback)}</pre>")
        else:
            parts.append(
                f"<p style='color:{style.MUTED}'>"
                + e(translate("DetailPane", "No traceback: kept for code errors only."))
                + "</p>"
            )
        self.error_view.setHtml("".join(parts))

    def _fill_history(self, d: DeadLetterDetail) -> None:
        self.history.clear()
        for ev in d.events:
            item = QTreeWidgetItem(
                [shown_time(ev.at, seconds=True), ev.actor, action_label(ev.action)]
            )
            item.setText(3, one_line(ev.detail, 300))
            tip = ev.detail
            if ev.replaced_payload is not None:
                tip = fill(
                    translate("DetailPane", "%1\n\nThe payload this edit replaced:\n%2"),
                    tip,
                    one_line(ev.replaced_payload, 2000),
                )
            item.setToolTip(3, tip)
            self.history.addTopLevelItem(item)
        for col in range(3):
            self.history.resizeColumnToContents(col)

    # -- editing --------------------------------------------------------------------------
    @Slot()
    def _on_text_changed(self) -> None:
        if not self.payload.typed_large():
            self._validate()
        else:
            self.payload.valid = False
            self._update_buttons()
            self.payload.validate_timer.start()
        if self.tabs.currentIndex() == TAB_DIFF:
            self._fill_diff()
        if self._unlisted and not self.is_dirty():
            self.editDropped.emit()  # reverted: the pane can follow the table again

    @Slot()
    def _validate(self) -> None:
        if self._detail is None:
            return
        self.payload.validate(self._detail.payload_kind, self.is_dirty())
        self._update_buttons()

    def set_reveal_not_allowed(self, why: str | None) -> None:
        """Why this login's role may not reveal personal fields (None: it may)."""
        self.reveal_not_allowed = why
        self._update_reveal(self._detail)

    def _update_reveal(self, d: Any) -> None:
        revealed = d is not None and bool(getattr(d, "revealed", False))
        self.reveal_button.setEnabled(not revealed and self.reveal_not_allowed is None)
        self.reveal_button.setToolTip(self.reveal_not_allowed or self.reveal_tip)

    def set_not_allowed(self, why: str | None) -> None:
        """Why this login's role may not edit (None: it may): the editor read-only and Save
        greyed out, saying it, at once for the row shown."""
        if why == self.payload.not_allowed:
            return
        self.payload.not_allowed = why
        if not self._saving:
            self.payload.editor.setReadOnly(not self._may_edit(self._detail))
        self._update_buttons()

    def _may_edit(self, d: Any) -> bool:
        """A row shown, waiting (its status takes an edit), and this login's role may edit
        (``payload.not_allowed``, set by the window on a team store)."""
        return d is not None and d.status in WAITING and self.payload.not_allowed is None

    def _update_buttons(self) -> None:
        d = self._detail
        editable = self._may_edit(d)
        self.payload.update_buttons(shown=d is not None, editable=editable, dirty=self.is_dirty())

    @Slot()
    def _revert(self) -> None:
        theirs = self.conflicts.theirs
        if theirs is not None:
            self.show_detail(theirs, keep_text=False)  # back to what is stored now
        elif self._editable is not None:
            self.payload.editor.replace_all(self._editable.text)

    @Slot()
    def _try(self) -> None:
        if self._detail is None or self._editable is None or self._queries is None:
            return
        self.payload.try_with(self._queries, self._editable.edit_kind)

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
        lines = payload_diff(original.text, self.payload.editor.toPlainText())
        if not lines:
            self.diff.setHtml(
                f"<p style='color:{style.MUTED}'>"
                + html.escape(translate("DetailPane", "No changes: the payload is the original."))
                + "</p>"
            )
            return
        colours = {"+": style.ADDED, "-": style.REMOVED, "@": style.GAP, " ": "transparent"}
        legend = fill(
            translate("DetailPane", "original → current (%1 %2)"),
            f"<span style='background:{style.REMOVED}'>"
            + html.escape(translate("DetailPane", "− removed"))
            + "</span>",
            f"<span style='background:{style.ADDED}'>"
            + html.escape(translate("DetailPane", "+ added"))
            + "</span>",
        )
        out = [
            f"<p style='color:{style.TEXT}'>{legend}</p>",
            "<pre style='margin:0'>",
        ]
        for ln in lines:
            sign = "" if ln.op == "@" else (ln.op if ln.op != " " else " ")
            out.append(
                f"<span style='background:{colours[ln.op]}'>{html.escape(sign + ln.text)}</span>"
            )
        out.append("</pre>")
        self.diff.setHtml("\n".join(out))
