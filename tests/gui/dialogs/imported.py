"""Dead letters from another pipeline, for the window's tests: a source held in memory that
the connector dialog opens instead of a broker (``open_source`` as the dialog gets it), and
the steps a steward takes to import from it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument

from triage_app.core.connectors import Connector, OutsideLetter
from triage_app.core.vocabulary import ErrorClass
from triage_app.gui.dialogs import connector_dialog

QUEUE_URL = "amqp://steward@rabbit.example:5672/%2F"
SECRET = "s3cret-Rabbit"


def plain(label: Any) -> str:
    """What a label shows a person: its rich text as read."""
    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def letters(n: int, start: int = 0) -> list[OutsideLetter]:
    """``n`` letters of an orders queue, each with its own identity and payload."""
    return [
        OutsideLetter(
            identity=f"m-{i}",
            payload=b'{"pesanan_id": %d, "qty": "x"}' % i,
            error='NumberFormatException: For input string: "x"',
            error_class=ErrorClass.DATA,
            destination="orders/new",
            evidence={"x-death": [{"queue": "orders", "count": 1}]},
        )
        for i in range(start, start + n)
    ]


@dataclass
class MemorySource:
    """A dead-letter queue in memory: ``take`` gives what is waiting, ``acknowledge`` lets
    it go, ``close`` gives back what was taken and not acknowledged. ``pause_at``: the
    ``take`` call (1-based) that waits, once ``reached`` is set, until ``go`` is."""

    waiting: list[OutsideLetter]
    name: str = "memory"
    out: list[OutsideLetter] = field(default_factory=list)
    acked: list[str] = field(default_factory=list)
    takes: int = 0
    pause_at: int | None = None
    reached: threading.Event = field(default_factory=threading.Event)
    go: threading.Event = field(default_factory=threading.Event)
    closed: bool = False

    def take(self, most: int) -> Sequence[OutsideLetter]:
        self.takes += 1
        if self.takes == self.pause_at:
            self.reached.set()
            assert self.go.wait(20), "the test never let the import go on"
        got = self.waiting[:most]
        del self.waiting[:most]
        self.out += got
        return got

    def acknowledge(self, done: Sequence[OutsideLetter]) -> None:
        for x in done:
            self.out.remove(x)
            self.acked.append(x.identity)

    def close(self) -> None:
        self.waiting[:0] = self.out  # back in the queue, first in line
        self.out.clear()
        self.closed = True


@dataclass
class Opened:
    """What the dialog asked to open: each (connector, url) and the sources given."""

    source: Callable[[], Any]
    calls: list[tuple[Connector, str | None]] = field(default_factory=list)

    def __call__(self, connector: Connector, url: str | None) -> Any:
        self.calls.append((connector, url))
        return self.source()


def serve(monkeypatch: Any, source: Callable[[], Any]) -> Opened:
    """The connector dialog opens ``source()`` instead of a broker or a database."""
    opened = Opened(source)
    monkeypatch.setattr(connector_dialog, "open_source", opened)
    return opened


def open_queue_dialog(window: Any) -> Any:
    window.menu.connect_queue_action.trigger()
    dialog = window.dialogs()[-1]
    assert dialog.objectName() == "connectorDialog"
    return dialog


def fill_queue(dialog: Any, queue: str = "orders.dlq", password: str = SECRET) -> None:
    dialog.amqp_url.setText(QUEUE_URL)
    dialog.amqp_password.setText(password)
    dialog.queue.setText(queue)


def click_import(dialog: Any, qtbot: Any, button: Any = None) -> list[Any]:
    """Import, and wait for its end; the summaries the dialog gave the window."""
    done: list[Any] = []
    dialog.jobFinished.connect(done.append)
    qtbot.mouseClick(button or dialog.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=20_000)
    return done


def import_queue(window: Any, qtbot: Any, monkeypatch: Any, n: int) -> tuple[Any, MemorySource]:
    """File > Connect a queue…, ``n`` letters imported; the dialog (open) and its source."""
    source = MemorySource(letters(n))
    serve(monkeypatch, lambda: source)
    dialog = open_queue_dialog(window)
    fill_queue(dialog)
    (summary,) = click_import(dialog, qtbot)
    assert summary.imported == n
    qtbot.waitUntil(lambda: bool(window.connectors) and not window.queries.busy())
    return dialog, source
