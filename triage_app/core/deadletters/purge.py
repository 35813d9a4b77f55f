"""Retention: purging closed dead letters (resolved or discarded) closed before a cutoff,
and the store's shared retention policy.

Only closed rows ever go: ``open`` and ``parked`` rows wait for a person and are refused.
"Older than N days" means closed before ``now - N days``: ``resolved_at`` for a resolved row,
the time of its ``discarded`` audit event for a discarded one (there is no discarded_at
column). A discarded row without that event has no known closing time and is kept.

Deleting goes in chunks, one transaction each, and every DELETE is guarded by the status
the row was chosen with, so that a row reopened by another process meanwhile stays, with
its history. A row's audit events go with it (they reference it). What went is recorded
twice: a ``purges`` row, counted per day of first quarantine and class (so that Trends
can add it back instead of showing a drop that never happened), updated in each chunk's
own transaction, so it is right even if the purge is killed; and, at the end, one audit
event ``purged`` about the store (no dead letter) with the totals.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.sql.expression import ColumnElement

from triage_app.core.clock import iso, utcnow
from triage_app.core.db import (
    AuditEvent,
    ChangeSetRow,
    DeadLetter,
    Purge,
    StoreSetting,
    Workspace,
    actor_for,
    notify_change,
)
from triage_app.core.errors import TriageError
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.vocabulary import CLOSED, AuditAction, Status, plural

# Rows per transaction: short enough that a steward's edit never waits long for the lock,
# long enough that a million rows take a few hundred commits.
PURGE_CHUNK = 5_000
RETENTION_KEY = "retention"  # the StoreSetting that holds the policy
PURGEABLE: tuple[str, ...] = tuple(s.value for s in CLOSED)
# Counts per day of first quarantine, then class: {"2026-03-01": {"data": 3}}.
ByDay = dict[str, dict[str, int]]


def check_statuses(statuses: Iterable[str]) -> tuple[str, ...]:
    """The statuses a purge may take, in a stable order; TriageError for any other."""
    chosen = tuple(dict.fromkeys(str(s).strip().lower() for s in statuses))
    if not chosen:
        raise TriageError("purge which dead letters? give --status resolved and/or discarded")
    refused = [s for s in chosen if s not in PURGEABLE]
    if refused:
        raise TriageError(
            f"cannot purge {', '.join(refused)} dead letters: only resolved and discarded "
            "ones are ever purged (open and parked rows wait for a person)"
        )
    return tuple(s for s in PURGEABLE if s in chosen)


def check_days(days: Any) -> int:
    """A whole number of days, zero or more; TriageError otherwise."""
    if isinstance(days, bool) or not isinstance(days, int):
        raise TriageError(f"older than {days!r} days: give a whole number of days")
    if days < 0:
        raise TriageError(f"older than {days} days: the number of days cannot be negative")
    return days


@dataclass(frozen=True)
class RetentionPolicy:
    """Closed dead letters of ``statuses`` are purged once closed ``days`` ago."""

    days: int
    statuses: tuple[str, ...]

    @classmethod
    def of(cls, days: Any, statuses: Iterable[str]) -> RetentionPolicy:
        return cls(check_days(days), check_statuses(statuses))

    def to_json(self) -> dict[str, Any]:
        return {"days": self.days, "statuses": list(self.statuses)}

    def describe(self) -> str:
        closed = f"closed more than {plural(self.days, 'day')} ago"
        return f"{' and '.join(self.statuses)} dead letters {closed}"


def retention_policy(ws: Workspace) -> RetentionPolicy | None:
    """The policy kept in the store, shared by the whole team; None if none is set."""
    with ws.store.connect() as conn:
        raw = conn.execute(
            select(StoreSetting.value).where(StoreSetting.key == RETENTION_KEY)
        ).scalar()
    if raw is None:
        return None
    try:
        data = orjson.loads(raw)
        return RetentionPolicy.of(data["days"], data["statuses"])
    except (orjson.JSONDecodeError, KeyError, TypeError, TriageError):
        raise TriageError(f"the store's retention policy is not readable: {raw[:100]!r}") from None


def set_retention_policy(ws: Workspace, policy: RetentionPolicy | None) -> None:
    """Keep ``policy`` in the store (None: remove it)."""
    with ws.store.begin() as conn:
        conn.execute(delete(StoreSetting).where(StoreSetting.key == RETENTION_KEY))
        if policy is not None:
            value = orjson.dumps(policy.to_json()).decode()
            conn.execute(insert(StoreSetting).values(key=RETENTION_KEY, value=value))


@dataclass(frozen=True)
class PurgeSummary:
    """What a purge removed (or, in a dry run, would remove)."""

    cutoff: dt.datetime  # rows closed before this went
    statuses: tuple[str, ...]
    dry_run: bool
    rows: int
    by_status: dict[str, int]
    by_day: ByDay  # by the day each row was first quarantined, then class
    # By the day each row was closed (resolved, or discarded): what the backlog adds back.
    closed_by_day: dict[str, dict[str, int]] = field(default_factory=dict)
    purge_id: int | None = None  # the ``purges`` row; None in a dry run or when none went
    seconds: float = 0.0
    cancelled: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "cutoff": iso(self.cutoff),
            "statuses": list(self.statuses),
            "dry_run": self.dry_run,
            "rows": self.rows,
            "by_status": self.by_status,
            "by_day": self.by_day,
            "closed_by_day": self.closed_by_day,
            "purge_id": self.purge_id,
            "seconds": round(self.seconds, 3),
            "cancelled": self.cancelled,
        }


class _Tally:
    """Counts of purged rows, by status, by day of quarantine and class, by closing day."""

    def __init__(self) -> None:
        self.rows = 0
        self.by_status: dict[str, int] = {}
        self.by_day: ByDay = {}
        self.closed: dict[str, dict[str, int]] = {}

    def add(self, status: str, first_failed: Any, error_class: str, closed: Any) -> None:
        self.rows += 1
        self.by_status[status] = self.by_status.get(status, 0) + 1
        day = self.by_day.setdefault(_day(first_failed), {})
        day[error_class] = day.get(error_class, 0) + 1
        if closed is not None:
            per = self.closed.setdefault(status, {})
            per[_day(closed)] = per.get(_day(closed), 0) + 1

    def sorted_by_day(self) -> ByDay:
        return {d: dict(sorted(c.items())) for d, c in sorted(self.by_day.items())}

    def sorted_closed(self) -> dict[str, dict[str, int]]:
        return {s: dict(sorted(d.items())) for s, d in sorted(self.closed.items())}


def _day(t: Any) -> str:
    """The UTC day of a stored time (SQLite may hand back text)."""
    return t.date().isoformat() if isinstance(t, dt.datetime) else str(t)[:10]


def _discarded_at() -> Any:
    """When a row was discarded: its (newest) ``discarded`` event."""
    ev = AuditEvent
    return (
        select(func.max(ev.at))
        .where(ev.dead_letter_id == DeadLetter.id, ev.action == AuditAction.DISCARDED)
        .scalar_subquery()
    )


def _closed_at(status: str) -> Any:
    return DeadLetter.resolved_at if status == Status.RESOLVED else _discarded_at()


def _candidates(status: str, cutoff: dt.datetime) -> Any:
    """Rows of ``status`` closed before ``cutoff``: id, first failure, class, closing time."""
    dl = DeadLetter
    closed = _closed_at(status)
    where: list[ColumnElement[bool]] = [dl.status == status, closed < cutoff]
    return (
        select(dl.id, dl.first_failed_at, dl.error_class, closed.label("closed_at"))
        .where(*where)
        .order_by(dl.id)
    )


def purge(
    ws: Workspace,
    older_than_days: int,
    statuses: Sequence[str],
    dry_run: bool = False,
    actor: str | None = None,
    *,
    progress: Progress | None = None,
    chunk_size: int = PURGE_CHUNK,
    now: dt.datetime | None = None,
) -> PurgeSummary:
    """Delete the ``statuses`` dead letters (resolved, discarded) closed more than
    ``older_than_days`` days ago, with their audit events; a dry run writes nothing and
    reports what would go. ``progress`` counts rows and is asked to cancel between chunks
    (what went by then stays gone, and is recorded)."""
    days = check_days(older_than_days)
    chosen = check_statuses(statuses)
    progress = progress or NoProgress()
    actor = actor or actor_for(ws.store)
    started = time.perf_counter()
    cutoff = (now or utcnow()) - dt.timedelta(days=days)

    # Choose the rows first, in one short read: a dry run counts them; a real run deletes
    # them chunk by chunk, each chunk checking again that they are still closed.
    planned = _Tally()
    chosen_ids: list[tuple[str, list[int]]] = []
    with ws.store.connect() as conn:
        for status in chosen:
            ids: list[int] = []
            for r in conn.execute(_candidates(status, cutoff)):
                ids.append(int(r.id))
                planned.add(status, r.first_failed_at, r.error_class, r.closed_at)
            chosen_ids.append((status, ids))
    total = planned.rows
    progress.update(0, total)
    if dry_run or total == 0:
        return PurgeSummary(
            cutoff,
            chosen,
            dry_run,
            planned.rows,
            planned.by_status,
            planned.sorted_by_day(),
            planned.sorted_closed(),
            seconds=time.perf_counter() - started,
        )

    done = _Tally()
    purge_id: int | None = None
    cancelled = False
    seen = 0
    retry = RetryPolicy()
    for status, ids in chosen_ids:
        for start in range(0, len(ids), chunk_size):
            if progress.cancelled():
                cancelled = True
                break
            chunk = ids[start : start + chunk_size]

            def run(
                chunk: list[int] = chunk, status: str = status, pid: int | None = purge_id
            ) -> tuple[int | None, _Tally]:
                with ws.store.begin() as conn:
                    notify_change(conn)  # PostgreSQL: windows watching the store read it again
                    return _delete_chunk(conn, chunk, status, pid, actor, chosen, cutoff)

            # Counted once committed: a retried chunk must not count its rows twice.
            purge_id, went = with_retry(run, retry)
            _merge(done, went)
            seen += len(chunk)
            progress.update(seen, total, done.rows)
        if cancelled:
            break

    if purge_id is not None:
        detail = {
            "purge_id": purge_id,
            "rows": done.rows,
            "by_status": done.by_status,
            "cutoff": iso(cutoff),
            "older_than_days": days,
            "closed_by_day": done.sorted_closed(),
            "cancelled": cancelled,
        }
        with ws.store.begin() as conn:
            # About the store, not a row: dead_letter_id stays NULL.
            conn.execute(
                insert(AuditEvent).values(
                    dead_letter_id=None,
                    at=utcnow(),
                    actor=actor,
                    action=AuditAction.PURGED.value,
                    detail=orjson.dumps(detail).decode(),
                )
            )
    return PurgeSummary(
        cutoff,
        chosen,
        False,
        done.rows,
        done.by_status,
        done.sorted_by_day(),
        done.sorted_closed(),
        purge_id,
        time.perf_counter() - started,
        cancelled,
    )


def _delete_chunk(
    conn: Connection,
    ids: list[int],
    status: str,
    purge_id: int | None,
    actor: str,
    statuses: tuple[str, ...],
    cutoff: dt.datetime,
) -> tuple[int | None, _Tally]:
    """Delete the rows of ``ids`` that are still ``status``, and their events, and record
    them in the ``purges`` row, all in the caller's transaction: the purge's id (None
    while nothing went) and what went."""
    dl = DeadLetter
    still = [dl.id.in_(ids), dl.status == status]
    if conn.dialect.name != "sqlite":
        # Lock the rows still closed: a reopen that comes now waits for this commit (and
        # then finds the row gone); one that came first has changed the status, and the
        # row is left alone. SQLite needs no lock: its first write below takes the whole
        # store's, and nothing can change between these statements.
        conn.execute(select(dl.id).where(*still).order_by(dl.id).with_for_update())
    ev = AuditEvent
    events = conn.execute(
        delete(ev)
        .where(ev.dead_letter_id.in_(select(dl.id).where(*still)))
        .returning(ev.dead_letter_id, ev.action, ev.at)
    ).all()
    # A purged row leaves the change-sets that changed it: they cannot restore what is
    # gone, and a revert reports the rows they still have.
    conn.execute(
        delete(ChangeSetRow).where(ChangeSetRow.dead_letter_id.in_(select(dl.id).where(*still)))
    )
    discarded: dict[int, Any] = {}
    for dl_id, action, at in events:
        if action == AuditAction.DISCARDED and dl_id is not None:
            discarded[dl_id] = max(at, discarded.get(dl_id, at))
    gone = conn.execute(
        delete(dl)
        .where(*still)
        .returning(dl.id, dl.first_failed_at, dl.error_class, dl.resolved_at)
    ).all()
    chunk = _Tally()
    if not gone:
        return purge_id, chunk
    for r in gone:
        closed = r.resolved_at if status == Status.RESOLVED else discarded.get(int(r.id))
        chunk.add(status, r.first_failed_at, r.error_class, closed)
    # The purges row is written with the rows it records, so it is right even if the
    # purge is killed after this chunk.
    if purge_id is None:
        purge_id = int(
            conn.execute(
                insert(Purge)
                .values(
                    at=utcnow(),
                    actor=actor,
                    statuses=",".join(statuses),
                    cutoff=cutoff,
                    rows=0,
                    by_day="{}",
                )
                .returning(Purge.id)
            ).scalar_one()
        )
    current = conn.execute(select(Purge.rows, Purge.by_day).where(Purge.id == purge_id)).one()
    merged: ByDay = orjson.loads(current.by_day)
    for day, classes in chunk.by_day.items():
        into = merged.setdefault(day, {})
        for cls, n in classes.items():
            into[cls] = into.get(cls, 0) + n
    conn.execute(
        update(Purge)
        .where(Purge.id == purge_id)
        .values(
            rows=int(current.rows) + chunk.rows,
            by_day=orjson.dumps(
                {d: dict(sorted(c.items())) for d, c in sorted(merged.items())}
            ).decode(),
        )
    )
    return purge_id, chunk


def _merge(into: _Tally, chunk: _Tally) -> None:
    into.rows += chunk.rows
    for s, n in chunk.by_status.items():
        into.by_status[s] = into.by_status.get(s, 0) + n
    for d, classes in chunk.by_day.items():
        day = into.by_day.setdefault(d, {})
        for c, n in classes.items():
            day[c] = day.get(c, 0) + n
    for s, days in chunk.closed.items():
        per = into.closed.setdefault(s, {})
        for d, n in days.items():
            per[d] = per.get(d, 0) + n
