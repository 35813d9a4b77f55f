"""Re-drive > Re-drive to the source… (issue 26): imported dead letters sent back where
they came from, through the Re-drive dialog and its preview, into a sink held in memory
(the dialog's ``RoutedSink``, replaced): the rows the sink confirmed are resolved, the one
it refused stays open and is listed with why; the guard still holds; and the dialog acts
on the rows its preview named, whatever the table does while it is open."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from sqlalchemy import select

from tests.core.connectors.memory import ListSink
from tests.gui.dialogs.imported import import_queue, letters, plain
from triage_app.core.connectors import connector_named, import_letters
from triage_app.core.db import DeadLetter, Origin, open_workspace
from triage_app.core.vocabulary import RedriveOutcome, Status
from triage_app.gui.dialogs import redrive_dialog
from triage_app.gui.dialogs.redrive_dialog import AS_THEY_ARE, BROKER, ORIGINAL, WAREHOUSE

REFUSED = letters(5)[3].payload  # the sink nacks this one
REFUSED_ID = letters(5)[3].identity


def _sink(monkeypatch: Any) -> tuple[ListSink, list[tuple[str, Any]]]:
    """The dialog's sinks are this one; each (to, transform) it was asked for."""
    sink = ListSink(name="where each came from", refuse={REFUSED: "nack from the broker"})
    asked: list[tuple[str, Any]] = []

    def make(ws: Any, to: str, transform: Any) -> ListSink:
        asked.append((to, transform))
        return sink

    monkeypatch.setattr(redrive_dialog, "RoutedSink", make)
    return sink, asked


def _statuses(folder: Any) -> dict[str, str]:
    """Each imported dead letter's status, by the identity its source gave it."""
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        rows = conn.execute(
            select(Origin.identity, DeadLetter.status).join(
                DeadLetter, DeadLetter.id == Origin.dead_letter_id
            )
        ).all()
    return dict(rows)


def _open_to_source(window: Any) -> Any:
    window.menu.redrive_source_action.trigger()
    dialog = window.dialogs()[-1]
    assert dialog.objectName() == "redriveDialog"
    return dialog


def _show_source(window: Any, qtbot: Any, name: str, rows: int) -> None:
    combo = window.filter_bar.source_combo
    combo.setCurrentIndex(combo.findData(name))
    qtbot.waitUntil(lambda: window.model.total() == rows)


def _preview(dialog: Any, qtbot: Any) -> None:
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running() and dialog.run_button.isEnabled())


def _run(dialog: Any, qtbot: Any) -> Any:
    done: list[Any] = []
    dialog.jobFinished.connect(done.append)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done) and not dialog.is_running(), timeout=20_000)
    return done[0]


def test_redrive_to_the_source_resolves_the_confirmed_and_lists_the_undelivered(
    window, qtbot, monkeypatch, demo_workspace
) -> None:
    importer, _ = import_queue(window, qtbot, monkeypatch, 5)
    importer.close()
    sink, asked = _sink(monkeypatch)
    _show_source(window, qtbot, "orders.dlq", 5)
    dialog = _open_to_source(window)
    assert dialog.windowTitle() == "Re-drive to the source"
    assert dialog.destination.isVisible() and dialog.destination.currentData() == ORIGINAL
    assert dialog.preview_button.isDefault()  # Enter previews first, as in every re-drive
    assert "all 5 dead letters matching" in dialog.scope_filter.text()
    # To a broker the payloads may go as they are: nothing to validate them with.
    dialog.transform_combo.setCurrentIndex(dialog.transform_combo.findText(AS_THEY_ARE))
    assert dialog.transform_combo.currentData() is None

    _preview(dialog, qtbot)
    assert dialog.run_button.text() == "Re-drive 5" and sink.got == []  # nothing sent
    assert plain(dialog.summary).startswith(
        "Preview of 5 dead letters to where each came from as they are: 5 would succeed"
    )
    s = _run(dialog, qtbot)
    assert (s.attempted, s.succeeded, s.undelivered, s.failed) == (5, 4, 1, 0)
    assert asked[-1] == ("original", None)
    assert sorted(p.payload for p in sink.got) == sorted(
        x.payload for x in letters(5) if x.payload != REFUSED
    )
    text = plain(dialog.summary)
    assert "4 resolved" in text and "1 not delivered (left open)" in text
    assert "nack from the broker" in text
    # The results list the undelivered row with why.
    model = dialog.results.model()
    shown = [[model.index(r, c).data() for c in range(4)] for r in range(model.rowCount())]
    undelivered = [r for r in shown if r[2] == RedriveOutcome.UNDELIVERED.value]
    assert len(undelivered) == 1 and undelivered[0][3] == "nack from the broker"
    statuses = _statuses(demo_workspace)
    assert statuses[REFUSED_ID] == Status.OPEN
    assert all(statuses[x.identity] == Status.RESOLVED for x in letters(5) if x.payload != REFUSED)
    # The table follows: the refused one is the source's only open row left.
    qtbot.waitUntil(lambda: window.model.total() == 1)
    dialog.close()


def test_the_destination_and_the_guard_reach_the_job(window, qtbot, monkeypatch) -> None:
    importer, _ = import_queue(window, qtbot, monkeypatch, 5)
    importer.close()
    sink, asked = _sink(monkeypatch)
    _show_source(window, qtbot, "orders.dlq", 5)
    window.menu.redrive_action.trigger()  # the plain Re-drive…, on imported rows
    dialog = window.dialogs()[-1]
    # The table shows imported rows: where they came from is where they go by default.
    assert dialog.destination.currentData() == ORIGINAL
    # The warehouse needs a version: "as they are" is not offered for it.
    dialog.destination.setCurrentIndex(dialog.destination.findData(WAREHOUSE))
    i = dialog.transform_combo.findText(AS_THEY_ARE)
    assert not dialog.transform_combo.model().item(i).isEnabled()
    assert not dialog.address.isVisible()
    # One broker exchange, typed.
    dialog.destination.setCurrentIndex(dialog.destination.findData(BROKER))
    assert dialog.address.isVisible() and dialog.address.isEnabled()
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    assert "Give the exchange" in plain(dialog.summary) and not dialog.is_running()
    dialog.address.setText("amqp://steward:pw@rabbit.example/%2F/orders/orders.retry")
    dialog.transform_combo.setCurrentIndex(dialog.transform_combo.findText(AS_THEY_ARE))
    dialog.canary_check.setChecked(True)
    dialog.canary_rows.setValue(2)
    _preview(dialog, qtbot)
    s = _run(dialog, qtbot)
    assert asked[-1] == ("amqp://steward:pw@rabbit.example/%2F/orders/orders.retry", None)
    # The canary's two went first, then the rest: all five were offered to the sink.
    assert (s.attempted, s.succeeded, s.undelivered) == (5, 4, 1)
    assert s.stopped is None and len(sink.got) == 4
    dialog.close()


def test_a_dialog_left_open_acts_only_on_the_rows_its_preview_named(
    window, qtbot, monkeypatch, demo_workspace
) -> None:
    importer, _ = import_queue(window, qtbot, monkeypatch, 5)
    importer.close()
    sink, _ = _sink(monkeypatch)
    _show_source(window, qtbot, "orders.dlq", 5)
    dialog = _open_to_source(window)
    dialog.transform_combo.setCurrentIndex(dialog.transform_combo.findText(AS_THEY_ARE))
    _preview(dialog, qtbot)
    assert dialog.run_button.text() == "Re-drive 5"
    previewed = set(dialog.acts_on())

    # Another steward imports three more from the same queue while the dialog is open.
    with open_workspace(demo_workspace) as ws:
        more = import_letters(ws, connector_named(ws, "orders.dlq"), _Source(letters(3, 5)))
    assert more.imported == 3
    window.refresh()
    qtbot.waitUntil(lambda: window.model.total() == 8)
    # The same filter, a moved store: the preview stays, and the note says what it covers.
    qtbot.waitUntil(lambda: "The store changed since the preview." in dialog.scope.note.text())
    assert dialog.run_button.isEnabled() and set(dialog.acts_on()) == previewed

    s = _run(dialog, qtbot)
    assert s.attempted == 5 and len(sink.got) == 4
    statuses = _statuses(demo_workspace)
    assert all(statuses[x.identity] == Status.OPEN for x in letters(3, 5))  # not named
    # And a changed filter drops a preview: nothing is sent until it is previewed again.
    _preview(dialog, qtbot)
    _show_source(window, qtbot, "files", 4)
    qtbot.waitUntil(lambda: not dialog.run_button.isEnabled())
    assert "The rows changed since the preview" in dialog.scope.note.text()
    assert dialog.acts_on() == []
    dialog.close()


class _Source:
    """Letters in a list, for an import on a second connection (another steward)."""

    def __init__(self, waiting: list[Any]) -> None:
        self.waiting, self.name = waiting, "memory"

    def take(self, most: int) -> list[Any]:
        got, self.waiting = self.waiting[:most], self.waiting[most:]
        return got

    def acknowledge(self, letters: Any) -> None:
        pass

    def close(self) -> None:
        pass
