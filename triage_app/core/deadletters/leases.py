"""Leases: how a re-drive holds the rows it works on, and whether a lease still holds.

A lease is two columns of the row: ``claimed_by``, a token naming the re-drive, its process
and its actor, and ``claim_until``. While it holds, no edit or status change applies to the
row (``transitions.refusal``), so the payload a re-drive transforms is the payload that
resolves the row. It holds until it runs out (``lease()`` after it was taken or renewed) or
until its process is found gone on this machine: a killed re-drive never strands its rows.
Taking, renewing and giving back leases is ``claims.py``; this module only reads them.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import uuid
from typing import Any

from sqlalchemy import Row, or_
from sqlalchemy.sql.elements import ColumnElement

from triage_app.core.db import DeadLetter

DL = DeadLetter

LEASE_ENV = "TRIAGE_LEASE_SECONDS"
DEFAULT_LEASE_SECONDS = 300  # far longer than one claim chunk takes; short enough to recover


def lease() -> dt.timedelta:
    """How long a claim holds its rows (``TRIAGE_LEASE_SECONDS``, for the tests' sake)."""
    return dt.timedelta(seconds=float(os.environ.get(LEASE_ENV, DEFAULT_LEASE_SECONDS)))


def new_token(actor: str) -> str:
    """Who holds a claim: unique per re-drive, with the process that holds it (so that a
    killed re-drive's rows are free at once on its own machine), readable in refusals."""
    return f"{uuid.uuid4().hex[:12]} {socket.gethostname()}:{os.getpid()} {actor}"[:100]


def holder(claimed_by: str) -> str:
    """People only need the actor of a claim token."""
    parts = claimed_by.split(" ", 2)
    return parts[2] if len(parts) == 3 else claimed_by


def holder_is_dead(claimed_by: str) -> bool:
    """The claim's process ran on this machine and is gone: its lease is void. (Elsewhere
    only the lease's expiry can tell.)"""
    parts = claimed_by.split(" ", 2)
    host, _, pid = parts[1].rpartition(":") if len(parts) >= 2 else ("", "", "")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, owned by someone else
        return False
    return False


def free(now: dt.datetime, void: str | None = None) -> ColumnElement[bool]:
    """No lease runs on the row, or only ``void``: one whose process is gone (``held``)."""
    unleased = or_(DL.claim_until.is_(None), DL.claim_until <= now)
    return unleased if void is None else or_(unleased, DL.claimed_by == void)


def void_holder(row: Row[Any], now: dt.datetime) -> str | None:
    """The token of a lease still running on ``row`` whose process is gone (a re-drive
    killed on this machine): void, so a change may cross it. None otherwise."""
    if row.claimed_by is None or row.claim_until is None or row.claim_until <= now:
        return None
    return row.claimed_by if holder_is_dead(row.claimed_by) else None


def held(row: Row[Any], now: dt.datetime, by_other_than: str | None = None) -> bool:
    """A lease runs on ``row`` (read with ``claimed_by`` and ``claim_until``) that is not
    ``by_other_than``'s, and its process may still be alive: no change may cross it."""
    return (
        row.claimed_by is not None
        and row.claim_until is not None
        and row.claim_until > now
        and row.claimed_by != by_other_than
        and not holder_is_dead(row.claimed_by)
    )


def still_held(row: Row[Any], token: str, now: dt.datetime) -> bool:
    """``token``'s lease on ``row`` has not run out."""
    return row.claimed_by == token and row.claim_until is not None and row.claim_until > now
