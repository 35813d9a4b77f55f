"""Retention: purging closed dead letters (resolved or discarded) closed before a cutoff,
and the store's shared retention policy.

Only closed rows ever go: ``open`` and ``parked`` rows wait for a person and are refused.
"Older than N days" means closed before ``now - N days``: ``resolved_at`` for a resolved row,
the time of its newest ``discarded`` audit event for a discarded one (there is no
discarded_at column). A discarded row without that event has no known closing time and is
kept. A purge may be held to one batch.

Deleting goes in chunks, one transaction each, and every DELETE is guarded by the status
the row was chosen with, so that a row reopened by another process meanwhile stays, with
its history. A row's audit events go with it (they reference it). What went is recorded in
each chunk's own transaction, so that the record is right whenever the purge is killed: the
``purges`` row counts it per day of first quarantine and class (so that Trends can add it
back instead of showing a drop that never happened) and per batch, ledger chunk and status
(so that ``reconcile`` counts a purged row as what it was); and a ``purged`` audit event
about the store (no dead letter) names the chunk's rows (their ids, as ranges) and counts
them. A purge killed after k chunks leaves k events that name exactly the rows that went;
running it again purges the rest under a new ``purges`` row, with events of its own.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, delete, func, insert, select, update

from triage_app.core.batch import SourcesForgotten, forget_sources
from triage_app.core.clock import iso, utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    AuditEvent,
    Batch,
    BatchChunk,
    ChangeSetRow,
    DeadLetter,
    Origin,
    Purge,
    Resolution,
    Workspace,
    actor_for,
    set_store_setting,
    store_setting,
    summary,
)
from triage_app.core.deadletters import transitions
from triage_app.core.deadletters.said import counted_word, utc_time
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_date, format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.vocabulary import CLOSED, AuditAction, Status

# Rows per transaction: short enough that a steward's edit never waits long for the lock,
# long enough that a million rows take a few hundred commits.
PURGE_CHUNK = 5_000
RETENTION_KEY = "retention"  # the StoreSetting that holds the policy
# Counts per day of first quarantine, then class: {"2026-03-01": {"data": 3}}.
ByDay = dict[str, dict[str, int]]
# Counts per batch, then the first line of its ledger chunk ("0": outside every chunk), then
# status: {"0e72…": {"1": {"resolved": 27, "discarded": 84}}}. What reconcile adds back.
ByBatch = dict[str, dict[str, dict[str, int]]]


def check_statuses(statuses: Iterable[str]) -> tuple[str, ...]:
    """The statuses a purge may take, in a stable order; TriageError for any other."""
    chosen = tuple(dict.fromkeys(str(s).strip().lower() for s in statuses))
    if not chosen:
        raise TriageError(_("purge which dead letters? give --status resolved and/or discarded"))
    refused = [s for s in chosen if s not in CLOSED]
    if refused:
        raise TriageError(
            _(
                "cannot purge {statuses} dead letters: only resolved and discarded "
                "ones are ever purged (open and parked rows wait for a person)"
            ).format(statuses=", ".join(refused))
        )
    return tuple(s.value for s in CLOSED if s in chosen)


def check_days(days: Any) -> int:
    """A whole number of days, zero or more; TriageError otherwise."""
    if isinstance(days, bool) or not isinstance(days, int):
        raise TriageError(
            _("older than {days} days: give a whole number of days").format(days=repr(days))
        )
    if days < 0:
        raise TriageError(
            _("older than {days} days: the number of days cannot be negative").format(days=days)
        )
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
        """``discarded dead letters closed more than 30 days ago``."""
        n = self.days
        if tuple(self.statuses) == (Status.RESOLVED.value,):
            text = ngettext(
                "resolved dead letters closed more than {n} day ago",
                "resolved dead letters closed more than {n} days ago",
                n,
            )
        elif tuple(self.statuses) == (Status.DISCARDED.value,):
            text = ngettext(
                "discarded dead letters closed more than {n} day ago",
                "discarded dead letters closed more than {n} days ago",
                n,
            )
        else:
            text = ngettext(
                "resolved and discarded dead letters closed more than {n} day ago",
                "resolved and discarded dead letters closed more than {n} days ago",
                n,
            )
        return text.format(n=format_int(n))


def retention_policy(ws: Workspace) -> RetentionPolicy | None:
    """The policy kept in the store, shared by the whole team; None if none is set."""
    raw = store_setting(ws.store, RETENTION_KEY)
    if raw is None:
        return None
    try:
        data = orjson.loads(raw)
        return RetentionPolicy.of(data["days"], data["statuses"])
    except (orjson.JSONDecodeError, KeyError, TypeError, TriageError):
        raise TriageError(
            _("the store's retention policy is not readable: {raw}").format(raw=repr(raw[:100]))
        ) from None


def set_retention_policy(ws: Workspace, policy: RetentionPolicy | None) -> None:
    """Keep ``policy`` in the store (None: remove it)."""
    value = None if policy is None else orjson.dumps(policy.to_json()).decode()
    set_store_setting(ws.store, RETENTION_KEY, value)


NAMED_DAYS = 5  # days a purge's sentence names before "and N more days"


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
    # The policy's "older than" in days, for the sentence (None: say only the cutoff).
    # Not in to_json: ``purge --json`` has the cutoff, and its keys stay as they are.
    days: int | None = None
    # The kept sources the same run forgot (kept_sources.forget_sources, the store's
    # keep_sources_days); None when it forgot none by design (one batch's purge).
    sources: SourcesForgotten | None = None

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
            "sources": None if self.sources is None else self.sources.to_json(),
        }

    def describe(self) -> str:
        """One sentence: how many, of which status, closed before when, and the days their
        rows were first quarantined (the window shows it, the CLI prints it)."""
        parts = ", ".join(counted_word(st, format_int(n)) for st, n in self.by_status.items())
        cutoff = utc_time(self.cutoff)
        # "closed before …": how each sentence below says which rows (a phrase of its own).
        if self.days is not None:
            before = ngettext(
                "closed more than {n} day ago (before {cutoff} UTC)",
                "closed more than {n} days ago (before {cutoff} UTC)",
                self.days,
            ).format(n=format_int(self.days), cutoff=cutoff)
        else:
            before = _("closed before {cutoff} UTC").format(cutoff=cutoff)
        n = self.rows
        if self.dry_run and not n:
            if tuple(self.statuses) == (Status.RESOLVED.value,):
                text = _("Nothing to purge now: no resolved dead letter {closed}.")
            elif tuple(self.statuses) == (Status.DISCARDED.value,):
                text = _("Nothing to purge now: no discarded dead letter {closed}.")
            else:
                text = _("Nothing to purge now: no resolved or discarded dead letter {closed}.")
            return text.format(closed=before)
        if self.dry_run:
            text = ngettext(
                "Would purge {n} dead letter now ({counts}), {closed}.",
                "Would purge {n} dead letters now ({counts}), {closed}.",
                n,
            )
        else:
            text = ngettext(
                "Purged {n} dead letter ({counts}), {closed}.",
                "Purged {n} dead letters ({counts}), {closed}.",
                n,
            )
        text = text.format(n=format_int(n), counts=parts or _("none"), closed=before)
        # The days the rows were first quarantined, the first few named: a year of them is
        # no sentence (``by_day`` and ``--json`` have them all).
        days = [
            _("{day}: {counts}").format(
                day=_day_words(day),
                counts=", ".join(counted_word(c, format_int(k)) for c, k in classes.items()),
            )
            for day, classes in list(self.by_day.items())[:NAMED_DAYS]
        ]
        if days:
            more = len(self.by_day) - len(days)
            if more:
                text += " " + ngettext(
                    "Quarantined on {days} and {n} more day.",
                    "Quarantined on {days} and {n} more days.",
                    more,
                ).format(days="; ".join(days), n=format_int(more))
            else:
                text += " " + _("Quarantined on {days}.").format(days="; ".join(days))
        if self.cancelled:
            text += " " + _("Cancelled: the rest were kept.")
        return text


class _Tally:
    """Counts of purged rows, by status, by day of quarantine and class, by closing day."""

    def __init__(self) -> None:
        self.rows = 0
        self.by_status: dict[str, int] = {}
        self.by_day: ByDay = {}
        self.closed: dict[str, dict[str, int]] = {}
        self.by_batch: ByBatch = {}
        self.ids: list[int] = []

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

    def add_line(self, batch_id: str, chunk_start: int, status: str) -> None:
        per = self.by_batch.setdefault(batch_id, {}).setdefault(str(chunk_start), {})
        per[status] = per.get(status, 0) + 1


def _day_words(day: str) -> str:
    """A UTC day kept as ``2026-03-01`` as the language writes it (``1 Mar 2026``)."""
    try:
        return format_date(dt.date.fromisoformat(day))
    except ValueError:
        return day


def _day(t: Any) -> str:
    """The UTC day of a stored time (SQLite may hand back text)."""
    return t.date().isoformat() if isinstance(t, dt.datetime) else str(t)[:10]


def _last_discards(cutoff: dt.datetime) -> Any:
    """Each row's newest ``discarded`` event, for the rows whose newest one is before
    ``cutoff``: one grouped pass over the discarded events (``ix_event_action_at``).

    Not a correlated ``max(at)`` per row: SQLite answers that through the same index, by
    scanning every discarded event of the store for each row, which made purging 26,925
    discarded rows take over 100 seconds."""
    ev = AuditEvent
    return (
        select(ev.dead_letter_id.label("id"), func.max(ev.at).label("at"))
        .where(ev.action == AuditAction.DISCARDED, ev.dead_letter_id.is_not(None))
        .group_by(ev.dead_letter_id)
        .having(func.max(ev.at) < cutoff)
        .subquery("last_discard")
    )


def _candidates(status: str, cutoff: dt.datetime, batch_id: str | None) -> Any:
    """Rows of ``status`` closed before ``cutoff`` (of one batch, if given): id, first
    failure, class, closing time (``resolved_at`` for a resolved row, its newest
    ``discarded`` event for a discarded one)."""
    dl = DeadLetter
    cols = (dl.id, dl.first_failed_at, dl.error_class)
    of_batch = [] if batch_id is None else [dl.batch_id == batch_id]
    if status == Status.RESOLVED:
        return (
            select(*cols, dl.resolved_at.label("closed_at"))
            .where(dl.status == status, dl.resolved_at < cutoff, *of_batch)
            .order_by(dl.id)
        )
    last = _last_discards(cutoff)
    return (
        select(*cols, last.c.at.label("closed_at"))
        .join_from(dl, last, last.c.id == dl.id)
        .where(dl.status == status, *of_batch)
        .order_by(dl.id)
    )


def _batch_of(conn: Connection, prefix: str) -> str:
    """The batch whose id starts with ``prefix``; TriageError if none or several."""
    text = prefix.strip()
    found = (
        conn.execute(
            select(Batch.batch_id).where(Batch.batch_id.startswith(text, autoescape=True)).limit(2)
        )
        .scalars()
        .all()
        if text
        else []
    )
    if not found:
        raise TriageError(
            _("no batch {batch} to purge: give a batch id (or its start)").format(
                batch=repr(prefix)
            )
        )
    if len(found) > 1:
        raise TriageError(
            _("batch id {batch} is ambiguous: give more of it").format(batch=repr(prefix))
        )
    return str(found[0])


@dataclass(frozen=True)
class _Run:
    """What every chunk of one purge records about it."""

    actor: str
    statuses: tuple[str, ...]
    cutoff: dt.datetime
    days: int
    batch_id: str | None


def purge(
    ws: Workspace,
    older_than_days: int,
    statuses: Sequence[str],
    dry_run: bool = False,
    actor: str | None = None,
    *,
    batch: str | None = None,
    progress: Progress | None = None,
    chunk_size: int = PURGE_CHUNK,
    now: dt.datetime | None = None,
    sources: bool = True,
    sources_older_than: int | None = None,
) -> PurgeSummary:
    """Delete the ``statuses`` dead letters (resolved, discarded) closed more than
    ``older_than_days`` days ago (of ``batch`` only, an id or its start, if given), with
    their audit events; a dry run writes nothing and reports what would go. ``progress``
    counts rows and is asked to cancel between chunks (what went by then stays gone, and
    is recorded).

    The same run forgets the kept sources older than the store's ``keep_sources_days``
    (``sources_older_than`` days instead, if given; none when ``sources`` is False or the
    purge is of one batch): one policy run keeps both."""
    summary = _purge(
        ws,
        older_than_days,
        statuses,
        dry_run,
        actor,
        batch=batch,
        progress=progress,
        chunk_size=chunk_size,
        now=now,
    )
    if not sources or batch is not None or summary.cancelled:
        return summary
    forgot = forget_sources(ws, sources_older_than, now=now, dry_run=dry_run)
    return dataclasses.replace(summary, sources=forgot)


def _purge(
    ws: Workspace,
    older_than_days: int,
    statuses: Sequence[str],
    dry_run: bool,
    actor: str | None,
    *,
    batch: str | None,
    progress: Progress | None,
    chunk_size: int,
    now: dt.datetime | None,
) -> PurgeSummary:
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
        batch_id = None if batch is None else _batch_of(conn, batch)
        for status in chosen:
            ids: list[int] = []
            for r in conn.execute(_candidates(status, cutoff, batch_id)):
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
            days=older_than_days,
        )

    run_info = _Run(actor, chosen, cutoff, days, batch_id)
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
                # The write lock from the start (and windows told, on PostgreSQL); a wait
                # for rows a stopped re-drive holds is bounded and names it (lock_waits).
                with transitions.write_transaction(ws.store) as conn:
                    out = _delete_chunk(conn, chunk, status, pid, run_info)
                    crash_point("purge-mid-chunk")  # deleted and recorded, not committed
                    return out

            # Counted once committed: a retried chunk must not count its rows twice.
            purge_id, went = with_retry(run, retry)
            crash_point("purge-after-chunk")  # this chunk committed, the next not begun
            _merge(done, went)
            seen += len(chunk)
            progress.update(seen, total, done.rows)
        if cancelled:
            break
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
        days=older_than_days,
    )


def _chunk_starts(conn: Connection, batch_ids: set[str]) -> dict[str, list[int]]:
    """The first line of each ledger chunk of these batches, in order."""
    starts: dict[str, list[int]] = {b: [] for b in batch_ids}
    rows = conn.execute(
        select(BatchChunk.batch_id, BatchChunk.first_line)
        .where(BatchChunk.batch_id.in_(sorted(batch_ids)))
        .order_by(BatchChunk.batch_id, BatchChunk.first_line)
    )
    for b, first in rows:
        starts[b].append(int(first))
    return starts


def _chunk_of(starts: list[int], line: int) -> int:
    """The first line of the ledger chunk that holds ``line``; 0 when none can (a batch
    without a ledger, or a line before its first chunk). Reconcile checks the line against
    the chunk's end."""
    i = bisect.bisect_right(starts, line) - 1
    return starts[i] if i >= 0 else 0


def id_ranges(ids: Iterable[int]) -> list[list[int]]:
    """Ids as [first, last] runs: a chunk's rows are mostly consecutive ids."""
    out: list[list[int]] = []
    for n in sorted(ids):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def _delete_chunk(
    conn: Connection,
    ids: list[int],
    status: str,
    purge_id: int | None,
    run: _Run,
) -> tuple[int | None, _Tally]:
    """Delete the rows of ``ids`` that are still ``status``, and their events, and record
    them in the ``purges`` row and in a ``purged`` event, all in the caller's transaction:
    the purge's id (None while nothing went) and what went."""
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
    # A resolved row's line of the re-drive that resolved it (its ``resolved`` event) goes
    # with it; the run itself stays, the record of what else it did.
    conn.execute(
        delete(Resolution).where(Resolution.dead_letter_id.in_(select(dl.id).where(*still)))
    )
    # An imported row's origin stays, without its row: its identity is what keeps a later
    # import from bringing the purged letter back (connectors/importing.py).
    conn.execute(
        update(Origin)
        .where(Origin.dead_letter_id.in_(select(dl.id).where(*still)))
        .values(dead_letter_id=None)
    )
    discarded: dict[int, Any] = {}
    for dl_id, action, at in events:
        if action == AuditAction.DISCARDED and dl_id is not None:
            discarded[dl_id] = max(at, discarded.get(dl_id, at))
    # The deleted rows leave their cells in the summary (``counts``): counted while locked.
    cells_before = summary.cells_of(conn, still)
    gone = conn.execute(
        delete(dl)
        .where(*still)
        .returning(dl.id, dl.batch_id, dl.line, dl.first_failed_at, dl.error_class, dl.resolved_at)
    ).all()
    summary.moved(conn, still, cells_before)
    chunk = _Tally()
    if not gone:
        return purge_id, chunk
    starts = _chunk_starts(conn, {str(r.batch_id) for r in gone})
    for r in gone:
        closed = r.resolved_at if status == Status.RESOLVED else discarded.get(int(r.id))
        chunk.add(status, r.first_failed_at, r.error_class, closed)
        chunk.add_line(str(r.batch_id), _chunk_of(starts[str(r.batch_id)], int(r.line)), status)
        chunk.ids.append(int(r.id))
    # The purges row and the event are written with the rows they record, so that both are
    # right even if the purge is killed after this chunk.
    if purge_id is None:
        purge_id = int(
            conn.execute(
                insert(Purge)
                .values(
                    at=utcnow(),
                    actor=run.actor,
                    statuses=",".join(run.statuses),
                    cutoff=run.cutoff,
                    rows=0,
                    by_day="{}",
                    by_batch="{}",
                )
                .returning(Purge.id)
            ).scalar_one()
        )
    current = conn.execute(
        select(Purge.rows, Purge.by_day, Purge.by_batch).where(Purge.id == purge_id)
    ).one()
    by_day: ByDay = orjson.loads(current.by_day)
    _add_counts(by_day, chunk.by_day)
    by_batch: ByBatch = orjson.loads(current.by_batch or "{}")
    for batch_id, per_chunk in chunk.by_batch.items():
        _add_counts(by_batch.setdefault(batch_id, {}), per_chunk)
    conn.execute(
        update(Purge)
        .where(Purge.id == purge_id)
        .values(
            rows=int(current.rows) + chunk.rows,
            by_day=orjson.dumps(_sorted(by_day)).decode(),
            by_batch=orjson.dumps(
                {b: _sorted(c, key=int) for b, c in sorted(by_batch.items())}
            ).decode(),
        )
    )
    detail = {
        "purge_id": purge_id,
        "rows": chunk.rows,
        "by_status": chunk.by_status,
        "ids": id_ranges(chunk.ids),
        "by_batch": {
            b: sum(n for c in p.values() for n in c.values())
            for b, p in sorted(chunk.by_batch.items())
        },
        "cutoff": iso(run.cutoff),
        "older_than_days": run.days,
        "closed_by_day": chunk.sorted_closed(),
    }
    if run.batch_id is not None:
        detail["batch"] = run.batch_id
    # About the store, not a row: dead_letter_id stays NULL.
    conn.execute(
        insert(AuditEvent).values(
            dead_letter_id=None,
            at=utcnow(),
            actor=run.actor,
            action=AuditAction.PURGED.value,
            detail=orjson.dumps(detail).decode(),
        )
    )
    return purge_id, chunk


def _add_counts(into: dict[str, dict[str, int]], more: dict[str, dict[str, int]]) -> None:
    for key, counts in more.items():
        per = into.setdefault(key, {})
        for name, n in counts.items():
            per[name] = per.get(name, 0) + n


def _sorted(counts: dict[str, dict[str, int]], key: Any = None) -> dict[str, dict[str, int]]:
    return {
        k: dict(sorted(c.items()))
        for k, c in sorted(counts.items(), key=(lambda kv: key(kv[0])) if key else None)
    }


def _merge(into: _Tally, chunk: _Tally) -> None:
    into.rows += chunk.rows
    for s, n in chunk.by_status.items():
        into.by_status[s] = into.by_status.get(s, 0) + n
    _add_counts(into.by_day, chunk.by_day)
    _add_counts(into.closed, chunk.closed)
    for batch_id, per_chunk in chunk.by_batch.items():
        _add_counts(into.by_batch.setdefault(batch_id, {}), per_chunk)
    into.ids += chunk.ids
