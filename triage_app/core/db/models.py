"""The dead-letter store's tables: batches and their ledger, dead letters, audit events and
the stats cache.

The store lives in its own database, separate from the warehouse (docs/design.md, "Two
databases, one rule"). Every column that the quarantine table filters or sorts on is
indexed.

Core tables, not ORM classes: the engine never loads a row as an object (values cross the
layers as frozen dataclasses), and importing the ORM and setting up its mappers cost every
``triage-app run`` some 60 ms. Each table is declared as a small class whose one instance
carries the name the ORM class had: ``DeadLetter.status`` is the table's column (typed:
``Column[str]``), ``DeadLetter.__table__`` the table, and Core's insert, update and delete
take ``DeadLetter`` for the table, as they took the class. (An instance, not the class:
SQLAlchemy types a Column read from a class as unusable, to catch ORM-style code.)
Columns are NOT NULL unless they say ``nullable=True``, as the ORM's ``Mapped[X]`` made
them; tests/core/db/test_migrations.py holds these tables equal to the migrated store.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from sqlalchemy import (
    BigInteger,
    Column,
    ColumnElement,
    Connection,
    Date,
    Double,
    Engine,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Row,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
    select,
    text,
)

from triage_app.core.clock import utcnow
from triage_app.core.db.index_shapes import ENDS_IN_ROWID
from triage_app.core.db.instants import INSTANT
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.places import printable
from triage_app.core.vocabulary import BatchKind, BatchState, Status

# SQLite only makes INTEGER PRIMARY KEY a rowid alias (fast, auto-increment); BIGINT elsewhere.
IdType = BigInteger().with_variant(Integer(), "sqlite")

metadata = MetaData()


class Base:
    """A table of the store: the class's ``Column`` attributes (each named after its
    attribute) and ``__table_args__`` (constraints, indexes) make ``__table__`` in
    ``metadata`` when the class is defined."""

    metadata: ClassVar[MetaData] = metadata
    __tablename__: ClassVar[str]
    __table__: ClassVar[Table]
    __table_args__: ClassVar[tuple[Any, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        columns = []
        for key, value in vars(cls).items():
            if isinstance(value, Column):
                value.name = value.key = key
                columns.append(value)
        # The class's own Column objects, not copies: DeadLetter.id is __table__.c.id.
        cls.__table__ = Table(cls.__tablename__, metadata, *columns, *cls.__table_args__)

    # Any: SQLAlchemy's hints ask for an expression, and its coercion takes the table.
    def __clause_element__(self) -> Any:
        """The table, for Core's insert, update, delete and select given the instance."""
        return self.__table__


class BatchTable(Base):
    __tablename__ = "batches"

    batch_id = Column(String(32), primary_key=True)
    source_name = Column(Text, nullable=False)  # file name only: no absolute paths
    source_sha256 = Column(String(64), nullable=False)
    transform = Column(String(100), nullable=False)
    format = Column(String(10), nullable=False)
    csv_header: Column[bytes | None] = Column(LargeBinary, nullable=True)
    state = Column(String(10), nullable=False, default=BatchState.RUNNING)
    lines_done = Column(BigInteger, nullable=False, default=0)  # resume point
    rows = Column(BigInteger, nullable=False, default=0)
    loaded = Column(BigInteger, nullable=False, default=0)
    superseded = Column(BigInteger, nullable=False, default=0)
    quarantined = Column(BigInteger, nullable=False, default=0)
    q_data = Column(BigInteger, nullable=False, default=0)
    q_code = Column(BigInteger, nullable=False, default=0)
    q_transient = Column(BigInteger, nullable=False, default=0)
    seconds: Column[float] = Column(Double, nullable=False, default=0.0)
    started_at = Column(INSTANT, nullable=False, default=utcnow)
    finished_at: Column[dt.datetime | None] = Column(INSTANT, nullable=True)
    # Who ran it (audit.actor_for): a batch is the set record of its quarantine, so each row
    # it quarantined needs no event of its own (schema 0007; NULL for batches from before,
    # whose rows kept one ``quarantined`` event each).
    actor: Column[str | None] = Column(String(200), nullable=True)
    # Schema 0011 (issue 25). ``file`` or ``reprocess`` (BatchKind); a reprocess run names
    # the version it suspects and the one batch it was limited to, if any.
    kind = Column(String(12), nullable=False, default=BatchKind.FILE, server_default="file")
    produced_by: Column[str | None] = Column(String(100), nullable=True)
    scope: Column[str | None] = Column(String(32), nullable=True)
    # An atomic batch's healthy rows waiting in held_rows, never in the warehouse, until
    # the whole batch loads in one transaction.
    held = Column(BigInteger, nullable=False, default=0, server_default="0")
    # An import's connector (schema 0012): the dead-letter queue or table it copied from.
    connector_id: Column[int | None] = Column(IdType, nullable=True)


Batch = BatchTable()


def batch_named(conn: Connection, given: str) -> Row[Any]:
    """The stored batch whose id is ``given``, or the one whose id starts with it: what every
    command naming a batch accepts. One line when there is none, or more than one."""
    text = str(given).strip()
    found = (
        conn.execute(
            select(BatchTable.__table__)
            .where(BatchTable.__table__.c.batch_id.startswith(text, autoescape=True))
            .limit(2)
        ).all()
        if text
        else []
    )
    exact = [b for b in found if b.batch_id == text]
    if exact:
        return exact[0]
    shown = printable(text)[:40]
    if not found:
        raise TriageError(_("no batch {batch}").format(batch=shown))
    if len(found) > 1:
        raise TriageError(_("batch id {batch} is ambiguous: give more of it").format(batch=shown))
    return found[0]


class KeptSourceTable(Base):
    """A batch's input kept, by the SHA-256 of its bytes, compressed: in the workspace's
    folder (``place`` ``folder``) or, on a team store, in ``source_blobs`` (``table``)."""

    __tablename__ = "kept_sources"
    __table_args__ = (Index("ix_kept_sources_kept_at", "kept_at"),)  # retention's cut-off

    sha256 = Column(String(64), primary_key=True)
    format = Column(String(10), nullable=False)
    size = Column(BigInteger, nullable=False)  # of the source as read
    stored_size = Column(BigInteger, nullable=False)  # compressed
    codec = Column(String(10), nullable=False)
    place = Column(String(10), nullable=False)
    kept_at = Column(INSTANT, nullable=False, default=utcnow)


KeptSource = KeptSourceTable()


class SourceBlobTable(Base):
    """A kept source's compressed bytes on a team store, in parts of a few MB each."""

    __tablename__ = "source_blobs"

    sha256 = Column(String(64), ForeignKey("kept_sources.sha256"), primary_key=True)
    part = Column(Integer, primary_key=True)
    data = Column(LargeBinary, nullable=False)


SourceBlob = SourceBlobTable()


class HeldRowTable(Base):
    """A healthy row of an atomic batch that is not yet whole: the transform's output,
    encoded, waiting for the batch to load in one transaction."""

    __tablename__ = "held_rows"

    batch_id = Column(String(32), ForeignKey("batches.batch_id"), primary_key=True)
    line = Column(BigInteger, primary_key=True)
    row = Column(LargeBinary, nullable=False)


HeldRow = HeldRowTable()


class BatchChunkTable(Base):
    """The ledger of a batch: one row per committed chunk, written in the same transaction
    as its dead letters and the checkpoint, so reconcile can prove every line was counted
    exactly once without the source file."""

    __tablename__ = "batch_chunks"

    batch_id = Column(String(32), ForeignKey("batches.batch_id"), primary_key=True)
    first_line = Column(BigInteger, primary_key=True)
    last_line = Column(BigInteger, nullable=False)
    records = Column(BigInteger, nullable=False)
    loaded = Column(BigInteger, nullable=False)
    superseded = Column(BigInteger, nullable=False)
    quarantined = Column(BigInteger, nullable=False)
    committed_at = Column(INSTANT, nullable=False)


BatchChunk = BatchChunkTable()


class TracebackTable(Base):
    """A redacted traceback, stored once: a release with a bug fails a million rows at the
    same lines, and each row only points here."""

    __tablename__ = "tracebacks"

    id = Column(IdType, primary_key=True, autoincrement=True)
    digest = Column(String(32), nullable=False, unique=True)  # blake2b-128 of the text
    text = Column(Text, nullable=False)


Traceback = TracebackTable()


class SignatureTable(Base):
    """An error signature (the message with its values masked), stored once: a dead letter
    points at its one (``signature_id``), so the indexes that group and filter by signature
    hold a small integer instead of the text (a third of the store on a bad day)."""

    __tablename__ = "signatures"

    id = Column(IdType, primary_key=True, autoincrement=True)
    text = Column(Text, nullable=False, unique=True)


Signature = SignatureTable()


class ConnectorTable(Base):
    """A dead-letter queue or table another pipeline fills, that the desk imports from and
    re-drives to (schema 0012, core/connectors). ``address`` never holds a password: that
    is in the keyring of each steward's desk."""

    __tablename__ = "connectors"

    id = Column(IdType, primary_key=True, autoincrement=True)
    name = Column(String(200), nullable=False, unique=True)
    kind = Column(String(10), nullable=False)  # amqp, table
    address = Column(Text, nullable=False)
    options = Column(Text, nullable=False, default="{}")  # JSON: the queue, a column mapping
    created_at = Column(INSTANT, nullable=False, default=utcnow)
    created_by = Column(String(200), nullable=False)


Connector = ConnectorTable()


class DeadLetterTable(Base):
    __tablename__ = "dead_letters"
    __table_args__ = (
        UniqueConstraint("batch_id", "line", name="uq_dead_letter_batch_line"),
        # Every index is a write per row on a bad day (200,000 quarantined rows: each index
        # costs about a second and a few MB), so each one here serves a query no other
        # index serves, named beside it; tests/core/db/test_query_plans.py holds each to a
        # query that uses it. In SQLite an index on one column ends in the rowid (the id),
        # so it also gives its rows in id order: the table's tie-breaker. PostgreSQL's does
        # not, so the four a page sorts or pins by name the id (schema 0009); on SQLite the
        # DDL leaves it out, since every entry ends in it anyway (``db/index_shapes.py``).
        # The table's default filter (open) and its status sort; claims; purge by status.
        Index("ix_dl_status_id", "status", "id"),
        # A batch's rows in id order (the table on one batch; re-drive and claims of a
        # batch). The unique (batch_id, line) gives them in line order, and sorts by batch
        # and line.
        Index("ix_dl_batch_id", "batch_id", "id"),
        # The class picker and class sort, in id order. (class, signature, id) is not a
        # substitute: its rows of a class come by signature, so every page sorted them all.
        Index("ix_dl_class", "error_class", "id", info=ENDS_IN_ROWID),
        # An error group's rows (Trends' links, owner and tag through the signature id), and
        # the error sort; a group's class is checked on its rows, in id order.
        Index("ix_dl_signature", "signature_id", "id", info=ENDS_IN_ROWID),
        # Attempts filters (at least, exactly: the histogram's bars) and sort.
        Index("ix_dl_attempts", "attempts", "id", info=ENDS_IN_ROWID),
        # The table's "last failed" sort.
        Index("ix_dl_last_failed", "last_failed_at"),
        # A day or span of Trends (first failure), purge cut-offs; the trail's quarantined
        # rows in time order; a span's first and last id (paging._span_bounds).
        Index("ix_dl_first_failed", "first_failed_at", "id", info=ENDS_IN_ROWID),
        # The transform picker and sort.
        Index("ix_dl_transform", "transform", "id", info=ENDS_IN_ROWID),
        # Each error group's last failure, one seek per group (groups, Trends).
        Index("ix_dl_class_sig_last", "error_class", "signature_id", "last_failed_at"),
        # Resolved per day (the backlog), the trail's resolved rows, purge of resolved rows.
        Index("ix_dl_resolved", "resolved_at"),
        # The rows waiting on the retry ladder, by when they are due: partial, so the rows
        # not waiting (almost all of them) cost it nothing (schema 0013).
        # PostgreSQL's WHERE is written by index_shapes (``info``): a ``postgresql_where``
        # argument would import that dialect at every start, a SQLite user's too.
        Index(
            "ix_dl_next_attempt",
            "next_attempt_at",
            sqlite_where=text("next_attempt_at IS NOT NULL"),
            info={"postgresql_where": "next_attempt_at IS NOT NULL"},
        ),
        # Dropped in 0007: ix_dl_class_signature_id, ix_dl_cube and ix_dl_class_first_failed
        # (counting moved to dead_letter_counts; r0007_set_records.py says why each).
    )

    id = Column(IdType, primary_key=True, autoincrement=True)
    batch_id = Column(String(32), ForeignKey("batches.batch_id"), nullable=False)
    line = Column(BigInteger, nullable=False)
    original_payload = Column(LargeBinary, nullable=False)  # byte-exact, never changed
    # The working copy that edits replace; NULL while it is the original (most rows are
    # never edited, and a second copy of every payload doubled the store). Read it through
    # working_payload().
    payload: Column[bytes | None] = Column(LargeBinary, nullable=True)
    payload_kind = Column(String(10), nullable=False)  # jsonl, csv, or json once edited
    # NULL when it says no more than the signature (nothing was masked: a code bug's message
    # is the same on every row). Read it through shown_error().
    error: Column[str | None] = Column(Text, nullable=True)
    error_class = Column(String(10), nullable=False)
    # Kept once in ``signatures``; read the text through signature_text().
    signature_id = Column(
        IdType, ForeignKey("signatures.id", name="fk_dead_letters_signature_id"), nullable=False
    )
    # Code class only; kept once in ``tracebacks`` however many rows fail the same way.
    traceback_id: Column[int | None] = Column(
        IdType, ForeignKey("tracebacks.id", name="fk_dead_letters_traceback_id"), nullable=True
    )
    attempts = Column(Integer, nullable=False, default=1)
    status = Column(String(10), nullable=False, default=Status.OPEN)
    transform = Column(String(100), nullable=False)
    first_failed_at = Column(INSTANT, nullable=False)
    last_failed_at = Column(INSTANT, nullable=False)
    resolved_at: Column[dt.datetime | None] = Column(INSTANT, nullable=True)
    # Bumped by every change; a change applies only to the version its actor saw
    # (deadletters/transitions.py).
    version = Column(Integer, nullable=False, default=1, server_default="1")
    # A re-drive's lease on the row: who holds it and until when (deadletters/leases.py). An
    # expired lease is free, so a killed re-drive never strands its rows.
    claimed_by: Column[str | None] = Column(String(100), nullable=True)
    claim_until: Column[dt.datetime | None] = Column(INSTANT, nullable=True)
    # Schema 0013. A transient row's place on its retry ladder (0: the first wait) and when
    # it is due next; NULL when it is not waiting on the ladder (core/deadletters/ladder.py).
    retry_step = Column(Integer, nullable=False, default=0, server_default="0")
    next_attempt_at: Column[dt.datetime | None] = Column(INSTANT, nullable=True)
    # The payloads with their transform's personal fields masked (core/masking.py); NULL
    # when there is nothing to mask. A viewer reads these through the triage_masked views.
    masked_original: Column[bytes | None] = Column(LargeBinary, nullable=True)
    masked_payload: Column[bytes | None] = Column(LargeBinary, nullable=True)


DeadLetter = DeadLetterTable()


class OriginTable(Base):
    """Where an imported dead letter came from: its connector, its identity there (a
    message id, a table's key: unique per connector, so a replayed import never doubles a
    row), where it was going (``destination``: an exchange and routing key, a topic, a
    table) and the evidence the source kept beside it (headers, other columns), as JSON."""

    __tablename__ = "dead_letter_origins"
    __table_args__ = (UniqueConstraint("connector_id", "identity", name="uq_origin_identity"),)

    id = Column(IdType, primary_key=True, autoincrement=True)
    # NULL once a retention purge removed the dead letter: the identity stays, so that an
    # import never brings back a row the team closed and purged.
    dead_letter_id: Column[int | None] = Column(
        IdType, ForeignKey("dead_letters.id"), nullable=True, unique=True
    )
    connector_id = Column(IdType, ForeignKey("connectors.id"), nullable=False)
    identity = Column(String(200), nullable=False)
    destination: Column[str | None] = Column(Text, nullable=True)
    evidence = Column(Text, nullable=False, default="{}")


Origin = OriginTable()


class AuditEventTable(Base):
    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_event_dl", "dead_letter_id", "id"),
        Index("ix_event_action_at", "action", "at"),  # discarded per day, for the backlog
        Index("ix_event_at", "at"),  # audit --since
    )

    id = Column(IdType, primary_key=True, autoincrement=True)
    # None for an event about the store rather than one row (a purge).
    dead_letter_id: Column[int | None] = Column(
        IdType, ForeignKey("dead_letters.id"), nullable=True
    )
    at = Column(INSTANT, nullable=False, default=utcnow)
    actor = Column(String(200), nullable=False)
    action = Column(String(30), nullable=False)
    detail = Column(Text, nullable=False, default="")
    # The row's version after the change, and for an edit the payload it replaced, so
    # that no edit is ever unrecoverable.
    version: Column[int | None] = Column(Integer, nullable=True)
    replaced_payload: Column[bytes | None] = Column(LargeBinary, nullable=True)


AuditEvent = AuditEventTable()


class StatsCacheTable(Base):
    """The store's aggregates as ``stats --json`` prints them, with the version stamp of the
    store they were computed from (``trends/stats_cache.py``)."""

    __tablename__ = "stats_cache"

    key = Column(String(40), primary_key=True)
    version = Column(String(200), nullable=False)
    payload = Column(LargeBinary, nullable=False)
    computed_at = Column(INSTANT, nullable=False)


StatsCache = StatsCacheTable()


class DeadLetterCountTable(Base):
    """The store's dead letters counted by cell: how many rows share a class, signature,
    status, attempt count, first-failure day (UTC), batch and transform. Kept in the same
    transaction as every change that moves a row between cells (``db/counts.py``), so that
    Trends, ``stats`` and ``groups`` read a few thousand cells instead of every row. A
    cell that empties is deleted."""

    __tablename__ = "dead_letter_counts"

    error_class = Column(String(10), primary_key=True)
    signature_id = Column(IdType, primary_key=True)
    status = Column(String(10), primary_key=True)
    attempts = Column(Integer, primary_key=True)
    day = Column(Date, primary_key=True)
    batch_id = Column(String(32), primary_key=True)
    transform = Column(String(100), primary_key=True)
    n = Column(BigInteger, nullable=False)


DeadLetterCount = DeadLetterCountTable()


class RedriveRunTable(Base):
    """One re-drive that changed the store: who, when, through which version, and what it
    was given (the ids or the filter, as text). The set record of the rows it resolved
    (``Resolution``); a failure keeps its own event, with the error it met."""

    __tablename__ = "redrive_runs"

    id = Column(IdType, primary_key=True, autoincrement=True)
    at = Column(INSTANT, nullable=False)
    actor = Column(String(200), nullable=False)
    transform = Column(String(100), nullable=False)
    given = Column(Text, nullable=False, default="")


RedriveRun = RedriveRunTable()


class ResolutionTable(Base):
    """A dead letter a re-drive resolved: the run, and the version the row was left at. A
    resolved row is final, so a row has at most one; its ``resolved`` event is this line
    and its run (deadletters/trail.py expands it)."""

    __tablename__ = "resolutions"

    dead_letter_id = Column(IdType, ForeignKey("dead_letters.id"), primary_key=True)
    run_id = Column(IdType, ForeignKey("redrive_runs.id"), nullable=False)
    version = Column(Integer, nullable=False)


Resolution = ResolutionTable()


class PurgeTable(Base):
    """One retention purge: what it removed, per day and class, so that Trends can say what
    was purged instead of showing a drop that never happened."""

    __tablename__ = "purges"

    id = Column(IdType, primary_key=True, autoincrement=True)
    at = Column(INSTANT, nullable=False)
    actor = Column(String(200), nullable=False)
    statuses = Column(String(40), nullable=False)  # comma-separated
    cutoff = Column(INSTANT, nullable=False)  # rows closed before this
    rows = Column(BigInteger, nullable=False)
    by_day = Column(Text, nullable=False)  # JSON: {"YYYY-MM-DD": {class: count}}
    # JSON: {batch_id: {first line of the ledger chunk: {status: count}}}, so that reconcile
    # counts a purged row as what it was (schema 0006; "{}" for purges from before).
    by_batch = Column(Text, nullable=False, default="{}", server_default="{}")


Purge = PurgeTable()


class StoreSettingTable(Base):
    """Settings the whole team shares, kept with the store (the retention policy)."""

    __tablename__ = "store_settings"

    key = Column(String(60), primary_key=True)
    value = Column(Text, nullable=False)


StoreSetting = StoreSettingTable()


def store_setting(store: Engine, key: str) -> str | None:
    """The team's setting ``key`` as stored (text), or None when it is not set."""
    with store.connect() as conn:
        value = conn.execute(
            select(StoreSettingTable.__table__.c.value).where(
                StoreSettingTable.__table__.c.key == key
            )
        ).scalar()
    return None if value is None else str(value)


def set_store_setting(store: Engine, key: str, value: str | None) -> None:
    """Keep ``value`` as the team's setting ``key`` (None: remove it), in one transaction."""
    t = StoreSettingTable.__table__
    with store.begin() as conn:
        conn.execute(t.delete().where(t.c.key == key))
        if value is not None:
            conn.execute(t.insert().values(key=key, value=value))


class ChangeSetTable(Base):
    """One fix applied to many dead letters at once (issue 13): who, when, what (the JSON
    Patch and, for a fix made from the form, its words), and whether it was reverted."""

    __tablename__ = "change_sets"
    __table_args__ = (Index("ix_change_sets_at", "at"),)  # the trail, newest first

    id = Column(IdType, primary_key=True, autoincrement=True)
    at = Column(INSTANT, nullable=False)
    actor = Column(String(200), nullable=False)
    description = Column(Text, nullable=False)
    patch = Column(Text, nullable=False)  # JSON: the RFC 6902 operations
    rows = Column(BigInteger, nullable=False)  # the rows it changed
    reverted_at: Column[dt.datetime | None] = Column(INSTANT, nullable=True)
    reverted_by: Column[str | None] = Column(String(200), nullable=True)
    # The database user who applied it (schema 0013; session_user, which on a team store
    # with roles a trigger sets whatever the client sent): the database tells a steward's
    # own change-set from another's by it. NULL on SQLite.
    db_user: Column[str | None] = Column(String(200), nullable=True)


ChangeSet = ChangeSetTable()


class ChangeSetRevertTable(Base):
    """One run of a change-set's revert that restored rows: who, when. The set record of
    the rows it restored (``ChangeSetRow.reverted_in``); a revert killed mid way and run
    again is two."""

    __tablename__ = "change_set_reverts"
    __table_args__ = (Index("ix_change_set_reverts_at", "at"),)  # the trail, newest first

    id = Column(IdType, primary_key=True, autoincrement=True)
    change_set_id = Column(IdType, ForeignKey("change_sets.id"), nullable=False)
    at = Column(INSTANT, nullable=False)
    actor = Column(String(200), nullable=False)


ChangeSetRevert = ChangeSetRevertTable()


class ChangeSetRowTable(Base):
    """A row a change-set changed, and what it was before, byte for byte: the stored
    payload (None: the row still showed its original) and its kind, and the version the
    change-set left it at, so that a revert restores only rows nobody changed since.

    Since 0010 the line is also the row's ``edited`` event of the fix (the change-set says
    who and when), and once a revert restored it, of the revert: ``reverted_in`` the run,
    ``payload_reverted`` the payload the revert replaced (what the fix had made), so that
    no edit is ever unrecoverable (deadletters/expanded_events.py)."""

    __tablename__ = "change_set_rows"
    __table_args__ = (
        # A purge deletes dead letters: finding the lines that name them must not read all.
        Index("ix_change_set_rows_dead_letter", "dead_letter_id"),
        # A revert run's rows in id order, for the trail.
        Index("ix_change_set_rows_reverted", "reverted_in", "dead_letter_id"),
    )

    change_set_id = Column(IdType, ForeignKey("change_sets.id"), primary_key=True)
    dead_letter_id = Column(IdType, ForeignKey("dead_letters.id"), primary_key=True)
    payload_before: Column[bytes | None] = Column(LargeBinary, nullable=True)
    kind_before = Column(String(10), nullable=False)
    version_after = Column(Integer, nullable=False)
    reverted_in: Column[int | None] = Column(
        IdType, ForeignKey("change_set_reverts.id"), nullable=True
    )
    payload_reverted: Column[bytes | None] = Column(LargeBinary, nullable=True)


ChangeSetRow = ChangeSetRowTable()


class ErrorGroupTable(Base):
    """Working the backlog as a team (issue 13): who owns an error group (the dead letters
    of one signature), its tags ("needs source fix", "waiting on vendor") and a note. A
    group with none of them has no row. ``version`` guards changes as a dead letter's
    does; each change is audited."""

    __tablename__ = "error_groups"

    signature_id = Column(IdType, ForeignKey("signatures.id"), primary_key=True)
    owner: Column[str | None] = Column(String(200), nullable=True)
    tags = Column(Text, nullable=False, default="[]")  # JSON: a sorted list of strings
    note = Column(Text, nullable=False, default="")
    version = Column(Integer, nullable=False, default=1)
    changed_at = Column(INSTANT, nullable=False)
    changed_by = Column(String(200), nullable=False)
    __table_args__ = (Index("ix_error_groups_owner", "owner"),)


ErrorGroupNotes = ErrorGroupTable()


def signature_text() -> ColumnElement[str]:
    """A dead letter's signature as text, for a SELECT list: one primary-key lookup a row.
    To filter or group by signature, use ``signature_id`` (its indexes hold the id)."""
    return select(Signature.text).where(Signature.id == DeadLetter.signature_id).scalar_subquery()


def signature_id_of(text: str) -> ColumnElement[int]:
    """The id a signature's text is kept under, as a subquery: ``signature_id ==
    signature_id_of(s)`` walks the signature indexes."""
    return select(Signature.id).where(Signature.text == text).scalar_subquery()


def shown_error() -> ColumnElement[str]:
    """A dead letter's error message: its own, or the signature when that says it all."""
    return func.coalesce(DeadLetter.error, signature_text())


def stored_error(error: str, signature: str) -> str | None:
    """What the ``error`` column keeps of a message (see DeadLetter.error)."""
    return None if error == signature else error


def working_payload() -> ColumnElement[bytes]:
    """A dead letter's payload as a steward sees it: the edited copy, or the original."""
    return func.coalesce(DeadLetter.payload, DeadLetter.original_payload)


def shown_payload() -> ColumnElement[bytes]:
    """The working payload as a person may see it: personal fields masked (issue 27). The
    masked working copy when edited, else the edited copy itself (nothing to mask in it);
    never edited, the masked original, else the original. ``masked_payload`` is NULL
    whenever ``payload`` is (every write of the working copy keeps them together)."""
    dl = DeadLetter
    return func.coalesce(dl.masked_payload, dl.payload, dl.masked_original, dl.original_payload)


def shown_original() -> ColumnElement[bytes]:
    """The original payload with its personal fields masked, as a person may see it."""
    return func.coalesce(DeadLetter.masked_original, DeadLetter.original_payload)
