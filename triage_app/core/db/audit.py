"""The audit trail: who did what to a dead letter, and when. Every change appends an event;
none is ever rewritten."""

from __future__ import annotations

import datetime as dt
import functools
import getpass

from sqlalchemy import Connection, Insert, insert
from sqlalchemy.orm import Session

from triage_app.core.clock import utcnow
from triage_app.core.db.models import AuditEvent
from triage_app.core.vocabulary import AuditAction


def current_actor() -> str:
    """Who did it, for the audit trail: the OS user."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


@functools.cache
def event_insert() -> Insert:
    """The insert of audit events, built once: many rows at a time on the hot paths."""
    return insert(AuditEvent)


def record_event(
    s: Session | Connection,
    dl_id: int,
    action: AuditAction,
    detail: str,
    actor: str | None = None,
    now: dt.datetime | None = None,
) -> None:
    """Append one event, in the caller's transaction."""
    s.execute(
        event_insert(),
        {
            "dead_letter_id": dl_id,
            "at": now or utcnow(),
            "actor": actor or current_actor(),
            "action": action.value,
            "detail": detail,
        },
    )
