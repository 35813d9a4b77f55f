#!/usr/bin/env python3
"""RabbitMQ connectors: `import_letters` of a dead-letter queue and a re-drive of every dead
letter back to the main queue, against plain pika loops in the same run.

The scene (issue 26): a night's orders went to a RabbitMQ queue whose consumer rejected
them all; the broker dead-lettered them into a DLQ. A steward imports the DLQ into the desk
(each message a dead letter, acked only after its store commit), then re-drives them all to
where they were going (publisher confirms, mandatory, persistent; no transform).

References, measured in the same run on the same broker with the same messages:
- consume: a pika BlockingConnection consumer, prefetch 1,000, a multiple ack every 500,
  of a second DLQ the broker fills with the same dead letters (x-death headers and all):
  what the import does, without the desk (no letters, no store);
- publish one by one: BlockingConnection in confirm mode, each publish waiting for its
  confirm (pika's plain way);
- publish windowed: SelectConnection, up to 2,000 publishes awaiting confirms (the floor
  for publishing with confirms from Python).

    python benchmarks/bench_amqp.py [--messages 100000] [--url amqp://guest:guest@127.0.0.1:5672/%2F]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import orjson
import pika
from pika.adapters.select_connection import SelectConnection

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from triage_app.core.connectors import (  # noqa: E402
    RoutedSink,
    import_letters,
    keep_connector,
    open_source,
)
from triage_app.core.db import open_workspace  # noqa: E402
from triage_app.core.deadletters import DeadLetterFilter, redrive  # noqa: E402

KEY = "orders.new"


def order(n: int) -> bytes:
    return orjson.dumps(
        {
            "pesanan_id": n,
            "waktu": f"2026-11-{1 + n % 28:02d}T{n % 24:02d}:00:00",
            "pelanggan": ("Budi", "Siti", "Dewi", "Rina")[n % 4],
            "produk": ("Kemeja Batik", "Kain Songket", "Tas Rotan")[n % 3],
            "qty": "x" if n % 7 == 0 else 1 + n % 5,
            "harga": 120_000 + 30_000 * (n % 5),
        }
    )


class Broker:
    """The run's own exchanges and queues (uuid names), deleted at the end."""

    def __init__(self, url: str) -> None:
        self.url = url
        tag = uuid.uuid4().hex[:8]
        self.exchange, self.dlx = f"bench-ex-{tag}", f"bench-dlx-{tag}"
        self.main, self.dlq = f"bench-main-{tag}", f"bench-dlq-{tag}"
        self.scratch, self.copy = f"bench-scratch-{tag}", f"bench-dlq-copy-{tag}"
        with self.connect() as conn:
            ch = conn.channel()
            ch.exchange_declare(self.exchange, "direct", durable=True)
            ch.exchange_declare(self.dlx, "direct", durable=True)
            for q in (self.dlq, self.scratch, self.copy):
                ch.queue_declare(q, durable=True)
            ch.queue_bind(self.dlq, self.dlx, "dead")
            ch.queue_bind(self.copy, self.dlx, "dead")  # each dead letter in both
            ch.queue_bind(self.scratch, self.exchange, "scratch")
            ch.queue_declare(
                self.main,
                durable=True,
                arguments={"x-dead-letter-exchange": self.dlx, "x-dead-letter-routing-key": "dead"},
            )
            ch.queue_bind(self.main, self.exchange, KEY)

    def connect(self) -> pika.BlockingConnection:
        return pika.BlockingConnection(pika.URLParameters(self.url))

    def count(self, queue: str) -> int:
        with self.connect() as conn:
            return int(conn.channel().queue_declare(queue, passive=True).method.message_count)

    def purge(self, queue: str) -> None:
        with self.connect() as conn:
            conn.channel().queue_purge(queue)

    def delete(self) -> None:
        with self.connect() as conn:
            ch = conn.channel()
            for q in (self.main, self.dlq, self.scratch, self.copy):
                ch.queue_delete(q)
            for x in (self.exchange, self.dlx):
                ch.exchange_delete(x)


def publish_windowed(url: str, exchange: str, key: str, bodies: list[bytes], window: int) -> None:
    """Every body published persistent and mandatory, confirmed, ``window`` at a time."""
    state = {"sent": 0, "confirmed": 0, "waiting": 0}
    conn: SelectConnection

    def fill(ch: pika.channel.Channel) -> None:
        while state["sent"] < len(bodies) and state["waiting"] < window:
            n = state["sent"]
            props = pika.BasicProperties(delivery_mode=2, message_id=f"m-{n}")
            ch.basic_publish(exchange, key, bodies[n], props, mandatory=True)
            state["sent"] += 1
            state["waiting"] += 1

    def on_confirm(frame: pika.frame.Method) -> None:
        m = frame.method
        done = m.delivery_tag - state["confirmed"] if m.multiple else 1
        state["confirmed"] += done
        state["waiting"] -= done
        if state["confirmed"] == len(bodies):
            conn.close()
        else:
            fill(channel[0])

    channel: list[pika.channel.Channel] = []

    def on_channel(ch: pika.channel.Channel) -> None:
        channel.append(ch)
        ch.confirm_delivery(on_confirm, callback=lambda _f: fill(ch))

    conn = SelectConnection(
        pika.URLParameters(url),
        on_open_callback=lambda c: c.channel(on_open_callback=on_channel),
        on_close_callback=lambda c, e: c.ioloop.stop(),
    )
    conn.ioloop.start()
    assert state["confirmed"] == len(bodies), state


def publish_one_by_one(url: str, exchange: str, key: str, bodies: list[bytes]) -> None:
    with pika.BlockingConnection(pika.URLParameters(url)) as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        for n, body in enumerate(bodies):
            props = pika.BasicProperties(delivery_mode=2, message_id=f"m-{n}")
            ch.basic_publish(exchange, key, body, props, mandatory=True)


def consume_all(url: str, queue: str, n: int) -> None:
    """``n`` messages consumed and acked: prefetch 1,000, a multiple ack every 500."""
    with pika.BlockingConnection(pika.URLParameters(url)) as conn:
        ch = conn.channel()
        ch.basic_qos(prefetch_count=1000)
        got = 0
        last = 0

        def on_message(_ch: object, method: object, _p: object, _b: bytes) -> None:
            nonlocal got, last
            got += 1
            last = method.delivery_tag  # type: ignore[attr-defined]
            if got % 500 == 0:
                ch.basic_ack(last, multiple=True)

        tag = ch.basic_consume(queue, on_message)
        while got < n:
            conn.process_data_events(time_limit=1.0)
        if got % 500:
            ch.basic_ack(last, multiple=True)
        ch.basic_cancel(tag)


def dead_letter_all(b: Broker, bodies: list[bytes]) -> None:
    """The bodies published to the main queue and rejected there: the broker moves them to
    the DLQ with x-death headers."""
    publish_windowed(b.url, b.exchange, KEY, bodies, 2_000)
    with b.connect() as conn:
        ch = conn.channel()
        ch.basic_qos(prefetch_count=2_000)
        consumed = ch.consume(b.main, inactivity_timeout=5.0)
        for taken, (method, _p, _b) in enumerate(consumed, 1):
            if method is None:
                break
            if taken % 1_000 == 0 or taken == len(bodies):
                ch.basic_nack(method.delivery_tag, multiple=True, requeue=False)
            if taken == len(bodies):
                break
        ch.cancel()
    while b.count(b.dlq) < len(bodies) or b.count(b.copy) < len(bodies):
        time.sleep(0.1)


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--messages", type=int, default=100_000)
    p.add_argument("--url", default="amqp://guest:guest@127.0.0.1:5672/%2F")
    args = p.parse_args()
    n, url = args.messages, args.url
    bodies = [order(i) for i in range(n)]
    b = Broker(url)
    try:
        # The publishing references, on the run's scratch queue.
        ref_window = timed(lambda: publish_windowed(url, b.exchange, "scratch", bodies, 2_000))
        one = min(n, 5_000)  # one by one is slow: timed on a part, per message
        ref_one = timed(lambda: publish_one_by_one(url, b.exchange, "scratch", bodies[:one]))
        b.purge(b.scratch)

        dead_letter_all(b, bodies)
        ref_consume = timed(lambda: consume_all(url, b.copy, n))
        with tempfile.TemporaryDirectory() as tmp, open_workspace(Path(tmp) / "ws") as ws:
            c = keep_connector(ws, "amqp", url, {"queue": b.dlq})
            source = open_source(c, url)
            try:
                t = time.perf_counter()
                s = import_letters(ws, c, source)
                t_import = time.perf_counter() - t
            finally:
                source.close()
            assert s.imported == n and b.count(b.dlq) == 0, (s, b.count(b.dlq))
            sink = RoutedSink(ws, "original", url=url)
            try:
                t = time.perf_counter()
                r = redrive(ws, None, where=DeadLetterFilter(), sink=sink, keep=0)
                t_redrive = time.perf_counter() - t
            finally:
                sink.close()
            assert r.succeeded == n, r
            assert b.count(b.main) == n
    finally:
        b.delete()

    def rate(count: int, seconds: float) -> float:
        return count / seconds

    imp, red = rate(n, t_import), rate(n, t_redrive)
    con, win, obo = rate(n, ref_consume), rate(n, ref_window), rate(one, ref_one)
    print(f"messages {n:,} (small JSON orders), broker {url.split('@')[-1]}")
    print(f"plain consume + multiple ack:      {con:10,.0f} msg/s")
    print(f"import_letters (DLQ -> store):     {imp:10,.0f} msg/s  ({t_import:.1f} s)")
    print(f"  ratio plain/import (time):       {con / imp:10.2f}")
    print(f"plain publish, confirm each:       {obo:10,.0f} msg/s  (on {one:,})")
    print(f"plain publish, confirms windowed:  {win:10,.0f} msg/s")
    print(f"re-drive (store -> main queue):    {red:10,.0f} msg/s  ({t_redrive:.1f} s)")
    print(f"  ratio windowed/re-drive (time):  {win / red:10.2f}")
    print(f"  ratio confirm-each/re-drive:     {obo / red:10.2f}")


if __name__ == "__main__":
    main()
