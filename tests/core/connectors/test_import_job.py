"""The window's import and re-drive to a source, as core's jobs run them: the connector kept
only once its source opened, the source closed whatever happens, and a re-drive's sink made
for its destination and closed after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.core.connectors.memory import ListSink, ListSource
from tests.core.connectors.test_importing import _letters
from triage_app.core.connectors import Connector, list_connectors
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter
from triage_app.core.errors import TriageError
from triage_app.core.jobs import ImportJob, RedriveJob
from triage_app.core.progress import NoProgress

URL = "amqp://steward:pw@rabbit.example/%2F"


def test_an_import_keeps_its_connector_once_the_source_opened(tmp_path: Path) -> None:
    opened: list[tuple[Connector, str | None]] = []

    def refuse(connector: Connector, url: str | None) -> Any:
        opened.append((connector, url))
        raise TriageError("cannot reach the broker: connection refused")

    with open_workspace(tmp_path / "ws") as ws:
        job = ImportJob("amqp", URL, {"queue": "orders.dlq"}, source=refuse)
        assert job.title == "import from orders.dlq" and "pw" not in repr(job)
        with pytest.raises(TriageError, match="connection refused"):
            job.run(ws, NoProgress())
        assert list_connectors(ws) == []  # a typo'd address takes no name
        assert opened[0][1] == URL and opened[0][0].options == {"queue": "orders.dlq"}

        source = ListSource(_letters(3))
        s = ImportJob("amqp", URL, {"queue": "orders.dlq"}, source=lambda c, u: source).run(ws)
        assert (s.connector, s.imported) == ("orders.dlq", 3)
        (kept,) = list_connectors(ws)
        assert "pw" not in kept.address

        # Again from the kept one: its name, no URL typed (the keyring's, if any).
        again = ListSource(_letters(4))
        seen: list[str | None] = []

        def remember(c: Connector, u: str | None) -> ListSource:
            seen.append(u)
            return again

        s2 = ImportJob("amqp", kept="orders.dlq", source=remember).run(ws)
        assert (s2.imported, s2.already, seen) == (1, 3, [None])


def test_a_redrive_job_to_a_source_makes_its_sink_and_closes_it(tmp_path: Path) -> None:
    class Closing(ListSink):
        closed = 0

        def close(self) -> None:
            Closing.closed += 1

    with open_workspace(tmp_path / "ws") as ws:
        source = ListSource(_letters(2))
        ImportJob("amqp", URL, {"queue": "q"}, source=lambda c, u: source).run(ws)
        made: list[tuple[str, Any]] = []

        def sink(w: Any, to: str, transform: Any) -> Closing:
            made.append((to, transform))
            return Closing(name="where each came from")

        preview = RedriveJob(None, where=DeadLetterFilter(), dry_run=True, to="original", sink=sink)
        assert preview.title == "preview of a re-drive to where each came from as they are"
        p = preview.run(ws)
        assert (p.succeeded, p.destination) == (2, "where each came from")
        s = RedriveJob(None, seen=p.seen, to="original", sink=sink).run(ws)
        assert (s.succeeded, s.undelivered) == (2, 0)
        assert made == [("original", None), ("original", None)] and Closing.closed == 2
        title = RedriveJob("pesanan@2", to="amqp://u:secret@h/%2F/x/y").title
        assert title.startswith("re-drive to amqp://u:***@h/") and "secret" not in title
        assert title.endswith("/x/y with pesanan@2")
