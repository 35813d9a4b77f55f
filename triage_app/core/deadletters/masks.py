"""The store's masked copies of personal data (issue 27; the pure masking is
``core/masking.py``): what a dead letter's transform declares personal and the header its
CSV rows are read by, the masked copies kept beside each payload
(``dead_letters.masked_original``, ``masked_payload``: NULL when there is nothing to
mask; ``mask_refresh.py`` fills them for rows stored before), and the
audited reveal of one row's real values."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, select

from triage_app.core.clock import utcnow
from triage_app.core.db import (
    Act,
    Batch,
    DeadLetter,
    Workspace,
    actor_for,
    event_insert,
    require,
)
from triage_app.core.errors import TriageError
from triage_app.core.masking import mask_payload, mask_text, personal_values
from triage_app.core.messages import _
from triage_app.core.transforms import personal_fields_of
from triage_app.core.vocabulary import AuditAction, PayloadKind


@dataclass(frozen=True)
class MaskContext:
    """How one dead letter's payloads are masked: its transform's personal fields and, for
    a CSV row, its batch's header."""

    fields: tuple[str, ...] = ()
    csv_header: bytes | None = None

    def mask(self, data: bytes | None, kind: str) -> bytes | None:
        if not self.fields or data is None:
            return None
        return mask_payload(bytes(data), kind, self.fields, self.csv_header)

    def shown(self, data: bytes, kind: str) -> bytes:
        """``data`` as a person may see it: masked, or as it is when nothing is personal."""
        masked = self.mask(data, kind)
        return bytes(data) if masked is None else masked

    def mask_error(self, text: str, data: bytes | None, kind: str) -> str:
        if not self.fields or not data:
            return text
        return mask_text(text, personal_values(bytes(data), kind, self.fields, self.csv_header))


NOTHING = MaskContext()


def guess_kind(data: bytes, kind: str) -> str:
    """The kind of a payload kept beside a row (an edit's replaced payload): JSON when it
    looks like JSON, else the row's own (a raw CSV row)."""
    if kind != PayloadKind.CSV:
        return kind
    return PayloadKind.JSON.value if bytes(data).lstrip()[:1] in (b"{", b"[") else kind


def contexts(conn: Connection, rows: Iterable[tuple[int, str, str]]) -> dict[int, MaskContext]:
    """By id, each row's context; ``rows``: (id, transform, batch id). A batch's header is
    read only for rows whose transform has personal fields."""
    out: dict[int, MaskContext] = {}
    want: dict[int, tuple[tuple[str, ...], str]] = {}
    for dl_id, transform, batch_id in rows:
        fields = personal_fields_of(transform)
        if fields:
            want[dl_id] = (fields, batch_id)
    headers = batch_headers(conn, {b for _f, b in want.values()})
    for dl_id, (fields, batch_id) in want.items():
        out[dl_id] = MaskContext(fields, headers.get(batch_id))
    return out


def mask_contexts(ws: Workspace, rows: Iterable[tuple[int, str, str]]) -> dict[int, MaskContext]:
    """``contexts`` on a workspace's store: for readers outside this package (exports)."""
    with ws.store.connect() as conn:
        return contexts(conn, rows)


def batch_headers(conn: Connection, batch_ids: Iterable[str]) -> dict[str, bytes]:
    ids = sorted(set(batch_ids))
    out: dict[str, bytes] = {}
    for start in range(0, len(ids), 900):
        stmt = select(Batch.batch_id, Batch.csv_header).where(
            Batch.batch_id.in_(ids[start : start + 900]), Batch.csv_header.is_not(None)
        )
        out.update({r.batch_id: bytes(r.csv_header) for r in conn.execute(stmt)})
    return out


def context_of(conn: Connection, dl_id: int) -> MaskContext:
    row = conn.execute(
        select(DeadLetter.transform, DeadLetter.batch_id).where(DeadLetter.id == dl_id)
    ).first()
    if row is None:
        return NOTHING
    return contexts(conn, [(dl_id, row.transform, row.batch_id)]).get(dl_id, NOTHING)


def masked_working(
    conn: Connection, payloads: Sequence[tuple[bytes | None, str, int]]
) -> list[bytes | None]:
    """For each (new working payload, its kind, id) the masked copy ``masked_payload``
    keeps: NULL where the payload is the original (NULL) or has nothing to mask."""
    ids = [i for p, _k, i in payloads if p is not None]
    if not ids:
        return [None] * len(payloads)
    found: list[tuple[int, str, str]] = []
    for start in range(0, len(ids), 900):
        stmt = select(DeadLetter.id, DeadLetter.transform, DeadLetter.batch_id).where(
            DeadLetter.id.in_(ids[start : start + 900])
        )
        found.extend((r.id, r.transform, r.batch_id) for r in conn.execute(stmt))
    ctx = contexts(conn, found)
    return [ctx.get(i, NOTHING).mask(p, k) for p, k, i in payloads]


@dataclass(frozen=True)
class Revealed:
    """What a reveal showed, and the event that records it."""

    dead_letter_id: int
    fields: tuple[str, ...]


def reveal(ws: Workspace, dl_id: int, *, actor: str | None = None) -> Revealed:
    """Record that ``actor`` is shown dead letter ``dl_id``'s personal fields unmasked: an
    audit event ``revealed`` naming the fields. Allowed by role (``Act.REVEAL``: steward or
    lead); a viewer is refused in one line (``NotAllowed``)."""
    require(ws.store, Act.REVEAL)
    actor = actor or actor_for(ws.store)
    with ws.store.begin() as conn:
        ctx = context_of(conn, dl_id)
        row = conn.execute(select(DeadLetter.id).where(DeadLetter.id == dl_id)).first()
        if row is None:
            raise TriageError(_("no dead letter with id {id}").format(id=dl_id))
        fields = ctx.fields
        detail = (  # stored: in English, for every reader
            f"shown unmasked: {', '.join(fields)}"
            if fields
            else "shown unmasked (its transform declares no personal field)"
        )
        conn.execute(
            event_insert(),
            {
                "dead_letter_id": dl_id,
                "at": utcnow(),
                "actor": actor,
                "action": AuditAction.REVEALED.value,
                "detail": detail,
                "version": None,
                "replaced_payload": None,
            },
        )
    return Revealed(dl_id, fields)
