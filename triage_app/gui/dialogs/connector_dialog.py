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

from PySide6.QtCore import QT_TRANSLATE_NOOP, QSize, Qt, Slot
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
from triage_app.core.locale_format import format_int
from triage_app.gui import style
from triage_app.gui.dialogs.job_dialog import JobDialog, StartJob, suffix_follows_count
from triage_app.gui.i18n import fill, translate
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
# Each column's label in the form (the key is core's, never shown), and its tooltip.
COLUMN_LABELS = {
    "payload": QT_TRANSLATE_NOOP("connector_dialog", "payload"),
    "error": QT_TRANSLATE_NOOP("connector_dialog", "error"),
    "class": QT_TRANSLATE_NOOP("connector_dialog", "class"),
    "attempts": QT_TRANSLATE_NOOP("connector_dialog", "attempts"),
    "id": QT_TRANSLATE_NOOP("connector_dialog", "id"),
    "time": QT_TRANSLATE_NOOP("connector_dialog", "time"),
    "line": QT_TRANSLATE_NOOP("connector_dialog", "line"),
}
COLUMN_HINTS = {
    "payload": QT_TRANSLATE_NOOP("connector_dialog", "the payload, as the pipeline received it"),
    "error": QT_TRANSLATE_NOOP("connector_dialog", "the error the pipeline reported"),
    "class": QT_TRANSLATE_NOOP(
        "connector_dialog", "data, code or transient (else judged from the error)"
    ),
    "attempts": QT_TRANSLATE_NOOP("connector_dialog", "how often it was tried"),
    "id": QT_TRANSLATE_NOOP(
        "connector_dialog", "the row's key: its identity, so no row is imported twice"
    ),
    "time": QT_TRANSLATE_NOOP("connector_dialog", "when it failed (empty: when imported)"),
    "line": QT_TRANSLATE_NOOP("connector_dialog", "its line in the pipeline's input"),
}
# What the form says when a column an import needs is not named.
MISSING_COLUMN = {
    "payload": QT_TRANSLATE_NOOP("connector_dialog", "Name the column that holds the payload."),
    "error": QT_TRANSLATE_NOOP("connector_dialog", "Name the column that holds the error."),
    "id": QT_TRANSLATE_NOOP("connector_dialog", "Name the column that holds the row's key."),
}
KEEP, DELETE, MARK = "keep", "delete", "mark"
KEPT_IN_KEYRING = QT_TRANSLATE_NOOP(
    "connector_dialog",
    "The password goes to the system keyring, never to the store or the app's settings: "
    "the store keeps the address without it, and each desk keeps its own.",
)
MOST_LETTERS = 100_000_000  # the limit's largest value


def _password_field(name: str, spoken: str) -> QLineEdit:
    """``spoken``: the field's accessible name, translated."""
    field = QLineEdit(objectName=name)
    field.setAccessibleName(spoken)
    field.setEchoMode(QLineEdit.EchoMode.Password)
    field.setPlaceholderText(translate("connector_dialog", "password, if it asks for one"))
    return field


def _line(name: str, spoken: str, text: str = "", placeholder: str = "") -> QLineEdit:
    """``spoken`` and ``placeholder``: translated already."""
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
        self.setWindowTitle(translate("ConnectorDialog", "Import dead letters"))
        self.resize(dialog_size(self.screen().availableGeometry(), QSize(760, 560)))
        self._connectors: dict[str, Connector] = {}
        self._imported: str | None = None  # the connector of the last import, to choose

        # The connectors kept already: one double-click imports from one again.
        self.kept = QListWidget(objectName="keptConnectors")
        self.kept.setAccessibleName(translate("ConnectorDialog", "Connectors kept in the store"))
        self.kept.setMaximumHeight(self.fontMetrics().height() * 4 + 12)
        self.kept.setToolTip(translate("ConnectorDialog", "Double-click to import from it again"))
        self.kept_none = QLabel(
            translate("ConnectorDialog", "None yet: connect one below."), objectName="keptNone"
        )
        self.kept_none.setStyleSheet(style.HINT)
        self.again_button = QPushButton(
            translate("ConnectorDialog", "Import again"), objectName="importAgainButton"
        )
        self.again_button.setToolTip(
            translate("ConnectorDialog", "Import what is waiting in the chosen connector's source")
        )
        self.kept.currentItemChanged.connect(self._on_kept_chosen)
        self.kept.itemDoubleClicked.connect(self.import_again)
        self.again_button.clicked.connect(self.import_again)

        self.tabs = QTabWidget(objectName="connectorTabs")
        self.tabs.setAccessibleName(translate("ConnectorDialog", "Kind of connector"))
        self.tabs.addTab(
            self._queue_tab(), translate("ConnectorDialog", "RabbitMQ dead-letter queue")
        )
        self.tabs.addTab(self._table_tab(), translate("ConnectorDialog", "Dead-letter table"))
        self.tabs.setCurrentIndex(1 if kind == TABLE else 0)

        self.name = _line(
            "connectorName",
            translate("ConnectorDialog", "Connector name"),
            placeholder=translate("ConnectorDialog", "optional: the queue's or table's name"),
        )
        self.name.setToolTip(
            translate(
                "ConnectorDialog", "The name the team knows it by: the Source column and filter"
            )
        )
        self.limit = QSpinBox(objectName="importLimit", minimum=0, maximum=MOST_LETTERS)
        self.limit.setSpecialValueText(translate("ConnectorDialog", "all waiting"))
        suffix_follows_count(
            self.limit, lambda n: translate("ConnectorDialog", " letter(s)", "", n)
        )
        self.limit.setSingleStep(1000)
        self.limit.setAccessibleName(
            translate("ConnectorDialog", "Import at most this many letters (0: all waiting)")
        )
        most = MOST_LETTERS
        widest = format_int(most) + translate("ConnectorDialog", " letter(s)", "", most)
        self.limit.setMaximumWidth(self.fontMetrics().horizontalAdvance(widest) + 40)
        self.no_keyring = keyring_unavailable()
        # Where the password goes, or, without a keyring, that it is typed each time.
        if self.no_keyring:
            why = fill(
                translate(
                    "ConnectorDialog",
                    "%1: type it each time you import. The store keeps the address without it.",
                ),
                self.no_keyring.capitalize(),
            )
        else:
            why = translate("connector_dialog", KEPT_IN_KEYRING)
        self.hint = QLabel(why, objectName="importKeyringHint", wordWrap=True)
        self.hint.setStyleSheet(style.HINT)
        # Rich text, every piece escaped: a failure comes coloured (``JobDialog``), and a
        # message may quote a URL, a queue or a table whose name has a "<".
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setText(
            translate("ConnectorDialog", "Import takes the letters waiting now, a chunk at a time.")
        )

        self.buttons = QDialogButtonBox()
        self.import_button = self.buttons.addButton(
            translate("ConnectorDialog", "Import"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.import_button.setObjectName("importButton")
        self.import_button.setDefault(True)
        self.add_cancel_button(self.buttons, translate("ConnectorDialog", "Cancel import"))
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.import_button.clicked.connect(self.run_import)
        self.close_button.clicked.connect(self.reject)

        kept_row = QHBoxLayout()
        kept_row.addWidget(self.kept, 1)
        kept_row.addWidget(self.again_button, 0, Qt.AlignmentFlag.AlignTop)
        common = QFormLayout()
        common.addRow(translate("ConnectorDialog", "Name"), self.name)
        common.addRow(translate("ConnectorDialog", "Limit"), self.limit)
        v = QVBoxLayout(self)
        v.addWidget(QLabel(translate("ConnectorDialog", "Kept in the store:")))
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
        broker_url = translate("ConnectorDialog", "Broker URL")
        queue = translate("ConnectorDialog", "Dead-letter queue")
        self.amqp_url = _line("amqpUrl", broker_url, placeholder="amqp://user@host:5672/vhost")
        self.amqp_password = _password_field(
            "amqpPassword", translate("ConnectorDialog", "Broker password")
        )
        self.queue = _line("queueName", queue, placeholder="orders.dlq")
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow(broker_url, self.amqp_url)
        password = translate("ConnectorDialog", "password")
        form.addRow(f"    {password}", self.amqp_password)
        form.addRow(queue, self.queue)
        note = QLabel(
            translate(
                "ConnectorDialog",
                "Each letter is acknowledged only once it is stored: a letter is never lost, "
                "and one read again is never doubled.",
            ),
            wordWrap=True,
        )
        note.setStyleSheet(style.HINT)
        form.addRow(note)
        return tab

    def _table_tab(self) -> QWidget:
        database_url = translate("ConnectorDialog", "Database URL")
        table = translate("ConnectorDialog", "Dead-letter table")
        self.table_url = _line(
            "tableUrl", database_url, placeholder="postgresql://user@host/pipeline"
        )
        self.table_password = _password_field(
            "tablePassword", translate("ConnectorDialog", "Database password")
        )
        self.table_name = _line("tableName", table, SEED_TABLE)
        self.columns: dict[str, QLineEdit] = {}
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        for i, (key, column) in enumerate(SEED_COLUMNS.items()):
            shown = translate("connector_dialog", COLUMN_LABELS[key])
            spoken = fill(translate("ConnectorDialog", "Column of the %1"), shown)
            field = _line(f"column_{key}", spoken, column or "")
            field.setPlaceholderText(translate("ConnectorDialog", "none"))
            field.setToolTip(translate("connector_dialog", COLUMN_HINTS[key]))
            self.columns[key] = field
            label = QLabel(shown)
            label.setBuddy(field)
            row, col = divmod(i, 3)
            grid.addWidget(label, row, col * 2, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(field, row, col * 2 + 1)
        self.sink_table = _line(
            "sinkTable", translate("ConnectorDialog", "Table re-driven rows go to"), SEED_SINK_TABLE
        )
        self.sink_table.setToolTip(
            translate("ConnectorDialog", "Where Re-drive to the source writes the fixed rows")
        )
        self.after_keep = QRadioButton(
            translate("ConnectorDialog", "keep it"), objectName="afterKeep", checked=True
        )
        self.after_delete = QRadioButton(
            translate("ConnectorDialog", "delete it"), objectName="afterDelete"
        )
        self.after_mark = QRadioButton(
            translate("ConnectorDialog", "mark it in column"), objectName="afterMark"
        )
        self.after = QButtonGroup(self)
        for button in (self.after_keep, self.after_delete, self.after_mark):
            button.setAccessibleName(
                translate("ConnectorDialog", "Once its row is loaded, the dead-letter table's row")
            )
            self.after.addButton(button)
        self.mark_column = _line(
            "markColumn",
            translate("ConnectorDialog", "Column marked after loading"),
            "",
            "resolved_at",
        )
        self.mark_column.setEnabled(False)
        self.after_mark.toggled.connect(self.mark_column.setEnabled)
        after = QHBoxLayout()
        for w in (self.after_keep, self.after_delete, self.after_mark, self.mark_column):
            after.addWidget(w)
        after.addStretch(1)
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow(database_url, self.table_url)
        password = translate("ConnectorDialog", "password")
        form.addRow(f"    {password}", self.table_password)
        form.addRow(table, self.table_name)
        form.addRow(translate("ConnectorDialog", "Columns"), grid)
        form.addRow(translate("ConnectorDialog", "Re-drive loads into"), self.sink_table)
        form.addRow(translate("ConnectorDialog", "then the source row:"), after)
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
                return translate(
                    "ConnectorDialog", "Give the broker's URL: amqp://user@host:5672/vhost"
                )
            if not self.queue.text().strip():
                return translate("ConnectorDialog", "Name the dead-letter queue to import from.")
            return None
        if not url:
            return translate(
                "ConnectorDialog",
                "Give the database's URL: postgresql://user@host/pipeline (or sqlite:///…)",
            )
        if not self.table_name.text().strip():
            return translate("ConnectorDialog", "Name the dead-letter table to import from.")
        for key, said in MISSING_COLUMN.items():
            if not self.columns[key].text().strip():
                return translate("connector_dialog", said)
        if self.after_mark.isChecked() and not self.mark_column.text().strip():
            return translate("ConnectorDialog", "Name the column to mark once a row is re-driven.")
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
            self._say_error(translate("ConnectorDialog", "Choose a kept connector first."))
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
