"""Where each imported dead letter came from, as a sink needs it to send it back: its
connector, its identity there (a broker's message id: a re-driven message carries it, so
that a receiver can tell a second delivery), where it was going and the evidence kept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import select

from triage_app.core.bilingual import Said, both
from triage_app.core.db import Origin, Workspace
from triage_app.core.deadletters import slices
from triage_app.core.messages import N_


@dataclass(frozen=True)
class OriginInfo:
    dead_letter_id: int
    connector_id: int
    identity: str
    destination: str | None
    evidence: Mapping[str, Any] = field(default_factory=dict)


def origins_of(ws: Workspace, ids: Sequence[int]) -> dict[int, OriginInfo]:
    """The origins of those of ``ids`` that were imported (a batch's own rows have none)."""
    o = Origin
    out: dict[int, OriginInfo] = {}
    wanted = sorted(set(ids))
    with ws.store.connect() as conn:
        for part in slices(wanted):
            for r in conn.execute(
                select(
                    o.dead_letter_id, o.connector_id, o.identity, o.destination, o.evidence
                ).where(o.dead_letter_id.in_(part))
            ):
                out[int(r.dead_letter_id)] = OriginInfo(
                    int(r.dead_letter_id),
                    int(r.connector_id),
                    r.identity,
                    r.destination,
                    orjson.loads(r.evidence),
                )
    return out


def not_imported() -> Said:
    """Why a batch's own row is not delivered to a connector's sink."""
    return both(N_("not imported from a connector: re-drive it into the warehouse"))
