"""Store > Retention…: the store's retention policy (how long resolved and discarded dead
letters are kept, and how long each batch's kept source), how many rows it would purge now,
Save, and Purge now.

The policy lives in the store, so the whole team shares it. The count is a dry run on a
worker thread, read again whenever the policy in the dialog changes; Purge now runs as a
job (progress and Cancel in the window's status bar). Open and parked rows are never
purged: the dialog offers only resolved and discarded.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.batch import describe_retention, set_sources_retention, sources_retention
from triage_app.core.db import Workspace, WorkspaceConfig
from triage_app.core.deadletters import (
    PurgeSummary,
    RetentionPolicy,
    retention_policy,
    set_retention_policy,
)
from triage_app.core.jobs import PurgeJob
from triage_app.core.vocabulary import Status
from triage_app.gui import style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob, suffix_follows_count
from triage_app.gui.i18n import fill, translate
from triage_app.gui.workers import JobRunner, QueryThread

DEFAULT_DAYS = 90
MAX_DAYS = 36_500
PREVIEW_DELAY_MS = 300  # typing 180 in the spin box counts once, not three times


def _load(ws: Workspace) -> tuple[RetentionPolicy | None, int | None]:
    """The dead letters' policy, and the days a batch's source is kept (None: forever)."""
    return retention_policy(ws), sources_retention(ws)


def _said(s: PurgeSummary, forever: bool) -> str:
    """The purge's sentence, and what it forgets of the kept sources (nothing, when the
    dialog keeps them forever: the purge is then told to leave them)."""
    if s.sources is not None:
        return f"{s.describe()} {s.sources.describe()}"
    if forever:
        kept = translate("retention_dialog", "Kept sources: kept forever, none forgotten.")
        return f"{s.describe()} {kept}"
    return s.describe()


class RetentionDialog(JobDialog):
    """Emits ``jobFinished`` with the PurgeSummary of a real purge; the count of what it
    would purge is a dry run of its own, on a runner the status bar does not show."""

    saved = Signal(object)  # the RetentionPolicy now kept in the store

    def __init__(
        self,
        config: WorkspaceConfig,
        queries: QueryThread,
        start_job: StartJob,
        parent: QWidget | None = None,
        *,
        may_not_save: str | None = None,
        may_not_purge: str | None = None,
    ) -> None:
        """``may_not_save`` / ``may_not_purge``: why this login's role may not save the
        policy or purge (``core.db.why_not``): those buttons stay greyed out, saying it."""
        super().__init__(start_job, parent, name="retention")
        self._may_not = {"save": may_not_save, "purge": may_not_purge}
        self.setObjectName("retentionDialog")
        self.setWindowTitle(translate("RetentionDialog", "Retention"))
        self.setMinimumWidth(560)
        self._config = config
        self._queries = queries
        self._preview_runner: JobRunner | None = None
        self._preview_again = False
        self.stored: RetentionPolicy | None = None
        self.preview: PurgeSummary | None = None
        self._counting: RetentionPolicy | None = None  # the policy the running count is of
        self._counting_sources: int | None = None

        intro = QLabel(
            translate(
                "RetentionDialog",
                "Resolved and discarded dead letters closed longer ago than this are deleted, "
                "with their history. Open and parked ones are never purged. Trends keep "
                "counting what was purged. Each batch's input is kept for reprocessing as long "
                "as the last line says, unless a batch still needs it. The policy is kept in "
                "the store: the whole team shares it.",
            )
        )
        intro.setWordWrap(True)
        self.stored_label = QLabel(
            translate("RetentionDialog", "reading the store's policy…"), objectName="storedPolicy"
        )
        self.stored_label.setStyleSheet(style.HINT)
        self.days = QSpinBox(objectName="retentionDays", minimum=0, maximum=MAX_DAYS)
        self.days.setValue(DEFAULT_DAYS)
        suffix_follows_count(
            self.days, lambda n: translate("RetentionDialog", " day(s) ago", "", n)
        )
        self.days.setMaximumWidth(160)
        self.days.setToolTip(
            translate(
                "RetentionDialog", "closed (resolved, or discarded) more than this many days ago"
            )
        )
        self.days.setAccessibleName(
            translate("RetentionDialog", "Purge what closed more than this many days ago")
        )
        self.resolved = QCheckBox(
            translate("RetentionDialog", "resolved"), objectName="retentionResolved", checked=True
        )
        self.discarded = QCheckBox(
            translate("RetentionDialog", "discarded"), objectName="retentionDiscarded", checked=True
        )
        statuses = QHBoxLayout()
        statuses.addWidget(self.resolved)
        statuses.addWidget(self.discarded)
        statuses.addStretch(1)
        self.keep_days = QSpinBox(objectName="keepSourcesDays", minimum=0, maximum=MAX_DAYS)
        self.keep_days.setValue(DEFAULT_DAYS)
        suffix_follows_count(
            self.keep_days, lambda n: translate("RetentionDialog", " day(s)", "", n)
        )
        self.keep_days.setMaximumWidth(160)
        self.keep_days.setToolTip(
            translate(
                "RetentionDialog", "a batch's kept source is forgotten this long after it was kept"
            )
        )
        self.keep_days.setAccessibleName(
            translate("RetentionDialog", "Keep each batch's source this many days")
        )
        self.keep_forever = QCheckBox(
            translate("RetentionDialog", "forever"), objectName="keepSourcesForever"
        )
        keep = QHBoxLayout()
        keep.addWidget(self.keep_days)
        keep.addWidget(self.keep_forever)
        keep.addStretch(1)
        form = QFormLayout()
        form.addRow(translate("RetentionDialog", "Purge"), statuses)
        form.addRow(translate("RetentionDialog", "closed more than"), self.days)
        form.addRow(translate("RetentionDialog", "Keep batch sources"), keep)
        self.count_label = QLabel(objectName="retentionCount", wordWrap=True)
        self.count_label.setStyleSheet("font-weight: bold;")

        self.buttons = QDialogButtonBox()
        self.save_button = self.buttons.addButton(
            translate("RetentionDialog", "Save policy"), QDialogButtonBox.ButtonRole.ApplyRole
        )
        self.save_button.setObjectName("saveRetentionButton")
        self.save_button.setToolTip(
            translate("RetentionDialog", "Keep this policy in the store, for the whole team")
        )
        self.purge_button = self.buttons.addButton(
            translate("RetentionDialog", "Purge now…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.purge_button.setObjectName("purgeNowButton")
        self._enable(self.purge_button, False)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        for button, key in ((self.save_button, "save"), (self.purge_button, "purge")):
            if self._may_not[key] is not None:
                button.setToolTip(self._may_not[key])
                button.setStatusTip(self._may_not[key] or "")
                button.setEnabled(False)
        self.save_button.clicked.connect(self.save)
        self.purge_button.clicked.connect(self.ask_purge)
        self.close_button.clicked.connect(self.reject)

        v = QVBoxLayout(self)
        v.addWidget(intro)
        v.addWidget(self.stored_label)
        v.addLayout(form)
        v.addWidget(self.count_label)
        v.addWidget(self.progress)
        v.addWidget(self.summary)
        v.addStretch(1)
        v.addWidget(self.buttons)

        self._timer = QTimer(self, singleShot=True, interval=PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.count_now)
        self.days.valueChanged.connect(self._changed)
        self.resolved.toggled.connect(self._changed)
        self.discarded.toggled.connect(self._changed)
        self.keep_days.valueChanged.connect(self._changed)
        self.keep_forever.toggled.connect(self._keep_changed)
        self.stored_sources: int | None = DEFAULT_DAYS
        self._queries.submit(_load, self._on_loaded, self._on_error, key="retention-policy")

    # -- the policy in the dialog ---------------------------------------------------------
    def _enable(self, button: Any, on: bool) -> None:
        """Enable ``button`` when ``on`` and this login's role may do what it does."""
        key = "save" if button is self.save_button else "purge"
        button.setEnabled(on and self._may_not[key] is None)

    def statuses(self) -> tuple[str, ...]:
        chosen = [(self.resolved, Status.RESOLVED), (self.discarded, Status.DISCARDED)]
        return tuple(s.value for box, s in chosen if box.isChecked())

    def sources_days(self) -> int | None:
        """The days a kept source stays, as the dialog shows them; None: forever."""
        return None if self.keep_forever.isChecked() else self.keep_days.value()

    def _purge_job(self, dry_run: bool = False) -> PurgeJob | None:
        """The purge the dialog shows: its dead letters, and the sources it forgets (none
        when they stay forever)."""
        policy = self.policy()
        if policy is None:
            return None
        days = self.sources_days()
        return PurgeJob(
            policy.days,
            policy.statuses,
            dry_run,
            sources=days is not None,
            sources_older_than=days,
        )

    @Slot()
    def _keep_changed(self) -> None:
        self.keep_days.setEnabled(not self.keep_forever.isChecked())
        self._changed()

    def policy(self) -> RetentionPolicy | None:
        """The policy the dialog shows; None while no status is ticked."""
        statuses = self.statuses()
        return RetentionPolicy(self.days.value(), statuses) if statuses else None

    @Slot(object)
    def _on_loaded(self, loaded: tuple[RetentionPolicy | None, int | None]) -> None:
        policy, self.stored_sources = loaded
        self.stored = policy
        self._show_stored()
        boxes = (self.days, self.resolved, self.discarded, self.keep_days, self.keep_forever)
        for w in boxes:
            w.blockSignals(True)
        if policy is not None:
            self.days.setValue(policy.days)
            self.resolved.setChecked(Status.RESOLVED in policy.statuses)
            self.discarded.setChecked(Status.DISCARDED in policy.statuses)
        self.keep_forever.setChecked(self.stored_sources is None)
        self.keep_days.setEnabled(self.stored_sources is not None)
        if self.stored_sources is not None:
            self.keep_days.setValue(self.stored_sources)
        for w in boxes:
            w.blockSignals(False)
        self.count_now()

    def _show_stored(self) -> None:
        sources = describe_retention(self.stored_sources)
        if self.stored is None:
            text = translate(
                "RetentionDialog", "No retention policy is set for this store; %1 (the default)."
            )
            self.stored_label.setText(fill(text, sources))
        else:
            text = translate("RetentionDialog", "The store's policy: purge %1; %2.")
            self.stored_label.setText(fill(text, self.stored.describe(), sources))

    @Slot()
    def _changed(self) -> None:
        self.preview = None
        self._enable(self.purge_button, False)
        self._enable(self.save_button, self.policy() is not None)
        self._timer.start()

    # -- how many it would purge now ------------------------------------------------------
    @Slot()
    def count_now(self) -> None:
        """A dry run of the dialog's policy, on a worker thread."""
        policy = self.policy()
        if policy is None:
            self.count_label.setText(
                translate("RetentionDialog", "Tick resolved, discarded or both.")
            )
            return
        if self._preview_runner is not None:
            self._preview_again = True  # counted again when the running count ends
            return
        self.count_label.setText(translate("RetentionDialog", "counting what it would purge now…"))
        self._counting = policy
        self._counting_sources = self.sources_days()
        job = self._purge_job(dry_run=True)
        assert job is not None
        runner = JobRunner(self._config, job, self)
        runner.finished.connect(self._on_counted)
        runner.failed.connect(self._on_error)
        runner.done.connect(self._on_count_done)
        self._preview_runner = runner
        runner.start()

    @Slot(object)
    def _on_counted(self, s: PurgeSummary) -> None:
        if self.policy() != self._counting or self.sources_days() != self._counting_sources:
            return  # the policy changed while it counted; the next count says
        self.preview = s
        self.count_label.setText(_said(s, self._counting_sources is None))
        forgets = s.sources is not None and bool(s.sources.sources)
        self._enable(self.purge_button, (s.rows > 0 or forgets) and self._runner is None)
        if s.rows:
            self.purge_button.setText(fill(translate("RetentionDialog", "Purge %1 now…"), s.rows))
        else:
            self.purge_button.setText(translate("RetentionDialog", "Purge now…"))

    @Slot()
    def _on_count_done(self) -> None:
        self._preview_runner = None
        if self._preview_again:
            self._preview_again = False
            self.count_now()

    # -- save and purge -------------------------------------------------------------------
    @Slot()
    def save(self) -> None:
        policy = self.policy()
        if policy is None:
            return

        days = self.sources_days()

        def store(ws: Workspace) -> tuple[RetentionPolicy, int | None]:
            set_retention_policy(ws, policy)
            set_sources_retention(ws, days)
            return policy, days

        self._enable(self.save_button, False)
        self._queries.submit(store, self._on_saved, self._on_error, key="retention-save")

    @Slot(object)
    def _on_saved(self, saved: tuple[RetentionPolicy, int | None]) -> None:
        policy, self.stored_sources = saved
        self.stored = policy
        self._show_stored()
        self._enable(self.save_button, True)
        self.summary.setText(
            translate("RetentionDialog", "Saved: the whole team's purges now follow this policy.")
        )
        self.saved.emit(policy)

    @Slot()
    def ask_purge(self) -> None:
        if self.preview is None:
            return
        forgets = self.preview.sources is not None and bool(self.preview.sources.sources)
        if not self.preview.rows and not forgets:
            return
        asked = translate(
            "RetentionDialog",
            "%1\n\nThey are deleted with their history; this cannot be undone. Trends keep "
            "counting them.",
        )
        answer = QMessageBox.question(
            self,
            translate("RetentionDialog", "Purge dead letters"),
            fill(asked, _said(self.preview, self.sources_days() is None)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.purge_now()

    def purge_now(self) -> JobRunner | None:
        """Run the purge the dialog shows, as a job off the GUI thread."""
        job = self._purge_job()
        if job is None:
            return None
        runner = self.start(job)
        if runner is not None:
            self._enable(self.purge_button, False)
            self.summary.setText(translate("RetentionDialog", "purging…"))
        return runner

    def say_progress(self, text: str) -> None:
        pass  # the bar follows the purge; its line is in the window's status bar

    def finished_job(self, s: PurgeSummary) -> None:
        self.summary.setText(_said(s, self.sources_days() is None))
        self.jobFinished.emit(s)

    def job_ended(self) -> None:
        self.count_now()

    @Slot(str)
    def _on_error(self, message: str) -> None:
        self._on_failed(message)

    def is_busy(self) -> bool:
        return self._preview_runner is not None or self._runner is not None

    def done(self, result: int) -> None:
        if self._preview_runner is not None:
            self._preview_runner.stop()
        if self._runner is not None:
            self.hide()  # the purge goes on; the status bar shows it
            return
        super().done(result)
