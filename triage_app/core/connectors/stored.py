"""Connectors kept in the store: each dead-letter queue or table the team imports from,
by a name every steward's desk shares. Its address is kept without its password; the
password is in the keyring of the desk that typed it (``db.remember_password``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import insert, select

from triage_app.core.bilingual import both
from triage_app.core.clock import utcnow
from triage_app.core.db import (
    Connector as ConnectorRow,
)
from triage_app.core.db import (
    Workspace,
    actor_for,
    complete_url,
    recall_password,
    redact_url,
    remember_password,
    split_password,
)
from triage_app.core.errors import TriageError
from triage_app.core.messages import N_, _
from triage_app.core.places import printable

AMQP = "amqp"
TABLE = "table"
KINDS = (AMQP, TABLE)
NAME_LENGTH = 200  # the store's column
FILES_WORD = "files"  # the Source filter's word for the desk's own batches (deadletters.FILES)
# What a table connector's mapping names: the table's column for each (id and payload
# required), and the sample mapping, seed 000's own dead_letter table.
MAPPING_FIELDS = ("id", "payload", "error", "class", "attempts", "time", "line")
SEED_000: dict[str, Any] = {
    "table": "dead_letter",
    "columns": {
        "id": "dl_id",
        "payload": "payload",
        "error": "galat",
        "class": "kelas",
        "attempts": "percobaan",
        "time": None,
        "line": "baris",
    },
}


@dataclass(frozen=True)
class Connector:
    """A dead-letter queue or table as the store keeps it."""

    id: int
    name: str
    kind: str  # AMQP or TABLE
    address: str  # the URL, its password hidden
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """What its dead letters name as their transform (what failed them): the pipeline
        behind this queue or table, which the desk does not run (``amqp:orders.dlq``)."""
        return f"{self.kind}:{self.name}"[:100]

    def short(self) -> str:
        """Its name and what it reads, without its address (a batch's source name: stored,
        so in English)."""
        what = self.options.get("queue") or self.options.get("table") or ""
        noun = "queue" if self.kind == AMQP else "table"
        return self.name if what == self.name else f"{self.name} ({noun} {what})"

    def describe(self) -> str:
        """``orders.dlq (amqp orders.dlq at amqp://host/%2F)``: shown, and kept in an import's
        event (a ``Said``: its English)."""
        what = self.options.get("queue") or self.options.get("table") or ""
        return both(
            N_("{name} ({kind} {what} at {address})"),
            name=self.name,
            kind=self.kind,
            what=what,
            address=redact_url(self.address),
        )

    def url(self, typed: str | None = None) -> str:
        """The URL to connect with: ``typed`` (a URL with its password, as given on the
        command line) when given, else the address with the password from the keyring."""
        if typed:
            return typed
        return complete_url(self.address, recall_password(self.address))


def _from_row(row: Any) -> Connector:
    return Connector(int(row.id), row.name, row.kind, row.address, orjson.loads(row.options))


def list_connectors(ws: Workspace) -> list[Connector]:
    with ws.store.connect() as conn:
        rows = conn.execute(select(ConnectorRow.__table__).order_by(ConnectorRow.name)).all()
    return [_from_row(r) for r in rows]


def connector_named(ws: Workspace, given: str) -> Connector:
    """The connector named ``given`` (or of that id); one line when there is none."""
    c = ConnectorRow
    text = str(given).strip()
    with ws.store.connect() as conn:
        row = conn.execute(select(c.__table__).where(c.name == text)).one_or_none()
        if row is None and text.isdigit():
            row = conn.execute(select(c.__table__).where(c.id == int(text))).one_or_none()
    if row is None:
        raise TriageError(
            _("no connector {name}: see `triage-app connectors`").format(name=printable(text)[:60])
        )
    return _from_row(row)


def keep_connector(
    ws: Workspace,
    kind: str,
    url: str,
    options: Mapping[str, Any],
    name: str | None = None,
    actor: str | None = None,
) -> Connector:
    """The connector for ``url`` and ``options`` (the queue; the table and its mapping):
    the one kept already, or a new one named ``name`` (default: the queue's or table's
    name). The password ``url`` carries goes to the keyring, never to the store."""
    if kind not in KINDS:
        raise TriageError(
            _("unknown connector kind {kind}: one of {kinds}").format(
                kind=printable(kind)[:20], kinds=KINDS
            )
        )
    hidden, password = split_password(url)
    if password:
        remember_password(url)
    wanted = dict(options)
    default = str(wanted.get("queue") or wanted.get("table") or kind)
    chosen = (name or default).strip()[:NAME_LENGTH]
    if not chosen:
        raise TriageError(_("a connector needs a name"))
    if chosen == FILES_WORD:
        raise TriageError(
            _(
                "{files} names the desk's own batches in the Source filter: give the "
                "connector another name (--name)"
            ).format(files=repr(FILES_WORD))
        )
    c = ConnectorRow
    with ws.store.begin() as conn:
        for row in conn.execute(select(c.__table__).where(c.kind == kind)).all():
            kept = _from_row(row)
            same = kept.address == hidden and dict(kept.options) == wanted
            if same and (name is None or kept.name == chosen):
                return kept
        taken = conn.execute(select(c.id).where(c.name == chosen)).first()
        if taken is not None:
            raise TriageError(
                _(
                    "a connector named {name} exists with another address or "
                    "options: give another name (--name)"
                ).format(name=printable(chosen)[:60])
            )
        new_id = conn.execute(
            insert(c)
            .values(
                name=chosen,
                kind=kind,
                address=hidden,
                options=orjson.dumps(wanted, option=orjson.OPT_SORT_KEYS).decode(),
                created_at=utcnow(),
                created_by=actor or actor_for(conn),
            )
            .returning(c.id)
        ).scalar_one()
    return Connector(int(new_id), chosen, kind, hidden, wanted)
