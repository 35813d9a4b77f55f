"""Many rows' events at once, as every reader sees them: the stored ones, plus those the set
records stand for (a row's ``quarantined`` event from its batch when none is stored, its
``resolved`` event from its ``resolutions`` line, its ``edited`` events from the lines of
the change-sets that fixed and reverted it). One statement per kind, for race suites
that check thousands of rows (``expanded_events.row_events`` asks per row)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection, Subquery, select, union_all

from triage_app.core.db import (
    AuditEvent,
    ChangeSet,
    ChangeSetRevert,
    ChangeSetRow,
    DeadLetter,
    Resolution,
)
from triage_app.core.deadletters import expanded_events
from triage_app.core.deadletters.expanded_events import change_set_records_from


class Event(NamedTuple):
    dead_letter_id: int
    at: dt.datetime
    action: str
    replaced_payload: bytes | None


def events_by_row(conn: Connection, ids: Sequence[int]) -> dict[int, list[Event]]:
    """Each of ``ids``' events, oldest first (stored before synthesized at the same time,
    a synthesized ``quarantined`` first of all)."""
    out: dict[int, list[tuple[Any, ...]]] = {i: [] for i in ids}
    e, dl = AuditEvent, DeadLetter
    records_from = change_set_records_from(conn)
    for part in range(0, len(ids), 5000):
        chunk = list(ids[part : part + 5000])
        stored = select(e.dead_letter_id, e.at, e.action, e.replaced_payload, e.id).where(
            e.dead_letter_id.in_(chunk)
        )
        for i, at, action, replaced, eid in conn.execute(stored):
            out[i].append((_t(at), 1, eid, Event(i, _t(at), action, replaced)))
        resolved = (
            select(dl.id, dl.resolved_at)
            .join(Resolution, Resolution.dead_letter_id == dl.id)
            .where(dl.id.in_(chunk))
        )
        for i, at in conn.execute(resolved):
            out[i].append((_t(at), 2, 0, Event(i, _t(at), "resolved", None)))
        line = ChangeSetRow
        fixed = (
            select(line.dead_letter_id, ChangeSet.at, line.payload_before, dl.original_payload)
            .join(ChangeSet, ChangeSet.id == line.change_set_id)
            .join(dl, dl.id == line.dead_letter_id)
            .where(line.dead_letter_id.in_(chunk), ChangeSet.id >= records_from)
        )
        for i, at, before, original in conn.execute(fixed):
            replaced = before if before is not None else original
            out[i].append((_t(at), 1, 0, Event(i, _t(at), "edited", replaced)))
        reverted = (
            select(line.dead_letter_id, ChangeSetRevert.at, line.payload_reverted)
            .join(ChangeSetRevert, ChangeSetRevert.id == line.reverted_in)
            .where(line.dead_letter_id.in_(chunk))
        )
        for i, at, replaced in conn.execute(reverted):
            out[i].append((_t(at), 1, 0, Event(i, _t(at), "edited", replaced)))
        born = select(dl.id, dl.first_failed_at).where(dl.id.in_(chunk))
        for i, at in conn.execute(born):
            if not any(ev.action == "quarantined" for *_k, ev in out[i]):
                out[i].append((_t(at), 0, 0, Event(i, _t(at), "quarantined", None)))
    return {i: [ev for *_k, ev in sorted(evs, key=lambda x: x[:3])] for i, evs in out.items()}


def _t(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromisoformat(str(value))


def whole_trail() -> Subquery:
    """Every event of the store as the trail tells it (stored, or expanded from its set
    records), as one subquery: id, at, actor, action, dead_letter_id, detail, version,
    replaced_payload."""
    return union_all(*(b.events for b in expanded_events.branches())).subquery("trail")
