"""Changing dead letters by hand: audited edits of the payload, status changes (park,
discard, reopen), reclassification and notes. The original payload is never touched; each
change is a guarded transition (``transitions.py``) that appends an audit event with who
and when."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from triage_app.core.db import Workspace
from triage_app.core.deadletters import transitions
from triage_app.core.deadletters.filters import DeadLetterFilter
from triage_app.core.deadletters.paging import DeadLetterRow, rows_by_id
from triage_app.core.deadletters.queries import DeadLetterDetail, get_dead_letter, matching_ids
from triage_app.core.deadletters.said import english
from triage_app.core.deadletters.transitions import ChangeReport, RowChange
from triage_app.core.errors import TriageError
from triage_app.core.messages import _


def edit_payload(
    ws: Workspace,
    dl_id: int,
    text: str,
    *,
    if_version: int | None = None,
    actor: str | None = None,
    revealed: bool = False,
) -> DeadLetterDetail:
    """Replace the working payload (the original is kept) and audit who and when. With
    ``if_version``, refused (``ChangedMeanwhile``) when the row is no longer at it. A
    personal field still holding its mask keeps its real value (``masking.restore_masked``).
    ``revealed``: the row returned unmasked, for an editor its steward revealed (audited
    by that reveal)."""
    transitions.edit(ws.store, dl_id, text, if_version=if_version, actor=actor)
    return get_dead_letter(ws, dl_id, reveal=revealed)


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


@dataclass(frozen=True)
class ChangePreview:
    """A change by hand (discard, park, reopen, reclassify, note) on chosen rows, judged and
    written nowhere: what a dry run prints and what a confirmation names. Apply exactly
    what was previewed with ``apply_change(ws, list(p.versions), change,
    expected=p.versions, all_or_nothing=False)``: a row changed since is left out and
    reported, never changed blind."""

    action: str  # the RowChange's action value: "discarded", ...
    verb: str  # "discarded": for messages
    versions: dict[int, int]  # id -> version of every row the change WOULD change
    unchanged: tuple[int, ...]  # already in that state
    refused: tuple[tuple[int, str], ...]  # (id, why not): wrong status, held by a re-drive
    sample: tuple[DeadLetterRow, ...]  # up to ``sample`` rows it would change, by id

    @property
    def count(self) -> int:
        """How many rows the change would change."""
        return len(self.versions)

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "verb": self.verb,
            "would_change": self.count,
            "versions": {str(i): v for i, v in self.versions.items()},
            "unchanged": list(self.unchanged),
            "refused": [{"id": i, "reason": english(r)} for i, r in self.refused],
            "sample": [
                {
                    "id": r.id,
                    "batch_id": r.batch_id,
                    "line": r.line,
                    "error_class": r.error_class,
                    "status": r.status,
                    "error": r.error,
                    "version": r.version,
                }
                for r in self.sample
            ],
        }


def preview_change(
    ws: Workspace,
    change: RowChange,
    *,
    ids: Sequence[int] | None = None,
    where: DeadLetterFilter | None = None,
    sample: int = 10,
) -> ChangePreview:
    """What ``change`` would do to the rows named by ``ids`` (an id that names no row is
    refused, with why) or, without ids, to every row matching ``where``; nothing written.
    The same rules as the change itself (``transitions.judge_rows``)."""
    if ids:
        chosen = sorted(set(ids))
    elif where is not None:
        chosen = matching_ids(ws, where)
    else:
        raise TriageError(
            _("{verb}: name dead letters by id or by a filter").format(verb=change.verb)
        )
    verdict = transitions.judge_rows(ws.store, chosen, change)
    shown = rows_by_id(ws, sorted(verdict.versions)[: max(sample, 0)])
    return ChangePreview(
        change.action.value,
        change.verb,
        verdict.versions,
        verdict.unchanged,
        verdict.refused,
        tuple(shown),
    )
