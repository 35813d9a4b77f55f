"""Connect a queue… and Attach a dead-letter table…: dead letters another pipeline made,
imported into the open workspace (issue 26).

One dialog, a tab for each kind of connector: a RabbitMQ dead-letter queue (the broker's
URL, its password, the queue) or a pipeline's own dead-letter table (a SQLAlchemy URL, its
password, the table, which of its columns holds what, and where a re-drive writes rows
back). Import keeps the connector (the store keeps its address without the password; the
password goes to the system keyring, or, without one, is typed each time) and imports on a
worker (core's ``ImportJob``: ``keep_connector``, ``open_source``, ``import_letters``), with
progress and Cancel; what was committed before a Cancel stays. The connectors kept already
are listed above: a double-click (or Import again) imports from one again.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.connectors import (
    AMQP,
    TABLE,
    Connector,
    ImportSummary,
    open_source,
)
from triage_app.core.db import complete_url, keyring_unavailable, recall_password
from triage_app.core.jobs import ImportJob
from triage_app.gui import style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob
from triage_app.gui.window.placement import dialog_size

# A pipeline's own dead-letter table, as the seed's pipeline (000) keeps it: the form's
# first values, so the usual case is typed once.
SEED_TABLE = "dead_letter"
SEED_COLUMNS: dict[str, str | None] = {
    "payload": "payload",
    "error": "galat",
    "class": "kelas",
    "attempts": "percobaan",
    "id": "dl_id",
    "time": None,
    "line": "baris",
}
SEED_SINK_TABLE = "pesanan"
COLUMN_HINTS = {
    "payload": "the payload, as the pipeline received it",
    "error": "the error the pipeline reported",
    "class": "data, code or transient (else judged from the error)",
    "attempts": "how often it was tried",
    "id": "the row's key: its identity, so no row is imported twice",
    "time": "when it failed (empty: when imported)",
    "line": "its line in the pipeline's input",
}
KEEP, DELETE, MARK = "keep", "delete", "mark"
KEPT_IN_KEYRING = (
    "The password goes to the system keyring, never to the store or the app's settings: "
    "the store keeps the address without it, and each desk keeps its own."
)


def _password_field(name: str, spoken: str) -> QLineEdit:
    field = QLineEdit(objectName=name)
    field.setAccessibleName(spoken)
    field.setEchoMode(QLineEdit.EchoMode.Password)
    field.setPlaceholderText("password, if it asks for one")
    return field


def _line(name: str, spoken: str, text: str = "", placeholder: str = "") -> QLineEdit:
    field = QLineEdit(text, objectName=name)
    field.setAccessibleName(spoken)
    if placeholder:
        field.setPlaceholderText(placeholder)
    return field


class ConnectorDialog(JobDialog):
    """Emits ``jobFinished`` with the ImportSummary of each import."""

    def __init__(
        self,
        start_job: StartJob,
        connectors: Sequence[Connector] = (),
        parent: QWidget | None = None,
        *,
        kind: str = AMQP,
    ) -> None:
        super().__init__(start_job, parent, name="import")
        self.setWindowTitle("Import dead letters")
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(760, 560)))
        self._connectors: dict[str, Connector] = {}
        self._imported: str | None = None  # the connector of the last import, to choose

        # The connectors kept already: one double-click imports from one again.
        self.kept = QListWidget(objectName="keptConnectors")
        self.kept.setAccessibleName("Connectors kept in the store")
        self.kept.setMaximumHeight(self.fontMetrics().height() * 4 + 12)
        self.kept.setToolTip("Double-click to import from it again")
        self.kept_none = QLabel("None yet: connect one below.", objectName="keptNone")
        self.kept_none.setStyleSheet(style.HINT)
        self.again_button = QPushButton("Import again", objectName="importAgainButton")
        self.again_button.setToolTip("Import what is waiting in the chosen connector's source")
        self.kept.currentItemChanged.connect(self._on_kept_chosen)
        self.kept.itemDoubleClicked.connect(self.import_again)
        self.again_button.clicked.connect(self.import_again)

        self.tabs = QTabWidget(objectName="connectorTabs")
        self.tabs.setAccessibleName("Kind of connector")
        self.tabs.addTab(self._queue_tab(), "RabbitMQ dead-letter queue")
        self.tabs.addTab(self._table_tab(), "Dead-letter table")
        self.tabs.setCurrentIndex(1 if kind == TABLE else 0)

        self.name = _line(
            "connectorName",
            "Connector name",
            placeholder="optional: the queue's or table's name",
        )
        self.name.setToolTip("The name the team knows it by: the Source column and filter")
        self.limit = QSpinBox(objectName="importLimit", minimum=0, maximum=100_000_000)
        self.limit.setSpecialValueText("all waiting")
        self.limit.setSuffix(" letters")
        self.limit.setSingleStep(1000)
        self.limit.setAccessibleName("Import at most this many letters (0: all waiting)")
        self.limit.setMaximumWidth(self.fontMetrics().horizontalAdvance("100,000,000 letters") + 40)
        self.no_keyring = keyring_unavailable()
        # Where the password goes, or, without a keyring, that it is typed each time.
        why = (
            f"{self.no_keyring.capitalize()}: type it each time you import. The store keeps "
            "the address without it."
            if self.no_keyring
            else KEPT_IN_KEYRING
        )
        self.hint = QLabel(why, objectName="importKeyringHint", wordWrap=True)
        self.hint.setStyleSheet(style.HINT)
        # Rich text, every piece escaped: a failure comes coloured (``JobDialog``), and a
        # message may quote a URL, a queue or a table whose name has a "<".
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setText("Import takes the letters waiting now, a chunk at a time.")

        self.buttons = QDialogButtonBox()
        self.import_button = self.buttons.addButton(
            "Import", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.import_button.setObjectName("importButton")
        self.import_button.setDefault(True)
        self.add_cancel_button(self.buttons, "Cancel import")
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.import_button.clicked.connect(self.run_import)
        self.close_button.clicked.connect(self.reject)

        kept_row = QHBoxLayout()
        kept_row.addWidget(self.kept, 1)
        kept_row.addWidget(self.again_button, 0, Qt.AlignmentFlag.AlignTop)
        common = QFormLayout()
        common.addRow("Name", self.name)
        common.addRow("Limit", self.limit)
        v = QVBoxLayout(self)
        v.addWidget(QLabel("Kept in the store:"))
        v.addWidget(self.kept_none)
        v.addLayout(kept_row)
        v.addWidget(self.tabs)
        v.addLayout(common)
        v.addWidget(self.hint)
        v.addStretch(1)
        v.addWidget(self.progress)
        v.addWidget(self.summary)
        v.addWidget(self.buttons)
        self.set_connectors(connectors)
        # A kept one of the kind asked for, chosen: importing again is one click.
        for row in range(self.kept.count()):
            c = self._connectors.get(self.kept.item(row).data(Qt.ItemDataRole.UserRole))
            if c is not None and c.kind == kind:
                self.kept.setCurrentRow(row)
                break

    # -- the forms ------------------------------------------------------------------------
    def _queue_tab(self) -> QWidget:
        self.amqp_url = _line("amqpUrl", "Broker URL", placeholder="amqp://user@host:5672/vhost")
        self.amqp_password = _password_field("amqpPassword", "Broker password")
        self.queue = _line("queueName", "Dead-letter queue", placeholder="orders.dlq")
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow("Broker URL", self.amqp_url)
        form.addRow("    password", self.amqp_password)
        form.addRow("Dead-letter queue", self.queue)
        note = QLabel(
            "Each letter is acknowledged only once it is stored: a letter is never lost, "
            "and one read again is never doubled.",
            wordWrap=True,
        )
        note.setStyleSheet(style.HINT)
        form.addRow(note)
        return tab

    def _table_tab(self) -> QWidget:
        self.table_url = _line(
            "tableUrl", "Database URL", placeholder="postgresql://user@host/pipeline"
        )
        self.table_password = _password_field("tablePassword", "Database password")
        self.table_name = _line("tableName", "Dead-letter table", SEED_TABLE)
        self.columns: dict[str, QLineEdit] = {}
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        for i, (key, column) in enumerate(SEED_COLUMNS.items()):
            field = _line(f"column_{key}", f"Column of the {key}", column or "")
            field.setPlaceholderText("none")
            field.setToolTip(COLUMN_HINTS[key])
            self.columns[key] = field
            label = QLabel(key)
            label.setBuddy(field)
            row, col = divmod(i, 3)
            grid.addWidget(label, row, col * 2, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(field, row, col * 2 + 1)
        self.sink_table = _line("sinkTable", "Table re-driven rows go to", SEED_SINK_TABLE)
        self.sink_table.setToolTip("Where Re-drive to the source writes the fixed rows")
        self.after_keep = QRadioButton("keep it", objectName="afterKeep", checked=True)
        self.after_delete = QRadioButton("delete it", objectName="afterDelete")
        self.after_mark = QRadioButton("mark it in column", objectName="afterMark")
        self.after = QButtonGroup(self)
        for button in (self.after_keep, self.after_delete, self.after_mark):
            button.setAccessibleName("Once its row is loaded, the dead-letter table's row")
            self.after.addButton(button)
        self.mark_column = _line("markColumn", "Column marked after loading", "", "resolved_at")
        self.mark_column.setEnabled(False)
        self.after_mark.toggled.connect(self.mark_column.setEnabled)
        after = QHBoxLayout()
        for w in (self.after_keep, self.after_delete, self.after_mark, self.mark_column):
            after.addWidget(w)
        after.addStretch(1)
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow("Database URL", self.table_url)
        form.addRow("    password", self.table_password)
        form.addRow("Dead-letter table", self.table_name)
        form.addRow("Columns", grid)
        form.addRow("Re-drive loads into", self.sink_table)
        form.addRow("then the source row:", after)
        return tab

    def options(self) -> dict[str, Any]:
        """The connector's options as the form has them (core's shape for its kind)."""
        if self.kind() == AMQP:
            return {"queue": self.queue.text().strip()}
        after = KEEP
        if self.after_delete.isChecked():
            after = DELETE
        elif self.after_mark.isChecked():
            after = f"mark:{self.mark_column.text().strip()}"
        return {
            "table": self.table_name.text().strip(),
            "columns": {k: f.text().strip() or None for k, f in self.columns.items()},
            "sink": {"table": self.sink_table.text().strip() or None, "after_load": after},
        }

    def kind(self) -> str:
        return TABLE if self.tabs.currentIndex() == 1 else AMQP

    def _url_fields(self, kind: str) -> tuple[QLineEdit, QLineEdit]:
        if kind == TABLE:
            return self.table_url, self.table_password
        return self.amqp_url, self.amqp_password

    def url(self) -> str:
        """The URL to connect with: the password field's in place of a hidden one (a
        password typed into the URL itself wins)."""
        url, password = self._url_fields(self.kind())
        return complete_url(url.text().strip(), password.text())

    def missing(self) -> str | None:
        """What the form lacks before an import can start, in one line; None: nothing."""
        url = self._url_fields(self.kind())[0].text().strip()
        if self.kind() == AMQP:
            if not url.startswith(("amqp://", "amqps://")):
                return "Give the broker's URL: amqp://user@host:5672/vhost"
            if not self.queue.text().strip():
                return "Name the dead-letter queue to import from."
            return None
        if not url:
            return "Give the database's URL: postgresql://user@host/pipeline (or sqlite:///…)"
        if not self.table_name.text().strip():
            return "Name the dead-letter table to import from."
        for key in ("payload", "error", "id"):
            if not self.columns[key].text().strip():
                return f"Name the column that holds the {COLUMN_HINTS[key].split(':')[0]}."
        if self.after_mark.isChecked() and not self.mark_column.text().strip():
            return "Name the column to mark once a row is re-driven."
        return None

    # -- the kept connectors --------------------------------------------------------------
    @Slot(list)
    def set_connectors(self, connectors: Sequence[Connector]) -> None:
        """The connectors kept in the store, newest read; the chosen one stays chosen."""
        current = self.kept.currentItem()
        chosen = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        # After an import its connector is the one chosen (the form shows it already).
        chosen, self._imported = self._imported or chosen, None
        self._connectors = {c.name: c for c in connectors}
        self.kept.blockSignals(True)
        self.kept.clear()
        for c in connectors:
            item = QListWidgetItem(c.describe())
            item.setData(Qt.ItemDataRole.UserRole, c.name)
            item.setToolTip(c.describe())
            self.kept.addItem(item)
            if c.name == chosen:
                self.kept.setCurrentItem(item)
        self.kept.blockSignals(False)
        has = bool(connectors)
        self.kept.setVisible(has)
        self.again_button.setVisible(has)
        self.kept_none.setVisible(not has)
        self._enable()

    def chosen_connector(self) -> Connector | None:
        item = self.kept.currentItem()
        if item is None:
            return None
        return self._connectors.get(item.data(Qt.ItemDataRole.UserRole))

    @Slot()
    def _on_kept_chosen(self, *_: Any) -> None:
        """A kept connector chosen: the form shows it, its password from the keyring."""
        c = self.chosen_connector()
        self._enable()
        if c is None:
            return
        self.tabs.setCurrentIndex(1 if c.kind == TABLE else 0)
        url, password = self._url_fields(c.kind)
        url.setText(c.address)
        password.setText(recall_password(c.address) or "")
        self.name.setText(c.name)
        o: Mapping[str, Any] = c.options
        if c.kind == AMQP:
            self.queue.setText(str(o.get("queue") or ""))
            return
        self.table_name.setText(str(o.get("table") or ""))
        columns = o.get("columns") or {}
        for key, field in self.columns.items():
            field.setText(str(columns.get(key) or ""))
        sink = o.get("sink") or {}
        self.sink_table.setText(str(sink.get("table") or ""))
        after = str(sink.get("after_load") or KEEP)
        if after.startswith(f"{MARK}:"):
            self.after_mark.setChecked(True)
            self.mark_column.setText(after.split(":", 1)[1])
        else:
            (self.after_delete if after == DELETE else self.after_keep).setChecked(True)

    # -- importing ------------------------------------------------------------------------
    def _limit(self) -> int | None:
        return self.limit.value() or None

    @Slot()
    def run_import(self) -> None:
        """Import with what the form says: the connector kept first (the one of that
        address and options when there is one), then its letters."""
        problem = self.missing()
        if problem is not None:
            self._say_error(problem)
            return
        name = self.name.text().strip() or None
        self._start(
            ImportJob(
                self.kind(),
                self.url(),
                self.options(),
                name=name,
                limit=self._limit(),
                source=open_source,
            )
        )

    @Slot()
    def import_again(self, *_: Any) -> None:
        """Import from the chosen kept connector: its address, its password from the
        keyring, or the one typed in the form's password field."""
        c = self.chosen_connector()
        if c is None:
            self._say_error("Choose a kept connector first.")
            return
        typed = self._url_fields(c.kind)[1].text()
        self._start(
            ImportJob(
                c.kind,
                complete_url(c.address, typed) if typed else "",
                c.options,
                kept=c.name,
                limit=self._limit(),
                source=open_source,
            )
        )

    def _start(self, job: ImportJob) -> None:
        if self.start(job) is None:
            return
        if self.progress is not None and job.limit is None:
            self.progress.setRange(0, 0)  # a queue's length is not known: busy, not a share
        self._enable()
        self.say_progress(f"{job.title[:1].upper()}{job.title[1:]}…")

    def _say_error(self, text: str) -> None:
        self.summary.setText(style.coloured(html.escape(text, quote=False), style.ERROR))

    def say_progress(self, text: str) -> None:
        super().say_progress(html.escape(text, quote=False))

    def finished_job(self, result: ImportSummary) -> None:
        self._imported = result.connector
        self.summary.setText(html.escape(result.describe(), quote=False))
        self.jobFinished.emit(result)

    def job_ended(self) -> None:
        if self.progress is not None:
            self.progress.setRange(0, 1000)
        self._enable()

    def _enable(self) -> None:
        running = self.is_running()
        self.import_button.setEnabled(not running)
        self.again_button.setEnabled(not running and self.chosen_connector() is not None)
        self.tabs.setEnabled(not running)
