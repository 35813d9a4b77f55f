"""A dead letter's events as a reader asks for them: the stored ones (``audit_events``) and
those its set records stand for, expanded here and nowhere else.

A batch is the set record of the rows it quarantined (schema 0007): such a row has no
stored ``quarantined`` event, and its event is made from the row (class, error) and its
batch (transform, actor), at its ``first_failed_at``, version 1. A re-drive is one
``redrive_runs`` row, and each row it resolved one ``resolutions`` line: the row's
``resolved`` event is made from the two, at its ``resolved_at``. Old stores keep their
stored events; synthesis only stands in for a row that has no stored ``quarantined``
event (a re-drive before 0007 left no ``resolutions`` line, so there is nothing to
synthesize). A change that overwrites what a synthesized event is made of (a re-drive's
failure, a reclassify) first stores the row's real event (``keep_quarantined``).

A fix applied to many rows is one ``change_sets`` row, and each row it changed one
``change_set_rows`` line (schema 0010): the row's ``edited`` event is made from the two, at
the change-set's time, replacing the payload from before. A revert run is one
``change_set_reverts`` row, and a line it restored names it and keeps the payload it
replaced: that row's second ``edited`` event. Change-sets from before 0010 keep their
stored events (``change_set_records_from``).

Each branch is read newest first along an index, at most as far as a page needs:
stored events along ``ix_event_at`` (``ix_event_action_at`` for an action, ``ix_event_dl``
for a row), quarantined rows along ``ix_dl_first_failed``, resolved ones along
``ix_dl_resolved`` (each with a primary-key lookup of ``resolutions`` and its run). A
synthesized event has a negative id, fixed by its row (``2 * id - 2**62`` quarantined,
one more resolved): pages are stable, (at desc, id desc) is a total order, and a branch's
index (time, then row id) gives its events in that order. A change-set's and its revert's
are ``2 * id - 2**61`` and one more, walked along ``ix_change_sets_at`` (then the lines'
primary key) and ``ix_change_set_reverts_at`` (then ``ix_change_set_rows_reverted``); two
change-sets of one row at one microsecond are the only tie, and cannot both apply.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Integer,
    LargeBinary,
    Select,
    String,
    Text,
    cast,
    func,
    insert,
    literal,
    null,
    select,
)

from triage_app.core.db import (
    AuditEvent,
    Batch,
    ChangeSet,
    ChangeSetRevert,
    ChangeSetRow,
    DeadLetter,
    RedriveRun,
    Resolution,
    StoreSetting,
    signature_text,
)
from triage_app.core.deadletters.filters import contains_text
from triage_app.core.deadletters.id_sets import id_in
from triage_app.core.vocabulary import AuditAction

DL = DeadLetter
AnySelect = Select[*tuple[Any, ...]]
_QUARANTINED = AuditAction.QUARANTINED.value
_RESOLVED = AuditAction.RESOLVED.value
_EDITED = AuditAction.EDITED.value
# The columns every branch yields, in this order.
COLUMNS = ("id", "at", "actor", "action", "dead_letter_id", "detail", "version", "replaced_payload")
# Below every stored id (positive) and rising with the row's id.
SYNTHESIZED_IDS = -(2**62)
UNKNOWN_ACTOR = "unknown"  # a batch that never named who ran it (cannot happen since 0007)
# The store setting the upgrade to 0007 leaves: the first dead-letter id it did not see.
# Every row below it has its ``quarantined`` event stored, so synthesis skips them without
# asking: a store upgraded with ten million rows and a few new ones would otherwise probe
# every old row for its event to fill one page.
SET_RECORDS_FROM = "set_records_from"
# Below every set-wise quarantined or resolved id, rising with the row's id.
CHANGE_SET_IDS = -(2**61)
# The store setting the upgrade to 0010 leaves: the first change-set whose lines are its
# rows' events; those before have them stored.
CHANGE_SET_RECORDS_FROM = "change_set_records_from"


def _id_setting(key: str) -> Any:
    """A store setting that names where set records begin, as an integer (0 when the
    store was made with them and has none): one lookup, made once per statement."""
    value = select(cast(StoreSetting.value, BigInteger())).where(StoreSetting.key == key)
    return func.coalesce(value.scalar_subquery(), 0)


def _first_set_wise() -> Any:
    """The first dead-letter id a batch may stand for (0 on a store made at 0007 or later)."""
    return _id_setting(SET_RECORDS_FROM)


def set_wise_from(conn: Connection) -> int | None:
    """The first id a batch may stand for, or None when no row has come since the upgrade
    (the trail then has no synthesized ``quarantined`` event to walk for): two lookups."""
    first = int(conn.execute(select(_first_set_wise())).scalar_one())
    newest = conn.execute(select(func.max(DL.id))).scalar()
    return first if newest is not None and int(newest) >= first else None


ASK = -1  # ``branches``: read the first set-wise id in the statement itself


def _set_wise(dl_id: Any, first: int = ASK) -> Any:
    # ``+ 0``: a condition the walk along the time index checks on each entry, never one
    # that makes SQLite read the new rows by id and then sort them all.
    return (dl_id + 0) >= (_first_set_wise() if first == ASK else first)


def _stored_quarantined(dl_id: Any, by_row: bool = False) -> Any:
    """Whether the row has its ``quarantined`` event stored. ``by_row``: along the row's own
    events (ix_event_dl), the action checked on each (``concat``: no index serves it), for
    SQLite: without statistics it chose the action's index and read every stored
    ``quarantined`` event per row, so a re-drive of 100,000 failing rows, whose settles store
    one such event per row (``keep_quarantined``), slowed with each chunk, to minutes per
    chunk of 8,000."""
    e = AuditEvent.__table__.alias("stored_q")
    action = e.c.action.concat("") if by_row else e.c.action
    return select(e.c.id).where(e.c.dead_letter_id == dl_id, action == _QUARANTINED).exists()


def _of_batch(column: Any) -> Any:
    # A primary-key lookup per row, whatever the planner thinks of a small table's size.
    return select(column).where(Batch.batch_id == DL.batch_id).scalar_subquery()


def _batch_actor() -> Any:
    return func.coalesce(_of_batch(Batch.actor), UNKNOWN_ACTOR)


def _quarantined_detail() -> Any:
    # As quarantine wrote it: "code via pesanan@1: TypeError: ...", the error that made the
    # row (the signature when the row keeps no text of its own).
    error = func.coalesce(DL.error, signature_text())
    return DL.error_class + " via " + _of_batch(Batch.transform) + ": " + error


def synthesized_quarantined(first: int = ASK, by_row: bool = False) -> AnySelect:
    """The ``quarantined`` event of each row that has none stored, made from the row and
    its batch (rows from ``first`` on); unfiltered and unordered. ``by_row``: see
    ``_stored_quarantined``."""
    return (
        select(
            (DL.id * 2 + SYNTHESIZED_IDS).label("id"),
            DL.first_failed_at.label("at"),
            _batch_actor().label("actor"),
            literal(_QUARANTINED, String()).label("action"),
            DL.id.label("dead_letter_id"),
            _quarantined_detail().label("detail"),
            literal(1, Integer()).label("version"),  # a dead letter is born at version 1
            cast(null(), LargeBinary()).label("replaced_payload"),
        )
        .select_from(DL)
        .where(_set_wise(DL.id, first), ~_stored_quarantined(DL.id, by_row))
    )


def synthesized_resolved() -> AnySelect:
    """The ``resolved`` event of each row a re-drive resolved since 0007, made from its
    ``resolutions`` line and its run; unfiltered and unordered."""
    run = RedriveRun
    return (
        select(
            (DL.id * 2 + (SYNTHESIZED_IDS + 1)).label("id"),
            DL.resolved_at.label("at"),
            run.actor.label("actor"),
            literal(_RESOLVED, String()).label("action"),
            DL.id.label("dead_letter_id"),
            (literal("re-driven with ", Text()) + run.transform).label("detail"),
            Resolution.version.label("version"),
            cast(null(), LargeBinary()).label("replaced_payload"),
        )
        .select_from(DL)
        .join(Resolution, Resolution.dead_letter_id == DL.id)
        .join(run, run.id == Resolution.run_id)
        .where(DL.resolved_at.is_not(None))
    )


def _change_sets_from() -> Any:
    return _id_setting(CHANGE_SET_RECORDS_FROM)


def change_set_records_from(conn: Connection) -> int:
    """The first change-set whose lines stand for its rows' ``edited`` events (0: all)."""
    return int(conn.execute(select(_change_sets_from())).scalar_one())


def _original(dl_id: Any) -> Any:
    # A primary-key lookup per line: joined, SQLite would walk the dead letters instead.
    return select(DL.original_payload).where(DL.id == dl_id).scalar_subquery()


def _edited(
    ids_from: int, at: Any, actor: Any, detail: str, version: Any, replaced: Any
) -> AnySelect:
    """An ``edited`` event per change-set line: ``detail`` and the change-set's id begin
    it, as the events stored before 0010 did."""
    cs, line = ChangeSet, ChangeSetRow
    return select(
        (line.dead_letter_id * 2 + ids_from).label("id"),
        at.label("at"),
        actor.label("actor"),
        literal(_EDITED, String()).label("action"),
        line.dead_letter_id.label("dead_letter_id"),
        (
            literal(detail, Text()) + cast(cs.id, Text()) + literal(": ", Text()) + cs.description
        ).label("detail"),
        version.label("version"),
        replaced.label("replaced_payload"),
    )


def synthesized_fixed() -> AnySelect:
    """The ``edited`` event of each row a change-set (since 0010) changed, made from its
    line and the change-set; unfiltered and unordered."""
    cs, line = ChangeSet, ChangeSetRow
    before = func.coalesce(line.payload_before, _original(line.dead_letter_id))
    return (
        _edited(CHANGE_SET_IDS, cs.at, cs.actor, "change-set ", line.version_after, before)
        # ``+ 0``: SQLite cannot look a change-set up from a line, so it walks the
        # change-sets along ix_change_sets_at and each one's lines by the primary key,
        # never every line read and then sorted; the change-sets from before 0010 are
        # checked on the way.
        .select_from(cs)
        .join(line, line.change_set_id == cs.id + 0)
        .where((cs.id + 0) >= _change_sets_from())
    )


def synthesized_reverted() -> AnySelect:
    """The ``edited`` event of each row a change-set's revert restored, made from its line
    and the revert run; unfiltered and unordered."""
    cs, run, line = ChangeSet, ChangeSetRevert, ChangeSetRow
    return (
        _edited(
            CHANGE_SET_IDS + 1,
            run.at,
            run.actor,
            "revert of change-set ",
            line.version_after + 1,
            line.payload_reverted,
        )
        .select_from(run)
        .join(line, line.reverted_in == run.id)
        .join(cs, cs.id == run.change_set_id)
    )


def stored() -> AnySelect:
    e = AuditEvent
    return select(
        e.id, e.at, e.actor, e.action, e.dead_letter_id, e.detail, e.version, e.replaced_payload
    )


@dataclass(frozen=True)
class Branch:
    """One branch of the trail, filtered: its events, the time and id columns its index
    gives them in, and how many there are (a scalar subquery)."""

    events: AnySelect
    at: Any
    # The columns after ``at`` its index gives its events in; the last rises with the id.
    keys: tuple[Any, ...]
    # Counts whose sum (signed) is how many events it holds, each a statement of its own.
    how_many: tuple[tuple[int, AnySelect], ...]


def _how_many(events: AnySelect) -> tuple[tuple[int, AnySelect], ...]:
    return ((1, select(func.count()).select_from(events.subquery())),)


def _quarantined_count(
    since: dt.datetime | None, actor: str | None, dead_letter_id: int | None, first: int
) -> tuple[tuple[int, AnySelect], ...]:
    """How many synthesized ``quarantined`` events match: the matching rows less those of
    them with a stored one. Two index counts, where asking each row whether it has a
    stored event would probe every row of the store. A stored ``quarantined`` event is at
    its row's ``first_failed_at`` (quarantine wrote both with one time, and
    ``keep_quarantined`` copies it), so ``since`` narrows both alike."""
    e = AuditEvent
    start = _first_set_wise() if first == ASK else first
    rows: list[Any] = [DL.id >= start]
    kept: list[Any] = [e.action == _QUARANTINED, e.dead_letter_id >= start]
    if since is not None:
        rows.append(DL.first_failed_at >= since)
        kept.append(e.at >= since)
    if dead_letter_id is not None:
        rows.append(DL.id == dead_letter_id)
        kept.append(e.dead_letter_id == dead_letter_id)
    if actor:
        # Who ran the batch: a few batches, then their rows along ix_dl_batch_id.
        ran = select(Batch.batch_id).where(
            contains_text(func.coalesce(Batch.actor, UNKNOWN_ACTOR), actor)
        )
        rows.append(DL.batch_id.in_(ran))
        kept.append(e.dead_letter_id.in_(select(DL.id).where(DL.batch_id.in_(ran))))
    made = select(func.count()).select_from(DL).where(*rows)
    return ((1, made), (-1, select(func.count()).select_from(e).where(*kept)))


def branches(
    *,
    since: dt.datetime | None = None,
    actor: str | None = None,
    action: str | None = None,
    dead_letter_id: int | None = None,
    first: int | None = ASK,
) -> list[Branch]:
    """Each branch of the trail that can hold a matching event, filtered. ``action`` is a
    stored action's text; ``first`` what ``set_wise_from`` says (None: no row a batch
    stands for), or ASK."""
    e = AuditEvent
    out: list[Branch] = []
    where: list[Any] = []
    if since is not None:
        where.append(e.at >= since)
    if action is not None:
        where.append(e.action == action)
    if dead_letter_id is not None:
        where.append(e.dead_letter_id == dead_letter_id)
    if actor:
        where.append(contains_text(e.actor, actor))
    kept = stored().where(*where)
    out.append(Branch(kept, e.at, (e.id,), _how_many(kept)))
    asked = (since, actor, dead_letter_id)
    if action in (None, _QUARANTINED) and first is not None:
        q = _narrowed(
            synthesized_quarantined(first), DL.first_failed_at, DL.id, _batch_actor(), *asked
        )
        how_many = _quarantined_count(since, actor, dead_letter_id, first)
        out.append(Branch(q, DL.first_failed_at, (DL.id,), how_many))
    if action in (None, _RESOLVED):
        r = _narrowed(synthesized_resolved(), DL.resolved_at, DL.id, RedriveRun.actor, *asked)
        out.append(Branch(r, DL.resolved_at, (DL.id,), _how_many(r)))
    if action in (None, _EDITED):  # change-sets' and their reverts' edits
        line = ChangeSetRow
        for events, record in (
            (synthesized_fixed(), ChangeSet),
            (synthesized_reverted(), ChangeSetRevert),
        ):
            edits = _narrowed(events, record.at, line.dead_letter_id, record.actor, *asked)
            keys = (record.id, line.dead_letter_id)
            out.append(Branch(edits, record.at, keys, _how_many(edits)))
    return out


def _narrowed(
    events: AnySelect,
    at: Any,
    row: Any,
    who: Any,
    since: dt.datetime | None,
    actor: str | None,
    dead_letter_id: int | None,
) -> AnySelect:
    """A synthesized branch's events narrowed: from ``since`` by its time ``at``, to one
    dead letter by its ``row`` column, to an actor by ``who`` (a substring, any case)."""
    if since is not None:
        events = events.where(at >= since)
    if dead_letter_id is not None:
        events = events.where(row == dead_letter_id)
    if actor:
        events = events.where(contains_text(who, actor))
    return events


def newest_first(parts: list[Branch], first: int) -> AnySelect:
    """The ``first`` newest events of ``parts`` (branches), newest first by (at, id): each
    branch walks its index newest first and stops after ``first``, so only a few pages'
    worth of rows is ever sorted."""
    # A branch's own order: by the columns its index holds (a synthesized event's id rises
    # with its row's, so the tie of two events at one time is broken alike).
    arms = [
        select(
            *(
                b.events.order_by(b.at.desc(), *(k.desc() for k in b.keys))
                .limit(first)
                .subquery(f"branch_{i}")
                .c
            )
        )
        for i, b in enumerate(parts)
    ]
    if len(arms) == 1:
        whole = arms[0].subquery("events")
    else:
        whole = arms[0].union_all(*arms[1:]).subquery("events")
    return select(*whole.c).order_by(whole.c.at.desc(), whole.c.id.desc())


def count(conn: Connection, parts: list[Branch]) -> int:
    """How many events ``parts`` hold in all: a statement per count, each along an index
    (one read transaction on PostgreSQL; SQLite's counts are one snapshot each)."""
    total = 0
    for b in parts:
        for sign, stmt in b.how_many:
            total += sign * int(conn.execute(stmt).scalar_one())
    return total


def row_events(conn: Connection, dl_id: int) -> list[Any]:
    """One dead letter's events, oldest first (by time, then id), stored and synthesized."""
    parts = branches(dead_letter_id=dl_id)
    arms = [b.events for b in parts]
    whole = arms[0].union_all(*arms[1:]).subquery("events")
    stmt = select(*whole.c).order_by(whole.c.at, whole.c.id)
    return list(conn.execute(stmt))


def keep_quarantined(conn: Connection, ids: Sequence[int]) -> int:
    """Store the ``quarantined`` event of each of ``ids`` that has none stored, with the
    values it is synthesized with, before a change overwrites the row's class or error
    (which the synthesized event would then say wrongly). In the caller's transaction;
    how many were stored."""
    if not ids:
        return 0
    sqlite = conn.dialect.name == "sqlite"
    q = synthesized_quarantined(by_row=sqlite).where(id_in(conn, list(ids))).order_by(DL.id)
    cols = [c for c in q.selected_columns if c.name not in ("id", "replaced_payload")]
    made = q.with_only_columns(*cols)
    done = conn.execute(insert(AuditEvent).from_select([c.name for c in cols], made))
    return int(max(done.rowcount, 0))
