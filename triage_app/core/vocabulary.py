"""The words the store, the CLI and the window share: statuses, error classes, the orders of
error groups, batch states, audit actions, re-drive outcomes and payload kinds.

Each is a ``StrEnum``, so a value compares equal to the text stored in the database and
printed by ``--json``; nothing else in the code spells these words out.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext


class Status(enum.StrEnum):
    """Where a dead letter stands."""

    OPEN = "open"  # waiting for a person or a re-drive
    RESOLVED = "resolved"  # re-driven into the warehouse; kept as history
    PARKED = "parked"  # ran out of attempts, or set aside: needs a person
    DISCARDED = "discarded"  # junk, by a person's decision; kept for the audit


# A filter's "any status": not a status a dead letter can have.
ALL = "all"
# An error group's owner when nobody owns it, in a filter: no steward's name is empty.
NOBODY = ""
STATUS_FILTERS: tuple[str, ...] = (*(s.value for s in Status), ALL)
# Still waiting for a person: the backlog, and the rows a person may edit or re-drive.
WAITING: tuple[Status, ...] = (Status.OPEN, Status.PARKED)
# Closed: no edit, re-drive or status change applies, except that a discarded row may be
# reopened until a retention purge deletes it; the purge takes only closed rows.
CLOSED: tuple[Status, ...] = (Status.RESOLVED, Status.DISCARDED)


class ErrorClass(enum.StrEnum):
    """Who must act on a failure."""

    DATA = "data"  # the payload is wrong: the source fixes and re-sends
    CODE = "code"  # valid data the transform mishandles: the pipeline team fixes it
    TRANSIENT = "transient"  # the infrastructure hiccuped: retry with backoff


CLASSES: tuple[str, ...] = tuple(c.value for c in ErrorClass)


class GroupSort(enum.StrEnum):
    """What error groups are sorted by: ``groups --sort`` offers ``GROUP_SORTS``, the
    window's groups table one per column (``deadletters.sort_groups`` orders by each)."""

    OPEN = "open"  # most open rows first
    OLDEST = "oldest"  # the oldest open row first: the longest wait
    COUNT = "count"  # largest first: the order the groups are counted in
    OWNER = "owner"  # by owner, the unowned last
    SIGNATURE = "signature"
    CLASS = "class"
    RESOLVED = "resolved"
    FIRST_SEEN = "first_seen"
    LAST_SEEN = "last_seen"
    TAGS = "tags"
    NOTE = "note"
    GROWTH = "growth"  # the most new rows in the last 24 h against the 24 h before first


# The orders of ``groups --sort`` (and ``deadletters.error_groups``): a team's backlog.
GROUP_SORTS: tuple[str, ...] = tuple(
    s.value
    for s in (GroupSort.OPEN, GroupSort.OLDEST, GroupSort.COUNT, GroupSort.OWNER, GroupSort.GROWTH)
)


class BatchState(enum.StrEnum):
    RUNNING = "running"  # started, or interrupted: the next run of the same file resumes it
    COMPLETE = "complete"
    # An atomic batch with rows failing: nothing of it is in the warehouse, its healthy rows
    # wait in held_rows until every dead letter is fixed and the whole batch loads at once.
    HELD = "held"
    # An atomic batch a steward discarded whole: its dead letters discarded, its held rows
    # dropped (still counted in ``held``: what it held when it was discarded), nothing loaded.
    DISCARDED = "discarded"


class BatchKind(enum.StrEnum):
    FILE = "file"  # a source file through a transform
    REPROCESS = "reprocess"  # the rows a suspect version wrote, run again through another
    # Dead letters another pipeline made, copied in from its dead-letter queue or table
    # (core/connectors): every row of it is a dead letter, so no quarantine rate is judged.
    IMPORT = "import"


class AuditAction(enum.StrEnum):
    """What an audit event records; every change to a dead letter appends one."""

    QUARANTINED = "quarantined"
    EDITED = "edited"
    RESOLVED = "resolved"
    REDRIVE_FAILED = "redrive_failed"
    PARKED = "parked"
    DISCARDED = "discarded"
    REOPENED = "reopened"
    RECLASSIFIED = "reclassified"
    NOTE = "note"
    PURGED = "purged"  # a retention purge: about the store, not one row (no dead letter)
    GROUP = "group"  # an error group's owner, tags or note changed (no dead letter)
    # A reprocess run finished or stopped: rows of the warehouse changed (no dead letter;
    # the rows it quarantined have the run's quarantined events).
    REPROCESSED = "reprocessed"
    # A re-drive to a broker or an outside table that did not take the payload (a nack, a
    # lost connection): the row stays open, and this says why.
    UNDELIVERED = "undelivered"
    # An import from a connector finished or stopped (no dead letter: its rows' record is
    # their import batch, as a batch's is).
    IMPORTED = "imported"
    # A person was shown a row's personal fields unmasked (issue 27): the detail names them.
    REVEALED = "revealed"
    # A lead gave a login a role on a team store, or took its roles away (no dead letter;
    # written by the store's own function, core/db/role_setup.py).
    ROLE_GRANTED = "role_granted"
    ROLE_REVOKED = "role_revoked"


class RedriveOutcome(enum.StrEnum):
    """What a re-drive did with one dead letter (the ``would_*`` two: a dry run)."""

    RESOLVED = "resolved"
    FAILED = "failed"
    PARKED = "parked"
    SKIPPED = "skipped"  # already resolved or discarded
    TAKEN = "taken"  # another re-drive holds the row: left to it, not processed
    # The re-drive's own lease ran out before it wrote the outcome (a process stopped, a
    # laptop asleep): the row is left as it is now, and what was loaded for it taken back
    # from the warehouse unless the row still explains it.
    LAPSED = "lapsed"
    # A sink (a broker, an outside table) did not confirm the payload: the row stays open,
    # its attempts as they were, and its history says why (a nack, a lost connection).
    UNDELIVERED = "undelivered"
    WOULD_SUCCEED = "would_succeed"
    WOULD_FAIL = "would_fail"


SUCCEEDED: tuple[RedriveOutcome, ...] = (RedriveOutcome.RESOLVED, RedriveOutcome.WOULD_SUCCEED)


class PayloadKind(enum.StrEnum):
    """The form of a dead letter's working payload: as read, or as a person edited it."""

    JSONL = "jsonl"  # a JSONL record, as read
    CSV = "csv"  # a CSV row, as read (decoded with its batch's header)
    JSON = "json"  # an edited JSONL record
    JSON_CSV = "json-csv"  # an edited CSV row: a JSON object of header -> value


# The formats a source file may have.
SOURCE_FORMATS: tuple[str, ...] = (PayloadKind.JSONL.value, PayloadKind.CSV.value)


def is_csv_kind(kind: str) -> bool:
    """A CSV row, as read or as edited."""
    return kind in (PayloadKind.CSV, PayloadKind.JSON_CSV)


def edited_kind(kind: str) -> PayloadKind:
    """The kind a payload of ``kind`` becomes once a person edits it."""
    return PayloadKind.JSON_CSV if is_csv_kind(kind) else PayloadKind.JSON


def original_kind(kind: str) -> PayloadKind:
    """The kind of the original bytes behind a working payload of ``kind``."""
    return PayloadKind.CSV if is_csv_kind(kind) else PayloadKind.JSONL


def named_ids(ids: Sequence[int], most: int = 10, total: int | None = None) -> str:
    """Dead letters named for people: ``#17``, ``#17 and #18``, ``#1, #2 and #3``, or the
    first ``most`` then how many more (``#1, #2, #3 and 40 more``). ``total``: how many
    there are when ``ids`` holds only the first of them."""
    marks = [f"#{i}" for i in ids[:most]]
    rest = (len(ids) if total is None else total) - len(marks)
    if rest > 0:
        return ngettext("{ids} and {n} more", "{ids} and {n} more", rest).format(
            ids=", ".join(marks), n=format_int(rest)
        )
    if len(marks) > 1:
        return _("{first} and {second}").format(first=", ".join(marks[:-1]), second=marks[-1])
    return "".join(marks)
