"""Reconcile: prove invariant 1 for a stored batch, from what the databases hold.

Every input line must be exactly one of loaded, superseded or quarantined. The batch's
ledger (one row per committed chunk) must cover its lines without gap or overlap, each
chunk's counts must add up, every dead letter must lie in a committed chunk, and no line
may be both in the warehouse and in the dead-letter store.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import func, inspect, select

from triage_app.core.db import Batch, BatchChunk, DeadLetter, Workspace, target_table
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import BatchState, Status, plural


@dataclass
class Reconciliation:
    batch_id: str
    ok: bool
    complete: bool
    rows: int
    loaded: int
    superseded: int
    quarantined: int
    lines_done: int
    chunks: int
    missing_lines: list[list[int]] = field(default_factory=list)  # [first, last] ranges
    doubled_lines: list[list[int]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _ranges(lines: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def reconcile(ws: Workspace, batch_id: str) -> Reconciliation:
    with ws.store.connect() as conn:
        found = conn.execute(
            select(Batch.__table__).where(Batch.batch_id.startswith(batch_id, autoescape=True))
        ).all()
        if not found:
            raise TriageError(f"no batch {batch_id}")
        if len(found) > 1:
            raise TriageError(f"batch id {batch_id} is ambiguous: give more of it")
        row = found[0]
        chunks = conn.execute(
            select(BatchChunk.__table__)
            .where(BatchChunk.batch_id == row.batch_id)
            .order_by(BatchChunk.first_line)
        ).all()
        dl_rows = conn.execute(
            select(DeadLetter.line, DeadLetter.status).where(DeadLetter.batch_id == row.batch_id)
        ).all()
        dl_lines = [line for line, _status in dl_rows]
        # A dead letter re-driven since is in the warehouse too, rightly: it was quarantined
        # by the batch, and loaded later by a re-drive.
        redriven = {line for line, status in dl_rows if status == Status.RESOLVED}
        dl_dupes = (
            conn.execute(
                select(DeadLetter.line)
                .where(DeadLetter.batch_id == row.batch_id)
                .group_by(DeadLetter.line)
                .having(func.count() > 1)
            )
            .scalars()
            .all()
        )
    r = Reconciliation(
        batch_id=row.batch_id,
        ok=True,
        complete=row.state == BatchState.COMPLETE,
        rows=row.rows,
        loaded=row.loaded,
        superseded=row.superseded,
        quarantined=row.quarantined,
        lines_done=row.lines_done,
        chunks=len(chunks),
    )
    missing: list[int] = []
    doubled: list[int] = []

    # 1. The ledger covers lines first..lines_done once each.
    expected = 2 if row.format == "csv" else 1
    for c in chunks:
        if c.first_line > expected:
            missing += range(expected, c.first_line)
        elif c.first_line < expected:
            doubled += range(c.first_line, min(expected, c.last_line + 1))
        expected = max(expected, c.last_line + 1)
        if c.records != c.loaded + c.superseded + c.quarantined:
            r.problems.append(
                f"lines {c.first_line}-{c.last_line}: {plural(c.records, 'record')} but "
                f"{c.loaded} loaded"
                f" + {c.superseded} superseded + {c.quarantined} quarantined"
            )
    if chunks and expected - 1 != row.lines_done:
        r.problems.append(
            f"the checkpoint says line {row.lines_done}, the ledger ends at {expected - 1}"
        )

    # 2. The batch's counters are the ledger's sums.
    for name in ("loaded", "superseded", "quarantined"):
        total = sum(getattr(c, name) for c in chunks)
        if total != getattr(row, name):
            r.problems.append(f"{name}: the batch says {getattr(row, name)}, its chunks {total}")
    if row.rows != r.loaded + r.superseded + r.quarantined:
        r.problems.append(
            f"{plural(row.rows, 'row')} but {r.loaded} loaded + {r.superseded} superseded"
            f" + {r.quarantined} quarantined"
        )

    # 3. Dead letters: once each, inside a committed chunk, as many as each chunk counted.
    doubled += dl_dupes
    starts = [c.first_line for c in chunks]
    per_chunk = [0] * len(chunks)
    for line in dl_lines:
        i = bisect.bisect_right(starts, line) - 1
        if i < 0 or line > chunks[i].last_line:
            doubled.append(line)
            r.problems.append(f"line {line} is quarantined outside every committed chunk")
        else:
            per_chunk[i] += 1
    for c, n in zip(chunks, per_chunk, strict=True):
        if n != c.quarantined:
            r.problems.append(
                f"lines {c.first_line}-{c.last_line}: {c.quarantined} quarantined "
                f"counted, {plural(n, 'dead letter')} stored"
            )
            if n < c.quarantined:
                missing += range(c.first_line, c.last_line + 1)

    # 4. The warehouse: no line both loaded and quarantined, none beyond the ledger.
    _check_warehouse(
        ws, row.transform, row.batch_id, chunks, set(dl_lines) - redriven, redriven, doubled, r
    )

    r.missing_lines = _ranges(missing)
    r.doubled_lines = _ranges(doubled)
    r.ok = not (r.missing_lines or r.doubled_lines or r.problems)
    return r


def _check_warehouse(
    ws: Workspace,
    transform_ref: str,
    batch_id: str,
    chunks: Sequence[Any],
    quarantined: set[int],
    redriven: set[int],
    doubled: list[int],
    r: Reconciliation,
) -> None:
    try:
        transform = default_registry().get(transform_ref)
    except TriageError:
        r.problems.append(f"transform {transform_ref} is not installed: warehouse not checked")
        return
    if not inspect(ws.warehouse).has_table(transform.table):
        if r.loaded:
            r.problems.append(
                f"{plural(r.loaded, 'row')} loaded but there is no table {transform.table}"
            )
        return
    table = target_table(transform)
    starts = [c.first_line for c in chunks]
    per_chunk = [0] * len(chunks)
    with ws.warehouse.connect() as conn:
        result = conn.execution_options(stream_results=True, yield_per=50_000).execute(
            select(table.c._line).where(table.c._batch_id == batch_id)
        )
        for line in result.scalars():
            if line in quarantined:
                doubled.append(line)
                r.problems.append(f"line {line} is both in the warehouse and quarantined")
            if line in redriven:
                continue
            i = bisect.bisect_right(starts, line) - 1
            if i < 0 or line > chunks[i].last_line:
                r.problems.append(f"line {line} is in the warehouse outside every chunk")
            else:
                per_chunk[i] += 1
    for c, n in zip(chunks, per_chunk, strict=True):
        # Fewer is fine: a later version, in this batch or a later one, took the key.
        if n > c.loaded:
            r.problems.append(
                f"lines {c.first_line}-{c.last_line}: {n} warehouse rows, {c.loaded} loaded"
            )
