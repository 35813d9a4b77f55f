"""A connector's source and sink, by its kind: the one place that knows which module reads
which kind, so the command line and the window never do. Each kind's module (and its
driver: pika, a database's) loads only when a connector of that kind is used."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from triage_app.core.bilingual import Said, both, reason_of
from triage_app.core.connectors.letters import DeadLetterSource
from triage_app.core.connectors.origins import OriginInfo, not_imported, origins_of
from triage_app.core.connectors.stored import AMQP, TABLE, Connector, connector_named
from triage_app.core.db import Workspace, redact_url
from triage_app.core.deadletters import Parcel
from triage_app.core.errors import TriageError
from triage_app.core.messages import N_
from triage_app.core.transforms import Transform


class KindSink(Protocol):
    """A sink of one kind: like ``deadletters.Sink``, told each parcel's origin."""

    name: str

    def deliver(
        self, parcels: Sequence[Parcel], origins: Mapping[int, OriginInfo]
    ) -> dict[int, str]: ...

    def close(self) -> None: ...


def open_source(connector: Connector, url: str | None = None) -> DeadLetterSource:
    """The source to import ``connector``'s dead letters from (``url``: as typed, with its
    password; else the address with the keyring's)."""
    if connector.kind == AMQP:
        from triage_app.core.connectors.amqp import AmqpQueue

        return AmqpQueue(connector.url(url), str(connector.options["queue"]))
    if connector.kind == TABLE:
        from triage_app.core.connectors.tables import DeadLetterTableSource

        return DeadLetterTableSource(connector.url(url), connector.options)
    raise TriageError(_unknown_kind(connector))


def _unknown_kind(connector: Connector) -> Said:
    return both(
        N_("connector {name} has an unknown kind {kind}"), name=connector.name, kind=connector.kind
    )


def _kind_sink(connector: Connector, url: str | None, transform: Transform | None) -> KindSink:
    if connector.kind == AMQP:
        from triage_app.core.connectors.amqp import AmqpSink

        return AmqpSink(connector.url(url))
    if connector.kind == TABLE:
        from triage_app.core.connectors.tables import TableSink

        if transform is None:
            # A reason a row is not delivered (kept, in English: said.py), as is every
            # refusal a sink is made with.
            raise TriageError(
                both(
                    N_(
                        "a table sink takes rows: choose the transform version to write them "
                        "with (--with)"
                    )
                )
            )
        return TableSink(connector.url(url), connector.options, transform)
    raise TriageError(_unknown_kind(connector))


@dataclass
class RoutedSink:
    """``deadletters.Sink`` for imported dead letters: each parcel goes back where its
    connector's letters go (``to`` "original": the exchange and routing key each came
    with, or the connector's table), or all to one broker address (``to`` an
    ``amqp://host/vhost/exchange/routing-key`` URL). A parcel with no origin (a batch's own
    row) is not delivered, and says why."""

    ws: Workspace
    to: str
    transform: Transform | None = None
    url: str | None = None  # the connector's URL as typed, with its password
    name: str = ""
    _open: dict[int, KindSink] = field(default_factory=dict)
    _connectors: dict[int, Connector] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name:
            self.name = (
                both(N_("where each came from")) if self.to == "original" else redact_url(self.to)
            )

    def deliver(self, parcels: Sequence[Parcel]) -> dict[int, str]:
        origins = origins_of(self.ws, [p.id for p in parcels])
        out: dict[int, str] = {}
        by_sink: dict[int, list[Parcel]] = {}
        for p in parcels:
            o = origins.get(p.id)
            if o is None:
                out[p.id] = not_imported()
                continue
            by_sink.setdefault(o.connector_id, []).append(p)
        # One connector's sink failing whole (its broker unreachable) must not cost the rows
        # another one confirmed in this chunk: its rows stay open with why. Only when
        # nothing at all was delivered does the failure stop the re-drive, in one line.
        stopped: TriageError | None = None
        delivered = 0
        for connector_id, mine in by_sink.items():
            try:
                sink = self._sink(connector_id)
            except TriageError as exc:  # it cannot be made (a table sink with no version)
                why = reason_of(exc)
                out.update({p.id: why for p in mine})
                continue
            try:
                refused = sink.deliver(mine, origins)
            except TriageError as exc:
                stopped = stopped or exc
                why = reason_of(exc)
                out.update({p.id: why for p in mine})
                continue
            delivered += len(mine) - len(refused)
            out.update(refused)
        if stopped is not None and not delivered:
            raise stopped
        return out

    def _sink(self, connector_id: int) -> KindSink:
        if connector_id in self._open:
            return self._open[connector_id]
        connector = self._connectors.get(connector_id) or connector_named(
            self.ws, str(connector_id)
        )
        if self.to == "original":
            sink = _kind_sink(connector, self.url, self.transform)
        elif self.to.startswith(("amqp://", "amqps://")):
            from triage_app.core.connectors.amqp import AmqpSink, split_address

            address, exchange, routing_key = split_address(self.to)
            sink = AmqpSink(address, exchange, routing_key)
        else:
            raise TriageError(
                both(
                    N_("--to {url}: say original, or amqp://host/vhost/exchange/routing-key"),
                    url=redact_url(self.to),
                )
            )
        self._open[connector_id] = sink
        return sink

    def close(self) -> None:
        for sink in self._open.values():
            sink.close()
        self._open.clear()
