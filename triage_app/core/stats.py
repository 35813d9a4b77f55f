"""Aggregates over the dead-letter store, all computed in SQL."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Integer, Text, func, select

from triage_app.core.deadletters import DeadLetterFilter, filtered
from triage_app.core.store import DeadLetter
from triage_app.core.workspace import Workspace


@dataclass(frozen=True)
class Stats:
    total: int
    by_class: dict[str, int]
    by_status: dict[str, int]
    by_class_status: dict[str, dict[str, int]]
    attempts: dict[int, int]  # attempts -> dead letters with that many
    failures_per_day: list[dict[str, Any]]  # {"day", "class", "count"}, by first failure
    top_signatures: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["attempts"] = {str(k): v for k, v in self.attempts.items()}
        return d


def compute_stats(ws: Workspace, f: DeadLetterFilter | None = None, top: int = 10) -> Stats:
    f = f or DeadLetterFilter(status="all")
    dl = DeadLetter
    day = func.substr(func.cast(dl.first_failed_at, Text()), 1, 10)
    with ws.store.connect() as conn:
        by_cs: dict[str, dict[str, int]] = {}
        for cls, status, n in conn.execute(
            filtered(select(dl.error_class, dl.status, func.count()), f).group_by(
                dl.error_class, dl.status
            )
        ):
            by_cs.setdefault(cls, {})[status] = n
        attempts = {
            int(a): int(n)
            for a, n in conn.execute(
                filtered(select(dl.attempts, func.count()), f)
                .group_by(dl.attempts)
                .order_by(dl.attempts)
            )
        }
        per_day = [
            {"day": d, "class": c, "count": int(n)}
            for d, c, n in conn.execute(
                filtered(select(day.label("day"), dl.error_class, func.count()), f)
                .group_by("day", dl.error_class)
                .order_by("day", dl.error_class)
            )
        ]
        n_open = func.sum(func.cast(dl.status == "open", Integer()))
        top_sigs = [
            {
                "signature": sig,
                "class": cls,
                "count": int(n),
                "open": int(o or 0),
                "first_seen": str(first)[:19],
                "last_seen": str(last)[:19],
            }
            for sig, cls, n, o, first, last in conn.execute(
                filtered(
                    select(
                        dl.signature,
                        dl.error_class,
                        func.count().label("n"),
                        n_open,
                        func.min(dl.first_failed_at),
                        func.max(dl.last_failed_at),
                    ),
                    f,
                )
                .group_by(dl.signature, dl.error_class)
                .order_by(func.count().desc(), dl.signature)
                .limit(top)
            )
        ]
    by_class: dict[str, int] = {}
    by_status: dict[str, int] = {}
    for cls, statuses in by_cs.items():
        for status, n in statuses.items():
            by_class[cls] = by_class.get(cls, 0) + n
            by_status[status] = by_status.get(status, 0) + n
    return Stats(
        total=sum(by_class.values()),
        by_class=by_class,
        by_status=by_status,
        by_class_status=by_cs,
        attempts=attempts,
        failures_per_day=per_day,
        top_signatures=top_sigs,
    )
