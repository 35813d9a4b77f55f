"""The numbers behind each Trends chart as plain tables: what a chart's CSV export and the
report write."""

from __future__ import annotations

import csv
from typing import Any

from triage_app.core.clock import iso
from triage_app.core.csv_cells import safe_cell
from triage_app.core.messages import N_
from triage_app.core.trends.counting import STATUSES
from triage_app.core.trends.model import BatchPoint, Trends
from triage_app.core.vocabulary import CLASSES

Table = tuple[list[str], list[list[Any]]]

# Marked for the catalogue: shown through ``messages._`` (the file names stay the keys).
CHART_TITLES = {
    "failures_per_day": N_("Quarantined per day, by class"),
    "failures_per_batch": N_("Quarantined per batch, by class"),
    "backlog": N_("Backlog: open vs resolved"),
    "quarantine_rate": N_("Quarantine rate per batch"),
    "attempts": N_("Attempts"),
    "error_groups": N_("Error groups"),
}


# Who works on an error group, since when and which release, still growing: after its
# counts. ``owner`` is empty for a group nobody owns; ``tags`` are joined by "; ".
_TEAM = [
    "owner",
    "tags",
    "note",
    "oldest_open",
    "first_batch",
    "first_source",
    "first_transform",
    "last_24h",
    "previous_24h",
    "trend",
]

# What both per-batch tables begin with.
_BATCH_HEADERS = ["batch_id", "source_name", "transform", "started_at", "rows", "quarantined"]


def _batch_cells(b: BatchPoint) -> list[Any]:
    return [b.batch_id, b.source_name, b.transform, iso(b.started_at), b.rows, b.quarantined]


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def chart_tables(t: Trends) -> dict[str, Table]:
    """Each chart's data as (headers, rows) of plain values, named as in CHART_TITLES."""
    return {
        "failures_per_day": (
            ["day", *CLASSES, "total"],
            [[d.day.isoformat(), *(d.by_class[c] for c in CLASSES), d.total] for d in t.per_day],
        ),
        "failures_per_batch": (
            [*_BATCH_HEADERS, *CLASSES],
            [[*_batch_cells(b), *(b.by_class.get(c, 0) for c in CLASSES)] for b in t.per_batch],
        ),
        "backlog": (
            ["day", "open", "resolved", "arrived", "resolved_on_day", "discarded_on_day"],
            [
                [
                    p.day.isoformat(),
                    p.open,
                    p.resolved,
                    p.arrived,
                    p.resolved_on_day,
                    p.discarded_on_day,
                ]
                for p in t.backlog
            ],
        ),
        "quarantine_rate": (
            [*_BATCH_HEADERS, "rate", "baseline", "threshold", "spike"],
            [
                [
                    *_batch_cells(b),
                    round(b.rate, 6),
                    _rounded(c.baseline),
                    _rounded(c.threshold),
                    c.is_spike,
                ]
                for b, c in zip(t.per_batch, t.checks, strict=True)
            ],
        ),
        "attempts": (
            ["attempts", "dead_letters", "parked"],
            [[b.attempts, b.total, b.parked] for b in t.attempts],
        ),
        "error_groups": (
            ["signature", "class", "count", *STATUSES, "first_seen", "last_seen", *_TEAM],
            [
                [
                    g.signature,
                    g.error_class,
                    g.count,
                    *(g.by_status.get(s, 0) for s in STATUSES),
                    iso(g.first_seen),
                    iso(g.last_seen),
                    g.owner or "",
                    "; ".join(g.tags),
                    g.note,
                    iso(g.oldest_open),
                    g.first_batch or "",
                    g.first_source or "",
                    g.first_transform or "",
                    g.last_24h,
                    g.previous_24h,
                    g.trend,
                ]
                for g in t.groups
            ],
        ),
    }


def write_csv(path: Any, table: Table) -> None:
    """One table as CSV (UTF-8, a header row, every cell spreadsheet-safe)."""
    headers, rows = table
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(headers)
        for row in rows:
            w.writerow([safe_cell(v) for v in row])
