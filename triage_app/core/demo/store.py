"""Synthetic dead-letter stores: batches, dead letters and audit events written straight into
a store, in bulk, for the demos, tests, benchmarks and screenshots that need thousands or
millions of rows without running a batch for each.

The filler only writes what it is given, with the store's usual defaults for the rest;
what the rows look like is the caller's scenario (``history.py`` has the Trends one). The
summary of the rows by cell (``dead_letter_counts``) is kept as the engine keeps it: each
block's cells are added in the transaction that writes the block.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from types import TracebackType
from typing import Any

from sqlalchemy import DateTime, func, select

from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    Workspace,
    for_driver,
    keep_signatures,
    stored_error,
    summary,
)
from triage_app.core.masking import mask_payload
from triage_app.core.transforms import personal_fields_of
from triage_app.core.vocabulary import AuditAction, BatchState, ErrorClass, PayloadKind, Status

EPOCH = dt.datetime(2026, 1, 1)
PAYLOAD = b'{"pesanan_id": 1, "qty": -1}'
_BATCH_COLUMNS = (
    "batch_id",
    "source_name",
    "source_sha256",
    "transform",
    "format",
    "state",
    "lines_done",
    "rows",
    "loaded",
    "superseded",
    "quarantined",
    "q_data",
    "q_code",
    "q_transient",
    "seconds",
    "started_at",
    "finished_at",
    "actor",
)
_DEAD_LETTER_COLUMNS = (
    "id",
    "batch_id",
    "line",
    "original_payload",
    "payload",
    "payload_kind",
    "error",
    "error_class",
    "signature_id",  # the filler collects the text; flush() turns it into the id
    "traceback_id",
    "attempts",
    "status",
    "transform",
    "first_failed_at",
    "last_failed_at",
    "resolved_at",
    "masked_original",
)
_EVENT_COLUMNS = ("id", "dead_letter_id", "at", "actor", "action", "detail")
FLUSH_EVERY = 50_000


def order_payload(pesanan_id: int) -> bytes:
    """A stored record with a negative quantity: what most dead letters look like."""
    return (
        b'{"pesanan_id": %d, "waktu": "2026-01-10T09:15:00", "pelanggan": '
        b'"Budi", "produk": "Kemeja Batik", "qty": -1, "harga": 250000}' % pesanan_id
    )


class StoreFiller:
    """Collects rows and writes them with the driver's own ``executemany`` (PostgreSQL's
    dead letters with ``COPY``), a block at a time; use it as a context manager, which
    writes the rest and updates the statistics the database plans with.

    ``bulk`` is for millions of rows: the dead letters' secondary indexes are dropped on
    entry and made again on exit, from their own definitions in the store (whatever index
    set the schema has), which sorts each once instead of inserting into all of them row
    by row. Indexes are made again on an exception too; a killed filler leaves them out."""

    def __init__(self, ws: Workspace, *, bulk: bool = False) -> None:
        self.ws = ws
        self.bulk = bulk
        self._dropped: list[tuple[str, str]] = []  # (name, its CREATE INDEX), bulk only
        self._batches: list[tuple[Any, ...]] = []
        self._dead_letters: list[tuple[Any, ...]] = []
        self._events: list[tuple[Any, ...]] = []
        # The block's cells, with the signature's text where the id will be.
        self._cells: Counter[tuple[str, str, str, int, dt.date, str, str]] = Counter()
        self._personal: dict[str, tuple[str, ...]] = {}
        with ws.store.connect() as conn:
            self._dl_id = int(conn.execute(select(func.max(DeadLetter.id))).scalar() or 0)
            self._event_id = int(conn.execute(select(func.max(AuditEvent.id))).scalar() or 0)

    def batch(
        self,
        batch_id: str,
        *,
        source_name: str = "synthetic.jsonl",
        transform: str = "pesanan@1",
        rows: int = 0,
        loaded: int = 0,
        quarantined: int = 0,
        by_class: Mapping[str, int] | None = None,
        started_at: dt.datetime = EPOCH,
        finished_at: dt.datetime | None = None,
        state: BatchState = BatchState.COMPLETE,
        source_sha256: str | None = None,
        seconds: float = 0.0,
        actor: str | None = None,
    ) -> None:
        """A batch as its counters say it ran (no ledger: it was never read in chunks).
        ``actor``: who ran it, which makes the batch the set record of its quarantine (no
        per-row ``quarantined`` event needed); None as for a batch from before 0007."""
        counts = by_class or {}
        self._batches.append(
            (
                batch_id,
                source_name,
                source_sha256 or batch_id.ljust(64, "0")[:64],
                transform,
                PayloadKind.JSONL.value,
                state.value,
                rows,
                rows,
                loaded,
                0,
                quarantined,
                *(counts.get(c, 0) for c in ErrorClass),
                seconds,
                started_at,
                finished_at,
                actor,
            )
        )

    def dead_letter(
        self,
        batch_id: str,
        line: int,
        *,
        error: str,
        error_class: str = ErrorClass.DATA,
        signature: str | None = None,
        payload: bytes = PAYLOAD,
        attempts: int = 1,
        status: str = Status.OPEN,
        transform: str = "pesanan@1",
        failed_at: dt.datetime = EPOCH,
        last_failed_at: dt.datetime | None = None,
        resolved_at: dt.datetime | None = None,
    ) -> int:
        """A dead letter of ``batch_id`` (which must exist, or come in this filler); its
        id."""
        self._dl_id += 1
        signature = signature if signature is not None else error
        status = str(status)
        self._cells[
            (str(error_class), signature, status, attempts, failed_at.date(), batch_id, transform)
        ] += 1
        self._dead_letters.append(
            (
                self._dl_id,
                batch_id,
                line,
                payload,
                None,  # the working copy is the original until an edit
                PayloadKind.JSONL.value,
                stored_error(error, signature),  # as the quarantine keeps it
                str(error_class),
                signature,
                None,
                attempts,
                status,
                transform,
                failed_at,
                last_failed_at or failed_at,
                resolved_at,
                self._masked(payload, transform),
            )
        )
        if len(self._dead_letters) >= FLUSH_EVERY:
            self.flush()
        return self._dl_id

    def _masked(self, payload: bytes, transform: str) -> bytes | None:
        """The payload with its transform's personal fields masked, as the quarantine keeps
        it (core/masking.py); the masking of a transform's fields looked up once."""
        fields = self._personal.get(transform)
        if fields is None:
            fields = self._personal[transform] = personal_fields_of(transform)
        if not fields:
            return None
        return mask_payload(payload, PayloadKind.JSONL.value, fields)

    def event(
        self,
        dl_id: int,
        action: AuditAction,
        at: dt.datetime,
        *,
        actor: str = "synthetic",
        detail: str = "",
    ) -> None:
        self._event_id += 1
        self._events.append((self._event_id, dl_id, at, actor, action.value, detail))

    def flush(self) -> None:
        """Write what has been collected, and the cells of its dead letters, in one
        transaction."""
        if not (self._batches or self._dead_letters or self._events):
            return
        dialect = self.ws.store.dialect
        marker = "?" if dialect.name == "sqlite" else "%s"
        with self.ws.store.begin() as conn:
            ids: dict[str, int] = {}
            if self._dead_letters:
                ids = keep_signatures(conn, {c[1] for c in self._cells})
                at = _DEAD_LETTER_COLUMNS.index("signature_id")
                self._dead_letters = [
                    (*r[:at], ids[r[at]], *r[at + 1 :]) for r in self._dead_letters
                ]
            # The driver's cursor on the same connection: the same transaction.
            cur = conn.connection.cursor()
            for model, columns, rows in (
                (Batch, _BATCH_COLUMNS, self._batches),
                (DeadLetter, _DEAD_LETTER_COLUMNS, self._dead_letters),
                (AuditEvent, _EVENT_COLUMNS, self._events),
            ):
                if not rows:
                    continue
                table = model.__tablename__
                if dialect.name == "postgresql" and model is DeadLetter:
                    # COPY: several times executemany's speed for the millions.
                    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                        for row in rows:
                            copy.write_row(row)
                    continue
                cur.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) "
                    f"VALUES ({', '.join([marker] * len(columns))})",
                    _as_stored(rows, [getattr(model, c) for c in columns], dialect),
                )
            summary.apply(
                conn,
                {
                    (c, ids[sig], st, a, d, b, t): n
                    for (c, sig, st, a, d, b, t), n in self._cells.items()
                },
            )
        self._batches, self._dead_letters, self._events = [], [], []
        self._cells = Counter()

    def _drop_indexes(self) -> None:
        """The dead letters' secondary indexes, dropped and remembered (bulk)."""
        with self.ws.store.begin() as conn:
            if conn.dialect.name == "sqlite":
                found = conn.exec_driver_sql(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                    "AND tbl_name = 'dead_letters' AND sql IS NOT NULL"
                ).all()
            else:
                # Not the ones behind a constraint (the key, the batch-and-line unique).
                found = conn.exec_driver_sql(
                    "SELECT indexname, indexdef FROM pg_indexes "
                    "WHERE schemaname = current_schema() AND tablename = 'dead_letters' "
                    "AND indexname NOT IN (SELECT conname FROM pg_constraint "
                    "WHERE conrelid = 'dead_letters'::regclass)"
                ).all()
            self._dropped = [(str(name), str(sql)) for name, sql in found]
            for name, _sql in self._dropped:
                conn.exec_driver_sql(f'DROP INDEX "{name}"')

    def _make_indexes(self) -> None:
        with self.ws.store.begin() as conn:
            if conn.dialect.name == "sqlite":
                # A bigger page cache for the sorts (this connection only; it goes back to
                # the pool with it, which the filler's workspace alone uses).
                conn.exec_driver_sql("PRAGMA cache_size = -262144")
            for _name, sql in self._dropped:
                conn.exec_driver_sql(sql)
        self._dropped = []

    def __enter__(self) -> StoreFiller:
        if self.bulk:
            self._drop_indexes()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if exc_type is None:
                self.flush()
        finally:
            if self._dropped:
                self._make_indexes()
        if exc_type is not None:
            return
        with self.ws.store.begin() as conn:
            if conn.dialect.name == "postgresql":
                # The filler writes ids itself, which moves no sequence: without this the
                # next ordinary insert would take id 1 again.
                for table in ("dead_letters", "audit_events"):
                    conn.exec_driver_sql(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                    )
            conn.exec_driver_sql("ANALYZE")


def _as_stored(rows: list[tuple[Any, ...]], columns: list[Any], dialect: Any) -> list[Any]:
    """Rows with their timestamps as the engine stores them (on SQLite, microseconds:
    ``db/instants.py``). The driver's own rendering is text, and a row written that way
    would sort and compare wrongly."""
    instants = [i for i, column in enumerate(columns) if isinstance(column.type, DateTime)]
    if not instants or dialect.name != "sqlite":
        return rows
    process = for_driver(dialect)
    # Only the time columns are touched: a million rows of 17 columns each are written here.
    out = []
    for r in rows:
        row = list(r)
        for i in instants:
            if row[i] is not None:
                row[i] = process(row[i])
        out.append(row)
    return out
