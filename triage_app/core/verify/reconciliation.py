"""Reconcile: prove invariant 1 for a stored batch, from what the databases hold.

Every input line must be exactly one of loaded, superseded, quarantined or held (an
all-or-nothing batch's healthy rows waiting for the batch to load whole). The batch's
ledger (one row per committed chunk) must cover its lines without gap or overlap, each
chunk's counts must add up, every dead letter must lie in a committed chunk, and no line
may be both in the warehouse and in the dead-letter store.

A retention purge deletes closed dead letters; each purge counts what it took per batch,
ledger chunk and status (``purges.by_batch``). A chunk's quarantined lines are then its
dead letters still stored plus those purged, and a purged resolved row, loaded by its
re-drive, may be in the warehouse as a re-driven row still stored may.

Its problems are sentences a person reads and ``--json`` carries: each is made in both
languages (``_`` and ``ngettext`` here are the store's two-language ones, ``core/db/
bilingual.py``), shown in the user's and written in English in the JSON.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, func, inspect, select

from triage_app.core.bilingual import Said
from triage_app.core.bilingual import both_gettext as _
from triage_app.core.bilingual import both_ngettext as ngettext
from triage_app.core.db import (
    BatchChunk,
    DeadLetter,
    HeldRow,
    Purge,
    Workspace,
    batch_named,
    summary,
    target_table,
)
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import BatchKind, BatchState, Status

SUMMARY_NAMED = 20  # cells of the summary named in a report; the rest counted


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
    # Quarantined lines whose dead letters a retention purge deleted, by their status then.
    purged_resolved: int = 0
    purged_discarded: int = 0
    # An all-or-nothing batch's healthy rows waiting (held_rows), never in the warehouse;
    # ``state`` held, or discarded (its held rows dropped, still counted here).
    held: int = 0
    state: str = ""
    missing_lines: list[list[int]] = field(default_factory=list)  # [first, last] ranges
    doubled_lines: list[list[int]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # in the user's language
    problems_english: list[str] = field(default_factory=list, repr=False)

    def problem(self, said: Said) -> None:
        """One more problem, in both languages."""
        self.problems.append(str(said))
        self.problems_english.append(said.english)

    def to_json(self) -> dict[str, Any]:
        """Locale-free: the problems in English."""
        out = asdict(self)
        out["problems"] = out.pop("problems_english")
        return out


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
        row = batch_named(conn, batch_id)
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
        purged, unrecorded = _purged(conn, row.batch_id)
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
        # The summary Trends reads (``counts``) must hold the batch's rows as they are.
        drifted = summary.differences(conn, row.batch_id)
        held_lines = list(
            conn.execute(select(HeldRow.line).where(HeldRow.batch_id == row.batch_id)).scalars()
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
        held=row.held,
        state=row.state,
    )
    # A held line lies in one ledger chunk, which counts it with its records.
    held_per_chunk = [0] * len(chunks)
    chunk_starts = [c.first_line for c in chunks]
    for line in held_lines:
        i = bisect.bisect_right(chunk_starts, line) - 1
        if i < 0 or line > chunks[i].last_line:
            r.problem(_("line {line} is held outside every committed chunk").format(line=str(line)))
        else:
            held_per_chunk[i] += 1
    dropped = row.state == BatchState.DISCARDED  # its held rows are gone, their count kept
    if len(held_lines) != row.held and not dropped:
        stored = ngettext(
            "held: the batch says {said}, {n} held row stored",
            "held: the batch says {said}, {n} held rows stored",
            len(held_lines),
        )
        r.problem(stored.format(said=row.held, n=len(held_lines)))
    missing: list[int] = []
    doubled: list[int] = []

    # 1. The ledger covers lines first..lines_done once each.
    expected = 2 if row.format == "csv" else 1
    dropped_total = 0
    for c, held_here in zip(chunks, held_per_chunk, strict=True):
        if dropped:  # discarded whole: whatever the chunk did not load was held, then dropped
            held_here = max(c.records - c.loaded - c.superseded - c.quarantined, 0)
            dropped_total += held_here
        if c.first_line > expected:
            missing += range(expected, c.first_line)
        elif c.first_line < expected:
            doubled += range(c.first_line, min(expected, c.last_line + 1))
        expected = max(expected, c.last_line + 1)
        if c.records != c.loaded + c.superseded + c.quarantined + held_here:
            if held_here:
                sums = ngettext(
                    "lines {first}-{last}: {n} record but {loaded} loaded + {superseded} "
                    "superseded + {quarantined} quarantined + {held} held",
                    "lines {first}-{last}: {n} records but {loaded} loaded + {superseded} "
                    "superseded + {quarantined} quarantined + {held} held",
                    c.records,
                )
            else:
                sums = ngettext(
                    "lines {first}-{last}: {n} record but {loaded} loaded + {superseded} "
                    "superseded + {quarantined} quarantined",
                    "lines {first}-{last}: {n} records but {loaded} loaded + {superseded} "
                    "superseded + {quarantined} quarantined",
                    c.records,
                )
            r.problem(
                sums.format(
                    first=str(c.first_line),
                    last=str(c.last_line),
                    n=c.records,
                    loaded=c.loaded,
                    superseded=c.superseded,
                    quarantined=c.quarantined,
                    held=held_here,
                )
            )
    if dropped and dropped_total != row.held:
        said = _("held: the batch says {said}, its chunks {chunks}")
        r.problem(said.format(said=row.held, chunks=dropped_total))
    if chunks and expected - 1 != row.lines_done:
        said = _("the checkpoint says line {line}, the ledger ends at {end}")
        r.problem(said.format(line=str(row.lines_done), end=str(expected - 1)))

    # 2. The batch's counters are the ledger's sums.
    for name in ("loaded", "superseded", "quarantined"):
        total = sum(getattr(c, name) for c in chunks)
        if total != getattr(row, name):
            r.problem(_counter_differs(name).format(said=getattr(row, name), chunks=total))
    if row.rows != r.loaded + r.superseded + r.quarantined + r.held:
        sums = ngettext(
            "{n} row but {loaded} loaded + {superseded} superseded + {quarantined} quarantined "
            "+ {held} held",
            "{n} rows but {loaded} loaded + {superseded} superseded + {quarantined} quarantined "
            "+ {held} held",
            row.rows,
        )
        r.problem(
            sums.format(
                n=row.rows,
                loaded=r.loaded,
                superseded=r.superseded,
                quarantined=r.quarantined,
                held=r.held,
            )
        )

    # 3. Dead letters: once each, inside a committed chunk, as many as each chunk counted,
    # those a purge took included.
    doubled += dl_dupes
    starts = [c.first_line for c in chunks]
    per_chunk = [0] * len(chunks)
    for line in dl_lines:
        i = bisect.bisect_right(starts, line) - 1
        if i < 0 or line > chunks[i].last_line:
            doubled.append(line)
            said = _("line {line} is quarantined outside every committed chunk")
            r.problem(said.format(line=str(line)))
        else:
            per_chunk[i] += 1
    gone = [{"resolved": 0, "discarded": 0} for _chunk in chunks]
    for first, by_status in sorted(purged.items()):
        i = bisect.bisect_right(starts, first) - 1
        n = sum(by_status.values())
        r.purged_resolved += by_status.get(Status.RESOLVED, 0)
        r.purged_discarded += by_status.get(Status.DISCARDED, 0)
        if i < 0 or first != chunks[i].first_line:
            outside = ngettext(
                "{n} purged dead letter of this batch lay outside every committed chunk",
                "{n} purged dead letters of this batch lay outside every committed chunk",
                n,
            )
            r.problem(outside.format(n=n))
            continue
        for status, k in by_status.items():
            gone[i][status] = gone[i].get(status, 0) + k
    for c, n, took in zip(chunks, per_chunk, gone, strict=True):
        purged_here = sum(took.values())
        if n + purged_here != c.quarantined:
            if purged_here:
                stored = ngettext(
                    "lines {first}-{last}: {quarantined} quarantined counted, {n} dead letter "
                    "stored and {purged} purged",
                    "lines {first}-{last}: {quarantined} quarantined counted, {n} dead letters "
                    "stored and {purged} purged",
                    n,
                )
            else:
                stored = ngettext(
                    "lines {first}-{last}: {quarantined} quarantined counted, {n} dead letter "
                    "stored",
                    "lines {first}-{last}: {quarantined} quarantined counted, {n} dead letters "
                    "stored",
                    n,
                )
            r.problem(
                stored.format(
                    first=str(c.first_line),
                    last=str(c.last_line),
                    quarantined=c.quarantined,
                    n=n,
                    purged=purged_here,
                )
            )
            if n + purged_here < c.quarantined:
                missing += range(c.first_line, c.last_line + 1)
                if unrecorded:
                    older = ngettext(
                        "{n} purge from before schema 0006 did not record its batches: the "
                        "missing dead letters may be among what it took",
                        "{n} purges from before schema 0006 did not record their batches: the "
                        "missing dead letters may be among what they took",
                        unrecorded,
                    )
                    r.problem(older.format(n=unrecorded))
                    unrecorded = 0  # said once

    held_set = set(held_lines)
    for line in sorted(held_set & set(dl_lines)):
        doubled.append(line)
        r.problem(_("line {line} is both held and quarantined").format(line=str(line)))

    # 4. The warehouse: no line both loaded and quarantined (or held), none beyond the ledger.
    # An import (connectors) loads nothing: its lines are all dead letters, and what a
    # re-drive delivers goes back to the source, not to this warehouse.
    if row.kind != BatchKind.IMPORT:
        _check_warehouse(
            ws,
            row.transform,
            row.batch_id,
            chunks,
            (set(dl_lines) - redriven) | held_set,
            redriven,
            [t.get(Status.RESOLVED, 0) for t in gone],
            doubled,
            r,
        )
    # 5. The summary: each cell the batch's rows make, as many as the rows.
    for cell, kept, counted in drifted[:SUMMARY_NAMED]:
        drift = ngettext(
            "the summary holds {n} dead letter where the rows make {counted}: {cell}",
            "the summary holds {n} dead letters where the rows make {counted}: {cell}",
            kept,
        )
        r.problem(drift.format(n=kept, counted=counted, cell=summary.describe(cell)))
    if len(drifted) > SUMMARY_NAMED:
        more = len(drifted) - SUMMARY_NAMED
        r.problem(
            ngettext(
                "and {n} more cell of the summary differs",
                "and {n} more cells of the summary differ",
                more,
            ).format(n=more)
        )

    r.missing_lines = _ranges(missing)
    r.doubled_lines = _ranges(doubled)
    r.ok = not (r.missing_lines or r.doubled_lines or r.problems)
    return r


def _counter_differs(name: str) -> Said:
    """A counter of the batch that is not the sum of its chunks' (``{said}``: the batch's)."""
    if name == "loaded":
        return _("loaded: the batch says {said}, its chunks {chunks}")
    if name == "superseded":
        return _("superseded: the batch says {said}, its chunks {chunks}")
    return _("quarantined: the batch says {said}, its chunks {chunks}")


def _check_warehouse(
    ws: Workspace,
    transform_ref: str,
    batch_id: str,
    chunks: Sequence[Any],
    quarantined: set[int],
    redriven: set[int],
    purged_resolved: list[int],
    doubled: list[int],
    r: Reconciliation,
) -> None:
    """No line both loaded and quarantined; per chunk no more warehouse rows than it
    loaded plus the re-drives of its purged resolved rows (whose lines are not known)."""
    try:
        transform = default_registry().get(transform_ref)
    except TriageError:
        said = _("transform {transform} is not installed: warehouse not checked")
        r.problem(said.format(transform=transform_ref))
        return
    if not inspect(ws.warehouse).has_table(transform.table):
        if r.loaded:
            said = ngettext(
                "{n} row loaded but there is no table {table}",
                "{n} rows loaded but there is no table {table}",
                r.loaded,
            )
            r.problem(said.format(n=r.loaded, table=transform.table))
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
                said = _("line {line} is both in the warehouse and quarantined")
                r.problem(said.format(line=str(line)))
            if line in redriven:
                continue
            i = bisect.bisect_right(starts, line) - 1
            if i < 0 or line > chunks[i].last_line:
                said = _("line {line} is in the warehouse outside every chunk")
                r.problem(said.format(line=str(line)))
            else:
                per_chunk[i] += 1
    for c, n, redriven_gone in zip(chunks, per_chunk, purged_resolved, strict=True):
        # Fewer is fine: a later version, in this batch or a later one, took the key.
        if n > c.loaded + redriven_gone:
            if redriven_gone:
                extra = ngettext(
                    "lines {first}-{last}: {n} warehouse row, {loaded} loaded (+ {redriven} "
                    "re-driven, since purged)",
                    "lines {first}-{last}: {n} warehouse rows, {loaded} loaded (+ {redriven} "
                    "re-driven, since purged)",
                    n,
                )
            else:
                extra = ngettext(
                    "lines {first}-{last}: {n} warehouse row, {loaded} loaded",
                    "lines {first}-{last}: {n} warehouse rows, {loaded} loaded",
                    n,
                )
            r.problem(
                extra.format(
                    first=str(c.first_line),
                    last=str(c.last_line),
                    n=n,
                    loaded=c.loaded,
                    redriven=redriven_gone,
                )
            )


def _purged(conn: Connection, batch_id: str) -> tuple[dict[int, dict[str, int]], int]:
    """What retention purges took of this batch, per first line of a ledger chunk and
    status; and how many purges from before schema 0006 recorded no batches."""
    out: dict[int, dict[str, int]] = {}
    # The text filter only narrows the read: a batch id is 16 hex digits, found as a key.
    rows = conn.execute(
        select(Purge.by_batch).where(Purge.by_batch.contains(f'"{batch_id}"', autoescape=True))
    ).scalars()
    for raw in rows:
        for first, by_status in (orjson.loads(raw).get(batch_id) or {}).items():
            per = out.setdefault(int(first), {})
            for status, n in by_status.items():
                per[status] = per.get(status, 0) + int(n)
    unrecorded = int(
        conn.execute(
            select(func.count()).select_from(Purge).where(Purge.by_batch == "{}")
        ).scalar_one()
    )
    return out, unrecorded
