"""Reading dead letters: the views that leave this package (frozen dataclasses of plain
values, so they can cross threads), lists and counts by filter, and one dead letter in
full with its history. Everything works in SQL on indexed columns; nothing loads the
whole store."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import orjson
from sqlalchemy import func, select

from triage_app.core.clock import iso
from triage_app.core.db import (
    Batch,
    DeadLetter,
    DeadLetterCount,
    ErrorGroupNotes,
    Traceback,
    Workspace,
    shown_error,
    shown_payload,
    signature_text,
)
from triage_app.core.deadletters import expanded_events, masks
from triage_app.core.deadletters.filters import (
    DeadLetterFilter,
    cell_clauses,
    filtered,
    order_clause,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.vocabulary import WAITING, BatchState, PayloadKind
from triage_app.core.vocabulary import original_kind as vocab_original_kind


@dataclass(frozen=True)
class DeadLetterView:
    id: int
    batch_id: str
    line: int
    payload: str  # the working payload as text; undecodable bytes escaped
    error: str
    error_class: str
    signature: str
    attempts: int
    status: str
    transform: str
    first_failed_at: str
    last_failed_at: str
    payload_kind: str = field(default=PayloadKind.JSONL)
    version: int = 1  # what a guarded change must name (deadletters/transitions.py)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("payload_kind")
        return d


@dataclass(frozen=True)
class AuditEntry:
    at: str
    actor: str
    action: str
    detail: str
    version: int | None = None  # the row's version after the change
    replaced_payload: str | None = None  # an edit's: the payload it replaced, recoverable

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        if d["replaced_payload"] is None:
            d.pop("replaced_payload")
        return d


@dataclass(frozen=True)
class DeadLetterDetail(DeadLetterView):
    original_payload: str = ""
    original_bytes: bytes = b""
    payload_bytes: bytes = b""
    traceback: str | None = None
    csv_header: str | None = None
    events: tuple[AuditEntry, ...] = ()
    # Its error group's owner, tags and note (the team backlog): whom to ask before fixing.
    group_owner: str | None = None
    group_tags: tuple[str, ...] = ()
    group_note: str = ""
    # Its batch, when all or nothing and held (issue 25): the healthy rows waiting with it
    # and the dead letters of it still waiting (this one among them).
    batch_state: str = ""
    batch_held: int = 0
    batch_waiting: int = 0
    # Personal data (issue 27): the fields its transform declares personal, and whether
    # this detail shows them unmasked (after an audited reveal) or masked.
    personal_fields: tuple[str, ...] = ()
    revealed: bool = False

    @property
    def masked(self) -> bool:
        """Whether a personal field of it is shown masked (Reveal would show it)."""
        return bool(self.personal_fields) and not self.revealed

    def held_note(self) -> str:
        """What a steward must know of a dead letter of a held batch, in one sentence."""
        if self.batch_state != BatchState.HELD:
            return ""
        rows = ngettext(
            "{n} row waits with it until every dead letter of it is fixed",
            "{n} rows wait with it until every dead letter of it is fixed",
            self.batch_held,
        ).format(n=format_int(self.batch_held))
        waiting = ngettext(
            "{n} dead letter still waiting", "{n} dead letters still waiting", self.batch_waiting
        ).format(n=format_int(self.batch_waiting))
        return _(
            "All or nothing: batch {batch} is held. {rows} ({waiting}); then load the whole "
            "batch at once (Re-drive > Load the whole batch…). Its rows are never re-driven "
            "or discarded one by one."
        ).format(batch=self.batch_id, rows=rows, waiting=waiting)

    def to_json(self) -> dict[str, Any]:
        d = super().to_json()
        for k in ("original_bytes", "payload_bytes", "csv_header"):
            d.pop(k)
        d["events"] = [e.to_json() for e in self.events]
        d["group_tags"] = list(self.group_tags)
        d["personal_fields"] = list(self.personal_fields)
        return d


def not_found(ids: list[int]) -> TriageError:
    """The refusal for ids that name no dead letter (the first ten of them)."""
    return TriageError(_("no dead letter with id {ids}").format(ids=", ".join(map(str, ids[:10]))))


def payload_text(raw: bytes) -> str:
    """Bytes as text for people: valid UTF-8 as is, anything else escaped (\\xNN)."""
    return raw.decode("utf-8", errors="backslashreplace")


_LIST_COLUMNS = (
    DeadLetter.id,
    DeadLetter.batch_id,
    DeadLetter.line,
    # Personal fields masked (issue 27): a list never shows them.
    shown_payload().label("payload"),
    shown_error().label("error"),
    DeadLetter.error_class,
    signature_text().label("signature"),
    DeadLetter.attempts,
    DeadLetter.status,
    DeadLetter.transform,
    DeadLetter.first_failed_at,
    DeadLetter.last_failed_at,
    DeadLetter.payload_kind,
    DeadLetter.version,
)


def _view(r: Any, payload: bytes | None = None, error: str | None = None) -> DeadLetterView:
    return DeadLetterView(
        id=r.id,
        batch_id=r.batch_id,
        line=r.line,
        payload=payload_text(r.payload if payload is None else payload),
        error=r.error if error is None else error,
        error_class=r.error_class,
        signature=r.signature,
        attempts=r.attempts,
        status=r.status,
        transform=r.transform,
        first_failed_at=iso(r.first_failed_at),
        last_failed_at=iso(r.last_failed_at),
        payload_kind=r.payload_kind,
        version=r.version,
    )


def list_dead_letters(
    ws: Workspace,
    f: DeadLetterFilter | None = None,
    *,
    limit: int | None = 100,
    offset: int = 0,
    sort: str = "id",
    descending: bool = False,
) -> list[DeadLetterView]:
    stmt = filtered(select(*_LIST_COLUMNS), f or DeadLetterFilter())
    stmt = stmt.order_by(*order_clause(sort, descending)).offset(offset)
    if limit is not None:
        stmt = stmt.limit(limit)
    with ws.store.connect() as conn:
        return [_view(r) for r in conn.execute(stmt)]


def count_dead_letters(ws: Workspace, f: DeadLetterFilter | None = None) -> int:
    """How many dead letters ``f`` matches: summed from the summary's cells when they can
    answer it (every filter but a search or ids), which costs as many cells as match, not
    rows (the window asks at every filter change: millions of rows took seconds)."""
    f = f or DeadLetterFilter()
    on_cells = cell_clauses(f)
    with ws.store.connect() as conn:
        if on_cells is not None:
            n = select(func.coalesce(func.sum(DeadLetterCount.n), 0)).where(*on_cells)
            return int(conn.execute(n).scalar_one())
        return int(
            conn.execute(filtered(select(func.count()).select_from(DeadLetter), f)).scalar_one()
        )


# The largest LIMIT or OFFSET either database takes (a signed 64-bit integer).
MAX_ROWS = 2**63 - 1


@dataclass(frozen=True)
class DeadLetterPage:
    """One page of a list, and how many matching rows follow it."""

    views: tuple[DeadLetterView, ...]
    offset: int
    more: int  # matching rows after this page; 0 when this is the last

    @property
    def next_offset(self) -> int:
        return self.offset + len(self.views)


def page_of_dead_letters(
    ws: Workspace, f: DeadLetterFilter | None = None, *, limit: int = 100, offset: int = 0
) -> DeadLetterPage:
    """``limit`` matching dead letters from ``offset`` on (by id), and how many more match.
    The count walks every match, so it runs only when the page is full and one row more
    was found; a last page costs one query."""
    if limit < 1 or offset < 0:
        raise TriageError(
            _("a page needs limit >= 1 and offset >= 0, not {limit} and {offset}").format(
                limit=limit, offset=offset
            )
        )
    views = list_dead_letters(ws, f, limit=min(limit + 1, MAX_ROWS), offset=offset)
    if len(views) <= limit:
        return DeadLetterPage(tuple(views), offset, 0)
    total = count_dead_letters(ws, f)
    # Rows may come or go between the two reads; one more row was seen, so say so.
    return DeadLetterPage(tuple(views[:limit]), offset, max(total - offset - limit, 1))


def matching_ids(ws: Workspace, f: DeadLetterFilter) -> list[int]:
    stmt = filtered(select(DeadLetter.id), f).order_by(DeadLetter.id)
    with ws.store.connect() as conn:
        return list(conn.execute(stmt).scalars())


def reveal_dead_letter(ws: Workspace, dl_id: int, actor: str | None = None) -> DeadLetterDetail:
    """Dead letter ``dl_id`` with its personal fields unmasked: an explicit, audited act
    (``masks.reveal``: a ``revealed`` event naming the fields, refused to a viewer)."""
    masks.reveal(ws, dl_id, actor=actor)
    return get_dead_letter(ws, dl_id, reveal=True)


def get_dead_letter(ws: Workspace, dl_id: int, *, reveal: bool = False) -> DeadLetterDetail:
    """Dead letter ``dl_id`` in full, its personal fields masked (payloads, the error, the
    payloads its edits replaced). ``reveal``: unmasked, for ``reveal_dead_letter`` only,
    which audits it."""
    with ws.store.connect() as conn:
        dl = conn.execute(
            select(DeadLetter.__table__, signature_text().label("signature")).where(
                DeadLetter.id == dl_id
            )
        ).one_or_none()
        if dl is None:
            raise not_found([dl_id])
        trace = (
            None
            if dl.traceback_id is None
            else conn.execute(
                select(Traceback.text).where(Traceback.id == dl.traceback_id)
            ).scalar_one_or_none()
        )
        batch = conn.execute(
            select(Batch.csv_header, Batch.state, Batch.held).where(Batch.batch_id == dl.batch_id)
        ).one_or_none()
        header = batch.csv_header if batch is not None else None
        state = batch.state if batch is not None else ""
        waiting = 0
        if state == BatchState.HELD:
            waiting = int(
                conn.execute(
                    select(func.count())
                    .select_from(DeadLetter)
                    .where(
                        DeadLetter.batch_id == dl.batch_id,
                        DeadLetter.status.in_([s.value for s in WAITING]),
                    )
                ).scalar_one()
            )
        # Stored and those its batch and re-drive stand for, oldest first.
        events = expanded_events.row_events(conn, dl_id)
        ctx = masks.contexts(conn, [(dl_id, dl.transform, dl.batch_id)]).get(dl_id, masks.NOTHING)
        notes = ErrorGroupNotes
        group = conn.execute(
            select(notes.owner, notes.tags, notes.note).where(notes.signature_id == dl.signature_id)
        ).first()
    # Never edited: the original is the working copy.
    working = dl.original_payload if dl.payload is None else dl.payload
    original = bytes(dl.original_payload)
    error = dl.signature if dl.error is None else dl.error
    kind = dl.payload_kind
    original_kind = vocab_original_kind(kind).value

    def replaced(p: bytes | None) -> str | None:
        if p is None:
            return None
        return payload_text(p if reveal else ctx.shown(p, masks.guess_kind(p, original_kind)))

    if not reveal and ctx.fields:
        # Stored masked where the store kept a copy; masked here too for rows from before
        # (refresh_masks fills them), so nothing reaches a person unmasked.
        error = ctx.mask_error(ctx.mask_error(error, working, kind), original, original_kind)
        working = (
            dl.masked_payload
            or (ctx.shown(working, kind) if dl.payload is not None else None)
            or dl.masked_original
            or ctx.shown(original, original_kind)
        )
        original = bytes(dl.masked_original or ctx.shown(original, original_kind))
    base = _view(dl, working, error)
    return DeadLetterDetail(
        **{k: getattr(base, k) for k in base.__dataclass_fields__},
        original_payload=payload_text(original),
        original_bytes=bytes(original),
        payload_bytes=bytes(working),
        personal_fields=ctx.fields,
        revealed=reveal,
        traceback=trace,
        csv_header=payload_text(header) if header is not None else None,
        batch_state=state,
        batch_held=int(batch.held) if batch is not None else 0,
        batch_waiting=waiting,
        events=tuple(
            AuditEntry(
                iso(e.at),
                e.actor,
                e.action,
                e.detail,
                e.version,
                replaced(e.replaced_payload),
            )
            for e in events
        ),
        group_owner=group.owner if group is not None else None,
        group_tags=tuple(orjson.loads(group.tags)) if group is not None else (),
        group_note=(group.note or "") if group is not None else "",
    )
