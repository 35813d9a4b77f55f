"""A dead letter as another pipeline's source gives it, and what a source is.

A source (a broker's dead-letter queue, a pipeline's own dead-letter table; later a Kafka
DLQ topic) yields ``OutsideLetter``s: the payload exactly as received, the error the
pipeline reported and its class, where the message was going, the evidence kept beside it
(headers, other columns), and an identity that is the same every time the same letter is
read again, so that importing twice never doubles a row (``importing.py``). A source is
told to ``acknowledge`` letters only once their dead letters are committed: a broker then
acks them, a table forgets nothing.

A Kafka DLQ topic fits as it is: its identity is ``topic/partition/offset`` of the DLQ
record, its destination ``x-original-topic`` (and partition), its evidence the headers
``x-exception-message``, ``x-exception-stacktrace``, ``x-original-offset``; acknowledging
commits the consumer group's offset.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from triage_app.core.vocabulary import ErrorClass

IDENTITY_LENGTH = 200  # the store's column (models.Origin.identity)


@dataclass(frozen=True)
class OutsideLetter:
    """One dead letter another pipeline made, as its source gives it."""

    identity: str  # the same on every read of the same letter: a message id, a table's key
    payload: bytes  # byte-exact, as received
    error: str  # one line, ``Type: message`` where the type is known (errors.outside_error)
    error_class: ErrorClass
    attempts: int = 1
    failed_at: dt.datetime | None = None  # when the pipeline failed it, if it says
    destination: str | None = None  # where it was going: exchange/routing key, a topic
    evidence: Mapping[str, Any] = field(default_factory=dict)  # JSON-able: headers, columns
    traceback: str | None = None  # a stack trace the pipeline kept (x-exception-stacktrace)
    # The source's own handle for acknowledging it (a delivery tag); never stored.
    receipt: Any = field(default=None, compare=False, repr=False)


class DeadLetterSource(Protocol):
    """Where an import reads dead letters from."""

    name: str  # for people: "orders.dlq on amqp://127.0.0.1/%2F"

    def take(self, most: int) -> Sequence[OutsideLetter]:
        """Up to ``most`` letters not yet acknowledged, in the source's order; none when
        none is waiting. Raises TriageError (one line) when the source is unreachable."""
        ...

    def acknowledge(self, letters: Sequence[OutsideLetter]) -> None:
        """The letters' dead letters are committed: the source may let them go."""
        ...

    def close(self) -> None:
        """Give back what is taken and not acknowledged (a broker redelivers it later)."""
        ...


def identity_of(payload: bytes, evidence: Mapping[str, Any]) -> str:
    """An identity for a letter its source gave none (a message without a message id): the
    SHA-256 of its bytes and its evidence, so the same letter read again has the same one
    and two letters that differ in anything do not."""
    digest = hashlib.sha256(payload)
    digest.update(b"\0")
    digest.update(orjson.dumps(evidence, option=orjson.OPT_SORT_KEYS, default=str))
    return "sha256:" + digest.hexdigest()


def bounded_identity(identity: str) -> str:
    """An identity that fits the store's column: a longer one is kept by its hash."""
    if len(identity) <= IDENTITY_LENGTH:
        return identity
    return "sha256:" + hashlib.sha256(identity.encode()).hexdigest()
