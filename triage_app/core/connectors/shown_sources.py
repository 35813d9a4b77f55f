"""Where a dead letter came from, in the words of the table's Source column: the
connector's name for an imported one, ``file <name>`` for a row of the desk's own batch
(in the reader's language: shown, never kept)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from triage_app.core.db import Batch, Connector, Workspace
from triage_app.core.deadletters import slices
from triage_app.core.messages import _


def batch_sources(ws: Workspace, batch_ids: Iterable[str]) -> dict[str, str]:
    """Each batch's source in words; a batch not found is left out."""
    wanted = sorted(set(batch_ids))
    out: dict[str, str] = {}
    if not wanted:
        return out
    b, c = Batch, Connector
    with ws.store.connect() as conn:
        for part in slices(wanted):
            stmt = (
                select(b.batch_id, b.source_name, c.name)
                .select_from(b.__table__.outerjoin(c.__table__, c.id == b.connector_id))
                .where(b.batch_id.in_(part))
            )
            for batch_id, source_name, connector in conn.execute(stmt):
                out[batch_id] = (
                    connector if connector else _("file {name}").format(name=source_name)
                )
    return out
