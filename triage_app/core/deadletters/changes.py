"""Changing dead letters by hand: audited edits of the payload, status changes (park,
discard, reopen), reclassification and notes. The original payload is never touched; each
change is a guarded transition (``transitions.py``) that appends an audit event with who
and when."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from triage_app.core.db import Workspace
from triage_app.core.deadletters import transitions
from triage_app.core.deadletters.filters import DeadLetterFilter
from triage_app.core.deadletters.queries import DeadLetterDetail, get_dead_letter, matching_ids
from triage_app.core.deadletters.transitions import ChangeReport, RowChange, validate_payload
from triage_app.core.vocabulary import ErrorClass, Status

__all__ = [
    "add_note",
    "apply_change",
    "edit_payload",
    "reclassify",
    "set_status",
    "validate_payload",
]


def edit_payload(
    ws: Workspace,
    dl_id: int,
    text: str,
    *,
    if_version: int | None = None,
    actor: str | None = None,
) -> DeadLetterDetail:
    """Replace the working payload (the original is kept) and audit who and when. With
    ``if_version``, refused (``ChangedMeanwhile``) when the row is no longer at it."""
    transitions.edit(ws.store, dl_id, text, if_version=if_version, actor=actor)
    return get_dead_letter(ws, dl_id)


def apply_change(
    ws: Workspace,
    ids: Sequence[int],
    change: RowChange,
    *,
    where: DeadLetterFilter | None = None,
    expected: Mapping[int, int] | None = None,
    actor: str | None = None,
    all_or_nothing: bool | None = None,
) -> ChangeReport:
    """A change by hand to the rows named by ``ids`` (all or nothing, unless told
    otherwise) or to every row matching ``where`` (each guarded on its own, refusals
    reported); see ``transitions.change_rows``."""
    if not ids and where is not None:
        ids = matching_ids(ws, where)
        all_or_nothing = bool(all_or_nothing)
    return transitions.change_rows(
        ws.store,
        ids,
        change,
        expected=expected,
        actor=actor,
        all_or_nothing=True if all_or_nothing is None else all_or_nothing,
    )


def set_status(
    ws: Workspace, ids: Sequence[int], status: Status, *, reason: str = "", actor: str | None = None
) -> int:
    """Park, discard or reopen dead letters by hand, all or none; how many changed."""
    change = transitions.status_change(status, reason)
    return len(apply_change(ws, ids, change, actor=actor, all_or_nothing=True).changed)


def reclassify(
    ws: Workspace, ids: Sequence[int], error_class: ErrorClass, *, actor: str | None = None
) -> int:
    change = transitions.reclassify_as(error_class)
    return len(apply_change(ws, ids, change, actor=actor, all_or_nothing=True).changed)


def add_note(ws: Workspace, ids: Sequence[int], note: str, *, actor: str | None = None) -> int:
    change = transitions.note(note)
    return len(apply_change(ws, ids, change, actor=actor, all_or_nothing=True).changed)
