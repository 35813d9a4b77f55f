"""The audit trail across the store: who did what, to which dead letter, when; newest
first, narrowed by time, actor, action and dead letter. What ``triage-app audit`` prints
and the window's Audit tab shows.

The trail is the stored events and those the set records stand for (a batch's
quarantined rows, a re-drive's resolved ones), expanded in one place:
``expanded_events.py``. Every filter is served by an index in each branch: the stored
events' ``ix_event_at`` orders them and bounds ``since``, ``ix_event_action_at`` serves an
action (with or without ``since``), ``ix_event_dl`` finds one dead letter's events; the
synthesized ones walk ``ix_dl_first_failed`` and ``ix_dl_resolved`` (a row: its primary
key). An actor is a substring, so no index finds it; each walk stops once a page is full.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any

from triage_app.core.clock import iso
from triage_app.core.db import Workspace
from triage_app.core.deadletters import expanded_events
from triage_app.core.deadletters.queries import MAX_ROWS
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.vocabulary import AuditAction

ACTIONS: tuple[str, ...] = tuple(a.value for a in AuditAction)


@dataclass(frozen=True)
class AuditFilter:
    """Which events: every field narrows; None means any."""

    since: dt.datetime | None = None  # naive UTC, included
    actor: str | None = None  # a substring of the actor, any case
    action: str | None = None  # an AuditAction value
    dead_letter_id: int | None = None

    def with_(self, **changes: Any) -> AuditFilter:
        return replace(self, **changes)


@dataclass(frozen=True)
class AuditRecord:
    """One event, as it leaves the package (a frozen value, safe across threads)."""

    # Stored events have their row's id; an event a set record stands for a negative one,
    # fixed by its dead letter (expanded_events.py). Only the order depends on it.
    id: int
    at: str  # ISO 8601, UTC: 2026-03-01T10:00:00Z
    actor: str
    action: str
    dead_letter_id: int | None  # None for an event about the store (a purge)
    detail: str
    version: int | None = None  # the dead letter's version after the change

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "at": self.at,
            "actor": self.actor,
            "action": self.action,
            "dead_letter_id": self.dead_letter_id,
            "detail": self.detail,
        }
        if self.version is not None:
            d["version"] = self.version
        return d


@dataclass(frozen=True)
class AuditPage:
    """One page of the trail, and how many matching events follow it."""

    records: tuple[AuditRecord, ...]
    offset: int
    more: int  # matching events after this page; 0 when this is the last

    @property
    def next_offset(self) -> int:
        return self.offset + len(self.records)


def parse_since(text: str) -> dt.datetime:
    """``2026-03-01`` (that UTC day's start) or an ISO time (``2026-03-01T10:00``, UTC
    unless it names an offset) as naive UTC, the way times are stored; else a one-line
    refusal."""
    value = text.strip()
    try:
        if len(value) == 10:
            return dt.datetime.combine(dt.date.fromisoformat(value), dt.time())
        t = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise TriageError(
            _("--since {text} is not a date or time (YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC)").format(
                text=repr(text)
            )
        ) from None
    if t.tzinfo is not None:
        t = t.astimezone(dt.UTC).replace(tzinfo=None)
    return t


def parse_action(text: str) -> str:
    """An action's stored text, or a one-line refusal naming the actions there are."""
    value = text.strip().lower()
    if value not in ACTIONS:
        raise TriageError(
            _("unknown action {action}: use one of {actions}").format(
                action=repr(text), actions=", ".join(ACTIONS)
            )
        )
    return value


def _branches(
    f: AuditFilter, first: int | None = expanded_events.ASK
) -> list[expanded_events.Branch]:
    return expanded_events.branches(
        since=f.since,
        actor=f.actor,
        action=parse_action(f.action) if f.action is not None else None,
        dead_letter_id=f.dead_letter_id,
        first=first,
    )


def _check_page(limit: int, offset: int) -> None:
    if limit < 1 or offset < 0:
        raise TriageError(
            _("a page needs limit >= 1 and offset >= 0, not {limit} and {offset}").format(
                limit=limit, offset=offset
            )
        )


def _no_such_row(f: AuditFilter) -> bool:
    """An id no dead letter can have (beyond a 64-bit integer): nothing to look for, and
    no database would take it as a parameter."""
    return f.dead_letter_id is not None and not -MAX_ROWS <= f.dead_letter_id <= MAX_ROWS


def audit_trail(
    ws: Workspace, f: AuditFilter | None = None, *, limit: int = 100, offset: int = 0
) -> list[AuditRecord]:
    """Events matching ``f``, newest first (by time, then by id: two events of one
    transaction keep their order)."""
    f = f or AuditFilter()
    _check_page(limit, offset)
    if _no_such_row(f):
        return []
    limit = min(limit, MAX_ROWS)
    with ws.store.connect() as conn:
        first = expanded_events.set_wise_from(conn)
        stmt = expanded_events.newest_first(_branches(f, first), offset + limit)
        stmt = stmt.limit(limit).offset(offset)
        return [
            AuditRecord(
                id=r.id,
                at=iso(r.at),
                actor=r.actor,
                action=r.action,
                dead_letter_id=r.dead_letter_id,
                detail=r.detail or "",
                version=r.version,
            )
            for r in conn.execute(stmt)
        ]


def count_audit_events(ws: Workspace, f: AuditFilter | None = None) -> int:
    f = f or AuditFilter()
    if _no_such_row(f):
        return 0
    with ws.store.connect() as conn:
        return expanded_events.count(conn, _branches(f, expanded_events.set_wise_from(conn)))


def audit_page(
    ws: Workspace, f: AuditFilter | None = None, *, limit: int = 100, offset: int = 0
) -> AuditPage:
    """A page of the trail and how many events follow it; the count runs only when the
    page is full and one event more was found."""
    _check_page(limit, offset)
    records = audit_trail(ws, f, limit=min(limit + 1, MAX_ROWS), offset=offset)
    if len(records) <= limit:
        return AuditPage(tuple(records), offset, 0)
    total = count_audit_events(ws, f)
    return AuditPage(tuple(records[:limit]), offset, max(total - offset - limit, 1))
