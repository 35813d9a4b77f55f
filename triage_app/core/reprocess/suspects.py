"""The rows a suspect transform version wrote, each with the record it was written from.

A warehouse row's lineage (``_batch_id``, ``_line``, ``_transform``) names the batch and
line that last wrote it. The record behind it is one of three things:

- a dead letter at that batch and line: the row failed in its batch and a re-drive loaded
  it, so the record is the dead letter's working payload (the fixed one);
- a line of a reprocess run: the run's kept input holds the record it was given;
- otherwise the batch's own line, read from its kept source.

The rows are read in (batch, line) order, so each batch's kept source is read once, from
start to end, beside them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import orjson
from sqlalchemy import Engine, Row, inspect, select

from triage_app.core.batch import SourceGone, batch_records, csv_header_names, decode_csv
from triage_app.core.bilingual import Said, both
from triage_app.core.db import (
    Batch,
    DeadLetter,
    Workspace,
    target_table,
    working_payload,
)
from triage_app.core.errors import TriageError
from triage_app.core.messages import N_, _
from triage_app.core.transforms import Transform
from triage_app.core.vocabulary import BatchKind, PayloadKind

PAGE = 2_000  # rows whose dead letters are looked up at once


@dataclass(frozen=True)
class Suspect:
    """A warehouse row the suspect version wrote, and what it was written from."""

    key: Any
    values: tuple[Any, ...]  # the row's columns, in the transform's order
    batch_id: str
    line: int
    raw: bytes | None  # the record; None when it cannot be read (``missing`` says why)
    kind: str  # PayloadKind of ``raw``: a CSV row always comes as a JSON object
    # Why ``raw`` is None, in both languages (shown, and in English in --json).
    why_missing: Said | None = None

    @property
    def missing(self) -> str | None:
        """Why the record cannot be read, in the user's language; None when it can."""
        return None if self.why_missing is None else str(self.why_missing)


def check_pair(suspect: Transform, fixer: Transform) -> None:
    """Refuse a pair that cannot be compared row for row."""
    if suspect.ref == fixer.ref:
        said_ = _("reprocess {suspect} with another version, not itself")
        raise TriageError(said_.format(suspect=suspect.ref))
    if (suspect.table, suspect.key, suspect.column_names) != (
        fixer.table,
        fixer.key,
        fixer.column_names,
    ):
        said_ = _(
            "{fixer} writes {fixer_table} ({fixer_columns}) and {suspect} wrote {suspect_table} "
            "({suspect_columns}): a reprocess compares rows of one table with the same columns"
        )
        raise TriageError(
            said_.format(
                fixer=fixer.ref,
                fixer_table=fixer.table,
                fixer_columns=", ".join(fixer.column_names),
                suspect=suspect.ref,
                suspect_table=suspect.table,
                suspect_columns=", ".join(suspect.column_names),
            )
        )


def count_suspects(ws: Workspace, suspect: Transform, scope: str | None = None) -> int:
    """How many warehouse rows ``suspect`` last wrote (within batch ``scope``)."""
    from sqlalchemy import func

    if not inspect(ws.warehouse).has_table(suspect.table):
        return 0
    table = target_table(suspect)
    stmt = select(func.count()).select_from(table).where(table.c._transform == suspect.ref)
    if scope is not None:
        stmt = stmt.where(table.c._batch_id == scope)
    with ws.warehouse.connect() as conn:
        return int(conn.execute(stmt).scalar_one())


def suspects(ws: Workspace, suspect: Transform, scope: str | None = None) -> Iterator[Suspect]:
    """Every row ``suspect`` last wrote (only batch ``scope``'s, if given), with its record,
    in (batch, line) order."""
    if not inspect(ws.warehouse).has_table(suspect.table):
        return
    table = target_table(suspect)
    cols = [table.c[n] for n in suspect.column_names]
    stmt = select(*cols, table.c._batch_id, table.c._line).where(table.c._transform == suspect.ref)
    if scope is not None:
        stmt = stmt.where(table.c._batch_id == scope)
    stmt = stmt.order_by(table.c._batch_id, table.c._line)
    key_at = suspect.column_names.index(suspect.key)
    width = len(cols)
    with ws.warehouse.connect() as conn:
        rows = conn.execution_options(stream_results=True, yield_per=PAGE).execute(stmt)
        for batch_id, group in groupby(rows, key=lambda r: r[width]):
            yield from _of_batch(ws, batch_id, group, width, key_at)


@dataclass(frozen=True)
class _BatchOrigin:
    kind: str
    fmt: str
    names: list[str] | None


def _origin(store: Engine, batch_id: str) -> _BatchOrigin | None:
    with store.connect() as conn:
        b = conn.execute(
            select(Batch.kind, Batch.format, Batch.csv_header).where(Batch.batch_id == batch_id)
        ).one_or_none()
    if b is None:
        return None
    names = csv_header_names(b.csv_header) if b.csv_header else None
    return _BatchOrigin(b.kind, b.format, names)


def _of_batch(
    ws: Workspace, batch_id: str, group: Iterator[Any], width: int, key_at: int
) -> Iterator[Suspect]:
    origin = _origin(ws.store, batch_id)
    records = _Records(ws, batch_id, origin)
    have = _dead_letter_lines(ws.store, batch_id)
    page: list[Row[Any]] = []
    for row in group:
        page.append(row)
        if len(page) == PAGE:
            yield from _page(ws, batch_id, page, records, width, key_at, have)
            page = []
    if page:
        yield from _page(ws, batch_id, page, records, width, key_at, have)


def _page(
    ws: Workspace,
    batch_id: str,
    page: list[Row[Any]],
    records: _Records,
    width: int,
    key_at: int,
    have: set[int],
) -> Iterator[Suspect]:
    lines = [int(r[width + 1]) for r in page]
    fixed = _dead_letters(ws.store, batch_id, lines, have)
    for row, line in zip(page, lines, strict=True):
        values = tuple(row[:width])
        key = values[key_at]
        found = fixed.get(line)
        if found is not None:
            payload, kind = found
            if kind == PayloadKind.CSV:
                payload, kind = records.as_object(payload), PayloadKind.JSON_CSV
            yield Suspect(key, values, batch_id, line, payload, kind)
            continue
        raw, kind, missing = records.at(line)
        yield Suspect(key, values, batch_id, line, raw, kind, missing)


def _dead_letter_lines(store: Engine, batch_id: str) -> set[int]:
    """The lines of the batch that have a dead letter (one walk of its unique index)."""
    with store.connect() as conn:
        return set(
            conn.execute(select(DeadLetter.line).where(DeadLetter.batch_id == batch_id)).scalars()
        )


def _dead_letters(
    store: Engine, batch_id: str, lines: list[int], have: set[int]
) -> dict[int, tuple[bytes, str]]:
    """The working payloads of the dead letters at these lines of the batch: the rows a
    re-drive loaded. ``have``: the batch's lines with a dead letter, so that a page with
    none asks nothing."""
    wanted = [n for n in lines if n in have]
    out: dict[int, tuple[bytes, str]] = {}
    if not wanted:
        return out
    with store.connect() as conn:
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            stmt = select(DeadLetter.line, working_payload(), DeadLetter.payload_kind).where(
                DeadLetter.batch_id == batch_id, DeadLetter.line.in_(part)
            )
            for line, payload, kind in conn.execute(stmt):
                out[int(line)] = (bytes(payload), kind)
    return out


class _Records:
    """A batch's records by line, read forward once from its kept source."""

    def __init__(self, ws: Workspace, batch_id: str, origin: _BatchOrigin | None) -> None:
        self.ws = ws
        self.batch_id = batch_id
        self.origin = origin
        self._it: Iterator[tuple[int, bytes]] | None = None
        self._last: tuple[int, bytes] | None = None
        self._missing: Said | None = None
        if origin is None:
            self._missing = both(N_("batch {batch} is not in the store"), batch=batch_id)

    def as_object(self, raw: bytes) -> bytes:
        names = self.origin.names if self.origin is not None else None
        return orjson.dumps(decode_csv(raw, names or []))

    def _not_in_source(self, line: int) -> tuple[None, str, Said]:
        gone = N_("line {line} is not in batch {batch}'s source")
        return None, PayloadKind.JSONL, both(gone, line=str(line), batch=self.batch_id)

    def at(self, line: int) -> tuple[bytes | None, str, Said | None]:
        if self._missing is not None:
            return None, PayloadKind.JSONL, self._missing
        assert self.origin is not None
        try:
            if self._it is None:
                self._it = batch_records(self.ws, self.batch_id)
            while self._last is None or self._last[0] < line:
                self._last = next(self._it)
        except SourceGone as exc:
            self._missing = exc.said
            return None, PayloadKind.JSONL, self._missing
        except StopIteration:
            return self._not_in_source(line)
        if self._last[0] != line:
            return self._not_in_source(line)
        raw = self._last[1]
        if self.origin.kind == BatchKind.REPROCESS:
            return _from_envelope(raw)
        if self.origin.fmt == PayloadKind.CSV:
            return self.as_object(raw), PayloadKind.JSON_CSV, None
        return raw, PayloadKind.JSONL, None


def envelope(key: Any, batch_id: str, line: int, raw: bytes, kind: str) -> bytes:
    """A reprocess run's input line: the record, its kind, and the row it was meant for
    (its key and the lineage it had), so that a resumed run needs nothing else."""
    return orjson.dumps(
        {"key": key, "batch": batch_id, "line": line, "kind": kind, "record": raw.decode()}
    )


def _from_envelope(raw: bytes) -> tuple[bytes | None, str, Said | None]:
    e = orjson.loads(raw)
    return e["record"].encode(), e["kind"], None
