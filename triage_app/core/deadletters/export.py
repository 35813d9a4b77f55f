"""Exporting dead letters to CSV or JSONL, for people who work on them in other tools.

CSV cells that a spreadsheet would run as a formula are neutralised (``csv_cells``). The
file is written beside its destination and renamed at the end, so a cancelled or failed
export leaves no half-written file.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import ColumnElement, select

from triage_app.core.clock import iso
from triage_app.core.csv_cells import safe_cell
from triage_app.core.db import (
    DeadLetter,
    Workspace,
    shown_error,
    shown_payload,
    signature_text,
)
from triage_app.core.deadletters.filters import DeadLetterFilter, filtered
from triage_app.core.deadletters.queries import count_dead_letters, payload_text
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.progress import NoProgress, Progress

EXPORT_FORMATS = ("csv", "jsonl")
EXPORT_COLUMNS = (
    "id",
    "batch_id",
    "line",
    "error_class",
    "status",
    "attempts",
    "transform",
    "error",
    "signature",
    "first_failed_at",
    "last_failed_at",
    "payload_kind",
    "payload",
)
# Columns read through what the store keeps of them (see models.DeadLetter).
_EXPRESSIONS: dict[str, Callable[[], ColumnElement[Any]]] = {
    "payload": shown_payload,  # personal fields masked (issue 27)
    "error": shown_error,
    "signature": signature_text,
}
CHUNK = 2_000
_IDS_PER_QUERY = 500


@dataclass(frozen=True)
class ExportSummary:
    path: str
    format: str
    rows: int
    cancelled: bool = False


def _records(ws: Workspace, f: DeadLetterFilter) -> Iterator[dict[str, Any]]:
    cols = [
        _EXPRESSIONS[c]().label(c) if c in _EXPRESSIONS else getattr(DeadLetter, c)
        for c in EXPORT_COLUMNS
    ]
    if f.ids is not None:
        ids = sorted(set(f.ids))
        batches: list[tuple[DeadLetterFilter, int | None]] = [
            (f.with_(ids=tuple(ids[i : i + _IDS_PER_QUERY])), None)
            for i in range(0, len(ids), _IDS_PER_QUERY)
        ]
    else:
        batches = [(f, 0)]
    for part, last_id in batches:
        while True:
            stmt = filtered(select(*cols), part)
            if last_id is not None:
                stmt = stmt.where(DeadLetter.id > last_id)
            stmt = stmt.order_by(DeadLetter.id).limit(CHUNK)
            with ws.store.connect() as conn:
                rows = conn.execute(stmt).all()
            for r in rows:
                rec = dict(zip(EXPORT_COLUMNS, r, strict=True))
                rec["payload"] = payload_text(rec["payload"])
                rec["first_failed_at"] = iso(rec["first_failed_at"])
                rec["last_failed_at"] = iso(rec["last_failed_at"])
                yield rec
            if last_id is None or len(rows) < CHUNK:
                break
            last_id = rows[-1][0]


def export_dead_letters(
    ws: Workspace,
    f: DeadLetterFilter,
    path: str | os.PathLike[str],
    fmt: str,
    *,
    progress: Progress | None = None,
) -> ExportSummary:
    """Write the dead letters matching ``f`` to ``path`` as ``csv`` or ``jsonl``."""
    if fmt not in EXPORT_FORMATS:
        raise TriageError(
            _("unknown export format {format}: use csv or jsonl").format(format=repr(fmt))
        )
    progress = progress or NoProgress()
    dest = Path(path)
    tmp = dest.with_name(dest.name + ".part")
    total = count_dead_letters(ws, f)
    n = 0
    cancelled = False
    try:
        with tmp.open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out) if fmt == "csv" else None
            if writer is not None:
                writer.writerow(EXPORT_COLUMNS)
            for rec in _records(ws, f):
                if writer is not None:
                    writer.writerow([safe_cell(rec[c]) for c in EXPORT_COLUMNS])
                else:
                    out.write(orjson.dumps(rec).decode() + "\n")
                n += 1
                if n % CHUNK == 0:
                    progress.update(n, total, n)
                    if progress.cancelled():
                        cancelled = True
                        break
        if cancelled:
            tmp.unlink(missing_ok=True)
        else:
            tmp.replace(dest)
            progress.update(n, max(total, n), n)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise TriageError(
            _("cannot write {file}: {error}").format(file=dest.name, error=exc.strerror or exc)
        ) from None
    return ExportSummary(str(dest), fmt, n, cancelled)
