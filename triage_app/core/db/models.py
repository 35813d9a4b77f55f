"""The dead-letter store's tables: batches and their ledger, dead letters, audit events and
the stats cache.

The store lives in its own database, separate from the warehouse (docs/design.md, "Two
databases, one rule"). Every column that the quarantine table filters or sorts on is
indexed.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from triage_app.core.clock import utcnow
from triage_app.core.vocabulary import BatchState, Status

# SQLite only makes INTEGER PRIMARY KEY a rowid alias (fast, auto-increment); BIGINT elsewhere.
IdType = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    pass


class Batch(Base):
    __tablename__ = "batches"

    batch_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    source_name: Mapped[str] = mapped_column(Text)  # file name only: no absolute paths
    source_sha256: Mapped[str] = mapped_column(String(64))
    transform: Mapped[str] = mapped_column(String(100))
    format: Mapped[str] = mapped_column(String(10))
    csv_header: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    state: Mapped[str] = mapped_column(String(10), default=BatchState.RUNNING)
    lines_done: Mapped[int] = mapped_column(BigInteger, default=0)  # resume point
    rows: Mapped[int] = mapped_column(BigInteger, default=0)
    loaded: Mapped[int] = mapped_column(BigInteger, default=0)
    superseded: Mapped[int] = mapped_column(BigInteger, default=0)
    quarantined: Mapped[int] = mapped_column(BigInteger, default=0)
    q_data: Mapped[int] = mapped_column(BigInteger, default=0)
    q_code: Mapped[int] = mapped_column(BigInteger, default=0)
    q_transient: Mapped[int] = mapped_column(BigInteger, default=0)
    seconds: Mapped[float] = mapped_column(default=0.0)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class BatchChunk(Base):
    """The ledger of a batch: one row per committed chunk, written in the same transaction
    as its dead letters and the checkpoint, so reconcile can prove every line was counted
    exactly once without the source file."""

    __tablename__ = "batch_chunks"

    batch_id: Mapped[str] = mapped_column(ForeignKey("batches.batch_id"), primary_key=True)
    first_line: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    last_line: Mapped[int] = mapped_column(BigInteger)
    records: Mapped[int] = mapped_column(BigInteger)
    loaded: Mapped[int] = mapped_column(BigInteger)
    superseded: Mapped[int] = mapped_column(BigInteger)
    quarantined: Mapped[int] = mapped_column(BigInteger)
    committed_at: Mapped[dt.datetime] = mapped_column(DateTime)


class Traceback(Base):
    """A redacted traceback, stored once: a release with a bug fails a million rows at the
    same lines, and each row only points here."""

    __tablename__ = "tracebacks"

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    digest: Mapped[str] = mapped_column(String(32), unique=True)  # blake2b-128 of the text
    text: Mapped[str] = mapped_column(Text)


class DeadLetter(Base):
    __tablename__ = "dead_letters"
    __table_args__ = (
        UniqueConstraint("batch_id", "line", name="uq_dead_letter_batch_line"),
        Index("ix_dl_status_id", "status", "id"),
        # A filter on class or transform walks that column's index (below) in id order and
        # checks the status row by row; only two indexes hold the status, so a re-drive
        # that resolves a million rows moves two index entries per row, not five.
        Index("ix_dl_batch_id", "batch_id", "id"),
        Index("ix_dl_class_signature_id", "error_class", "signature", "id"),
        Index("ix_dl_class", "error_class"),
        Index("ix_dl_signature", "signature"),
        Index("ix_dl_attempts", "attempts"),
        Index("ix_dl_last_failed", "last_failed_at"),
        Index("ix_dl_first_failed", "first_failed_at"),
        Index("ix_dl_transform", "transform"),
        # Trends (trends/counting.py) count index ranges instead of sorting a million rows;
        # figures for 1,000,000 dead letters are in benchmarks/bench_trends.py.
        # Error groups, class x status and attempts x status: one walk of this index.
        Index("ix_dl_cube", "error_class", "signature", "status", "attempts", "first_failed_at"),
        # First and last seen per error group: one lookup each.
        Index("ix_dl_class_sig_last", "error_class", "signature", "last_failed_at"),
        # Quarantined per day by class, and resolved per day (the backlog).
        Index("ix_dl_class_first_failed", "error_class", "first_failed_at"),
        Index("ix_dl_resolved", "resolved_at"),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    batch_id: Mapped[str] = mapped_column(ForeignKey("batches.batch_id"))
    line: Mapped[int] = mapped_column(BigInteger)
    original_payload: Mapped[bytes] = mapped_column(LargeBinary)  # byte-exact, never changed
    # The working copy that edits replace; NULL while it is the original (most rows are
    # never edited, and a second copy of every payload doubled the store). Read it through
    # working_payload().
    payload: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    payload_kind: Mapped[str] = mapped_column(String(10))  # jsonl, csv, or json once edited
    # NULL when it says no more than the signature (nothing was masked: a code bug's message
    # is the same on every row). Read it through shown_error().
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    error_class: Mapped[str] = mapped_column(String(10))
    signature: Mapped[str] = mapped_column(Text)
    # Code class only; kept once in ``tracebacks`` however many rows fail the same way.
    traceback_id: Mapped[int | None] = mapped_column(
        ForeignKey("tracebacks.id", name="fk_dead_letters_traceback_id"), nullable=True
    )
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(10), default=Status.OPEN)
    transform: Mapped[str] = mapped_column(String(100))
    first_failed_at: Mapped[dt.datetime] = mapped_column(DateTime)
    last_failed_at: Mapped[dt.datetime] = mapped_column(DateTime)
    resolved_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    # Bumped by every change; a change applies only to the version its actor saw
    # (deadletters/transitions.py).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    # A re-drive's lease on the row: who holds it and until when. An expired lease is free,
    # so a killed re-drive never strands its rows.
    claimed_by: Mapped[str | None] = mapped_column(String(100), nullable=True)
    claim_until: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class AuditEvent(Base):
    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_event_dl", "dead_letter_id", "id"),
        Index("ix_event_action_at", "action", "at"),  # discarded per day, for the backlog
        Index("ix_event_at", "at"),  # audit --since
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    # None for an event about the store rather than one row (a purge).
    dead_letter_id: Mapped[int | None] = mapped_column(ForeignKey("dead_letters.id"), nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    actor: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(30))
    detail: Mapped[str] = mapped_column(Text, default="")
    # The row's version after the change, and for an edit the payload it replaced, so
    # that no edit is ever unrecoverable.
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    replaced_payload: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)


class StatsCache(Base):
    """The store's aggregates as ``stats --json`` prints them, with the version stamp of the
    store they were computed from (``trends/stats_cache.py``)."""

    __tablename__ = "stats_cache"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[str] = mapped_column(String(200))
    payload: Mapped[bytes] = mapped_column(LargeBinary)
    computed_at: Mapped[dt.datetime]


class Purge(Base):
    """One retention purge: what it removed, per day and class, so that Trends can say what
    was purged instead of showing a drop that never happened."""

    __tablename__ = "purges"

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime)
    actor: Mapped[str] = mapped_column(String(200))
    statuses: Mapped[str] = mapped_column(String(40))  # comma-separated
    cutoff: Mapped[dt.datetime] = mapped_column(DateTime)  # rows closed before this
    rows: Mapped[int] = mapped_column(BigInteger)
    by_day: Mapped[str] = mapped_column(Text)  # JSON: {"YYYY-MM-DD": {class: count}}


class StoreSetting(Base):
    """Settings the whole team shares, kept with the store (the retention policy)."""

    __tablename__ = "store_settings"

    key: Mapped[str] = mapped_column(String(60), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


def shown_error() -> ColumnElement[str]:
    """A dead letter's error message: its own, or the signature when that says it all."""
    return func.coalesce(DeadLetter.error, DeadLetter.signature)


def stored_error(error: str, signature: str) -> str | None:
    """What the ``error`` column keeps of a message (see DeadLetter.error)."""
    return None if error == signature else error


def working_payload() -> ColumnElement[bytes]:
    """A dead letter's payload as a steward sees it: the edited copy, or the original."""
    return func.coalesce(DeadLetter.payload, DeadLetter.original_payload)
