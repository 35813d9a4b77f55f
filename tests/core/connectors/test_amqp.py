"""The RabbitMQ connector against the real broker (127.0.0.1:5672), on SQLite and on
PostgreSQL: a DLQ the broker filled (``x-death`` and all) imported at least once and never
twice, acked only after the store commit; re-driven back where each message was going,
each confirmed by the broker or left open with why; a broker stopped mid-import and
mid-re-drive loses nothing; two stewards re-driving at once publish each message once.

Each test has its own exchanges and queues (``broker.Topology``), deleted afterwards. A
broker that is not there skips them, with the reason; in CI it fails them."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import func, select

from tests.core.connectors.broker import (
    KEY,
    URL,
    Message,
    Received,
    Topology,
    broker_available,
    connect,
    count,
    dead_letter,
    die_again,
    drain,
    free_port,
    publish,
    reject_all,
    require_rabbitmqctl,
    start_broker,
    stop_broker,
    topology,
    wait_for_count,
)
from tests.core.connectors.conftest import open_place
from tests.support import REPO
from triage_app.core.connectors import (
    Connector,
    ImportSummary,
    OutsideLetter,
    RoutedSink,
    amqp,
    import_letters,
    keep_connector,
    open_source,
    origins_of,
)
from triage_app.core.connectors.amqp import AmqpQueue, AmqpSink, split_address
from triage_app.core.db import AuditEvent, DeadLetter, Origin, Workspace
from triage_app.core.deadletters import (
    DeadLetterFilter,
    Parcel,
    RedriveSummary,
    edit_payload,
    get_dead_letter,
    redrive,
)
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import RedriveOutcome, Status

# Fixtures, imported for the tests below to name (a conftest of their own would be one
# more file for two names).
__all__ = ["broker_available", "topology"]

STACK = "java.lang.IllegalStateException: no tenant\n\tat id.toko.Orders.handle(Orders.java:42)"


# -- helpers ----------------------------------------------------------------------------------


def connector_of(ws: Workspace, t: Topology) -> Connector:
    return keep_connector(ws, "amqp", URL, {"queue": t.dlq}, name=f"dlq-{t.tag}")


def import_all(ws: Workspace, c: Connector, **kw: Any) -> ImportSummary:
    source = open_source(c, URL)
    try:
        return import_letters(ws, c, source, **kw)
    finally:
        source.close()


def stored(ws: Workspace) -> dict[str, dict[str, Any]]:
    """Every imported dead letter by its identity: id, original bytes, status, class,
    attempts, destination and evidence. Two rows with one identity fail here."""
    o, dl = Origin, DeadLetter
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(
                o.identity,
                dl.id,
                dl.original_payload,
                dl.status,
                dl.error_class,
                dl.attempts,
                o.destination,
                o.evidence,
            ).join(dl, dl.id == o.dead_letter_id)
        ).all()
    assert len({r.identity for r in rows}) == len(rows), "one identity, two rows"
    return {
        r.identity: {
            "id": r.id,
            "payload": bytes(r.original_payload),
            "status": r.status,
            "class": r.error_class,
            "attempts": r.attempts,
            "destination": r.destination,
            "evidence": orjson.loads(r.evidence),
        }
        for r in rows
    }


def redrive_to(
    ws: Workspace, to: str = "original", transform: str | None = None, **kw: Any
) -> RedriveSummary:
    """A re-drive through a sink opened for it and closed after (its connection with it)."""
    sink = RoutedSink(ws, to, url=URL)
    try:
        return redrive(ws, transform, sink=sink, **kw)
    finally:
        sink.close()


def row_count(ws: Workspace) -> int:
    with ws.store.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(DeadLetter)).scalar_one())


def undelivered_events(ws: Workspace) -> dict[int, list[str]]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(AuditEvent.dead_letter_id, AuditEvent.detail).where(
                AuditEvent.action == "undelivered"
            )
        ).all()
    out: dict[int, list[str]] = {}
    for r in rows:
        out.setdefault(int(r.dead_letter_id), []).append(r.detail)
    return out


def orders(n: int, *, ids: bool = True, start: int = 0) -> list[Message]:
    """``n`` orders whose qty is not a number, as the consumer that failed them got them;
    every other one without a message id when ``ids`` is False."""
    return [
        Message(
            b'{"pesanan_id": %d, "qty": "x"}' % i,
            f"ord-{i}" if ids or i % 2 else None,
            {
                "x-exception-message": 'For input string: "x"',
                "x-exception-fqcn": "java.lang.NumberFormatException",
                "tenant": "jkt",
            },
        )
        for i in range(start, start + n)
    ]


def valid_order(n: int) -> str:
    return orjson.dumps(
        {
            "pesanan_id": n,
            "waktu": "2026-11-03T10:00:00",
            "pelanggan": "Siti",
            "produk": "Kain Songket",
            "qty": 2,
            "harga": 150_000,
        }
    ).decode()


def by_message_id(received: Sequence[Received]) -> Counter[str]:
    return Counter(str(m.properties.message_id) for m in received)


def store_spec(place: dict[str, Any]) -> str:
    if place["folder"] is not None:
        return str(place["folder"])
    return f"{place['warehouse_url']},{place['dead_letter_url']}"


def steward(
    action: str, place: dict[str, Any], c: Connector, *more: str, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.core.connectors.amqp_steward",
            action,
            store_spec(place),
            c.name,
            URL,
            *more,
        ],
        cwd=REPO,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


# -- addresses and refusals (no broker needed for the first) ----------------------------------


def test_split_address_decodes_each_segment() -> None:
    assert split_address("amqp://guest:pw@127.0.0.1:5672/%2F/orders/orders.new") == (
        "amqp://guest:pw@127.0.0.1:5672/%2F",
        "orders",
        "orders.new",
    )
    assert split_address("amqps://h/prod%2Feu/ex%20one/a%2Fb?heartbeat=5") == (
        "amqps://h/prod%2Feu?heartbeat=5",
        "ex one",
        "a/b",
    )
    # The default exchange routes by queue name: an empty exchange segment says it.
    assert split_address("amqp://h/%2F//orders") == ("amqp://h/%2F", "", "orders")
    for bad in ("amqp://h/%2F/orders", "amqp://h/%2F/orders/", "http://h/%2F/x/y", "amqp://h"):
        with pytest.raises(TriageError) as e:
            split_address(bad.replace("h/", "guest:s3cret@h/"))
        assert "\n" not in str(e.value) and "s3cret" not in str(e.value)


def test_an_unreachable_broker_is_one_line_without_the_password(broker_available: None) -> None:
    nowhere = f"amqp://guest:s3cret@127.0.0.1:{free_port()}/%2F"
    for make in (lambda: AmqpQueue(nowhere, "q"), lambda: AmqpSink(nowhere)):
        with pytest.raises(TriageError) as e:
            make()
        text = str(e.value)
        assert "Connection refused" in text and "s3cret" not in text and "\n" not in text
    with pytest.raises(TriageError) as e:
        AmqpQueue("amqp://guest:wrong-s3cret@127.0.0.1:5672/%2F", "q")
    assert "refused the user name or password" in str(e.value)
    assert "s3cret" not in str(e.value)
    with pytest.raises(TriageError) as e:
        AmqpQueue(URL, "triage-test-no-such-queue")
    assert "no queue 'triage-test-no-such-queue'" in str(e.value)
    assert "guest:guest" not in str(e.value)


def test_a_queue_another_consumer_holds_is_not_taken_for_empty(
    topology: Topology, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A single-active-consumer queue another reader holds: messages ready, none given to
    this one. The import says so rather than ending as if the queue were empty."""
    monkeypatch.setattr(amqp, "STALL", 0.5)
    t = topology
    held = f"triage-test-sac-{t.tag}"
    t.extra.append(held)
    with connect() as other:
        ch = other.channel()
        ch.queue_declare(held, durable=True, arguments={"x-single-active-consumer": True})
        publish("", held, [Message(b"{}", f"m-{i}") for i in range(3)])
        ch.basic_qos(prefetch_count=1)
        ch.basic_consume(held, lambda *_: None)  # the active one: it holds the queue
        source = AmqpQueue(URL, held)
        try:
            with pytest.raises(TriageError) as e:
                source.take(10)
        finally:
            source.close()
    assert "gave this reader none" in str(e.value)


# -- import -------------------------------------------------------------------------------------


def test_import_makes_each_dead_lettered_message_a_dead_letter_once(
    place: dict[str, Any], topology: Topology
) -> None:
    t = topology
    first = [
        Message(
            b'{"pesanan_id": 0, "qty": "x"}',
            "ord-0",
            {
                "x-exception-message": 'For input string: "x"',
                "x-exception-fqcn": "java.lang.NumberFormatException",
                "tenant": "jkt",
            },
        ),
        # Not UTF-8, not JSON: kept byte for byte all the same.
        Message(
            b"\xff\xfe\x00pesanan 1\x80", "ord-1", {"x-exception-message": "SocketTimeoutException"}
        ),
        # The stated class wins over the one its type's name suggests.
        Message(
            b'{"pesanan_id": 2}',
            None,
            {"x-exception-fqcn": "java.lang.NullPointerException", "x-error-class": "data"},
        ),
        # No exception said: what the broker says of its death.
        Message(b'{"pesanan_id": 3}', None),
        Message(b'{"pesanan_id": 3}', "ord-4"),
        Message(
            b'{"pesanan_id": 5}',
            "ord-5",
            {
                "x-exception-message": "no tenant",
                "x-exception-fqcn": "java.lang.IllegalStateException",
                "x-exception-stacktrace": STACK,
            },
        ),
    ]
    dead_letter(t, first)
    with open_place(place) as ws:
        c = connector_of(ws, t)
        s = import_all(ws, c)
        assert (s.taken, s.imported, s.already, s.stopped) == (6, 6, 0, None)
        assert count(t.dlq) == 0  # every one acked once committed
        rows = stored(ws)
        hashed = sorted(i for i in rows if i.startswith("sha256:"))
        assert len(hashed) == 2 and {"ord-0", "ord-1", "ord-4", "ord-5"} <= rows.keys()
        by_body = {r["payload"]: r for r in rows.values()}
        assert set(by_body) == {m.body for m in first}
        assert rows["ord-1"]["payload"] == b"\xff\xfe\x00pesanan 1\x80"
        assert rows["ord-4"]["payload"] == b'{"pesanan_id": 3}'  # the same bytes, its own id

        r0 = rows["ord-0"]
        death = r0["evidence"]["headers"]["x-death"][0]
        assert (death["exchange"], death["queue"], death["reason"], death["count"]) == (
            t.exchange,
            t.main,
            "rejected",
            1,
        )
        assert death["routing-keys"] == [KEY] and death["time"].endswith("+00:00")
        assert r0["evidence"]["headers"]["x-exception-fqcn"] == "java.lang.NumberFormatException"
        assert r0["evidence"]["headers"]["tenant"] == "jkt"
        assert r0["evidence"]["properties"]["content_type"] == "application/json"
        assert r0["destination"] == f"{t.exchange}/{KEY}"
        assert (r0["class"], r0["attempts"]) == ("data", 1)
        d0 = get_dead_letter(ws, r0["id"], reveal=True)
        assert d0.error == 'NumberFormatException: For input string: "x"'
        assert rows["ord-1"]["class"] == "transient"
        assert by_body[b'{"pesanan_id": 2}']["class"] == "data"
        no_id = next(r for i, r in rows.items() if i in hashed and r["payload"].endswith(b"3}"))
        assert get_dead_letter(ws, no_id["id"], reveal=True).error == (
            f"dead-lettered from queue {t.main}: rejected"
        )
        d5 = get_dead_letter(ws, rows["ord-5"]["id"], reveal=True)
        assert rows["ord-5"]["class"] == "code" and d5.traceback == STACK

        # Nothing waiting: nothing imported.
        again = import_all(ws, c)
        assert (again.taken, again.imported) == (0, 0)

        # A replay: the same messages (same message ids) dead-lettered again never double.
        dead_letter(t, [first[0], first[1], first[4]])
        replay = import_all(ws, c)
        assert (replay.taken, replay.imported, replay.already) == (3, 0, 3)
        assert row_count(ws) == 6 and count(t.dlq) == 0


def test_a_message_that_died_twice_counts_its_attempts(
    place: dict[str, Any], topology: Topology
) -> None:
    """The same message dead-lettered twice: its attempts count both, and its identity
    (the hash, when it has no message id) is the one it had after the first death."""
    t = topology
    dead_letter(t, [Message(b'{"pesanan_id": 9}', "ord-9"), Message(b'{"pesanan_id": 10}')])
    peek = AmqpQueue(URL, t.dlq)
    try:
        before = {x.payload: x.identity for x in peek.take(10)}
    finally:
        peek.close()  # not acked: back in the DLQ
    wait_for_count(t.dlq, 2)
    time.sleep(1.1)  # the second death a second later: x-death's time would show it
    die_again(t, 2)  # back to the main queue as a shovel would, rejected there again
    with open_place(place) as ws:
        c = connector_of(ws, t)
        assert import_all(ws, c).imported == 2
        rows = stored(ws)
        assert {r["attempts"] for r in rows.values()} == {2}
        death = rows["ord-9"]["evidence"]["headers"]["x-death"][0]
        assert (death["count"], death["queue"]) == (2, t.main)
        assert {r["payload"]: i for i, r in rows.items()} == before


def test_the_ack_waits_for_the_commit(place: dict[str, Any], topology: Topology) -> None:
    """An import killed after its second chunk's commit, before its ack: the broker gives
    those messages again (and those never taken), and the next import acks them without a
    second row, those without a message id (the hash identity) included."""
    t = topology
    messages = orders(1200, ids=False)
    dead_letter(t, messages)
    with open_place(place) as ws:
        c = connector_of(ws, t)
    killed = steward("import", place, c, env={"TRIAGE_CRASH_AT": "import-after-commit:2"})
    _, err = killed.communicate(timeout=120)
    assert killed.returncode == -9, err
    wait_for_count(t.dlq, 700)  # the first chunk acked; the second committed, not acked
    with open_place(place) as ws:
        assert row_count(ws) == 1000
        s = import_all(ws, c)
        assert (s.taken, s.imported, s.already) == (700, 200, 500)
        rows = stored(ws)
        assert len(rows) == 1200 and row_count(ws) == 1200
        assert sum(i.startswith("sha256:") for i in rows) == 600
        assert sorted(r["payload"] for r in rows.values()) == sorted(m.body for m in messages)
    assert count(t.dlq) == 0


# -- re-drive -----------------------------------------------------------------------------------


def test_fix_and_redrive_back_to_the_main_queue(place: dict[str, Any], topology: Topology) -> None:
    t = topology
    dead_letter(t, orders(4, start=1))
    with open_place(place) as ws:
        c = connector_of(ws, t)
        assert import_all(ws, c).imported == 4
        rows = stored(ws)
        ids = {i: rows[f"ord-{i}"]["id"] for i in range(1, 5)}
        fixed = {n: valid_order(n) for n in (1, 2)}
        for n, text in fixed.items():
            edit_payload(ws, ids[n], text)

        # Through pesanan@2: the two fixed ones pass and are published; the others fail the
        # transform as any re-drive's rows do, and are not published.
        s = redrive_to(ws, "original", "pesanan@2", where=DeadLetterFilter())
        assert (s.succeeded, s.failed, s.undelivered) == (2, 2, 0)
        assert s.destination == "where each came from"
        got = reject_all(t.main, 2)  # what the consumer receives (and fails again, below)
        assert by_message_id(got) == Counter({"ord-1": 1, "ord-2": 1})
        for m in got:
            n = int(str(m.properties.message_id).split("-")[1])
            assert m.body == fixed[n].encode()  # the steward's bytes, as left
            h = m.properties.headers
            assert h["x-triage-dead-letter-id"] == ids[n] and h["x-redriven-at"].endswith("Z")
            assert h["tenant"] == "jkt"
            assert not any(k.startswith(("x-death", "x-exception", "x-first-death")) for k in h)
            assert m.properties.delivery_mode == 2
            assert m.properties.content_type == "application/json"
        with ws.store.connect() as conn:
            status = dict(conn.execute(select(DeadLetter.id, DeadLetter.status)).all())
        assert {status[ids[n]] for n in (1, 2)} == {Status.RESOLVED}
        assert {status[ids[n]] for n in (3, 4)} == {Status.OPEN}

        # The consumer failed the re-driven messages again: each is a new dead letter (its
        # identity names the re-drive), not the resolved one it came from.
        wait_for_count(t.dlq, 2)
        back = import_all(ws, c)
        assert (back.imported, back.already) == (2, 0)
        again = {i: r for i, r in stored(ws).items() if " redriven " in i}
        assert sorted(r["payload"] for r in again.values()) == sorted(
            x.encode() for x in fixed.values()
        )

        # --to one exchange and key: as it is, no transform.
        to = f"amqp://guest:guest@127.0.0.1:5672/%2F/{t.exchange}/{t.target_key}"
        s = redrive_to(ws, to, ids=[ids[3]])
        assert s.succeeded == 1 and "guest:guest" not in (s.destination or "")
        [m] = drain(t.target)
        assert m.body == b'{"pesanan_id": 3, "qty": "x"}'
        assert m.properties.message_id == "ord-3"
        assert count(t.main) == 0


def test_a_nack_or_a_return_leaves_the_row_open_with_why(
    place: dict[str, Any], topology: Topology
) -> None:
    t = topology
    capped, capped_key = f"triage-test-capped-{t.tag}", f"capped.{t.tag}"
    t.extra.append(capped)
    with connect() as conn:
        ch = conn.channel()
        ch.queue_declare(
            capped, durable=True, arguments={"x-max-length": 3, "x-overflow": "reject-publish"}
        )
        ch.queue_bind(capped, t.exchange, capped_key)
    dead_letter(t, orders(5))
    base = "amqp://guest:guest@127.0.0.1:5672/%2F"
    with open_place(place) as ws:
        c = connector_of(ws, t)
        import_all(ws, c)
        ids = sorted(r["id"] for r in stored(ws).values())
        s = redrive_to(ws, f"{base}/{t.exchange}/{capped_key}", where=DeadLetterFilter())
        assert (s.succeeded, s.undelivered) == (3, 2)
        assert count(capped) == 3
        nacked = {r.id for r in s.results if r.outcome == RedriveOutcome.UNDELIVERED}
        assert nacked == set(ids[3:])  # the queue took the first three, refused the rest
        events = undelivered_events(ws)
        assert {i: e[-1] for i, e in events.items()} == dict.fromkeys(
            nacked, "the broker refused it (nack)"
        )
        with ws.store.connect() as conn:
            rows = conn.execute(select(DeadLetter.id, DeadLetter.status, DeadLetter.attempts))
            state = {r.id: (r.status, r.attempts) for r in rows}
        assert {state[i] for i in nacked} == {(Status.OPEN, 1)}
        assert {state[i][0] for i in ids[:3]} == {Status.RESOLVED}

        # No queue bound to that key: returned, and said so.
        s = redrive_to(ws, f"{base}/{t.exchange}/nobody.{t.tag}", where=DeadLetterFilter())
        assert s.undelivered == 2
        why = f"no queue is bound to exchange {t.exchange} with key nobody.{t.tag} (returned)"
        assert {r.error for r in s.results} == {why}
        # No such exchange: said before anything is published.
        s = redrive_to(ws, f"{base}/triage-test-none-{t.tag}/k", where=DeadLetterFilter())
        assert s.undelivered == 2
        assert all(f"no exchange triage-test-none-{t.tag}" in (r.error or "") for r in s.results)


def test_a_message_the_broker_gave_no_destination_is_not_sent_anywhere(
    place: dict[str, Any], topology: Topology
) -> None:
    t = topology
    publish("", t.dlq, [Message(b'{"pesanan_id": 7}', "ord-7")])  # straight in: no x-death
    with open_place(place) as ws:
        c = connector_of(ws, t)
        import_all(ws, c)
        assert stored(ws)["ord-7"]["destination"] is None
        s = redrive_to(ws, where=DeadLetterFilter())
        assert s.undelivered == 1
        assert "where its message was going is not known" in (s.results[0].error or "")


# -- the broker stopped -------------------------------------------------------------------------


class StopsBrokerBeforeAck:
    """The import's source, the broker stopped just before its k-th acknowledgement: that
    chunk is committed, and its ack cannot reach the broker."""

    def __init__(self, inner: AmqpQueue, k: int) -> None:
        self.inner, self.k, self.acks = inner, k, 0
        self.name = inner.name

    def take(self, most: int) -> Sequence[OutsideLetter]:
        return self.inner.take(most)

    def acknowledge(self, letters: Sequence[OutsideLetter]) -> None:
        self.acks += 1
        if self.acks == self.k:
            stop_broker()
        self.inner.acknowledge(letters)

    def close(self) -> None:
        self.inner.close()


class StopsBrokerBeforeChunk:
    """A re-drive's sink, the broker stopped (and started again, with ``restart``) just
    before its k-th chunk: the sink's connection has gone meanwhile."""

    def __init__(self, inner: RoutedSink, k: int, *, restart: bool) -> None:
        self.inner, self.k, self.restart, self.calls = inner, k, restart, 0
        self.name = inner.name

    def deliver(self, parcels: Sequence[Parcel]) -> dict[int, str]:
        self.calls += 1
        if self.calls == self.k:
            stop_broker()
            if self.restart:
                start_broker()
        return self.inner.deliver(parcels)

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
def restarts_broker(broker_available: None) -> Iterator[None]:
    """Whatever the test does, the broker is started again after it."""
    require_rabbitmqctl()
    try:
        yield
    finally:
        start_broker()


@pytest.mark.slow
def test_broker_stopped_between_commit_and_ack(
    place: dict[str, Any], topology: Topology, restarts_broker: None
) -> None:
    t = topology
    dead_letter(t, orders(1500, ids=False))
    with open_place(place) as ws:
        c = connector_of(ws, t)
        source = StopsBrokerBeforeAck(AmqpQueue(URL, t.dlq), 2)
        try:
            s = import_letters(ws, c, source, chunk=500)
        finally:
            source.close()
            start_broker()
        assert (s.imported, s.stopped is not None) == (1000, True)
        assert "guest:guest" not in (s.stopped or "") and "\n" not in (s.stopped or "")
        wait_for_count(t.dlq, 1000)  # the committed chunk and the one never taken
        again = import_all(ws, c)
        assert (again.taken, again.imported, again.already) == (1000, 500, 500)
        assert len(stored(ws)) == 1500 == row_count(ws)
    assert count(t.dlq) == 0


@pytest.mark.slow
def test_broker_stopped_between_chunks_of_a_redrive(
    place: dict[str, Any], topology: Topology, restarts_broker: None
) -> None:
    """The broker stopped after a chunk was confirmed: the next cannot connect and the
    re-drive stops in one line, that chunk's rows left open as they were. Restarted between
    two chunks: the sink finds its connection gone, connects again and goes on. Either way
    each message reaches the main queue once."""
    t = topology
    dead_letter(t, orders(1500))
    with open_place(place) as ws:
        c = connector_of(ws, t)
        import_all(ws, c)
        identities = set(stored(ws))
        sink = StopsBrokerBeforeChunk(RoutedSink(ws, "original", url=URL), 2, restart=False)
        try:
            with pytest.raises(TriageError) as e:
                redrive(ws, None, where=DeadLetterFilter(), sink=sink)
        finally:
            sink.close()
            start_broker()
        assert "cannot connect" in str(e.value) and "guest:guest" not in str(e.value)
        rows = stored(ws)
        assert sum(r["status"] == Status.RESOLVED for r in rows.values()) == 500  # chunk 1
        assert undelivered_events(ws) == {}  # nothing was sent of the next

        sink = StopsBrokerBeforeChunk(RoutedSink(ws, "original", url=URL), 2, restart=True)
        try:
            s = redrive(ws, None, where=DeadLetterFilter(), sink=sink)
        finally:
            sink.close()
        assert (s.succeeded, s.undelivered) == (1000, 0)
        assert {r["status"] for r in stored(ws).values()} == {Status.RESOLVED}
    got = by_message_id(drain(t.main))
    assert set(got) == identities and set(got.values()) == {1}


class StopsBrokerSoon:
    """A source or sink whose k-th call starts stopping the broker in a thread, so that it
    goes at whatever point that call has reached by then (a publish in flight, a commit);
    the next call waits until it has gone, so that the stop lands before the work ends."""

    def __init__(self, k: int) -> None:
        self.k, self.calls = k, 0
        self.thread: threading.Thread | None = None

    def tick(self) -> None:
        self.calls += 1
        if self.calls == self.k:
            self.thread = threading.Thread(target=stop_broker)
            self.thread.start()
        elif self.calls == self.k + 1:
            self.join()

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join()


@pytest.mark.slow
def test_broker_stopped_at_any_moment_loses_nothing(
    place: dict[str, Any], topology: Topology, restarts_broker: None
) -> None:
    """The broker stopped from another thread while an import, then a re-drive, run; each
    run again once it is back. Import: every message a dead letter, once. Re-drive: every
    message at the main queue; one published twice only if its first publish was in flight
    when the connection went (its row stayed open, undelivered, and the second re-drive
    sent it again under the same message_id, which is what a receiver dedupes by). A
    publish the broker confirmed is never sent again."""
    t = topology
    dead_letter(t, orders(5000, ids=False))
    with open_place(place) as ws:
        c = connector_of(ws, t)
        stopper = StopsBrokerSoon(2)
        inner = AmqpQueue(URL, t.dlq)

        class Source:
            name = inner.name

            def take(self, most: int) -> Sequence[OutsideLetter]:
                stopper.tick()
                return inner.take(most)

            def acknowledge(self, letters: Sequence[OutsideLetter]) -> None:
                inner.acknowledge(letters)

            def close(self) -> None:
                inner.close()

        try:
            first = import_letters(ws, c, Source(), chunk=250)
        finally:
            inner.close()
            stopper.join()
            start_broker()
        assert first.stopped is not None, "the broker stopped after the import had finished"
        second = import_all(ws, c)
        assert first.imported + second.imported == 5000
        assert len(stored(ws)) == 5000 == row_count(ws) and count(t.dlq) == 0
        identities = set(stored(ws))

        stopper = StopsBrokerSoon(2)
        routed = RoutedSink(ws, "original", url=URL)

        class Sink:
            name = routed.name

            def deliver(self, parcels: Sequence[Parcel]) -> dict[int, str]:
                stopper.tick()
                return routed.deliver(parcels)

            def close(self) -> None:
                routed.close()

        try:
            redrive(ws, None, where=DeadLetterFilter(), sink=Sink())
        except TriageError:
            pass  # a chunk after the stop could not connect: the rest stays open
        finally:
            routed.close()
            stopper.join()
            start_broker()
        in_flight = set(undelivered_events(ws))
        left = sum(r["status"] == Status.OPEN for r in stored(ws).values())
        assert left > 0, "the broker stopped after the re-drive had finished"
        s = redrive_to(ws, where=DeadLetterFilter())
        assert s.succeeded == left
        rows = stored(ws)
        assert {r["status"] for r in rows.values()} == {Status.RESOLVED}
    got = by_message_id(drain(t.main))
    assert set(got) == identities  # nothing lost
    twice = {i for i, n in got.items() if n > 1}
    assert max(got.values()) <= 2
    ids = {i: r["id"] for i, r in rows.items()}
    assert {ids[i] for i in twice} <= in_flight  # only a publish in flight when it went


# -- two stewards ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_two_stewards_redrive_each_message_once(
    place: dict[str, Any], topology: Topology, tmp_path: Path
) -> None:
    t = topology
    dead_letter(t, orders(2000))
    with open_place(place) as ws:
        c = connector_of(ws, t)
        import_all(ws, c)
        identities = set(stored(ws))
    go = tmp_path / "go"
    racers = [steward("redrive", place, c, str(go)) for _ in range(2)]
    start = time.monotonic()
    while len(list(tmp_path.glob("go.ready.*"))) < 2:
        assert time.monotonic() - start < 60, "the stewards never got ready"
        assert all(p.poll() is None for p in racers), [p.communicate() for p in racers]
        time.sleep(0.01)
    go.touch()
    outs = []
    for p in racers:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
        outs.append(orjson.loads(out.splitlines()[-1]))
    assert sum(o["succeeded"] for o in outs) == 2000
    assert not set(outs[0]["resolved"]) & set(outs[1]["resolved"])
    with open_place(place) as ws:
        assert {r["status"] for r in stored(ws).values()} == {Status.RESOLVED}
    got = by_message_id(drain(t.main))
    assert set(got) == identities and set(got.values()) == {1}


def test_origins_carry_what_the_sink_needs(place: dict[str, Any], topology: Topology) -> None:
    t = topology
    dead_letter(t, [Message(b'{"pesanan_id": 1}', "ord-1", {"tenant": "jkt"})])
    with open_place(place) as ws:
        c = connector_of(ws, t)
        import_all(ws, c)
        [row] = stored(ws).values()
        [o] = origins_of(ws, [row["id"]]).values()
        assert (o.identity, o.destination) == ("ord-1", f"{t.exchange}/{KEY}")
        assert o.evidence["headers"]["tenant"] == "jkt"
