"""RabbitMQ: a dead-letter queue imported (``AmqpQueue``), re-driven dead letters published
back (``AmqpSink``), and the ``--to`` address of one exchange (``split_address``).

Import. ``AmqpQueue`` consumes the queue with a prefetch window and gives each message as an
``OutsideLetter``: the body byte-exact; the error from the ``x-exception-*`` headers a
republisher wrote (Spring's, the seed's DLQ utility's), else what the broker's ``x-death``
says; where it was going (``x-death``'s exchange and first routing key); the headers and
properties as evidence. A message is acked only when ``acknowledge`` is called, which the
import does after its store commit: a process killed in between leaves it unacked, the
broker gives it again, and its identity, found stored, keeps it from doubling.

Identity. A message's ``message_id`` when it has one; without one, the hash of its body,
headers and properties, less what changes each time the broker hands the same message out
again (``x-death``'s counts, a quorum queue's delivery count): a redelivery is the same
letter, and two messages differing in anything the producer or the broker wrote are not.
A message a re-drive published (``x-redriven-at``) that dead-letters again is a new failure,
not the dead letter it was re-driven from: its identity names that re-drive.

Re-drive. ``AmqpSink`` publishes each parcel (persistent, mandatory) with its origin's
identity as ``message_id``, so that a receiver can tell a second delivery, on a channel in
confirm mode. Publishes go out in a window and each confirm is matched to its message by
the delivery tag the broker numbers it with, so the sink knows exactly which the broker
took: a nack, a return (no queue bound) or a connection lost leaves those rows open with
why. Pika's BlockingConnection waits for each confirm in turn, about 1 ms a message with
the broker's disk flushes; the window lets one flush confirm many (``SelectConnection``,
driven only inside ``deliver``). At least once: a message the broker stored but had not
confirmed when the connection went is published again by the next re-drive, under the
same ``message_id``.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import pika
import pika.exceptions as px
from pika.adapters.blocking_connection import BlockingChannel, BlockingConnection
from pika.adapters.select_connection import SelectConnection
from pika.channel import Channel
from pika.spec import Basic, BasicProperties

from triage_app.core.bilingual import Said, both, said
from triage_app.core.clock import utcnow
from triage_app.core.connectors.letters import OutsideLetter, identity_of
from triage_app.core.connectors.origins import OriginInfo, not_imported
from triage_app.core.db import redact_text
from triage_app.core.deadletters import Parcel
from triage_app.core.errors import TriageError, classify_named, outside_error
from triage_app.core.locale_format import format_number
from triage_app.core.messages import N_, _
from triage_app.core.places import printable
from triage_app.core.vocabulary import ErrorClass

# Pika logs each lost connection at ERROR; with no handler of the app's, Python's last
# resort would print that beside the one line the desk says of it.
logging.getLogger("pika").addHandler(logging.NullHandler())

IDLE = 0.05  # seconds without a delivery before the queue is asked whether it is empty
STALL = 10.0  # seconds of messages ready that the broker gives this reader none of
MAX_PREFETCH = 65_535  # AMQP's prefetch count is a short
WINDOW = 2_000  # publishes awaiting their confirm at once
CONNECT_WAIT = 15.0  # seconds for a connection, its channel and confirm mode
CONFIRM_WAIT = 60.0  # seconds without a single confirm before the rest is given up
LOOK = 0.01  # seconds to read what the broker sent between two chunks
DEAD_LETTER_ID = "x-triage-dead-letter-id"
REDRIVEN_AT = "x-redriven-at"
REDRIVEN = " redriven "  # identity of a re-driven message that dead-lettered again
# Headers that say how a message died (the broker's, a republisher's): evidence, never
# published again with it. CC and BCC would route copies beyond the one routing key.
_DEATH_HEADERS = ("x-death", "x-exception-", "x-first-death-", "x-last-death-", "x-original-")
_NOT_REPUBLISHED = frozenset(
    {"x-error-class", "x-delivery-count", "x-acquired-count", "CC", "BCC", DEAD_LETTER_ID}
)
# Headers the broker changes each time it hands the same message out again.
_REDELIVERY_HEADERS = frozenset({"x-delivery-count", "x-acquired-count"})
# Message properties kept as evidence and published again (message_id becomes the identity;
# user_id is kept only as evidence: the broker refuses one that is not the publisher's own).
_PROPERTIES = (
    "content_type",
    "content_encoding",
    "correlation_id",
    "app_id",
    "type",
    "reply_to",
    "priority",
)


# -- addresses and errors -------------------------------------------------------------------


def _one_vhost(url: str) -> str:
    """``url`` with everything after the host as one percent-encoded vhost: pika reads only
    the first path segment, and a URL that went through the store's password keeping comes
    back with its ``%2F`` decoded (``amqp://host//``, ``amqp://host/orders/prod``)."""
    parts = urlsplit(url)
    if len(parts.path) <= 1:
        return url  # no vhost: pika's default, /
    vhost = quote(unquote(parts.path[1:]), safe="")
    return urlunsplit((parts.scheme, parts.netloc, "/" + vhost, parts.query, parts.fragment))


def _shown(url: str) -> str:
    return redact_text(_one_vhost(url))


def split_address(to: str) -> tuple[str, str, str]:
    """``amqp://user:pw@host:port/vhost/exchange/routing-key`` -> (the connection URL
    ``amqp://user:pw@host:port/vhost``, the exchange, the routing key), each segment
    percent-decoded (vhost ``%2F`` is ``/``; a ``/`` inside a name is written ``%2F``). An
    empty exchange segment (``/%2F//orders``) is the default exchange, which routes by queue
    name."""
    parts = urlsplit(to)
    segments = parts.path.split("/")[1:] if parts.path else []
    if parts.scheme not in ("amqp", "amqps") or len(segments) != 3 or not segments[2]:
        raise TriageError(
            both(
                N_(
                    "--to {url}: say amqp://host/vhost/exchange/routing-key (vhost %2F is /, "
                    "a / inside a name is %2F)"
                ),
                url=_shown(to),
            )
        )
    vhost, exchange, key = segments
    url = urlunsplit((parts.scheme, parts.netloc, "/" + vhost, parts.query, ""))
    return url, unquote(exchange), unquote(key)


def _destination(exchange: str, routing_key: str) -> str:
    return quote(exchange, safe="") + "/" + quote(routing_key, safe="")


def _target(destination: str | None) -> tuple[str, str] | None:
    if not destination or destination.count("/") != 1:
        return None
    exchange, key = destination.split("/")
    return unquote(exchange), unquote(key)


def _seconds(seconds: float) -> Said:
    """A wait, ``15 s`` or ``0.5 s``, as the language writes its number."""

    def number(lang: str | None) -> str:
        if seconds == int(seconds):
            return format_number(seconds, 0, lang)
        return format_number(seconds, 2, lang).rstrip("0")  # 0.50 -> 0.5 (a decimal stays)

    return said(lambda _, _n, lang: _("{seconds} s").format(seconds=number(lang)))


# What happened to the broker's messages and connections is said in the reader's language
# and kept in English: it is why a row was not delivered (an ``undelivered`` event, --json),
# or why an import stopped. What the broker or the network itself said stays as it said it.


def _why(exc: BaseException) -> str:
    """One line of what the broker or the network said, any password hidden."""
    if isinstance(exc, px.ProbableAuthenticationError | px.AuthenticationError):
        return both(N_("the broker refused the user name or password (ACCESS_REFUSED)"))
    if isinstance(exc, px.ChannelClosed | px.ConnectionClosed):
        text = f"{exc.reply_text} ({exc.reply_code})"
    else:
        # Pika's connection errors wrap the socket's own error, which says what happened:
        # in their arguments, as ``exception`` (a connector's phase error) or last of
        # ``exceptions`` (the whole workflow's).
        wrapped = [*exc.args, getattr(exc, "exception", None), *getattr(exc, "exceptions", ())[-1:]]
        inner = next((a for a in wrapped if isinstance(a, BaseException)), None)
        if inner is not None:
            return _why(inner)
        if isinstance(exc, OSError) and exc.strerror:
            text = exc.strerror
        else:
            text = str(exc) or type(exc).__name__
    return redact_text(" ".join(text.split()))[:300]


def _parameters(url: str, purpose: str) -> pika.URLParameters:
    try:
        params = pika.URLParameters(_one_vhost(url))
    except Exception as exc:  # pika refuses a malformed URL with whatever its parser raised
        raise TriageError(
            both(N_("not a broker address: {url} ({why})"), url=_shown(url), why=_why(exc))
        ) from None
    given = urlsplit(url).query
    # Bounded waits, unless the URL chose its own: an unreachable or blocked broker is said
    # in one line rather than waited for.
    if "socket_timeout" not in given:
        params.socket_timeout = 10
    if "blocked_connection_timeout" not in given:
        params.blocked_connection_timeout = 60
    params.client_properties = {"connection_name": f"triage-desk {purpose}"[:200]}
    return params


_BROKER_ERRORS = (px.AMQPError, OSError)


# -- a message as a letter -------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A header's value as JSON keeps it: text for bytes that are UTF-8 (a ``$base64``
    object for those that are not), ISO text for a timestamp, text for a decimal."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, bytes | bytearray):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return {"$base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return str(value)


def _restored(value: Any) -> Any:
    """A header's value from the evidence, as it is published again."""
    if isinstance(value, dict):
        if value.keys() == {"$base64"}:
            return base64.b64decode(value["$base64"])
        return {k: _restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_restored(v) for v in value]
    return value


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def _deaths(headers: Mapping[str, Any]) -> list[dict[str, Any]]:
    raw = headers.get("x-death")
    if not isinstance(raw, list):
        return []
    return [dict(d) for d in raw if isinstance(d, Mapping)]


def _naive_utc(value: Any) -> dt.datetime | None:
    if not isinstance(value, dt.datetime):
        return None
    when: dt.datetime = value
    if when.tzinfo is not None:
        when = when.astimezone(dt.UTC).replace(tzinfo=None)
    return when


def _properties_of(props: BasicProperties) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for name in ("message_id", *_PROPERTIES, "user_id"):
        value = getattr(props, name, None)
        if value is not None:
            kept[name] = _plain(value)
    if isinstance(props.timestamp, int):
        kept["timestamp"] = dt.datetime.fromtimestamp(props.timestamp, dt.UTC).isoformat()
    return kept


def _identity(body: bytes, headers: Mapping[str, Any], properties: Mapping[str, Any]) -> str:
    redriven = _text(headers.get(REDRIVEN_AT))
    message_id = properties.get("message_id")
    if message_id:
        # A re-driven message carries its dead letter's identity as its message id; when
        # it dead-letters again, that re-drive names the new failure.
        base = str(message_id).split(REDRIVEN, 1)[0]
        return base + (f"{REDRIVEN}{redriven}" if redriven else "")
    stable = {k: v for k, v in headers.items() if k not in _REDELIVERY_HEADERS}
    if "x-death" in stable:
        # The same message dying again in the same queue for the same reason only counts
        # up; the entries' order moves with it.
        entries = [{k: v for k, v in d.items() if k != "count"} for d in _deaths(headers)]
        stable["x-death"] = sorted(entries, key=lambda d: repr(sorted(d.items())))
    stable = {k: v for k, v in stable.items() if not k.startswith("x-last-death-")}
    return identity_of(body, {"headers": _plain(stable), "properties": properties})


def _error(
    headers: Mapping[str, Any], deaths: Sequence[Mapping[str, Any]]
) -> tuple[str, ErrorClass]:
    message = _text(headers.get("x-exception-message"))
    type_name = _text(headers.get("x-exception-fqcn") or headers.get("x-exception-class"))
    stated = _text(headers.get("x-error-class"))
    reason = _text(deaths[0].get("reason")) if deaths else None
    if message is None and not type_name and deaths:
        # No exception said: what the broker says of its death.
        message = f"dead-lettered from queue {_text(deaths[0].get('queue'))}: {reason}"
    error, name = outside_error(message, type_name)
    if not name and stated is None and reason in ("expired", "maxlen"):
        # Left too long in its queue, or pushed out of a full one: not the message's fault.
        return error, ErrorClass.TRANSIENT
    return error, classify_named(name, stated)


def _where(headers: Mapping[str, Any], deaths: Sequence[Mapping[str, Any]]) -> str | None:
    """Where the message was going when it died: the newest ``x-death`` entry's exchange and
    first routing key; else a republisher's ``x-original-exchange`` and
    ``x-original-routingKey``; else ``x-first-death-exchange`` when it is the default
    exchange, which routes by the queue's name (another exchange's key is not known)."""
    if deaths:
        exchange = _text(deaths[0].get("exchange"))
        keys = deaths[0].get("routing-keys")
        if exchange is not None and isinstance(keys, list) and keys:
            return _destination(exchange, _text(keys[0]) or "")
    exchange = _text(headers.get("x-original-exchange"))
    key = _text(headers.get("x-original-routingKey"))
    if exchange is not None and key is not None:
        return _destination(exchange, key)
    if _text(headers.get("x-first-death-exchange")) == "":
        queue = _text(headers.get("x-first-death-queue"))
        if queue:
            return _destination("", queue)
    return None


def _letter(body: bytes, props: BasicProperties, receipt: Any, queue: str) -> OutsideLetter:
    """The dead letter a message read from ``queue`` is (see the module's note)."""
    headers: Mapping[str, Any] = props.headers or {}
    deaths = _deaths(headers)
    properties = _properties_of(props)
    error, error_class = _error(headers, deaths)
    count = deaths[0].get("count") if deaths else None
    return OutsideLetter(
        identity=_identity(body, headers, properties),
        payload=body,
        error=error,
        error_class=error_class,
        attempts=count if isinstance(count, int) and count > 1 else 1,
        failed_at=_naive_utc(deaths[0].get("time")) if deaths else None,
        destination=_where(headers, deaths),
        evidence={"queue": queue, "headers": _plain(headers), "properties": properties},
        traceback=_text(headers.get("x-exception-stacktrace")),
        receipt=receipt,
    )


# -- the dead-letter queue -------------------------------------------------------------------


class AmqpQueue:
    """A RabbitMQ queue of dead letters, read as a ``DeadLetterSource``.

    A consumer with a prefetch window brings messages in; ``take`` gives them in the
    queue's order and ends (returns fewer, then none) only when the broker says the queue
    has none ready. Nothing is acked but what ``acknowledge`` is given; ``close`` closes
    the connection, and the broker gives the rest to the next reader. A connection lost is
    a TriageError (one line) from then on: the import stops, keeping what it committed."""

    def __init__(self, url: str, queue: str) -> None:
        self.url = url
        self.queue = queue
        self.name: str = both(N_("{queue} on {url}"), queue=printable(queue), url=_shown(url))
        self._conn: BlockingConnection | None = None
        self._channel: BlockingChannel | None = None
        self._buffer: deque[tuple[int, BasicProperties, bytes]] = deque()
        self._held: set[int] = set()  # delivery tags taken, not yet acknowledged
        self._consumer: str | None = None
        self._prefetch = 0
        self._arrived = 0
        self._broken: str | None = None
        with self._talking(both(N_("cannot read it"))):
            self._conn = BlockingConnection(_parameters(url, f"import {queue}"))
            self._channel = self._conn.channel()
            self._channel.queue_declare(queue, passive=True)

    @contextmanager
    def _talking(self, doing: str) -> Iterator[None]:
        if self._broken is not None:
            raise TriageError(self._broken)
        try:
            yield
        except _BROKER_ERRORS as exc:
            self._broken = both(
                N_("{source}: {doing}: {why}"), source=self.name, doing=doing, why=_why(exc)
            )
            self.close()
            raise TriageError(self._broken) from None

    def _on_message(
        self, _ch: BlockingChannel, method: Basic.Deliver, props: BasicProperties, body: bytes
    ) -> None:
        self._buffer.append((method.delivery_tag, props, body))
        self._arrived += 1

    def _consume(self, channel: BlockingChannel, needed: int, wanted: int) -> None:
        """A consumer whose prefetch lets at least ``needed`` messages be out at once, and
        ``wanted`` when it must be started again (RabbitMQ applies a new prefetch to the
        consumers started after it)."""
        if self._consumer is not None and self._prefetch >= needed:
            return
        if self._consumer is not None:
            channel.basic_cancel(self._consumer)
        self._prefetch = max(self._prefetch, min(MAX_PREFETCH, wanted))
        channel.basic_qos(prefetch_count=self._prefetch)
        self._consumer = channel.basic_consume(self.queue, self._on_message)

    def _empty(self, channel: BlockingChannel) -> bool:
        """Whether the queue has nothing ready. The consumer is cancelled first: the broker
        then sends nothing more, and pika gives back what was on its way (requeued), so the
        ready count counts every message this reader does not hold."""
        if self._consumer is not None:
            channel.basic_cancel(self._consumer)
            self._consumer = None
        ready = channel.queue_declare(self.queue, passive=True).method.message_count
        return int(ready) == 0

    def take(self, most: int) -> Sequence[OutsideLetter]:
        out: list[OutsideLetter] = []
        most = min(most, MAX_PREFETCH - len(self._held))
        if most <= 0:
            return out
        # Room for this take, and for the next while the import commits this one.
        needed, wanted = len(self._held) + most, len(self._held) + 2 * most
        quiet_since: float | None = None
        with self._talking(both(N_("reading stopped"))):
            conn, channel = self._conn, self._channel
            assert conn is not None and channel is not None
            while len(out) < most:
                while self._buffer and len(out) < most:
                    tag, props, body = self._buffer.popleft()
                    out.append(_letter(body, props, tag, self.queue))
                    self._held.add(tag)
                if len(out) >= most:
                    break
                self._consume(channel, needed, wanted)
                arrived = self._arrived
                conn.process_data_events(time_limit=IDLE)
                if self._arrived != arrived:
                    quiet_since = None
                    continue
                if self._empty(channel):
                    break
                # Ready, and none given: another consumer holds the queue (a single
                # active consumer's), or the broker is slow. Not "empty": say so.
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since > STALL:
                    if out:
                        break
                    raise TriageError(
                        both(
                            N_(
                                "{source}: the broker says messages are ready but gave this "
                                "reader none for {seconds} (is another consumer holding the "
                                "queue?)"
                            ),
                            source=self.name,
                            seconds=_seconds(STALL),
                        )
                    )
        return out

    def acknowledge(self, letters: Sequence[OutsideLetter]) -> None:
        if letters and self._broken is not None:
            raise TriageError(self._broken)
        tags = sorted({x.receipt for x in letters if x.receipt in self._held})
        if not tags:
            return
        with self._talking(both(N_("acknowledging failed"))):
            channel = self._channel
            assert channel is not None
            top = tags[-1]
            below = sum(1 for t in self._held if t <= top)
            after = not self._buffer or self._buffer[0][0] > top
            if below == len(tags) and after:
                channel.basic_ack(top, multiple=True)  # exactly these: one frame
            else:
                for tag in tags:
                    channel.basic_ack(tag)
            self._held.difference_update(tags)

    def close(self) -> None:
        conn, self._conn, self._channel, self._consumer = self._conn, None, None, None
        self._buffer.clear()
        self._held.clear()
        if conn is not None and conn.is_open:
            with suppress(*_BROKER_ERRORS):
                conn.close()  # the broker gives what was not acked to the next reader


# -- the sink --------------------------------------------------------------------------------

# (dead letter id, exchange, routing key, body, properties)
_Publish = tuple[int, str, str, bytes, BasicProperties]


class _Publisher:
    """One connection and one channel in confirm mode, on pika's SelectConnection, whose
    I/O loop runs only inside ``_run_until``: the callbacks below change the state, and
    stop the loop when what it waits for has come."""

    def __init__(self, url: str, shown: str) -> None:
        self.shown = shown
        self.lost: str | None = None
        self._ready = False
        self._channel: Any = None
        self._until: Callable[[], bool] | None = None
        self._exchanges: dict[str, str | None] = {"": None}  # name -> None, or why missing
        # One deliver's state: the publishes, how far they went, and what came back.
        self._plan: Sequence[_Publish] = ()
        self._sent = 0
        self._next_tag = 1
        self._waiting: dict[int, int] = {}  # delivery tag -> dead letter id, in tag order
        self._returned: dict[int, str] = {}
        self._settled: dict[int, str | None] = {}  # dead letter id -> None: confirmed
        self._progressed = 0.0  # when the last confirm came
        self._stalled: str | None = None
        self._closed = False
        try:
            self._conn = SelectConnection(
                _parameters(url, "re-drive"),
                on_open_callback=self._opened,
                on_open_error_callback=self._failed,
                on_close_callback=self._failed,
            )
        except _BROKER_ERRORS as exc:
            raise TriageError(_cannot_connect(shown, _why(exc))) from None
        self._loop = self._conn.ioloop
        if not self._run_until(lambda: self._ready or self.lost is not None, CONNECT_WAIT):
            self.lost = self.lost or both(
                N_("no answer within {seconds}"), seconds=_seconds(CONNECT_WAIT)
            )
        if not self._ready:
            why = self.lost
            self.close()
            raise TriageError(_cannot_connect(shown, why or ""))

    # The loop and its callbacks.

    def _run_until(self, done: Callable[[], bool], seconds: float) -> bool:
        if done():
            return True
        self._until = done
        timer = self._loop.call_later(seconds, self._loop.stop)
        deadline = time.monotonic() + seconds
        try:
            # A stop asked for outside the loop ends the next start at once: start again.
            while not done() and time.monotonic() < deadline:
                self._loop.start()
        finally:
            self._until = None
            self._loop.remove_timeout(timer)
        return done()

    def _poke(self) -> None:
        if self._until is not None and self._until():
            self._loop.stop()

    def _opened(self, conn: Any) -> None:
        conn.channel(on_open_callback=self._channel_opened)

    def _channel_opened(self, channel: Any) -> None:
        self._channel = channel
        channel.add_on_close_callback(self._failed)
        channel.add_on_return_callback(self._on_return)
        channel.confirm_delivery(self._on_confirm, callback=self._confirming)

    def _confirming(self, _frame: Any) -> None:
        self._ready = True
        self._poke()

    def _failed(self, what: Any, exc: BaseException | str) -> None:
        """The connection could not open, or it or the channel closed."""
        if self.lost is None:
            self.lost = exc if isinstance(exc, str) else _why(exc)
        if isinstance(what, Channel) and self._conn.is_open:
            self._conn.close()  # nothing to publish on: the connection goes too
        self._poke()

    def _on_return(self, _ch: Any, method: Basic.Return, props: BasicProperties, _b: bytes) -> None:
        # A return comes before the confirm of the same message; the header names it.
        dead_letter = (props.headers or {}).get(DEAD_LETTER_ID)
        if isinstance(dead_letter, int):
            self._returned[dead_letter] = both(
                N_("no queue is bound to exchange {exchange} with key {key} (returned)"),
                exchange=_named(method.exchange),
                key=printable(method.routing_key),
            )

    def _on_confirm(self, frame: Any) -> None:
        method = frame.method
        nack = isinstance(method, Basic.Nack)
        tag = method.delivery_tag
        tags = [tag]
        if method.multiple:  # the waiting tags are in order: a multiple confirm is a prefix
            tags = []
            for t in self._waiting:
                if t > tag:
                    break
                tags.append(t)
        self._progressed = time.monotonic()
        for t in tags:
            dead_letter = self._waiting.pop(t, None)
            if dead_letter is None:
                continue
            if nack:
                self._settled[dead_letter] = both(N_("the broker refused it (nack)"))
            else:
                self._settled[dead_letter] = self._returned.pop(dead_letter, None)
        self._fill()
        self._poke()

    def _fill(self) -> None:
        plan, channel = self._plan, self._channel
        while self._sent < len(plan) and len(self._waiting) < WINDOW and self.lost is None:
            dead_letter, exchange, key, body, props = plan[self._sent]
            channel.basic_publish(exchange, key, body, props, mandatory=True)
            self._waiting[self._next_tag] = dead_letter
            self._next_tag += 1
            self._sent += 1

    # What the sink asks.

    def still_there(self) -> bool:
        """Whether the connection is open, once what the broker sent since the last chunk is
        read: a broker restarted in between closed it (a Connection.Close, an EOF), and a
        chunk published to it would only be lost."""
        if self.lost is None:
            self._run_until(lambda: self.lost is not None, LOOK)
        return self.lost is None

    def missing_exchange(self, name: str) -> str | None:
        """Why ``name`` cannot take a message (no such exchange), or None. Asked once, on a
        channel of its own: the broker closes the channel a passive declare fails on."""
        if name in self._exchanges:
            return self._exchanges[name]
        answer: dict[str, str | None] = {}

        def opened(channel: Any) -> None:
            def closed(_ch: Any, exc: BaseException) -> None:
                answer.setdefault("why", _why(exc))
                self._poke()

            def found(_frame: Any) -> None:
                answer.setdefault("why", None)
                channel.close()
                self._poke()

            channel.add_on_close_callback(closed)
            channel.exchange_declare(name, passive=True, callback=found)

        self._conn.channel(on_open_callback=opened)
        if not self._run_until(lambda: "why" in answer or self.lost is not None, CONNECT_WAIT):
            self._give_up(
                both(
                    N_("no answer about exchange {exchange} within {seconds}"),
                    exchange=_named(name),
                    seconds=_seconds(CONNECT_WAIT),
                )
            )
        if self.lost is not None:
            return None  # the publish says the connection was lost
        why = answer["why"]
        self._exchanges[name] = (
            both(
                N_("the broker has no exchange {exchange} ({why})"), exchange=_named(name), why=why
            )
            if why
            else None
        )
        return self._exchanges[name]

    def publish(self, plan: Sequence[_Publish]) -> dict[int, str]:
        """Publish ``plan`` in order; the dead letters the broker did not confirm, each with
        why."""
        self._plan, self._sent = plan, 0
        self._waiting.clear()
        self._returned.clear()
        self._settled = {}
        self._progressed = time.monotonic()
        self._fill()

        def done() -> bool:
            return self.lost is not None or len(self._settled) == len(plan)

        while not self._run_until(done, CONFIRM_WAIT):
            if time.monotonic() - self._progressed >= CONFIRM_WAIT:
                self._give_up(
                    both(
                        N_("the broker did not confirm it within {seconds}"),
                        seconds=_seconds(CONFIRM_WAIT),
                    )
                )
        out = {i: why for i, why in self._settled.items() if why is not None}
        unconfirmed = self._stalled or both(
            N_("connection lost before the broker confirmed it: {why}"), why=self.lost
        )
        for dead_letter, *_rest in plan:
            if dead_letter not in self._settled:
                out[dead_letter] = unconfirmed
        self._plan = ()
        return out

    def _give_up(self, why: str) -> None:
        # Confirms that came later could not be told from the next chunk's: close.
        self._stalled = self.lost = why
        self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        conn = self._conn
        try:
            if not conn.is_closed and not conn.is_closing:
                conn.close()
            self._run_until(lambda: bool(conn.is_closed), 5.0)
        except _BROKER_ERRORS:
            pass
        finally:
            self._loop.close()  # its poller's and its wake-up pipe's descriptors


def _cannot_connect(shown: str, why: str) -> Said:
    return both(N_("{broker}: cannot connect: {why}"), broker=shown, why=why)


def _named(exchange: str) -> str:
    return printable(exchange) if exchange else both(N_("(default)"))


class AmqpSink:
    """Publishes re-driven dead letters to RabbitMQ (a ``KindSink``): to ``exchange`` with
    ``routing_key`` when given, else each where its message was going (its origin's
    destination). See the module's note for what a confirm means here."""

    def __init__(self, url: str, exchange: str | None = None, routing_key: str | None = None):
        if (exchange is None) != (routing_key is None):
            raise TriageError(_("a broker sink takes an exchange and a routing key, or neither"))
        self.url = url
        self.exchange = exchange
        self.routing_key = routing_key
        if exchange is not None and routing_key is not None:
            self.name: str = both(
                N_("{url} exchange {exchange} key {key}"),
                url=_shown(url),
                exchange=_named(exchange),
                key=printable(routing_key),
            )
        else:
            self.name = both(N_("{url} (where each came from)"), url=_shown(url))
        self._publisher: _Publisher | None = _Publisher(url, self.name)

    def _connected(self) -> _Publisher:
        """The publisher; after a lost connection, a new one (a TriageError when the
        broker cannot be reached: the re-drive stops, nothing of this chunk delivered)."""
        if self._publisher is not None and self._publisher.still_there():
            return self._publisher
        if self._publisher is not None:
            self._publisher.close()
            self._publisher = None
        self._publisher = _Publisher(self.url, self.name)
        return self._publisher

    def deliver(
        self, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> dict[int, str]:

        out: dict[int, str] = {}
        plan: list[_Publish] = []
        now = utcnow().isoformat(timespec="microseconds") + "Z"
        for p in parcels:
            origin = origins.get(p.id)
            if origin is None:
                out[p.id] = not_imported()
                continue
            if self.exchange is not None and self.routing_key is not None:
                target: tuple[str, str] | None = (self.exchange, self.routing_key)
            else:
                target = _target(origin.destination)
            if target is None:
                out[p.id] = both(
                    N_(
                        "where its message was going is not known (no x-death header): "
                        "re-drive it --to amqp://host/vhost/exchange/routing-key"
                    )
                )
                continue
            plan.append((p.id, *target, p.payload, _properties(p, origin, now)))
        if not plan:
            return out
        publisher = self._connected()
        ready: list[_Publish] = []
        for item in plan:
            why = publisher.missing_exchange(item[1])
            if why is not None:
                out[item[0]] = why
            else:
                ready.append(item)
        out.update(publisher.publish(ready))
        return out

    def close(self) -> None:
        if self._publisher is not None:
            self._publisher.close()
            self._publisher = None


def _properties(p: Parcel, origin: OriginInfo, now: str) -> BasicProperties:
    """The message's own properties and application headers again, less what says how it
    died; its dead letter's identity as ``message_id``; persistent."""
    evidence = origin.evidence
    kept = evidence.get("properties") or {}
    headers = {
        k: _restored(v)
        for k, v in (evidence.get("headers") or {}).items()
        if k not in _NOT_REPUBLISHED and not k.startswith(_DEATH_HEADERS) and k != REDRIVEN_AT
    }
    headers[DEAD_LETTER_ID] = p.id
    headers[REDRIVEN_AT] = now
    stamp = kept.get("timestamp")
    message_id = origin.identity
    if len(message_id.encode()) > 255:  # a short string on the wire
        message_id = identity_of(message_id.encode(), {})
    return BasicProperties(
        message_id=message_id,
        delivery_mode=2,
        headers=headers,
        timestamp=int(dt.datetime.fromisoformat(stamp).timestamp()) if stamp else None,
        **{name: kept[name] for name in _PROPERTIES if kept.get(name) is not None},
    )
