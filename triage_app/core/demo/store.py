"""Synthetic dead-letter stores: batches, dead letters and audit events written straight into
a store, in bulk, for the demos, tests, benchmarks and screenshots that need thousands or
millions of rows without running a batch for each.

The filler only writes what it is given, with the store's usual defaults for the rest;
what the rows look like is the caller's scenario (``history.py`` has the Trends one).
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
    keep_signatures,
    stored_error,
    summary,
)
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
    """Collects rows and writes them with the driver's own ``executemany``, a block at a
    time; use it as a context manager, which writes the rest and updates the statistics
    SQLite plans with."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._batches: list[tuple[Any, ...]] = []
        self._dead_letters: list[tuple[Any, ...]] = []
        self._events: list[tuple[Any, ...]] = []
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
    ) -> None:
        """A batch as its counters say it ran (no ledger: it was never read in chunks)."""
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
                str(status),
                transform,
                failed_at,
                last_failed_at or failed_at,
                resolved_at,
            )
        )
        if len(self._dead_letters) >= FLUSH_EVERY:
            self.flush()
        return self._dl_id

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
        """Write what has been collected, in one transaction."""
        dialect = self.ws.store.dialect
        marker = "?" if dialect.name == "sqlite" else "%s"
        if self._dead_letters:
            self._dead_letters = self._with_signature_ids(self._dead_letters)
        # One transaction: the rows, their events and the summary's cells (``counts``),
        # counted here from the rows, as the quarantine counts its own.
        with self.ws.store.begin() as conn:
            cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            for model, columns, rows in (
                (Batch, _BATCH_COLUMNS, self._batches),
                (DeadLetter, _DEAD_LETTER_COLUMNS, self._dead_letters),
                (AuditEvent, _EVENT_COLUMNS, self._events),
            ):
                if rows:
                    cur.executemany(
                        f"INSERT INTO {model.__tablename__} ({', '.join(columns)}) "
                        f"VALUES ({', '.join([marker] * len(columns))})",
                        _as_stored(rows, [getattr(model, c) for c in columns], dialect),
                    )
            cur.close()
            summary.apply(conn, _cells(self._dead_letters))
        self._batches, self._dead_letters, self._events = [], [], []

    def _with_signature_ids(self, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        at = _DEAD_LETTER_COLUMNS.index("signature_id")
        with self.ws.store.begin() as conn:
            ids = keep_signatures(conn, {r[at] for r in rows})
        return [(*r[:at], ids[r[at]], *r[at + 1 :]) for r in rows]

    def __enter__(self) -> StoreFiller:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            return
        self.flush()
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


_CELL_AT = [
    _DEAD_LETTER_COLUMNS.index(c)
    for c in (
        "error_class",
        "signature_id",
        "status",
        "attempts",
        "first_failed_at",
        "batch_id",
        "transform",
    )
]


def _cells(rows: list[tuple[Any, ...]]) -> Counter[summary.Cell]:
    """The summary's cells of the filler's rows (signature ids already in)."""
    c, s, st, a, d, b, t = _CELL_AT
    by_key = Counter((r[c], r[s], r[st], r[a], r[d].date(), r[b], r[t]) for r in rows)
    return Counter({summary.cell(*k): n for k, n in by_key.items()})


def _as_stored(rows: list[tuple[Any, ...]], columns: list[Any], dialect: Any) -> list[Any]:
    """Rows with their timestamps as the engine stores them: on SQLite, text with
    microseconds, which SQL compares as text. The driver's own rendering differs (no
    microseconds), and a row written that way would sort and compare wrongly."""
    processors = {
        i: process
        for i, column in enumerate(columns)
        if isinstance(column.type, DateTime)
        and (process := column.type.dialect_impl(dialect).bind_processor(dialect)) is not None
    }
    if not processors:
        return rows
    return [
        tuple(processors[i](v) if i in processors and v is not None else v for i, v in enumerate(r))
        for r in rows
    ]
