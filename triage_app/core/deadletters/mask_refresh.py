"""Filling the store's masked copies of personal data for rows stored before them (a store
from before schema 0013, a transform that newly declares a personal field): page by page,
only the masked columns written (``transitions.write_masks``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select

from triage_app.core.db import Act, DeadLetter, Workspace, require
from triage_app.core.deadletters.masks import NOTHING, contexts
from triage_app.core.deadletters.transitions import write_masks
from triage_app.core.vocabulary import original_kind

REFRESH_PAGE = 2_000


def refresh_masks(ws: Workspace | Engine) -> int:
    """Fill or correct the masked copies of every dead letter, page by page (a store from
    before schema 0013, or a transform that newly declares a personal field, or no longer
    does); how many rows changed. Only the two masked columns are written: the row's
    version stays, since what it says did not change."""
    # The store alone will do (``triage-app migrate`` opens no warehouse).
    store = ws if isinstance(ws, Engine) else ws.store
    require(store, Act.EDIT)
    changed = 0
    after = 0
    while True:
        with store.begin() as conn:
            dl = DeadLetter
            rows = conn.execute(
                select(
                    dl.id,
                    dl.batch_id,
                    dl.transform,
                    dl.original_payload,
                    dl.payload,
                    dl.payload_kind,
                    dl.masked_original,
                    dl.masked_payload,
                    dl.error,
                )
                .where(dl.id > after)
                .order_by(dl.id)
                .limit(REFRESH_PAGE)
            ).all()
            if not rows:
                return changed
            after = rows[-1].id
            ctx = contexts(conn, [(r.id, r.transform, r.batch_id) for r in rows])
            updates: list[dict[str, Any]] = []
            for r in rows:
                c = ctx.get(r.id, NOTHING)
                okind = original_kind(r.payload_kind).value
                mo = c.mask(r.original_payload, okind)
                mp = c.mask(r.payload, r.payload_kind) if r.payload is not None else None
                old_mo = None if r.masked_original is None else bytes(r.masked_original)
                old_mp = None if r.masked_payload is None else bytes(r.masked_payload)
                # An error stored before it was masked (a store from before 0013).
                error = r.error
                if error is not None and c.fields:
                    error = c.mask_error(error, r.original_payload, okind)
                    if r.payload is not None:
                        error = c.mask_error(error, r.payload, r.payload_kind)
                if (mo, mp, error) != (old_mo, old_mp, r.error):
                    updates.append({"b_id": r.id, "mo": mo, "mp": mp, "err": error})
            if updates:
                write_masks(conn, updates)
                changed += len(updates)


# The schema whose stores keep masked copies of personal fields.
MASKS_SINCE = "0013"


def refresh_after_upgrade(ws: Workspace) -> int | None:
    """When opening ``ws`` just upgraded its store from before masked copies were kept (a
    SQLite store upgrades as it opens), fill them at once, so that no list, export or
    search of the upgraded store shows a name; how many rows changed (None: no such
    upgrade)."""
    change = ws.schema_change
    if change is None or change.before is None or change.before >= MASKS_SINCE:
        return None
    return refresh_masks(ws)
