"""The window's long work, as the menus, the buttons, Trends and the table's menu ask for
it: each job dialog opened on the workspace (Run batch, Suspect a version, Re-drive and
Re-drive to the source, Fix rows, Discard, Change-sets, Retention, Connect a queue and
Attach a dead-letter table), an error group's change, and exports. A job dialog's result
that changed the store comes back through one slot, ``finished``, which shows core's
sentence for it (``describe()``) and reads the store again.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QFileDialog, QMessageBox

from triage_app.core.connectors import AMQP, TABLE
from triage_app.core.db import Act, why_not
from triage_app.core.deadletters import (
    ChangeSetInfo,
    DeadLetterFilter,
    ErrorGroup,
    ExportSummary,
    list_change_sets,
)
from triage_app.core.jobs import ExportJob, HeldBatchJob
from triage_app.core.transforms import Registry
from triage_app.core.vocabulary import ALL
from triage_app.gui.dialogs.batch_dialog import BatchDialog
from triage_app.gui.dialogs.change_sets_dialog import ChangeSetsDialog
from triage_app.gui.dialogs.connector_dialog import ConnectorDialog
from triage_app.gui.dialogs.discard_dialog import DiscardDialog
from triage_app.gui.dialogs.fix_dialog import FixDialog
from triage_app.gui.dialogs.group_dialog import GroupDialog
from triage_app.gui.dialogs.job_dialog import Described, JobDialog
from triage_app.gui.dialogs.redrive_dialog import RedriveDialog, default_transform
from triage_app.gui.dialogs.reprocess_dialog import ReprocessDialog
from triage_app.gui.dialogs.retention_dialog import RetentionDialog
from triage_app.gui.dialogs.scope import ChosenRows
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.unsaved_edit import Doing
from triage_app.gui.workers import JobRunner

if TYPE_CHECKING:
    from triage_app.gui.window.host import WindowHost

# The selected rows by id, whatever their status (the table may show several statuses).
ALL_STATUSES = DeadLetterFilter(status=ALL)


class JobMenu(QObject):
    """Wires the Batch, Re-drive and Store menus' jobs, the buttons above the table, the
    row actions' Discard and Trends' group edits to the window whose workspace they act on."""

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        # The transforms Suspect a version… offers and runs (None: the app's own).
        self.registry: Registry | None = None
        m = window.menu
        for action, slot in (
            (m.batch_action, self.run_batch),
            (m.reprocess_action, self.suspect_version),
            (m.redrive_action, self.redrive),
            (m.redrive_source_action, self.redrive_to_source),
            (m.connect_queue_action, partial(self.import_letters, AMQP)),
            (m.attach_table_action, partial(self.import_letters, TABLE)),
            (m.fix_action, self.fix_rows),
            (m.load_whole_action, self.load_whole_batch),
            (m.change_sets_action, self.show_change_sets),
            (m.retention_action, self.retention),
            (m.export_selection_action, self.export_selection),
            (m.export_filter_action, self.export_filter),
        ):
            action.triggered.connect(slot)
        window.run_batch_button.clicked.connect(self.run_batch)
        window.redrive_button.clicked.connect(self.redrive)
        window.row_actions.discardRequested.connect(self.discard_rows)
        window.trends.groupEditRequested.connect(self.edit_group)

    @Slot()
    def run_batch(self) -> None:
        w = self.window
        if w.config is None:
            return
        start_dir = str(w.config.folder / "incoming") if w.config.folder else ""
        dialog = BatchDialog(
            w.start_job,
            start_dir,
            w,
            batches=w.batches,  # it opens on the last one's transform
            remember=w.config.description,  # and on the folder of the last file run
        )
        dialog.showBatch.connect(w.show_batch)
        self._show(dialog, "batchDialog")

    def _show(self, dialog: JobDialog, name: str | None = None) -> None:
        """A job dialog shown modeless, named for tests and scripts, its result led to
        ``finished``, and kept by the window while it is shown or its job runs."""
        if name is not None:
            dialog.setObjectName(name)
        dialog.jobFinished.connect(self.finished)
        self.window.keep(dialog)
        dialog.show()

    @Slot(object)
    def finished(self, result: Described) -> None:
        """Every job dialog's result that changed the store: core's sentence for it in the
        status bar, and the table, batches, charts and trail read again in place."""
        w = self.window
        w.show_message(result.describe())
        w.reload(in_place=True)

    @Slot()
    def suspect_version(self) -> None:
        """Batch > Suspect a version…: the rows a version wrote run through a fixed one,
        checked, then applied; the window reads the store again after an apply."""
        w = self.window
        if w.config is None:
            return
        dialog = ReprocessDialog(w.start_job, w.queries, registry=self.registry, parent=w)
        self._show(dialog, "reprocessDialog")

    @Slot()
    def redrive(self) -> None:
        w = self.window
        if w.config is not None:
            # A re-drive runs the stored payloads, not what the editor holds.
            w.unsaved_edit.then(Doing.REDRIVING, self._redrive)

    @Slot()
    def redrive_to_source(self) -> None:
        """Re-drive > Re-drive to the source…: the Re-drive dialog, its destination where
        each imported dead letter came from."""
        w = self.window
        if w.config is not None:
            w.unsaved_edit.then(Doing.REDRIVING, partial(self._redrive, True))

    def _redrive(self, to_source: bool | None = None) -> None:
        """``to_source``: where the dialog's destination starts (None: where the rows came
        from when the table shows imported ones, else the warehouse)."""
        w = self.window
        if w.config is None:
            return
        if to_source is None:
            to_source = self._imported_in_view()
        dialog = RedriveDialog(
            w.start_job,
            w.scope,
            transforms_in_use=w.transforms_in_use(),
            parent=w,
            connectors=w.connectors,
            to_source=to_source,
        )
        self._show(dialog, "redriveDialog")

    def _imported_in_view(self) -> bool:
        """The table shows imported dead letters: its source filter names a connector, or
        the current row came from one."""
        w = self.window
        names = {c.name for c in w.connectors}
        if not names:
            return False
        if w.model.filter.source in names:
            return True
        row = w.table.current_row()
        return row is not None and w.model.source_of(row.batch_id) in names

    def import_letters(self, kind: str, _checked: bool = False) -> None:
        """File > Connect a queue… / Attach a dead-letter table…: a connector kept and its
        letters imported; the kept ones follow the store while the dialog is open."""
        w = self.window
        if w.config is None:
            return
        dialog = ConnectorDialog(w.start_job, w.connectors, w, kind=kind)
        w.connectorsChanged.connect(dialog.set_connectors)
        self._show(dialog, "connectorDialog")

    @Slot()
    def load_whole_batch(self) -> None:
        """Re-drive > Load the whole batch…: the batch of the dead letter shown, when it is
        all or nothing and held; confirmed naming the batch and its counts, then core's
        ``load_held_batch`` on a worker (``HeldBatchJob``): every row in one transaction,
        or nothing and the reasons."""
        w = self.window
        if w.config is None:
            return
        d = w.detail.current_detail()
        if d is None or not d.held_note():
            w.show_message(
                translate(
                    "JobMenu",
                    "Load the whole batch: show a dead letter of a held (all-or-nothing) "
                    "batch first",
                )
            )
            return
        w.unsaved_edit.then(Doing.LOADING_BATCH, partial(self._load_whole, d))

    def _load_whole(self, d: Any) -> None:
        w = self.window
        held, waiting = d.batch_held, d.batch_waiting
        rows = translate("JobMenu", "%Ln held row(s)", "", held)
        letters = translate("JobMenu", "%Ln dead letter(s)", "", waiting)
        answer = QMessageBox.question(
            w,
            translate("JobMenu", "Load the whole batch"),
            fill(
                translate(
                    "JobMenu",
                    "Load batch %1 whole, in one transaction?\n\n"
                    "%2 and %3 (each through its current payload) load together, or nothing "
                    "loads and the batch stays held, with the reason of every line that still "
                    "fails.",
                ),
                d.batch_id,
                rows,
                letters,
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        runner = w.start_job(HeldBatchJob(d.batch_id))
        runner.finished.connect(self.finished)
        runner.failed.connect(w.show_message)

    @Slot()
    def fix_rows(self) -> None:
        """Re-drive > Fix rows…: one fix for the selected rows or the filter's, previewed,
        then applied as a change-set."""
        w = self.window
        if w.config is not None:
            # A fix patches the stored payloads, not what the editor holds.
            w.unsaved_edit.then(Doing.FIXING, self._fix_rows)

    def _fix_rows(self) -> None:
        w = self.window
        if w.config is None:
            return
        dialog = FixDialog(
            w.start_job,
            w.scope,
            transform=default_transform(w.transforms_in_use()),
            parent=w,
        )
        self._show(dialog, "fixDialog")

    @Slot()
    def discard_rows(self) -> None:
        """Re-drive > Discard…: the selected rows or the filter's, previewed and named,
        discarded with a reason (Reopen brings them back until retention purges them)."""
        w = self.window
        if w.config is None:
            return
        dialog = DiscardDialog(w.start_job, w.scope, w)
        self._show(dialog, "discardDialog")

    @Slot()
    def show_change_sets(self) -> None:
        """Store > Change-sets…: who fixed what, when; revert one."""
        w = self.window
        if w.ws is None:
            return
        ws = w.ws
        dialog = ChangeSetsDialog(w.start_job, lambda: list_change_sets(ws), w)
        role = getattr(w, "role", None)
        if role is not None:  # a team store: one's own change-sets, or a lead's
            me = w.db_user

            def why(c: ChangeSetInfo) -> str | None:
                act = Act.REVERT_OWN if c.db_user == me else Act.REVERT_OTHERS
                reason = why_not(role, act)
                if reason is None:
                    return None
                return fill(translate("JobMenu", "change-set %1: %2"), str(c.id), reason)

            dialog.why_not_revert = why  # type: ignore[method-assign]
            dialog._selection_changed()
        self._show(dialog, "changeSetsDialog")

    @Slot(object, str)
    def edit_group(self, group: ErrorGroup, what: str) -> None:
        """Trends > a group's menu: its owner, tags and note (the team backlog), ``what``
        of them focused."""
        w = self.window
        if w.ws is None:
            return
        role = getattr(w, "role", None)
        refused = None if role is None else why_not(role, Act.NOTE)
        if refused is not None:  # the menu greys it out; a shortcut would get here
            w.show_message(refused)
            return
        owners, tags = w.team
        dialog = GroupDialog(group, owners, tags, focus=what, parent=w)
        accepted = dialog.exec() == GroupDialog.DialogCode.Accepted
        job = dialog.job() if accepted else None
        dispose(dialog)  # one per change, gone now: not kept as the window's child
        if not accepted:
            return
        if job is None:
            w.show_message(translate("JobMenu", "Error group: nothing changed"))
            return
        runner = w.start_job(job)
        runner.finished.connect(self._on_group_changed)
        runner.failed.connect(self._on_group_refused)

    @Slot(object)
    def _on_group_changed(self, group: Any) -> None:
        w = self.window
        owner = group.owner or translate("JobMenu", "nobody")
        tags = ", ".join(group.tags) or translate("JobMenu", "none")
        w.show_message(
            fill(
                translate("JobMenu", "Error group %1: owner %2, tags %3"),
                group.signature[:60],
                owner,
                tags,
            )
        )
        w.load_batches()  # and the owners and tags the pickers offer
        w.trends.refresh()

    @Slot(str)
    def _on_group_refused(self, message: str) -> None:
        """Another steward changed the group first: say so and show it as it is now."""
        w = self.window
        w.show_message(message)
        w.trends.refresh()

    @Slot()
    def retention(self) -> None:
        """Store > Retention…: the store's policy, what it would purge now, Purge now."""
        w = self.window
        if w.config is None or w.queries is None:
            return
        role = getattr(w, "role", None)
        dialog = RetentionDialog(
            w.config,
            w.queries,
            w.start_job,
            w,
            may_not_save=None if role is None else why_not(role, Act.POLICY),
            may_not_purge=None if role is None else why_not(role, Act.PURGE),
        )
        self._show(dialog)

    @Slot()
    def export_selection(self) -> None:
        ids = self.window.row_actions.ids_or_complain()
        if ids:
            # The ids themselves: the file holds exactly the rows named, whatever the
            # filter does next.
            chosen = ChosenRows("", tuple(ids), None, len(ids))
            self._export(ALL_STATUSES.with_(ids=tuple(ids)), chosen)

    @Slot()
    def export_filter(self) -> None:
        w = self.window
        f = w.model.filter
        self._export(f, ChosenRows("", None, f, w.model.total()))

    def _export(self, where: DeadLetterFilter, chosen: ChosenRows) -> None:
        what = chosen.describe()
        path, picked = QFileDialog.getSaveFileName(
            self.window,
            fill(translate("JobMenu", "Export %1"), what[:1].lower() + what[1:]),
            "dead_letters.csv",
            translate("JobMenu", "CSV (*.csv);;JSON Lines (*.jsonl)"),
        )
        if path:
            fmt = "jsonl" if "jsonl" in picked or path.endswith(".jsonl") else "csv"
            self.export_to(where, Path(path), fmt, expected=chosen.count)

    def export_to(
        self, where: DeadLetterFilter, path: Path, fmt: str, expected: int | None = None
    ) -> JobRunner:
        """Export the rows ``where`` names; ``expected``: how many the steward was told, so
        that a store that changed meanwhile is said, not hidden."""
        runner = self.window.start_job(ExportJob(where, path, fmt))
        runner.finished.connect(partial(self._on_exported, expected))
        runner.failed.connect(self._export_failed)
        return runner

    def _on_exported(self, expected: int | None, s: ExportSummary) -> None:
        w = self.window
        if s.cancelled:
            w.show_message(translate("JobMenu", "export cancelled; no file written"))
            return
        rows = s.rows
        text = fill(translate("JobMenu", "exported %Ln dead letter(s) to %1", "", rows), s.path)
        if expected is not None and expected != s.rows:
            text = fill(
                translate(
                    "JobMenu",
                    "%1 (%2 matched when you chose: the store changed meanwhile)",
                ),
                text,
                expected,
            )
        w.show_message(text)

    @Slot(str)
    def _export_failed(self, message: str) -> None:
        QMessageBox.warning(self.window, translate("JobMenu", "Not done"), message)
