"""The RabbitMQ the broker tests run against (127.0.0.1:5672, guest/guest, vhost /): whether
it is there, a topology of their own for each test (uuid names, deleted afterwards), and
real dead letters made the broker's way (published, then rejected from the main queue so
that the broker adds ``x-death``)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pika
import pytest

HOST, PORT = "127.0.0.1", 5672
URL = f"amqp://guest:guest@{HOST}:{PORT}/%2F"
KEY = "orders.new"


def broker_unreachable() -> str | None:
    """Why the broker cannot be used, or None."""
    try:
        conn = pika.BlockingConnection(pika.URLParameters(URL + "?socket_timeout=3"))
    except Exception as exc:
        return f"RabbitMQ at {HOST}:{PORT} is not reachable: {type(exc).__name__}: {exc}"[:300]
    conn.close()
    return None


@pytest.fixture(scope="session")
def broker_available() -> None:
    reason = broker_unreachable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the RabbitMQ tests: {reason}")
        pytest.skip(reason)


def wait_until_up(seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while broker_unreachable() is not None:
        if time.monotonic() > deadline:
            raise AssertionError(f"RabbitMQ did not come back within {seconds:g} s")
        time.sleep(0.2)


def rabbitmqctl(*args: str) -> None:
    tool = shutil.which("rabbitmqctl")
    assert tool is not None, "rabbitmqctl is not on PATH (see require_rabbitmqctl)"
    subprocess.run([tool, *args], check=True, capture_output=True, timeout=120)


def require_rabbitmqctl() -> None:
    """Skip (in CI: fail) a test that stops the broker where this user cannot."""
    tool = shutil.which("rabbitmqctl")
    reason = None
    if tool is None:
        reason = "rabbitmqctl is not on PATH: the broker cannot be restarted"
    else:
        done = subprocess.run([tool, "-q", "status"], capture_output=True, timeout=60)
        if done.returncode != 0:
            reason = "rabbitmqctl cannot reach the broker's node (run as root?)"
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the RabbitMQ restart tests: {reason}")
        pytest.skip(reason)


def stop_broker() -> None:
    """The broker's app stopped (its node stays up): every connection is closed, nothing
    is accepted until ``start_broker``."""
    rabbitmqctl("stop_app")


def start_broker() -> None:
    rabbitmqctl("start_app")
    wait_until_up()


def connect() -> pika.BlockingConnection:
    return pika.BlockingConnection(pika.URLParameters(URL))


@dataclass
class Topology:
    """``exchange`` (direct) routes ``KEY`` to ``main``, whose dead letters go through
    ``dlx`` to ``dlq``; ``target`` is a queue of its own (bound to ``exchange`` with key
    ``target_key``) for re-drives sent elsewhere."""

    tag: str
    exchange: str = ""
    main: str = ""
    dlx: str = ""
    dlq: str = ""
    target: str = ""
    target_key: str = ""
    extra: list[str] = field(default_factory=list)  # more queues to delete

    def __post_init__(self) -> None:
        t = self.tag
        self.exchange, self.main = f"triage-test-ex-{t}", f"triage-test-main-{t}"
        self.dlx, self.dlq = f"triage-test-dlx-{t}", f"triage-test-dlq-{t}"
        self.target, self.target_key = f"triage-test-target-{t}", f"target.{t}"

    def declare(self, main_arguments: Mapping[str, Any] | None = None) -> None:
        with connect() as conn:
            ch = conn.channel()
            ch.exchange_declare(self.exchange, "direct", durable=True)
            ch.exchange_declare(self.dlx, "direct", durable=True)
            ch.queue_declare(self.dlq, durable=True)
            ch.queue_bind(self.dlq, self.dlx, "dead")
            ch.queue_declare(
                self.main,
                durable=True,
                arguments={
                    "x-dead-letter-exchange": self.dlx,
                    "x-dead-letter-routing-key": "dead",
                    **(main_arguments or {}),
                },
            )
            ch.queue_bind(self.main, self.exchange, KEY)
            ch.queue_declare(self.target, durable=True)
            ch.queue_bind(self.target, self.exchange, self.target_key)

    def delete(self) -> None:
        with connect() as conn:
            ch = conn.channel()
            for q in (self.main, self.dlq, self.target, *self.extra):
                ch.queue_delete(q)
            for x in (self.exchange, self.dlx):
                ch.exchange_delete(x)


@pytest.fixture
def topology(broker_available: None) -> Iterator[Topology]:
    t = Topology(uuid.uuid4().hex[:10])
    t.declare()
    yield t
    wait_until_up()  # a test that stopped the broker has started it again
    t.delete()


@dataclass(frozen=True)
class Message:
    body: bytes
    message_id: str | None = None
    headers: Mapping[str, Any] = field(default_factory=dict)


def publish(exchange: str, key: str, messages: Sequence[Message], *, confirm: bool = True) -> None:
    with connect() as conn:
        ch = conn.channel()
        if confirm:
            ch.confirm_delivery()
        for m in messages:
            ch.basic_publish(
                exchange,
                key,
                m.body,
                pika.BasicProperties(
                    message_id=m.message_id,
                    headers=dict(m.headers) or None,
                    delivery_mode=2,
                    content_type="application/json",
                ),
                mandatory=True,
            )


def dead_letter(t: Topology, messages: Sequence[Message]) -> None:
    """``messages`` published to the main exchange, then rejected (requeue=False) from the
    main queue, so that the broker dead-letters them into the DLQ with its ``x-death``."""
    publish(t.exchange, KEY, messages)
    with connect() as conn:
        ch = conn.channel()
        ch.basic_qos(prefetch_count=1000)
        taken = 0
        for method, _props, _body in ch.consume(t.main, inactivity_timeout=2.0):
            if method is None:
                break
            taken += 1
            if taken % 500 == 0 or taken == len(messages):
                ch.basic_nack(method.delivery_tag, multiple=True, requeue=False)
            if taken == len(messages):
                break
        ch.cancel()
        assert taken == len(messages), (taken, len(messages))
    wait_for_count(t.dlq, len(messages))


def count(queue: str) -> int:
    with connect() as conn:
        return int(conn.channel().queue_declare(queue, passive=True).method.message_count)


def wait_for_count(queue: str, n: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while (now := count(queue)) != n:
        assert time.monotonic() < deadline, f"{queue} holds {now}, not {n}"
        time.sleep(0.05)


@dataclass(frozen=True)
class Received:
    body: bytes
    properties: pika.BasicProperties


def drain(queue: str) -> list[Received]:
    """Every message ready in ``queue``, taken (acked), in order."""
    out: list[Received] = []
    with connect() as conn:
        ch = conn.channel()
        ch.basic_qos(prefetch_count=1000)
        waiting = int(ch.queue_declare(queue, passive=True).method.message_count)
        last = None
        if waiting:
            for method, props, body in ch.consume(queue, inactivity_timeout=2.0):
                if method is None:
                    break
                out.append(Received(body, props))
                last = method.delivery_tag
                if len(out) % 500 == 0:  # within the prefetch: the broker sends on
                    ch.basic_ack(last, multiple=True)
                    last = None
                if len(out) == waiting:
                    break
        if last is not None:
            ch.basic_ack(last, multiple=True)
        ch.cancel()
        assert int(ch.queue_declare(queue, passive=True).method.message_count) == 0
    return out


def reject_all(queue: str, n: int) -> list[Received]:
    """The ``n`` messages waiting in ``queue``, taken and rejected (requeue=False): a
    consumer failing them again, so that the broker dead-letters them once more."""
    out: list[Received] = []
    with connect() as conn:
        ch = conn.channel()
        ch.basic_qos(prefetch_count=1000)
        for method, props, body in ch.consume(queue, inactivity_timeout=2.0):
            if method is None:
                break
            out.append(Received(body, props))
            if len(out) % 500 == 0 or len(out) == n:
                ch.basic_nack(method.delivery_tag, multiple=True, requeue=False)
            if len(out) == n:
                break
        ch.cancel()
    assert len(out) == n, (len(out), n)
    return out


def die_again(t: Topology, n: int) -> None:
    """The ``n`` messages in the DLQ sent back to the main exchange as they are (x-death
    and all, as a shovel would) and rejected there again: the broker counts a second death
    in the same queue for the same reason."""
    with connect() as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        for _ in range(n):
            method, props, body = ch.basic_get(t.dlq)
            assert method is not None
            ch.basic_publish(t.exchange, KEY, body, props, mandatory=True)
            ch.basic_ack(method.delivery_tag)
    reject_all(t.main, n)
    wait_for_count(t.dlq, n)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
