"""Reading and changing dead letters: filters, views, audited edits and status changes.

Everything here works in SQL on indexed columns; nothing loads the whole store. Values
leave this module as frozen dataclasses, never ORM objects, so they can cross threads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, TypeVar

import orjson
from sqlalchemy import Select, and_, func, insert, or_, select, update
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import ColumnElement, FunctionElement
from sqlalchemy.types import Boolean

from triage_app.core.crashpoints import crash_point
from triage_app.core.errors import ErrorClass, TriageError
from triage_app.core.store import AuditEvent, Batch, DeadLetter, Status, utcnow
from triage_app.core.workspace import Workspace, current_actor

STATUSES = ("open", "resolved", "parked", "discarded", "all")
SORTABLE = (
    "id",
    "batch_id",
    "line",
    "error_class",
    "signature",
    "attempts",
    "status",
    "last_failed_at",
    "first_failed_at",
    "transform",
)


@dataclass(frozen=True)
class DeadLetterFilter:
    """Which dead letters: every field narrows; None means any."""

    error_class: str | None = None
    status: str = "open"  # or "all"
    batch_id: str | None = None
    transform: str | None = None
    min_attempts: int | None = None
    search: str | None = None  # literal text in the payload or the error
    signature: str | None = None
    ids: tuple[int, ...] | None = None
    attempts: int | None = None  # exactly this many (a bar of the attempts histogram)
    # First failed on these UTC days, both included (a day or a span of a Trends chart).
    failed_from: dt.date | None = None
    failed_to: dt.date | None = None

    def with_(self, **changes: Any) -> DeadLetterFilter:
        return replace(self, **changes)


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
    payload_kind: str = field(default="jsonl")

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


@dataclass(frozen=True)
class DeadLetterDetail(DeadLetterView):
    original_payload: str = ""
    original_bytes: bytes = b""
    payload_bytes: bytes = b""
    traceback: str | None = None
    csv_header: str | None = None
    events: tuple[AuditEntry, ...] = ()

    def to_json(self) -> dict[str, Any]:
        d = super().to_json()
        for k in ("original_bytes", "payload_bytes", "csv_header"):
            d.pop(k)
        d["events"] = [asdict(e) for e in self.events]
        return d


def payload_text(raw: bytes) -> str:
    """Bytes as text for people: valid UTF-8 as is, anything else escaped (\\xNN)."""
    return raw.decode("utf-8", errors="backslashreplace")


def iso(t: dt.datetime | None) -> str:
    return "" if t is None else t.replace(microsecond=0).isoformat() + "Z"


class _ContainsBytes(FunctionElement[bool]):
    """Literal byte-substring test on a BLOB/bytea column, the same on each dialect."""

    type = Boolean()
    inherit_cache = True


@compiles(_ContainsBytes, "sqlite")
def _contains_sqlite(element: _ContainsBytes, compiler: Any, **kw: Any) -> str:
    hay, needle = list(element.clauses)
    return f"instr({compiler.process(hay, **kw)}, {compiler.process(needle, **kw)}) > 0"


@compiles(_ContainsBytes, "postgresql")
def _contains_pg(element: _ContainsBytes, compiler: Any, **kw: Any) -> str:
    hay, needle = list(element.clauses)
    return f"position({compiler.process(needle, **kw)} in {compiler.process(hay, **kw)}) > 0"


def _like_literal(text: str) -> str:
    """A LIKE pattern matching ``text`` literally: %, _ and the escape are plain characters."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped.lower()}%"


def filter_clauses(f: DeadLetterFilter) -> list[ColumnElement[bool]]:
    dl = DeadLetter
    out: list[ColumnElement[bool]] = []
    if f.status and f.status != "all":
        if f.status not in STATUSES:
            raise TriageError(f"unknown status {f.status!r}: use {', '.join(STATUSES)}")
        out.append(dl.status == f.status)
    if f.error_class:
        if f.error_class not in {c.value for c in ErrorClass}:
            raise TriageError(f"unknown class {f.error_class!r}: use data, code or transient")
        out.append(dl.error_class == f.error_class)
    if f.batch_id:
        if len(f.batch_id) >= 16:
            out.append(dl.batch_id == f.batch_id)
        else:  # a prefix, as a range the index can use (batch ids are lower-case hex)
            out.append(and_(dl.batch_id >= f.batch_id, dl.batch_id < f.batch_id + "\x7f"))
    if f.transform:
        out.append(dl.transform == f.transform)
    if f.min_attempts is not None and f.min_attempts > 1:
        out.append(dl.attempts >= f.min_attempts)
    if f.signature is not None:
        out.append(dl.signature == f.signature)
    if f.attempts is not None:
        out.append(dl.attempts == f.attempts)
    if f.failed_from is not None:
        out.append(dl.first_failed_at >= dt.datetime.combine(f.failed_from, dt.time()))
    if f.failed_to is not None:
        end = f.failed_to + dt.timedelta(days=1)
        out.append(dl.first_failed_at < dt.datetime.combine(end, dt.time()))
    if f.ids is not None:
        out.append(dl.id.in_(f.ids))
    if f.search:
        needle = f.search.encode("utf-8")
        out.append(
            or_(
                _ContainsBytes(dl.payload, needle),
                func.lower(dl.error).like(_like_literal(f.search), escape="\\"),
            )
        )
    return out


SelectT = TypeVar("SelectT", bound=Select[*tuple[Any, ...]])


def filtered(stmt: SelectT, f: DeadLetterFilter) -> SelectT:
    clauses = filter_clauses(f)
    return stmt.where(and_(*clauses)) if clauses else stmt


_LIST_COLUMNS = (
    DeadLetter.id,
    DeadLetter.batch_id,
    DeadLetter.line,
    DeadLetter.payload,
    DeadLetter.error,
    DeadLetter.error_class,
    DeadLetter.signature,
    DeadLetter.attempts,
    DeadLetter.status,
    DeadLetter.transform,
    DeadLetter.first_failed_at,
    DeadLetter.last_failed_at,
    DeadLetter.payload_kind,
)


def _view(r: Any) -> DeadLetterView:
    return DeadLetterView(
        id=r.id,
        batch_id=r.batch_id,
        line=r.line,
        payload=payload_text(r.payload),
        error=r.error,
        error_class=r.error_class,
        signature=r.signature,
        attempts=r.attempts,
        status=r.status,
        transform=r.transform,
        first_failed_at=iso(r.first_failed_at),
        last_failed_at=iso(r.last_failed_at),
        payload_kind=r.payload_kind,
    )


def order_clause(sort: str = "id", descending: bool = False) -> list[Any]:
    if sort not in SORTABLE:
        raise TriageError(f"cannot sort by {sort!r}")
    col = getattr(DeadLetter, sort)
    primary = col.desc() if descending else col.asc()
    # id breaks ties, so that paging through equal values is stable.
    tie = DeadLetter.id.desc() if descending else DeadLetter.id.asc()
    return [primary] if sort == "id" else [primary, tie]


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
    stmt = filtered(select(func.count()).select_from(DeadLetter), f or DeadLetterFilter())
    with ws.store.connect() as conn:
        return int(conn.execute(stmt).scalar_one())


def matching_ids(ws: Workspace, f: DeadLetterFilter) -> list[int]:
    stmt = filtered(select(DeadLetter.id), f).order_by(DeadLetter.id)
    with ws.store.connect() as conn:
        return list(conn.execute(stmt).scalars())


def get_dead_letter(ws: Workspace, dl_id: int) -> DeadLetterDetail:
    with Session(ws.store) as s:
        dl = s.get(DeadLetter, dl_id)
        if dl is None:
            raise TriageError(f"no dead letter with id {dl_id}")
        header = s.execute(
            select(Batch.csv_header).where(Batch.batch_id == dl.batch_id)
        ).scalar_one_or_none()
        events = s.execute(
            select(AuditEvent).where(AuditEvent.dead_letter_id == dl_id).order_by(AuditEvent.id)
        ).scalars()
        base = _view(dl)
        return DeadLetterDetail(
            **{k: getattr(base, k) for k in base.__dataclass_fields__},
            original_payload=payload_text(dl.original_payload),
            original_bytes=dl.original_payload,
            payload_bytes=dl.payload,
            traceback=dl.traceback,
            csv_header=payload_text(header) if header is not None else None,
            events=tuple(AuditEntry(iso(e.at), e.actor, e.action, e.detail) for e in events),
        )


def validate_payload(text: str, kind: str) -> Any:
    """Parse an edited payload, refusing anything that is not JSON (a CSV dead letter is
    edited as a JSON object of header -> value). Raises TriageError with line and column."""
    try:
        value = orjson.loads(text.encode("utf-8", errors="surrogatepass"))
    except orjson.JSONDecodeError as exc:
        raise TriageError(f"not valid JSON: {exc}") from None
    if kind in ("csv", "json-csv") and not isinstance(value, dict):
        raise TriageError("a CSV row is edited as a JSON object of column -> value")
    return value


def _record_event(
    s: Session,
    dl_id: int,
    action: str,
    detail: str,
    actor: str | None,
    now: dt.datetime | None = None,
) -> None:
    s.execute(
        insert(AuditEvent).values(
            dead_letter_id=dl_id,
            at=now or utcnow(),
            actor=actor or current_actor(),
            action=action,
            detail=detail,
        )
    )


def _load_for_change(s: Session, dl_id: int, verb: str) -> DeadLetter:
    dl = s.get(DeadLetter, dl_id)
    if dl is None:
        raise TriageError(f"no dead letter with id {dl_id}")
    if dl.status in (Status.RESOLVED, Status.DISCARDED):
        raise TriageError(f"dead letter {dl_id} is {dl.status}; it cannot be {verb}")
    return dl


def edit_payload(
    ws: Workspace, dl_id: int, text: str, *, actor: str | None = None
) -> DeadLetterDetail:
    """Replace the working payload (the original is kept) and audit who and when."""
    with Session(ws.store) as s, s.begin():
        dl = _load_for_change(s, dl_id, "edited")
        validate_payload(text, dl.payload_kind)
        new = text.encode("utf-8", errors="surrogatepass")
        if new == dl.payload:
            raise TriageError(f"dead letter {dl_id}: the payload is unchanged")
        before = len(dl.payload)
        # A CSV row, once edited, is a JSON object of header -> value.
        kind = "json-csv" if dl.payload_kind in ("csv", "json-csv") else "json"
        s.execute(
            update(DeadLetter).where(DeadLetter.id == dl_id).values(payload=new, payload_kind=kind)
        )
        _record_event(s, dl_id, "edited", f"payload {before} -> {len(new)} bytes", actor)
        s.flush()
        crash_point("mid-edit")
    return get_dead_letter(ws, dl_id)


def set_status(
    ws: Workspace, ids: Sequence[int], status: Status, *, reason: str = "", actor: str | None = None
) -> int:
    """Park, discard or reopen dead letters by hand; each change is audited."""
    action = {Status.PARKED: "parked", Status.DISCARDED: "discarded", Status.OPEN: "reopened"}
    if status not in action:
        raise TriageError(f"cannot set status {status} by hand")
    if status is Status.DISCARDED and not reason.strip():
        raise TriageError("discarding needs a reason")
    n = 0
    with Session(ws.store) as s, s.begin():
        for dl_id in ids:
            dl = _load_for_change(s, dl_id, action[status])
            if dl.status == status:
                continue
            dl.status = status
            _record_event(s, dl_id, action[status], reason, actor)
            n += 1
    return n


def reclassify(
    ws: Workspace, ids: Sequence[int], error_class: ErrorClass, *, actor: str | None = None
) -> int:
    n = 0
    with Session(ws.store) as s, s.begin():
        for dl_id in ids:
            dl = _load_for_change(s, dl_id, "reclassified")
            if dl.error_class == error_class:
                continue
            _record_event(s, dl_id, "reclassified", f"{dl.error_class} -> {error_class}", actor)
            dl.error_class = error_class.value
            n += 1
    return n


def add_note(ws: Workspace, ids: Sequence[int], note: str, *, actor: str | None = None) -> int:
    if not note.strip():
        raise TriageError("a note cannot be empty")
    with Session(ws.store) as s, s.begin():
        for dl_id in ids:
            if s.get(DeadLetter, dl_id) is None:
                raise TriageError(f"no dead letter with id {dl_id}")
            _record_event(s, dl_id, "note", note.strip(), actor)
    return len(ids)
