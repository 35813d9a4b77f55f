"""Discard…: the selected rows, or every row matching the filter, judged junk with a
reason. It previews first (how many, which, and which not and why), and the Discard button
names the count; it discards exactly the rows previewed, each only at the version
previewed, and says which were left out. Discarded rows leave the queue but stay in the
store: Reopen brings them back until retention purges them.

The scope follows the table while the dialog is open (``scope.py``): when the rows it names
change, or the store changes under them, it previews them again, and says so when the rows
it would discard are not the ones it named before."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, QSize, Qt, Slot
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.deadletters import ChangePreview, ChangeReport, DeadLetterRow, discard
from triage_app.core.errors import TriageError
from triage_app.core.jobs import ChangeApplyJob, ChangePreviewJob, Job
from triage_app.core.vocabulary import named_ids
from triage_app.gui import labels
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob
from triage_app.gui.dialogs.scope import RowsScope, ScopeSource
from triage_app.gui.i18n import fill, translate
from triage_app.gui.rows_model import RowsModel
from triage_app.gui.window.placement import dialog_size

WAY_BACK = QT_TRANSLATE_NOOP(
    "discard_dialog", "Reopen brings them back until retention purges them."
)
SAMPLE_HEADERS = (
    QT_TRANSLATE_NOOP("discard_dialog", "id"),
    QT_TRANSLATE_NOOP("discard_dialog", "batch"),
    QT_TRANSLATE_NOOP("discard_dialog", "line"),
    QT_TRANSLATE_NOOP("discard_dialog", "class"),
    QT_TRANSLATE_NOOP("discard_dialog", "status"),
    QT_TRANSLATE_NOOP("discard_dialog", "error"),
)


def describe_discard_preview(p: ChangePreview) -> str:
    """The preview in sentences: what Discard would discard, what it leaves, and why."""
    n = p.count
    if not n:
        said = [translate("discard_dialog", "Nothing to discard.")]
    else:
        text = translate("discard_dialog", "Discard %Ln dead letter(s): %1.", "", n)
        said = [fill(text, named_ids(sorted(p.versions)))]
    if p.unchanged:
        text = translate("discard_dialog", "Already discarded: %1.")
        said.append(fill(text, named_ids(list(p.unchanged))))
    if p.refused:
        text = translate("discard_dialog", "Not discarded, %1: %2 (%3).")
        refused = named_ids([i for i, _why in p.refused])
        said.append(fill(text, len(p.refused), refused, p.refused[0][1]))
    if n:
        said.append(translate("discard_dialog", WAY_BACK))
    return " ".join(said)


class _SampleModel(RowsModel[DeadLetterRow]):
    headers = SAMPLE_HEADERS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        text = super().headerData(section, orientation, role)
        return translate("discard_dialog", text) if isinstance(text, str) else text

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or role not in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
        ):
            return None
        r = self.rows[index.row()]
        cells = (
            str(r.id),
            r.batch_id[:12],
            str(r.line),
            labels.shown(labels.CLASSES, r.error_class),
            labels.shown(labels.STATUSES, r.status),
            r.error,
        )
        return cells[index.column()]


class DiscardDialog(JobDialog):
    """Emits ``jobFinished`` with the ChangeReport of a discard."""

    def __init__(self, start_job: StartJob, scope: ScopeSource, parent: QWidget | None = None):
        super().__init__(start_job, parent, name="discard", progress=False)
        self.setWindowTitle(translate("DiscardDialog", "Discard dead letters"))
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(820, 440)))
        self._preview: ChangePreview | None = None
        self._again = False  # the rows changed while a preview ran: preview once more
        self._named: list[int] | None = None  # the rows the last preview named
        self._finished = False  # discarded: the dialog shows what it did, and follows no more

        self.scope = RowsScope(scope, translate("DiscardDialog", "Discard"))
        self.scope_selected, self.scope_filter = self.scope.selected, self.scope.filter
        self.reason = QLineEdit(objectName="discardReason")
        self.reason.setPlaceholderText(
            translate("DiscardDialog", "why these rows are junk (kept in each row's history)")
        )
        self.reason.setAccessibleName(translate("DiscardDialog", "Reason for discarding"))
        form = QFormLayout()
        form.addRow(translate("DiscardDialog", "Discard"), self.scope)
        form.addRow(translate("DiscardDialog", "Reason"), self.reason)

        self.sample = QTableView(objectName="discardSample")
        self.sample.setAccessibleName(translate("DiscardDialog", "Rows to discard (a sample)"))
        self.sample.setTabKeyNavigation(False)
        self.sample.setModel(_SampleModel((), self.sample))
        self.sample.verticalHeader().hide()
        self.sample.setWordWrap(False)
        self.sample.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)

        self.buttons = QDialogButtonBox()
        self.discard_button = self.buttons.addButton(
            translate("DiscardDialog", "Discard"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.discard_button.setObjectName("discardButton")
        self.discard_button.setEnabled(False)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.discard_button.clicked.connect(self.apply)
        self.close_button.clicked.connect(self.reject)

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(QLabel(translate("DiscardDialog", "The first of them:")))
        v.addWidget(self.sample, 1)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)

        # A discard needs no choices but the rows: it previews them at once, and again
        # whenever the rows named change, so the button always names what it would do.
        self.scope.previewDropped.connect(self.preview)
        self.scope.changed.connect(self._preview_if_idle)
        scope.storeChanged.connect(self.preview)
        self.reason.textChanged.connect(self._update_button)
        self.preview()

    def acts_on(self) -> list[int]:
        """The ids Discard would change now: the preview's (empty before one)."""
        return sorted(self._preview.versions) if self._preview is not None else []

    @Slot()
    def _preview_if_idle(self) -> None:
        # No preview yet (the table had nothing to name when the dialog opened).
        if self._preview is None and self._runner is None and self.scope.frozen() is None:
            self.preview()

    @Slot()
    def preview(self) -> None:
        if self._finished:
            return
        if self._runner is not None:
            self._again = True
            return
        self._set_preview(None)
        chosen = self.scope.freeze()
        if chosen is None:
            self.summary.setText(self.scope.note.text())
            self._named = []
            return
        # The reason is asked for at Discard; a placeholder one judges the same rows.
        self._start(ChangePreviewJob(discard("preview"), ids=chosen.ids, where=chosen.where))

    @Slot()
    def apply(self) -> None:
        p = self._preview
        reason = self.reason.text().strip()
        if p is None or not p.count or not reason or self._runner is not None:
            return
        try:
            change = discard(reason)
        except TriageError as exc:
            self.summary.setText(str(exc))
            return
        self._finished = True  # follows the table no more: it discards what it named
        self.scope.thaw()
        self._start(ChangeApplyJob(change, dict(p.versions)))

    def _set_preview(self, p: ChangePreview | None) -> None:
        self._preview = p
        self.sample.setModel(_SampleModel(p.sample if p else (), self.sample))
        for col in range(5):
            self.sample.resizeColumnToContents(col)
        self._update_button()

    @Slot()
    def _update_button(self) -> None:
        p = self._preview
        n = p.count if p is not None else 0
        if n:
            self.discard_button.setText(fill(translate("DiscardDialog", "Discard %1"), n))
        else:
            self.discard_button.setText(translate("DiscardDialog", "Discard"))
        ready = n > 0 and bool(self.reason.text().strip()) and self._runner is None
        self.discard_button.setEnabled(ready)
        if n and not self.reason.text().strip():
            self.discard_button.setToolTip(
                translate("DiscardDialog", "Give a reason first: it is kept in each row's history")
            )
        else:
            self.discard_button.setToolTip("")

    def _start(self, job: Job) -> None:
        self._again = False
        self.start(job)
        self._update_button()
        if isinstance(job, ChangeApplyJob):
            self.summary.setText(translate("DiscardDialog", "discarding…"))
        else:
            self.summary.setText(translate("DiscardDialog", "looking…"))

    def say_progress(self, text: str) -> None:
        pass  # a preview and a discard are quick: the summary keeps saying which runs

    def finished_job(self, result: ChangePreview | ChangeReport) -> None:
        if isinstance(result, ChangePreview):
            if self.scope.frozen() is None:
                return  # the rows changed while it looked: it looks again
            self._set_preview(result)
            self.scope.covered(result.count)
            self.summary.setText(describe_discard_preview(result))
            named = sorted(result.versions)
            if self._named is not None and named != self._named:
                n = len(named)
                text = translate(
                    "DiscardDialog",
                    "The rows changed while this was open: it now names %Ln dead letter(s), "
                    "not the %1 named before. Discard acts on the rows named below.",
                    "",
                    n,
                )
                self.scope.say(fill(text, len(self._named)))
            self._named = named
        else:
            self._preview = None
            self._finished = True
            self.scope.thaw()
            self.jobFinished.emit(result)
            self.summary.setText(result.describe())
            if not result.refused:
                self.accept()  # done: the window's status bar says what was discarded

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        # Plain text: shown as typed.
        self.summary.setText(fill(translate("DiscardDialog", "Not done: %1"), message))

    def job_ended(self) -> None:
        self._update_button()
        if self._again and self.isVisible():
            self.preview()

    def hideEvent(self, event: QHideEvent) -> None:
        # Closed: it follows the table no more (the window may be closing its workspace).
        self._finished = True
        super().hideEvent(event)

    def reject(self) -> None:
        if self._runner is not None and isinstance(self._runner.job, ChangeApplyJob):
            return  # a discard under way finishes first: it is quick
        super().reject()
