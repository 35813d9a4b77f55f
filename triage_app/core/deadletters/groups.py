"""Working the backlog as a team (issue 13): each error group (the dead letters of one
signature) can have an owner, tags ("needs source fix", "waiting on vendor", anything) and
a note, beside its counts and the age of its oldest open row.

A change is guarded as a dead letter's is: by the version its steward saw (``if_version``),
refused otherwise with who changed the group and when; and each change appends an audit
event (``group``, about the store rather than one row) saying what changed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, Row, case, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from triage_app.core import text_input
from triage_app.core.clock import iso, utcnow
from triage_app.core.db import (
    DeadLetter,
    ErrorGroupNotes,
    Signature,
    Workspace,
    actor_for,
    event_insert,
    signature_id_of,
)
from triage_app.core.deadletters import transitions
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import AuditAction, Status

SORTS = ("open", "oldest", "count", "owner")
# Offered when tagging, beside the tags already in use: the two states a group waits in.
SUGGESTED_TAGS = ("needs source fix", "waiting on vendor")
UNCHANGED: Any = object()  # set_group: leave the owner as it is


@dataclass(frozen=True)
class GroupInfo:
    signature: str
    error_class: str
    count: int
    open: int
    oldest_open: dt.datetime | None  # the first failure of its oldest open row
    owner: str | None
    tags: tuple[str, ...]
    note: str
    version: int  # 0: nobody has owned, tagged or noted it yet

    def age(self, now: dt.datetime) -> dt.timedelta | None:
        return None if self.oldest_open is None else now - self.oldest_open

    def to_json(self, now: dt.datetime | None = None) -> dict[str, Any]:
        age = self.age(now or utcnow())
        return {
            "signature": self.signature,
            "class": self.error_class,
            "count": self.count,
            "open": self.open,
            "oldest_open": iso(self.oldest_open) if self.oldest_open else None,
            "oldest_open_days": None if age is None else round(age.total_seconds() / 86400, 1),
            "owner": self.owner,
            "tags": list(self.tags),
            "note": self.note,
            "version": self.version,
        }


def list_groups(
    ws: Workspace,
    *,
    owner: str | None = None,
    tag: str | None = None,
    sort: str = "open",
    signature: str | None = None,
) -> list[GroupInfo]:
    """Every error group with its counts, oldest open row, owner, tags and note; only those
    ``owner`` owns or tagged ``tag``, or the one of ``signature``, when given. ``sort``:
    most open, oldest open row first, largest, or by owner."""
    if sort not in SORTS:
        raise TriageError(f"unknown sort {sort!r}: use one of {', '.join(SORTS)}")
    dl = DeadLetter
    is_open = dl.status == Status.OPEN.value
    # Grouped along ix_dl_cube (class, signature, status, ...): the index alone answers.
    stmt = select(
        dl.error_class,
        dl.signature_id,
        func.count(),
        func.sum(case((is_open, 1), else_=0)),
        func.min(case((is_open, dl.first_failed_at), else_=None)),
    ).group_by(dl.error_class, dl.signature_id)
    texts_stmt = select(Signature.id, Signature.text)
    if signature is not None:  # one group: its rows alone, along the signature's index
        stmt = stmt.where(dl.signature_id == signature_id_of(signature))
        texts_stmt = texts_stmt.where(Signature.text == signature)
    with ws.store.connect() as conn:
        counted = conn.execute(stmt).all()
        texts = dict(conn.execute(texts_stmt).all())
        notes = {r.signature_id: r for r in conn.execute(select(ErrorGroupNotes))}
    groups = []
    for cls, sig_id, count, open_, oldest in counted:
        n = notes.get(sig_id)
        tags = tuple(orjson.loads(n.tags)) if n is not None else ()
        if owner is not None and (n.owner if n is not None else None) != (owner or None):
            continue  # owner NOBODY ("") keeps the groups nobody owns
        if tag is not None and tag not in tags:
            continue
        groups.append(
            GroupInfo(
                texts[sig_id],
                cls,
                int(count),
                int(open_ or 0),
                oldest,
                n.owner if n is not None else None,
                tags,
                n.note if n is not None else "",
                int(n.version) if n is not None else 0,
            )
        )
    far = dt.datetime.max
    keys = {
        "open": lambda g: (-g.open, -g.count, g.signature),
        "oldest": lambda g: (g.oldest_open or far, g.signature),
        "count": lambda g: (-g.count, g.signature),
        "owner": lambda g: (g.owner is None, g.owner or "", -g.open, g.signature),
    }
    return sorted(groups, key=keys[sort])


def team_labels(ws: Workspace) -> tuple[list[str], list[str]]:
    """The owners and the tags in use (with the suggested tags), each sorted: what the
    pickers offer."""
    with ws.store.connect() as conn:
        rows = conn.execute(select(ErrorGroupNotes.owner, ErrorGroupNotes.tags)).all()
    owners = {owner for owner, _tags in rows if owner}
    tags = set(SUGGESTED_TAGS).union(*(orjson.loads(t) for _o, t in rows))
    return sorted(owners, key=str.casefold), sorted(tags, key=str.casefold)


def set_group(
    ws: Workspace,
    signature: str,
    *,
    owner: Any = UNCHANGED,
    add_tags: Sequence[str] = (),
    remove_tags: Sequence[str] = (),
    note: str | None = None,
    if_version: int | None = None,
    actor: str | None = None,
) -> GroupInfo:
    """Change a group's owner (None: nobody), tags or note, audited; with ``if_version``,
    refused when the group has moved on since. The group as it is now."""
    actor = actor or actor_for(ws.store)
    # Checked before anything is written: controls refused, the limits (text_input.LIMITS).
    add = [t for t in map(text_input.tag, add_tags) if t]
    owner = text_input.owner(owner) if isinstance(owner, str) else owner
    note = None if note is None else text_input.note(note)
    with transitions.write_transaction(ws.store) as conn:
        now = utcnow()
        sig_id = conn.execute(
            select(Signature.id).where(Signature.text == signature)
        ).scalar_one_or_none()
        if sig_id is None:
            raise TriageError(f"no error group with the signature {signature!r}")
        row = _locked_row(conn, sig_id, now, actor)
        version = int(row.version)
        if if_version is not None and if_version != version:
            # Version 0 is the row this transaction made: nobody changed the group yet.
            who = f" (by {row.changed_by} at {iso(row.changed_at)})" if version else ""
            raise TriageError(
                f"the error group changed since version {if_version}{who}; "
                f"it is now version {version}"
            )
        before_owner = row.owner
        before_tags = set(orjson.loads(row.tags))
        before_note = row.note
        new_owner = before_owner if owner is UNCHANGED else (owner.strip() if owner else None)
        new_tags = (before_tags | set(add)) - {t.strip() for t in remove_tags}
        new_note = before_note if note is None else note.strip()
        said = _changes(before_owner, new_owner, before_tags, new_tags, before_note, new_note)
        if not said:
            raise TriageError("nothing to change: the group is like that already")
        values = {
            "owner": new_owner,
            "tags": orjson.dumps(sorted(new_tags)).decode(),
            "note": new_note,
            "version": version + 1,
            "changed_at": now,
            "changed_by": actor,
        }
        done = conn.execute(
            update(ErrorGroupNotes)
            .where(ErrorGroupNotes.signature_id == sig_id, ErrorGroupNotes.version == version)
            .values(**values)
        )
        if done.rowcount != 1:  # cannot happen under the lock; never write blind
            raise TriageError("the error group changed while it was being changed")
        conn.execute(
            event_insert(),
            {
                "dead_letter_id": None,
                "at": now,
                "actor": actor,
                "action": AuditAction.GROUP.value,
                "detail": f"group {signature}: {said}",
                "version": version + 1,
                "replaced_payload": None,
            },
        )
    # The group as it is now: its own rows counted, not every group's.
    found = next(iter(list_groups(ws, signature=signature)), None)
    if found is None:  # the group emptied (purged) meanwhile: say what was written
        raise TriageError(f"the error group {signature!r} has no dead letters now")
    return found


def _locked_row(conn: Connection, sig_id: int, now: dt.datetime, actor: str) -> Row[Any]:
    """The group's row, locked until the transaction ends; a group nobody touched yet gets
    one at version 0, in this transaction only: a refusal rolls it back, so an untouched
    group still has no row. Inserting first, with ON CONFLICT DO NOTHING, is what makes
    the first change race-free on PostgreSQL: a SELECT ... FOR UPDATE that finds no row
    locks nothing, and eight processes setting a new group's owner at once each inserted
    it, all but one failing on the primary key (issue 21). The insert waits for another
    transaction's uncommitted row and then finds it; the row lock serialises the rest, so
    ``if_version`` is checked against the version each change really replaces. SQLite's
    BEGIN IMMEDIATE already serialises the whole transaction; the same statements serve."""
    placeholder = {
        "signature_id": sig_id,
        "owner": None,
        "tags": "[]",
        "note": "",
        "version": 0,
        "changed_at": now,
        "changed_by": actor,
    }
    if conn.dialect.name == "postgresql":
        add: Any = pg_insert(ErrorGroupNotes).values(placeholder).on_conflict_do_nothing()
    else:
        add = sqlite_insert(ErrorGroupNotes).values(placeholder).on_conflict_do_nothing()
    conn.execute(add)
    lock = select(ErrorGroupNotes).where(ErrorGroupNotes.signature_id == sig_id)
    if conn.dialect.name == "postgresql":
        lock = lock.with_for_update()
    return conn.execute(lock).one()


def _changes(
    owner0: str | None,
    owner1: str | None,
    tags0: set[str],
    tags1: set[str],
    note0: str,
    note1: str,
) -> str:
    said = []
    if owner0 != owner1:
        said.append(f"owner {owner0 or 'nobody'} -> {owner1 or 'nobody'}")
    said += [f"tag + {t}" for t in sorted(tags1 - tags0)]
    said += [f"tag - {t}" for t in sorted(tags0 - tags1)]
    if note0 != note1:
        said.append(f"note: {note1[:80]}" if note1 else "note removed")
    return "; ".join(said)
