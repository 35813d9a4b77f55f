"""Import from a source and re-drive to a sink, on SQLite and PostgreSQL: at least once,
never twice; a sink's refusal leaves the row open with why."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import func, select

from tests.core.connectors.conftest import open_place
from tests.core.connectors.memory import ListSink, ListSource
from triage_app.core.connectors import OutsideLetter, import_letters, keep_connector
from triage_app.core.db import Batch, DeadLetter, Origin
from triage_app.core.deadletters import AuditFilter, DeadLetterFilter, audit_trail, redrive
from triage_app.core.vocabulary import ErrorClass, RedriveOutcome, Status


def _letters(n: int) -> list[OutsideLetter]:
    return [
        OutsideLetter(
            identity=f"m-{i}",
            payload=b'{"pesanan_id": %d, "qty": "x"}' % i,
            error='NumberFormatException: For input string: "x"',
            error_class=ErrorClass.DATA,
            destination="orders/new",
            evidence={"x-death": [{"queue": "orders", "count": 1}]},
        )
        for i in range(n)
    ]


def test_import_is_idempotent_and_counted(place: dict[str, Any]) -> None:
    with open_place(place) as ws:
        c = keep_connector(ws, "amqp", "amqp://guest:guest@127.0.0.1/", {"queue": "orders.dlq"})
        src = ListSource(_letters(1200))
        s = import_letters(ws, c, src, chunk=500)
        assert (s.taken, s.imported, s.already) == (1200, 1200, 0)
        assert src.acked == [f"m-{i}" for i in range(1200)]
        # The same letters again (a replay after a crash before the ack): none doubled.
        again = import_letters(ws, c, ListSource(_letters(1300)))
        assert (again.imported, again.already) == (100, 1200)
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(DeadLetter)).scalar() == 1300
            assert conn.execute(select(func.count()).select_from(Origin)).scalar() == 1300
            b = conn.execute(select(Batch.__table__).where(Batch.batch_id == s.batch_id)).one()
            assert (b.kind, b.rows, b.quarantined, b.q_data, b.state) == (
                "import",
                1200,
                1200,
                1200,
                "complete",
            )
            assert b.connector_id == c.id


def test_the_attempts_a_source_counted_are_kept_and_counted(place: dict[str, Any]) -> None:
    from triage_app.core.db import summary

    with open_place(place) as ws:
        c = keep_connector(ws, "table", "sqlite:///p.db", {"table": "dead_letter"})
        letters = [replace(x, attempts=1 + i % 3) for i, x in enumerate(_letters(9))]
        import_letters(ws, c, ListSource(letters))
        with ws.store.connect() as conn:
            got = sorted(conn.execute(select(DeadLetter.attempts)).scalars())
            assert got == [1, 1, 1, 2, 2, 2, 3, 3, 3]
            assert summary.stored(conn) == summary.recount(conn)


def test_a_source_lost_midway_keeps_what_was_committed(place: dict[str, Any]) -> None:
    with open_place(place) as ws:
        c = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "q"})
        src = ListSource(_letters(1000), fail_after=500)
        s = import_letters(ws, c, src, chunk=250)
        assert s.imported == 500 and s.stopped == "connection lost"
        assert len(src.letters) == 500  # the rest stays in the source


def test_redrive_to_a_sink_resolves_only_what_it_confirmed(place: dict[str, Any]) -> None:
    with open_place(place) as ws:
        c = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "q"})
        import_letters(ws, c, ListSource(_letters(10)))
        sink = ListSink(refuse={b'{"pesanan_id": 3, "qty": "x"}': "nack from the broker"})
        s = redrive(ws, None, where=DeadLetterFilter(), sink=sink)
        assert (s.succeeded, s.undelivered, s.failed) == (9, 1, 0)
        assert s.destination == "memory sink"
        assert sorted(p.payload for p in sink.got) == sorted(
            x.payload for x in _letters(10) if b'"pesanan_id": 3,' not in x.payload
        )
        with ws.store.connect() as conn:
            rows = dict(conn.execute(select(DeadLetter.id, DeadLetter.status)).all())
        still = [i for i, st in rows.items() if st == Status.OPEN]
        assert len(still) == 1
        trail = audit_trail(ws, AuditFilter(dead_letter_id=still[0]))
        assert any(e.action == "undelivered" and "nack" in e.detail for e in trail)
        assert [r.outcome for r in s.results if r.id == still[0]] == [RedriveOutcome.UNDELIVERED]
        # Its transform stays what failed it: the sink took the payload as it was.
        with ws.store.connect() as conn:
            assert set(conn.execute(select(DeadLetter.transform)).scalars()) == {"amqp:q"}
        # Once the sink takes it, the re-drive resolves it and nothing else is sent again.
        sink.refuse.clear()
        s2 = redrive(ws, None, where=DeadLetterFilter(), sink=sink)
        assert s2.succeeded == 1 and len(sink.got) == 10


def test_the_source_filter_and_column(place: dict[str, Any], seed_batch: Any) -> None:
    from triage_app.core.batch import run_batch
    from triage_app.core.connectors import batch_sources
    from triage_app.core.deadletters import FILES, count_dead_letters

    with open_place(place) as ws:
        run_batch(ws, seed_batch, "pesanan@1")
        c = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "orders.dlq"})
        s = import_letters(ws, c, ListSource(_letters(7)))
        files = count_dead_letters(ws, DeadLetterFilter(source=FILES))
        assert files > 0
        assert count_dead_letters(ws, DeadLetterFilter(source="orders.dlq")) == 7
        assert count_dead_letters(ws, DeadLetterFilter(source="no such")) == 0
        assert count_dead_letters(ws, DeadLetterFilter()) == files + 7
        with ws.store.connect() as conn:
            batches = list(conn.execute(select(Batch.batch_id)).scalars())
        shown = batch_sources(ws, batches)
        assert shown[s.batch_id] == "orders.dlq"
        assert [v for k, v in shown.items() if k != s.batch_id] == [f"file {seed_batch.name}"]


def test_a_purged_row_is_never_imported_again(place: dict[str, Any]) -> None:
    import datetime as dt

    from triage_app.core.deadletters import purge

    with open_place(place) as ws:
        c = keep_connector(ws, "table", "sqlite:///pipeline.db", {"table": "dead_letter"})
        import_letters(ws, c, ListSource(_letters(3)))
        redrive(ws, None, where=DeadLetterFilter(), sink=ListSink())
        later = dt.datetime.now(dt.UTC) + dt.timedelta(days=400)
        gone = purge(ws, 90, ["resolved"], now=later)
        assert gone.rows == 3
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(DeadLetter)).scalar() == 0
            kept = conn.execute(select(Origin.identity, Origin.dead_letter_id)).all()
        assert sorted(kept) == [("m-0", None), ("m-1", None), ("m-2", None)]
        again = import_letters(ws, c, ListSource(_letters(3)))
        assert (again.imported, again.already) == (0, 3)


def test_a_queue_whose_volume_jumps_is_a_spike_of_its_own(workspace: Any) -> None:
    """Seed 002's monitoring: a dead-letter queue filling far faster than usual. Each
    import is judged against the imports of the same connector; the quarantine-rate rule
    never judges an import (all of its rows are dead letters)."""
    from triage_app.core.trends import compute_trends

    ws = workspace
    orders = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "orders.dlq"})
    other = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "other.dlq"})
    n = 0

    def letters(k: int) -> list[OutsideLetter]:
        nonlocal n
        out = [replace(x, identity=f"m-{n + j}") for j, x in enumerate(_letters(k))]
        n += k
        return out

    for k in (10, 12, 9, 11, 10, 8, 12):
        import_letters(ws, orders, ListSource(letters(k)))
        import_letters(ws, other, ListSource(letters(200)))  # its own usual, not orders'
    import_letters(ws, orders, ListSource(letters(60)))
    t = compute_trends(ws)
    spikes = t.spikes
    assert len(spikes) == 1
    s = spikes[0]
    assert s.of_volume and s.batch.quarantined == 60 and s.baseline == 10
    assert "orders.dlq" in s.message() and "60 dead letters" in s.message()
    assert t.to_json()["spikes"][0]["of_volume"] is True


def test_an_import_reconciles(place: dict[str, Any]) -> None:
    from triage_app.core.verify import reconcile

    with open_place(place) as ws:
        c = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "q"})
        s = import_letters(ws, c, ListSource(_letters(1100)))
        import_letters(ws, c, ListSource(_letters(1100)))  # a replay: its batch has no lines
        redrive(ws, None, where=DeadLetterFilter(), sink=ListSink())
        r = reconcile(ws, s.batch_id)
        assert r.ok, r.problems


def test_a_connectors_password_is_in_the_keyring_never_in_the_store(workspace: Any) -> None:
    from tests.support.keyrings import MemoryKeyring, installed
    from triage_app.core.connectors import connector_named
    from triage_app.core.db import Connector as ConnectorRow

    with installed(MemoryKeyring()) as ring:
        c = keep_connector(
            workspace, "amqp", "amqp://steward:s3cret-pw@mq.example:5672/%2F", {"queue": "q"}
        )
        assert "s3cret-pw" not in c.address and "***" in c.address
        assert list(ring.items.values()) == ["s3cret-pw"]  # type: ignore[attr-defined]
        again = connector_named(workspace, "q")
        assert "s3cret-pw" in again.url()  # what it connects with, from the keyring
        with workspace.store.connect() as conn:
            stored = conn.execute(select(ConnectorRow.__table__)).all()
        assert "s3cret-pw" not in repr(stored)
    # A desk without that keyring entry connects without a password (or is given one).
    assert "s3cret-pw" not in connector_named(workspace, "q").url()
    typed = "amqp://steward:typed@mq.example:5672/%2F"
    assert connector_named(workspace, "q").url(typed) == typed


def test_a_connector_may_not_be_named_as_the_desks_own_files(workspace: Any) -> None:
    import pytest

    from triage_app.core.errors import TriageError

    with pytest.raises(TriageError, match="Source filter"):
        keep_connector(workspace, "amqp", "amqp://127.0.0.1/", {"queue": "files"})
    c = keep_connector(workspace, "amqp", "amqp://127.0.0.1/", {"queue": "files"}, name="files-q")
    assert c.short() == "files-q (queue files)"


def test_one_connectors_broker_down_costs_no_other_connectors_rows(workspace: Any) -> None:
    """A re-drive to where each came from, across two connectors, one of whose broker
    cannot be reached: the other's rows resolve, its own stay open saying why; with no row
    delivered at all the re-drive stops in one line."""
    import pytest

    from triage_app.core.connectors import RoutedSink
    from triage_app.core.errors import TriageError

    class Kind:
        def __init__(self, down: bool) -> None:
            self.name, self.down, self.got = "kind", down, []

        def deliver(self, parcels: Any, origins: Any) -> dict[int, str]:
            if self.down:
                raise TriageError("cannot reach amqp://127.0.0.1:5672/: connection refused")
            self.got += parcels
            return {}

        def close(self) -> None:
            pass

    ws = workspace
    up = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "up.dlq"})
    down = keep_connector(ws, "amqp", "amqp://10.0.0.1/", {"queue": "down.dlq"})
    import_letters(ws, up, ListSource(_letters(3)))
    import_letters(
        ws, down, ListSource([replace(x, identity=f"d-{x.identity}") for x in _letters(2)])
    )
    sink = RoutedSink(ws, "original")
    good, bad = Kind(False), Kind(True)
    sink._open.update({up.id: good, down.id: bad})
    s = redrive(ws, None, where=DeadLetterFilter(), sink=sink)
    assert (s.succeeded, s.undelivered) == (3, 2) and len(good.got) == 3
    assert all(
        "connection refused" in (r.error or "") for r in s.results if r.outcome == "undelivered"
    )
    only_down = RoutedSink(ws, "original")
    only_down._open.update({down.id: bad})
    with pytest.raises(TriageError, match="connection refused"):
        redrive(ws, None, where=DeadLetterFilter(source="down.dlq"), sink=only_down)
    assert count_open(ws) == 2


def count_open(ws: Any) -> int:
    from triage_app.core.deadletters import count_dead_letters

    return count_dead_letters(ws, DeadLetterFilter())
