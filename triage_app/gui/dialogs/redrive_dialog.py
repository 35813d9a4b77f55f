"""Re-drive…: the selected rows or every row matching the filter, through a transform
version (default: the newest). A dry-run preview comes first and writes nothing; then the
run, with progress and Cancel, and its summary.

Once the store has connectors (issue 26), the dialog also offers where the rows go: the
warehouse, back where each imported dead letter came from (its queue's exchange and routing
key, or its pipeline's table: ``connectors.RoutedSink``), or one broker exchange typed as
``amqp://host/vhost/exchange/routing-key``. To a broker the version may be "as they are"
(nothing validated); a table takes rows, so it needs one. Rows a sink did not confirm (a
nack, a lost connection) stay open, and the summary lists each with why.

The scope follows the table while the dialog is open (``scope.py``); the run re-drives
exactly the rows the preview covered, each only while it is at the version previewed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import orjson
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    Slot,
)
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.connectors import TABLE, Connector, RoutedSink
from triage_app.core.deadletters import (
    RedriveGuard,
    RedriveResult,
    RedriveSummary,
)
from triage_app.core.errors import TriageError
from triage_app.core.jobs import RedriveJob
from triage_app.core.messages import _
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import named_ids
from triage_app.gui import labels, style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob, suffix_follows_count
from triage_app.gui.dialogs.scope import RowsScope, ScopeSource
from triage_app.gui.i18n import fill, translate
from triage_app.gui.rows_model import RowsModel
from triage_app.gui.window.placement import dialog_size

NAMED_IDS = 10  # ids a summary names before "and N more"
SHOWN_RESULTS = 2_000  # the preview lists this many rows; the counts cover all of them
SIZED_FROM_ROWS = 200  # the preview's columns fit the widest of this many rows


def default_transform(transforms_in_use: Sequence[str]) -> str | None:
    """The newest version of the transform the rows were quarantined by."""
    reg = default_registry()
    for ref in transforms_in_use:
        try:
            return reg.newest(ref.split("@", 1)[0]).ref
        except TriageError:
            continue
    refs = [t.ref for t in reg.all()]
    return refs[-1] if refs else None


RESULT_HEADERS = (
    QT_TRANSLATE_NOOP("redrive_dialog", "id"),
    QT_TRANSLATE_NOOP("redrive_dialog", "line"),
    QT_TRANSLATE_NOOP("redrive_dialog", "outcome"),
    QT_TRANSLATE_NOOP("redrive_dialog", "error, or the row it loads"),
)

# Where a re-drive sends the rows: (label, what RedriveJob's ``to`` says; None: warehouse).
WAREHOUSE, ORIGINAL, BROKER = None, "original", "amqp"
DESTINATIONS = (
    (QT_TRANSLATE_NOOP("redrive_dialog", "The warehouse, through the transform"), WAREHOUSE),
    (
        QT_TRANSLATE_NOOP(
            "redrive_dialog", "Where each came from: its queue's exchange, or its table"
        ),
        ORIGINAL,
    ),
    (QT_TRANSLATE_NOOP("redrive_dialog", "One broker exchange:"), BROKER),
)
# The transform combo's last item, shown translated (``translate("redrive_dialog", …)``).
AS_THEY_ARE = QT_TRANSLATE_NOOP("redrive_dialog", "as they are (validate nothing)")


class _ResultsModel(RowsModel[RedriveResult]):
    """The preview's (or the run's) first rows, coloured by outcome."""

    headers = RESULT_HEADERS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        text = super().headerData(section, orientation, role)
        return translate("redrive_dialog", text) if isinstance(text, str) else text

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if col == 3:
                return r.error or (orjson.dumps(r.row).decode() if r.row else "")
            if role == Qt.ItemDataRole.ToolTipRole:
                return None
            return (str(r.id), str(r.line), labels.shown(labels.REDRIVE_OUTCOMES, r.outcome))[col]
        if role == Qt.ItemDataRole.BackgroundRole:
            return QColor(style.OUTCOME_FILLS.get(r.outcome, "#ffffff"))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(style.INK)
        if role == Qt.ItemDataRole.TextAlignmentRole and col < 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class RedriveDialog(JobDialog):
    """Emits ``jobFinished`` with the RedriveSummary of a real run (not of a preview)."""

    def __init__(
        self,
        start_job: StartJob,
        scope: ScopeSource,
        *,
        transforms_in_use: Sequence[str] = (),
        parent: QWidget | None = None,
        connectors: Sequence[Connector] = (),
        to_source: bool = False,
    ) -> None:
        super().__init__(start_job, parent, name="redrive")
        if to_source:
            self.setWindowTitle(translate("RedriveDialog", "Re-drive to the source"))
        else:
            self.setWindowTitle(translate("RedriveDialog", "Re-drive dead letters"))
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(900, 560)))
        self._preview: RedriveSummary | None = None

        self.scope = RowsScope(scope, translate("RedriveDialog", "Re-drive"))
        self.scope_selected, self.scope_filter = self.scope.selected, self.scope.filter
        self.transform_combo = QComboBox(objectName="redriveTransform")
        self.transform_combo.setAccessibleName(
            translate("RedriveDialog", "Transform for the re-drive")
        )
        for t in default_registry().all():
            self.transform_combo.addItem(f"{t.ref}  ({_(t.description)})", t.ref)
        default = default_transform(transforms_in_use)
        if default:
            self.transform_combo.setCurrentIndex(self.transform_combo.findData(default))
        self._has_tables = any(c.kind == TABLE for c in connectors)
        self._offers_destinations = bool(connectors)
        self.destination = QComboBox(objectName="redriveDestination")
        self.destination.setAccessibleName(
            translate("RedriveDialog", "Where the re-driven rows go")
        )
        for text, to in DESTINATIONS:
            self.destination.addItem(translate("redrive_dialog", text), to)
        self.address = QLineEdit(objectName="redriveAddress")
        self.address.setPlaceholderText("amqp://user:password@host/vhost/exchange/routing-key")
        self.address.setAccessibleName(
            translate("RedriveDialog", "Broker exchange and routing key")
        )
        self.sink_note = QLabel(objectName="redriveSinkNote", wordWrap=True)
        self.sink_note.setStyleSheet(style.HINT)
        if connectors:
            # To a broker a payload may go as it is: the version is then optional.
            self.transform_combo.addItem(translate("redrive_dialog", AS_THEY_ARE), None)
            if to_source:
                self.destination.setCurrentIndex(self.destination.findData(ORIGINAL))
        self.scope.previewDropped.connect(self._on_preview_dropped)
        self.transform_combo.currentIndexChanged.connect(self._invalidate_preview)
        self.transform_combo.currentIndexChanged.connect(self._say_sink_note)
        self.destination.currentIndexChanged.connect(self._destination_changed)
        self.address.textChanged.connect(self._invalidate_preview)

        form = QFormLayout()
        form.addRow(translate("RedriveDialog", "Re-drive"), self.scope)
        to_row = QHBoxLayout()
        to_row.addWidget(self.destination)
        to_row.addWidget(self.address, 1)
        form.addRow(translate("RedriveDialog", "To"), to_row)
        # Without connectors there is one destination: the dialog stays as it always was.
        form.setRowVisible(to_row, self._offers_destinations)
        form.addRow(translate("RedriveDialog", "Transform"), self.transform_combo)
        form.addRow(self.sink_note)
        self._form = form

        # The guard: a canary first, a stop when too many fail, a pace (issue 13).
        self.canary_check = QCheckBox(
            translate("RedriveDialog", "Canary first:"), objectName="redriveCanary"
        )
        self.canary_rows = QSpinBox(objectName="redriveCanaryRows", minimum=0, maximum=1_000_000)
        self.canary_rows.setSpecialValueText(translate("RedriveDialog", "10 or 1%"))
        suffix_follows_count(
            self.canary_rows, lambda n: translate("RedriveDialog", " row(s)", "", n)
        )
        self.canary_rows.setAccessibleName(
            translate("RedriveDialog", "Rows re-driven first, as a canary")
        )
        self.stop_rate = QSpinBox(objectName="redriveStopRate", minimum=0, maximum=100, value=20)
        self.stop_rate.setSuffix(translate("RedriveDialog", " % failed"))
        self.stop_rate.setPrefix(translate("RedriveDialog", "stop above "))
        self.stop_rate.setAccessibleName(
            translate("RedriveDialog", "Stop when more than this share of rows failed")
        )
        self.stop_check = QCheckBox(
            translate("RedriveDialog", "Stop by itself"), objectName="redriveStop"
        )
        self.pace = QSpinBox(objectName="redrivePace", minimum=0, maximum=1_000_000)
        self.pace.setSpecialValueText(translate("RedriveDialog", "full speed"))
        self.pace.setSuffix(translate("RedriveDialog", " rows/s"))
        self.pace.setAccessibleName(
            translate("RedriveDialog", "Pace, rows a second (0: full speed)")
        )
        guard = QHBoxLayout()
        for w in (self.canary_check, self.canary_rows, self.stop_check, self.stop_rate):
            guard.addWidget(w)
        guard.addWidget(QLabel(translate("RedriveDialog", "Pace:")))
        guard.addWidget(self.pace)
        guard.addStretch(1)
        form.addRow(translate("RedriveDialog", "Guard"), guard)
        self.canary_check.toggled.connect(self._guard_changed)
        self.stop_check.toggled.connect(self._guard_changed)
        self._guard_changed()

        self.results = QTableView(objectName="redrivePreview")
        self.results.setAccessibleName(translate("RedriveDialog", "Re-drive results"))
        self.results.setTabKeyNavigation(False)  # Tab moves on to the buttons
        self.results.setModel(_ResultsModel((), self.results))
        self.results.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.results.horizontalHeader().setResizeContentsPrecision(SIZED_FROM_ROWS)
        self.results.verticalHeader().hide()
        self.results.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        # One line a row (the whole row or error is in the tooltip): wrapped, a screenful
        # showed a dozen rows.
        self.results.setWordWrap(False)
        self.results.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.results.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.summary.setText(
            translate(
                "RedriveDialog",
                "Preview first: a dry run shows what would happen and writes nothing.",
            )
        )

        self.buttons = QDialogButtonBox()
        self.preview_button = self.buttons.addButton(
            translate("RedriveDialog", "Preview (dry run)"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.preview_button.setObjectName("previewButton")
        self.run_button = self.buttons.addButton(
            translate("RedriveDialog", "Re-drive"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.run_button.setObjectName("redriveRunButton")
        self.add_cancel_button(self.buttons, translate("RedriveDialog", "Cancel re-drive"))
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.preview_button.clicked.connect(self.preview)
        self.run_button.clicked.connect(self.run)
        self.close_button.clicked.connect(self.reject)
        self.run_button.setEnabled(False)

        # Not _destination_changed: invalidating would choose the default button before the
        # dialog is shown, and the button box would then make Re-drive its default.
        self._show_destination()

        v = QVBoxLayout(self)
        v.addLayout(form)
        v.addWidget(self.results, 1)
        v.addWidget(self.progress)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)

    def to(self) -> str | None:
        """Where the rows go, as RedriveJob's ``to`` says it (None: the warehouse)."""
        chosen = self.destination.currentData()
        if chosen == BROKER:
            return self.address.text().strip()
        return chosen

    @Slot()
    def _destination_changed(self) -> None:
        self._show_destination()
        self._invalidate_preview()

    def _show_destination(self) -> None:
        """The broker's address is asked for only when it is the destination; "as they
        are" is offered only where the rows may go unvalidated (not the warehouse)."""
        chosen = self.destination.currentData()
        self.address.setEnabled(chosen == BROKER)
        self.address.setVisible(chosen == BROKER)
        i = self.transform_combo.findData(None)
        if i >= 0:
            item = self.transform_combo.model().item(i)  # type: ignore[attr-defined]
            item.setEnabled(chosen != WAREHOUSE)
            if chosen == WAREHOUSE and self.transform_combo.currentIndex() == i:
                self.transform_combo.setCurrentIndex(0)
        self._say_sink_note()

    @Slot()
    def _say_sink_note(self) -> None:
        chosen = self.destination.currentData()
        note = ""
        if chosen == ORIGINAL:
            note = translate(
                "RedriveDialog",
                "Each imported row goes back to its own queue's exchange and routing key, "
                "or its pipeline's table; rows not confirmed stay open, with why.",
            )
            if self._has_tables and self.transform_combo.currentData() is None:
                note += " " + translate(
                    "RedriveDialog",
                    "A dead-letter table takes rows: its rows need a transform version.",
                )
        elif chosen == BROKER:
            note = translate(
                "RedriveDialog",
                "Every row goes to this exchange and routing key; rows not confirmed stay open.",
            )
        self.sink_note.setText(note)
        self._form.setRowVisible(self.sink_note, bool(note))

    @Slot()
    def _guard_changed(self) -> None:
        self.canary_rows.setEnabled(self.canary_check.isChecked())
        self.stop_rate.setEnabled(self.canary_check.isChecked() or self.stop_check.isChecked())

    def guard(self) -> RedriveGuard | None:
        """The guard the dialog asks for; None for a re-drive at full speed, unwatched."""
        canary = self.canary_rows.value() if self.canary_check.isChecked() else None
        pace = float(self.pace.value()) or None
        stop = self.canary_check.isChecked() or self.stop_check.isChecked()
        if canary is None and pace is None and not stop:
            return None
        # Unchecked, the stop still needs a rate; a share above 1 never stops anything.
        rate = self.stop_rate.value() / 100 if stop else 1.0
        return RedriveGuard(canary=canary, max_failure_rate=rate, pace=pace)

    def acts_on(self) -> list[int]:
        """The ids Re-drive would act on now: the preview's rows (empty before one)."""
        return list(self._preview.seen) if self._preview is not None else []

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # After the button box's own show, which makes its first accept button (Re-drive,
        # disabled until a preview) the default.
        self._follow_with_enter()

    def _follow_with_enter(self) -> None:
        """Enter takes the next step: Preview until there is a preview to run, then
        Re-drive. (Enter on a disabled default button would do nothing.)"""
        ready = self.run_button.isEnabled()
        (self.run_button if ready else self.preview_button).setDefault(True)

    @Slot()
    def _invalidate_preview(self) -> None:
        self.scope.thaw()
        self._preview = None
        self.run_button.setEnabled(False)
        self.run_button.setText(translate("RedriveDialog", "Re-drive"))
        self.results.setModel(_ResultsModel((), self.results))
        self._follow_with_enter()

    @Slot()
    def _on_preview_dropped(self) -> None:
        """The table's rows changed under the dialog: what was previewed is not what it
        names now (the scope's note says so)."""
        if self._runner is not None and not self._runner.job.dry_run:
            return  # a run is under way on the rows it was given
        self._invalidate_preview()
        self.summary.setText(
            translate("RedriveDialog", "Preview again: the rows to re-drive changed.")
        )

    def _destination_problem(self) -> str | None:
        """What the destination lacks, in one line; None: nothing."""
        to = self.to()
        if self.destination.currentData() == BROKER and not to.startswith(("amqp://", "amqps://")):
            return translate(
                "RedriveDialog", "Give the exchange: amqp://host/vhost/exchange/routing-key"
            )
        return None

    def _job(self, **kwargs: Any) -> RedriveJob:
        """The job for the dialog's transform and destination (a sink by its kind,
        ``RoutedSink``, for any but the warehouse)."""
        to = self.to()
        sink = RoutedSink if to is not None else None
        return RedriveJob(self.transform_combo.currentData(), to=to, sink=sink, **kwargs)

    @Slot()
    def preview(self) -> None:
        problem = self._destination_problem()
        if problem is not None:
            self.summary.setText(style.coloured(problem, style.ERROR))
            return
        chosen = self.scope.freeze()
        if chosen is None:
            return
        self._start(self._job(ids=chosen.ids, where=chosen.where, dry_run=True))

    @Slot()
    def run(self) -> None:
        if self._preview is None or not self._preview.seen:
            return
        self._start(self._job(seen=self._preview.seen, guard=self.guard()))
        self.scope.thaw()  # the previewed rows are the run's now, whatever the table does

    def _start(self, job: RedriveJob) -> None:
        if self.start(job) is None:
            return
        for w in (
            self.preview_button,
            self.run_button,
            self.transform_combo,
            self.destination,
            self.address,
        ):
            w.setEnabled(False)
        if job.dry_run:
            self.summary.setText(translate("RedriveDialog", "previewing…"))
        else:
            self.summary.setText(translate("RedriveDialog", "re-driving…"))

    def finished_job(self, s: RedriveSummary) -> None:
        if s.dry_run and self.scope.frozen() is None:
            return  # the scope changed while it ran: the dialog has said so
        self._show_results(s)
        text = s.describe()
        if s.dry_run:
            # Only its counts and rows are needed from here on; the rows shown are in the
            # table.
            self._preview = replace(s, results=()) if not s.cancelled and s.seen else None
            n = len(s.seen)
            if self._preview is not None:
                self.run_button.setText(fill(translate("RedriveDialog", "Re-drive %1"), n))
                self.scope.covered(n)
                # Named from the first ids only: a million-row preview is not listed.
                exactly = translate("RedriveDialog", "Re-drive %1 acts on exactly these: %2.")
                text += " " + fill(exactly, n, named_ids(s.seen.first(NAMED_IDS), total=n))
            else:
                self.run_button.setText(translate("RedriveDialog", "Re-drive"))
        self.summary.setText(text)
        if not s.dry_run:
            self._preview = None
            self.scope.thaw()
            self.run_button.setText(translate("RedriveDialog", "Re-drive"))
            self.jobFinished.emit(s)

    def job_ended(self) -> None:
        self.preview_button.setEnabled(True)
        self.transform_combo.setEnabled(True)
        self.destination.setEnabled(True)
        self.address.setEnabled(self.destination.currentData() == BROKER)
        self.run_button.setEnabled(self._preview is not None and len(self._preview.seen) > 0)
        self._follow_with_enter()

    def _show_results(self, s: RedriveSummary) -> None:
        # A model over the first rows, not a cell widget each: a table of items cost the
        # window some 100 ms after a large preview.
        self.results.setModel(_ResultsModel(s.results[:SHOWN_RESULTS], self.results))
        # Sized once, from the first rows, not on every layout: a column that sizes to its
        # contents asks the model for a thousand cells each time the dialog lays out
        # (showing the progress bar does), each a call into Python that waits for the
        # running job to let go of the interpreter.
        for col in range(3):
            self.results.resizeColumnToContents(col)
