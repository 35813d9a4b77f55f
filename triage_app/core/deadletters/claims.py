"""Claims: a re-drive takes a lease on each row it will transform, renews it just before it
writes the warehouse, and gives it back when a chunk is cancelled or fails.

A claim is one write transaction (PostgreSQL ``FOR UPDATE SKIP LOCKED``; SQLite an immediate
transaction) that leases the waiting rows no live lease holds (``leases.py``). The outcome
of each claimed row is written, and its lease ended, by ``settling.settle``. Claims write
only the lease's columns (``claimed_by``, ``claim_until``), never what a row says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from sqlalchemy import Engine, select, update

from triage_app.core.clock import utcnow
from triage_app.core.db import DeadLetter, working_payload
from triage_app.core.deadletters import leases
from triage_app.core.deadletters.id_sets import id_in
from triage_app.core.deadletters.said import both, headed
from triage_app.core.deadletters.transitions import (
    is_postgresql,
    last_change,
    slices,
    write_transaction,
)
from triage_app.core.messages import N_
from triage_app.core.vocabulary import CLOSED

DL = DeadLetter


class ClaimedRow(NamedTuple):
    """A row a re-drive holds, as it was claimed. A tuple: a whole batch's worth are made."""

    id: int
    line: int
    batch_id: str
    payload: bytes
    kind: str
    attempts: int
    status: str
    version: int


@dataclass(frozen=True)
class Claim:
    """What one claim chunk got: the rows now held, and why the others were not."""

    rows: tuple[ClaimedRow, ...]
    taken: dict[int, str]  # id -> who holds it
    closed: dict[int, str]  # id -> its status (resolved or discarded)
    missing: tuple[int, ...]
    # id -> who changed it, for rows no longer at the version the caller saw (not claimed):
    # a ``Said`` (shown, and kept in English for ``--json``)
    changed: dict[int, str] = field(default_factory=dict)
    # Rows another transaction held locked at that instant (PostgreSQL's SKIP LOCKED passed
    # them by): an edit or another claim in flight. Not taken: worth asking again.
    busy: tuple[int, ...] = ()


# What a claim reads: the guard's columns and what the re-drive transforms.
_CLAIM_STATE = (
    DL.id,
    DL.line,
    DL.batch_id,
    working_payload().label("payload"),
    DL.payload_kind,
    DL.attempts,
    DL.status,
    DL.version,
    DL.claimed_by,
    DL.claim_until,
)


def claim(
    engine: Engine, ids: Sequence[int], token: str, expected: Mapping[int, int] | None = None
) -> Claim:
    """Take a lease on each waiting row of ``ids`` that no other re-drive holds. Any number
    of ids: they are read and leased in slices, all in one transaction. With ``expected``
    (id -> the version a steward was shown), a row no longer at that version is not claimed
    but reported ``changed``: what was confirmed is not what is there now."""
    part = sorted(set(ids))
    taken: dict[int, str] = {}
    closed: dict[int, str] = {}
    changed: dict[int, str] = {}
    mine: list[ClaimedRow] = []
    missing: list[int] = []
    busy: list[int] = []
    with write_transaction(engine) as conn:
        now = utcnow()
        until = now + leases.lease()
        dead: dict[str, bool] = {}  # a holder's liveness, asked once per claim
        for ids_slice in slices(part):
            # Rows another transaction is locking right now are skipped, not waited for:
            # they are busy. Rows that do not exist are missing.
            stmt = select(*_CLAIM_STATE).where(id_in(conn, ids_slice)).order_by(DL.id)
            if is_postgresql(conn):
                stmt = stmt.with_for_update(skip_locked=True)
            seen: set[int] = set()
            got: list[int] = []
            for row in conn.execute(stmt).all():  # one fetch, not one per row
                dl_id = row[0]
                seen.add(dl_id)
                holder = row.claimed_by
                seen_version = expected.get(dl_id) if expected is not None else None
                if row.status in CLOSED:
                    closed[dl_id] = row.status
                elif seen_version is not None and row.version != seen_version:
                    changed[dl_id] = headed(
                        both(
                            N_("changed since version {seen} ({change})"),
                            seen=seen_version,
                            change=last_change(conn, dl_id),
                        ),
                        both(N_("changed since version {seen}"), seen=seen_version),
                    )
                elif (
                    holder is not None
                    and holder != token
                    and row.claim_until is not None
                    and row.claim_until > now
                    and not _dead(holder, dead)
                ):
                    taken[dl_id] = leases.holder(holder)
                else:
                    mine.append(ClaimedRow._make(row[:8]))
                    got.append(dl_id)
            if got:
                conn.execute(
                    update(DL).where(id_in(conn, got)).values(claimed_by=token, claim_until=until)
                )
            unseen = [i for i in ids_slice if i not in seen]
            if unseen:
                # Skipped by SKIP LOCKED (another claim in flight) or not there at all.
                present = set(conn.execute(select(DL.id).where(DL.id.in_(unseen))).scalars())
                for i in unseen:
                    if i in present:
                        busy.append(i)
                    else:
                        missing.append(i)
    return Claim(tuple(mine), taken, closed, tuple(missing), changed, tuple(busy))


def _dead(holder: str, cache: dict[str, bool]) -> bool:
    if holder not in cache:
        cache[holder] = leases.holder_is_dead(holder)
    return cache[holder]


def renew(engine: Engine, ids: Sequence[int], token: str) -> set[int]:
    """Extend the lease on the rows still ours; which those are. Called just before the
    warehouse is written, so that a lease never runs out between the two databases. A
    lease of ours that ran out is taken again if nobody changed the row meanwhile: every
    change that crosses a lease that ran out ends it (``claimed_by`` cleared or replaced),
    so a row still marked ours is as we claimed it. Nothing was loaded yet: no risk."""
    if not ids:
        return set()
    mine: set[int] = set()
    with write_transaction(engine) as conn:
        now = utcnow()
        for part in slices(sorted(set(ids))):
            held = (id_in(conn, part), DL.claimed_by == token)
            done = conn.execute(update(DL).where(*held).values(claim_until=now + leases.lease()))
            if done.rowcount == len(part):  # the usual case: every one still ours
                mine.update(part)
                continue
            # Some were lost: which ones still are ours (just renewed).
            mine.update(conn.execute(select(DL.id).where(*held)).scalars())
    return mine


def release(engine: Engine, ids: Sequence[int], token: str) -> None:
    """Give back the leases still held on ``ids`` (a cancelled or failed chunk)."""
    if not ids:
        return
    with write_transaction(engine) as conn:
        for part in slices(sorted(set(ids))):
            conn.execute(
                update(DL)
                .where(id_in(conn, part), DL.claimed_by == token)
                .values(claimed_by=None, claim_until=None)
            )
