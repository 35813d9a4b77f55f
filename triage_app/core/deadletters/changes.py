"""Changing dead letters by hand: audited edits of the payload, and status changes (park,
discard, reopen), reclassification and notes. The original payload is never touched;
every change appends an audit event with who and when."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from sqlalchemy import update
from sqlalchemy.orm import Session

from triage_app.core.crashpoints import crash_point
from triage_app.core.db import DeadLetter, Workspace, record_event
from triage_app.core.deadletters.queries import DeadLetterDetail, get_dead_letter, not_found
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import (
    CLOSED,
    AuditAction,
    ErrorClass,
    Status,
    edited_kind,
    is_csv_kind,
)

# What a status set by hand is recorded as.
_BY_HAND = {
    Status.PARKED: AuditAction.PARKED,
    Status.DISCARDED: AuditAction.DISCARDED,
    Status.OPEN: AuditAction.REOPENED,
}


def validate_payload(text: str, kind: str) -> Any:
    """Parse an edited payload, refusing anything that is not JSON (a CSV dead letter is
    edited as a JSON object of header -> value). Raises TriageError with line and column."""
    try:
        value = orjson.loads(text.encode("utf-8", errors="surrogatepass"))
    except orjson.JSONDecodeError as exc:
        raise TriageError(f"not valid JSON: {exc}") from None
    if is_csv_kind(kind) and not isinstance(value, dict):
        raise TriageError("a CSV row is edited as a JSON object of column -> value")
    return value


def _load_for_change(s: Session, dl_id: int, action: AuditAction) -> DeadLetter:
    dl = s.get(DeadLetter, dl_id)
    if dl is None:
        raise not_found([dl_id])
    if dl.status in CLOSED:
        raise TriageError(f"dead letter {dl_id} is {dl.status}; it cannot be {action}")
    return dl


def edit_payload(
    ws: Workspace, dl_id: int, text: str, *, actor: str | None = None
) -> DeadLetterDetail:
    """Replace the working payload (the original is kept) and audit who and when."""
    with Session(ws.store) as s, s.begin():
        dl = _load_for_change(s, dl_id, AuditAction.EDITED)
        validate_payload(text, dl.payload_kind)
        new = text.encode("utf-8", errors="surrogatepass")
        if new == dl.payload:
            raise TriageError(f"dead letter {dl_id}: the payload is unchanged")
        before = len(dl.payload)
        # A CSV row, once edited, is a JSON object of header -> value.
        kind = edited_kind(dl.payload_kind)
        s.execute(
            update(DeadLetter).where(DeadLetter.id == dl_id).values(payload=new, payload_kind=kind)
        )
        detail = f"payload {before} -> {len(new)} bytes"
        record_event(s, dl_id, AuditAction.EDITED, detail, actor)
        s.flush()
        crash_point("mid-edit")
    return get_dead_letter(ws, dl_id)


def set_status(
    ws: Workspace, ids: Sequence[int], status: Status, *, reason: str = "", actor: str | None = None
) -> int:
    """Park, discard or reopen dead letters by hand; each change is audited."""
    action = _BY_HAND.get(status)
    if action is None:
        raise TriageError(f"cannot set status {status} by hand")
    if status is Status.DISCARDED and not reason.strip():
        raise TriageError("discarding needs a reason")
    n = 0
    with Session(ws.store) as s, s.begin():
        for dl_id in ids:
            dl = _load_for_change(s, dl_id, action)
            if dl.status == status:
                continue
            dl.status = status
            record_event(s, dl_id, action, reason, actor)
            n += 1
    return n


def reclassify(
    ws: Workspace, ids: Sequence[int], error_class: ErrorClass, *, actor: str | None = None
) -> int:
    n = 0
    with Session(ws.store) as s, s.begin():
        for dl_id in ids:
            dl = _load_for_change(s, dl_id, AuditAction.RECLASSIFIED)
            if dl.error_class == error_class:
                continue
            detail = f"{dl.error_class} -> {error_class}"
            record_event(s, dl_id, AuditAction.RECLASSIFIED, detail, actor)
            dl.error_class = error_class.value
            n += 1
    return n


def add_note(ws: Workspace, ids: Sequence[int], note: str, *, actor: str | None = None) -> int:
    if not note.strip():
        raise TriageError("a note cannot be empty")
    with Session(ws.store) as s, s.begin():
        for dl_id in ids:
            if s.get(DeadLetter, dl_id) is None:
                raise not_found([dl_id])
            record_event(s, dl_id, AuditAction.NOTE, note.strip(), actor)
    return len(ids)
