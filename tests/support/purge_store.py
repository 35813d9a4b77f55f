"""A store to purge, written straight in with the store filler: dead letters of every status,
each with the audit events its history would have, closed on known days.

    status      how many       closed                      events per row
    resolved    ``resolved``   ``closed_at`` (resolved_at) quarantined, resolved
    discarded   ``discarded``  ``closed_at`` (its event)   quarantined, discarded
    open        ``open``       -                           quarantined
    parked      ``parked``     -                           quarantined, parked

First failures are spread over ``days`` days from ``FIRST_DAY``, classes in rotation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select

from triage_app.core.db import AuditEvent, DeadLetter, Workspace
from triage_app.core.demo import StoreFiller
from triage_app.core.vocabulary import AuditAction, Status

FIRST_DAY = dt.datetime(2026, 1, 5, 9)
CLOSED_AT = dt.datetime(2026, 2, 1, 12)  # long before any test's "now"
CLASSES = ("data", "code", "transient")
BATCH = "0badc0de0badc0de"


@dataclass(frozen=True)
class PurgeStore:
    ids: dict[str, list[int]]  # dead letter ids by status


def fill_purge_store(
    ws: Workspace,
    *,
    resolved: int = 6,
    discarded: int = 4,
    open_: int = 3,
    parked: int = 2,
    days: int = 3,
    closed_at: dt.datetime = CLOSED_AT,
    batch_id: str = BATCH,
) -> PurgeStore:
    plan = [
        (Status.RESOLVED, resolved, AuditAction.RESOLVED),
        (Status.DISCARDED, discarded, AuditAction.DISCARDED),
        (Status.OPEN, open_, None),
        (Status.PARKED, parked, AuditAction.PARKED),
    ]
    total = resolved + discarded + open_ + parked
    ids: dict[str, list[int]] = {s.value: [] for s, _, _ in plan}
    line = 0
    with StoreFiller(ws) as filler:
        filler.batch(batch_id, rows=total * 10, quarantined=total, started_at=FIRST_DAY)
        for status, n, closing in plan:
            for _ in range(n):
                line += 1
                failed = FIRST_DAY + dt.timedelta(days=line % days, minutes=line)
                dl_id = filler.dead_letter(
                    batch_id,
                    line,
                    error=f"DataError: qty tidak valid: -{line}",
                    signature="DataError: qty tidak valid: <n>",
                    error_class=CLASSES[line % 3],
                    status=status,
                    failed_at=failed,
                    resolved_at=closed_at if status == Status.RESOLVED else None,
                )
                ids[status.value].append(dl_id)
                filler.event(dl_id, AuditAction.QUARANTINED, failed)
                if closing is not None:
                    filler.event(dl_id, closing, closed_at, actor="steward", detail="closed")
    return PurgeStore(ids)


def counts(ws: Workspace) -> dict[str, int]:
    """Dead letters by status, and audit events about rows."""
    with ws.store.connect() as conn:
        out = {
            s: int(n)
            for s, n in conn.execute(
                select(DeadLetter.status, func.count()).group_by(DeadLetter.status)
            )
        }
        out["events"] = int(
            conn.execute(
                select(func.count())
                .select_from(AuditEvent)
                .where(AuditEvent.dead_letter_id.is_not(None))
            ).scalar_one()
        )
    return out
