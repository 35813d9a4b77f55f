"""Change-sets: one fix (``fixes.py``) previewed on many dead letters, applied to them as one
audited change-set, and reverted as a whole (issue 13).

- **Preview** reads the chosen rows a page at a time and says for each: the payload before
  and after, or why the fix does not apply; with a transform version, what it would make
  of the fixed payload (the warehouse row, or the error). Nothing is written. It keeps the
  version it saw of every row the fix applies to.
- **Apply** takes those versions. Each row is locked and guarded as an edit by hand is
  (``transitions``): a row that changed since the preview, or that a re-drive holds, is
  left out and reported, never patched blind. The rest get the fix and a line in
  ``change_set_rows`` with the stored payload and kind from before, byte for byte. The
  change-set is the set record of the fix (who, when, what) and each line a row's
  ``edited`` event, which the trail expands (``expanded_events.py``). Chunks commit one at
  a time: a killed apply leaves a change-set that says exactly which rows it changed.
- **Revert** restores each row the change-set changed, unless the row moved on since (a
  later edit, a re-drive that resolved it), which is reported with who did what. Each run
  is one ``change_set_reverts`` record; a line it restored names it and keeps the payload
  the revert replaced. A row this change-set's own revert already restored (its line says
  so) is counted as already restored, whatever happened to it after: a revert killed mid
  way, or run again, never blames its own edits. The change-set is marked reverted once no
  row waits: each is restored, or moved on for good (see ``revert_change_set``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, literal_column, select, update

from triage_app.core.clock import iso, utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    AuditEvent,
    Batch,
    ChangeSet,
    ChangeSetRevert,
    ChangeSetRow,
    DeadLetter,
    Workspace,
    actor_for,
    working_payload,
)
from triage_app.core.deadletters import transitions
from triage_app.core.deadletters.expanded_events import change_set_records_from
from triage_app.core.deadletters.filters import DeadLetterFilter
from triage_app.core.deadletters.fixes import (
    Fix,
    NotApplicable,
    fix_from_spec,
    fixed_payload,
    what_changed,
)
from triage_app.core.deadletters.id_sets import id_in
from triage_app.core.deadletters.masks import MaskContext
from triage_app.core.deadletters.queries import matching_ids, payload_text
from triage_app.core.deadletters.said import both, english, reason_of, utc_time
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.masking import mask_value
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.transforms import Transform, personal_fields_of
from triage_app.core.vocabulary import CLOSED, AuditAction, edited_kind, named_ids

DL = DeadLetter
CHUNK = 2_000
# Rows whose before and after a preview keeps for people to read; the counts cover all.
KEPT_ROWS = 500


@dataclass(frozen=True)
class RowPreview:
    """What the fix does to one row: ``after`` is None when it does not apply (``why``);
    with a transform, ``row`` (what the warehouse would get) or ``error``."""

    id: int
    version: int
    before: str
    after: str | None
    why: str | None = None
    row: dict[str, Any] | None = None
    error: str | None = None
    changes: str = ""  # the fix on this row in a line ("diskon: null -> 0")

    @property
    def outcome(self) -> str:
        if self.after is None:
            return "not_applicable"
        if self.row is not None:
            return "would_load"
        return "still_fails" if self.error is not None else "applies"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "outcome": self.outcome,
            "before": self.before,
            "after": self.after,
            "changes": self.changes,
            "why": english(self.why),
            "row": self.row,
            "error": self.error,
        }


@dataclass(frozen=True)
class FixPreview:
    """A fix on the chosen rows, nothing written. ``versions``: the version seen of each
    row it applies to, which ``apply_fix`` holds them to."""

    fix: Fix
    transform: str | None
    rows: int
    applies: int
    would_load: int
    still_fails: int
    not_applicable: int
    shown: tuple[RowPreview, ...]  # the first KEPT_ROWS, those not applicable first
    versions: Mapping[int, int] = field(repr=False)
    why_not: Mapping[str, int] = field(default_factory=dict)  # reason -> rows
    cancelled: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "fix": self.fix.description,
            "transform": self.transform,
            "rows": self.rows,
            "applies": self.applies,
            "would_load": self.would_load,
            "still_fails": self.still_fails,
            "not_applicable": self.not_applicable,
            "why_not": {english(why): n for why, n in self.why_not.items()},
            "cancelled": self.cancelled,
            "shown": [r.to_json() for r in self.shown],
            "more": max(0, self.rows - len(self.shown)),
        }


@dataclass(frozen=True)
class MovedOn:
    """A row a revert leaves as it is: it changed since the change-set (``why``: who did
    what, when). ``still_open``: it still waits for a person (open or parked), so the
    change-set stays open; closed (resolved, discarded) or gone, it moved on for good."""

    id: int
    why: str
    still_open: bool

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "reason": english(self.why), "still_open": self.still_open}


@dataclass(frozen=True)
class ChangeSetReport:
    """What applying or reverting did: the rows changed, and those left out with why.

    A revert also says which rows were ``already`` restored (by an earlier run of this
    revert, or edited back by hand), which ``moved_on`` since, and when the change-set
    counts as reverted (``reverted_at``: None while a row still waits). ``refused`` are
    then the rows held by a re-drive, to be tried again."""

    change_set_id: int | None
    action: str  # applied | reverted
    changed: tuple[int, ...] = ()
    refused: tuple[tuple[int, str], ...] = ()
    already: tuple[int, ...] = ()
    moved_on: tuple[MovedOn, ...] = ()
    reverted_at: dt.datetime | None = None

    @property
    def waiting(self) -> tuple[MovedOn, ...]:
        """The rows that moved on and still wait for a person."""
        return tuple(m for m in self.moved_on if m.still_open)

    def describe(self) -> str:
        """One sentence a person reads (the window shows it, the CLI prints it). Applied:
        how many rows changed, those left out named with why. Reverted: how many restored,
        already restored and moved on since (the first named, who did what), and whether
        the change-set is reverted now or what keeps it open."""
        if self.action != "reverted":
            return self._describe_applied()
        cs, n = self.change_set_id, len(self.changed)
        if self.reverted_at is not None:
            text = ngettext(
                "Change-set {id} reverted: {n} dead letter restored.",
                "Change-set {id} reverted: {n} dead letters restored.",
                n,
            )
        else:
            text = ngettext(
                "Change-set {id} partly reverted: {n} dead letter restored.",
                "Change-set {id} partly reverted: {n} dead letters restored.",
                n,
            )
        text = text.format(id=cs, n=format_int(n))
        if self.already:
            text += " " + _("{n} already restored.").format(n=format_int(len(self.already)))
        if self.moved_on:
            first = (self.waiting or self.moved_on)[0]
            text += " " + _("{n} moved on since (first: {why}).").format(
                n=format_int(len(self.moved_on)), why=first.why
            )
        if self.reverted_at is None:
            waits = []
            if self.waiting:
                waits.append(
                    _("{n} moved on and still open: edit back, re-drive or discard").format(
                        n=format_int(len(self.waiting))
                    )
                )
            if self.refused:
                waits.append(
                    _("{n} held by a re-drive (first: {why})").format(
                        n=format_int(len(self.refused)), why=self.refused[0][1]
                    )
                )
            text += " " + _("It stays open ({waits}); revert again then.").format(
                waits="; ".join(waits)
            )
        return text

    def _describe_applied(self) -> str:
        if self.change_set_id is None:
            return _("Nothing to change: no change-set was made.")
        cs, n = self.change_set_id, len(self.changed)
        text = ngettext(
            "Change-set {id}: {n} dead letter changed.",
            "Change-set {id}: {n} dead letters changed.",
            n,
        ).format(id=cs, n=format_int(n))
        if self.refused:
            text += " " + _(
                "{n} left out, changed since the preview or held by a re-drive: "
                "{ids} (first: {why})."
            ).format(
                n=format_int(len(self.refused)),
                ids=named_ids([i for i, _why in self.refused]),
                why=self.refused[0][1],
            )
        return text + " " + _("Revert change-set {id} to undo it.").format(id=cs)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "change_set": self.change_set_id,
            "action": self.action,
            "changed": list(self.changed),
            "refused": [{"id": i, "reason": english(r)} for i, r in self.refused],
        }
        if self.action == "reverted":
            out["already"] = list(self.already)
            out["moved_on"] = [m.to_json() for m in self.moved_on]
            out["reverted_at"] = iso(self.reverted_at) if self.reverted_at else None
        return out


@dataclass(frozen=True)
class ChangeSetInfo:
    id: int
    at: dt.datetime
    actor: str
    description: str
    rows: int
    reverted_at: dt.datetime | None
    reverted_by: str | None
    # The database user who applied it (PostgreSQL; None on SQLite and from before 0013):
    # a steward reverts only their own (core/db/roles.py).
    db_user: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": iso(self.at),
            "actor": self.actor,
            "description": self.description,
            "rows": self.rows,
            "reverted_at": iso(self.reverted_at) if self.reverted_at else None,
            "reverted_by": self.reverted_by,
        }


# -- preview -------------------------------------------------------------------------------
def chosen_ids(
    ws: Workspace, ids: Sequence[int] | None, where: DeadLetterFilter | None
) -> list[int]:
    if ids:
        return sorted(set(ids))
    if where is None:
        raise TriageError(_("choose dead letters to fix: ids, a signature or a filter"))
    return matching_ids(ws, where)


def preview_fix(
    ws: Workspace,
    fix: Fix,
    ids: Sequence[int],
    *,
    transform: Transform | None = None,
    progress: Progress | None = None,
    keep: int = KEPT_ROWS,
) -> FixPreview:
    """The fix on each of ``ids``, with ``transform``'s verdict on the fixed payloads."""
    from triage_app.core.deadletters.redriving import try_payload

    progress = progress or NoProgress()
    wanted = sorted(set(ids))
    versions: dict[int, int] = {}
    shown: list[RowPreview] = []
    later: list[RowPreview] = []  # rows the fix applies to, shown after those it does not
    counts = {"would_load": 0, "still_fails": 0, "not_applicable": 0}
    why_not: dict[str, int] = {}
    cancelled = False
    done = 0
    for start in range(0, len(wanted), CHUNK):
        if progress.cancelled():
            cancelled = True
            break
        part = wanted[start : start + CHUNK]
        for r in _read(ws, part):
            # What a preview shows has its personal fields masked (issue 27).
            ctx = MaskContext(personal_fields_of(r.transform), r.csv_header)
            before = payload_text(ctx.shown(r.payload, r.payload_kind))
            try:
                after = fixed_payload(fix, r.payload, r.payload_kind, r.csv_header)
            except NotApplicable as exc:
                why = reason_of(exc)
                counts["not_applicable"] += 1
                why_not[why] = why_not.get(why, 0) + 1
                if len(shown) < keep:
                    shown.append(RowPreview(r.id, r.version, before, None, why))
                continue
            versions[r.id] = r.version
            row = error = None
            if transform is not None:
                row, failure = try_payload(transform, after, edited_kind(r.payload_kind))
                error = failure.error if failure is not None else None
                counts["would_load" if failure is None else "still_fails"] += 1
            if len(later) < keep:
                changes = what_changed(r.payload, after, r.payload_kind, r.csv_header)
                kind = edited_kind(r.payload_kind).value
                if ctx.fields:
                    changes = ctx.mask_error(
                        ctx.mask_error(changes, r.payload, r.payload_kind), after, kind
                    )
                    error = None if error is None else ctx.mask_error(error, after, kind)
                    if row is not None:
                        row = {k: mask_value(v) if k in ctx.fields else v for k, v in row.items()}
                shown_after = payload_text(ctx.shown(after, kind))
                later.append(
                    RowPreview(r.id, r.version, before, shown_after, None, row, error, changes)
                )
        done += len(part)
        progress.update(done, len(wanted))
    shown = (shown + later)[:keep]
    return FixPreview(
        fix=fix,
        transform=transform.ref if transform is not None else None,
        rows=done,
        applies=len(versions),
        would_load=counts["would_load"],
        still_fails=counts["still_fails"],
        not_applicable=counts["not_applicable"],
        shown=tuple(shown),
        versions=versions,
        why_not=dict(sorted(why_not.items(), key=lambda kv: -kv[1])),
        cancelled=cancelled,
    )


@dataclass(frozen=True)
class _Row:
    id: int
    version: int
    payload: bytes
    payload_kind: str
    csv_header: bytes | None
    transform: str = ""


def _read(ws: Workspace, ids: Sequence[int]) -> list[_Row]:
    stmt = (
        select(
            DL.id, DL.version, working_payload(), DL.payload_kind, Batch.csv_header, DL.transform
        )
        .join(Batch, Batch.batch_id == DL.batch_id)
        .where(DL.id.in_(ids))
        .order_by(DL.id)
    )
    with ws.store.connect() as conn:
        return [_Row(*r) for r in conn.execute(stmt)]


# -- apply ---------------------------------------------------------------------------------
def apply_fix(
    ws: Workspace,
    fix: Fix,
    versions: Mapping[int, int],
    *,
    actor: str | None = None,
    progress: Progress | None = None,
) -> ChangeSetReport:
    """Apply ``fix`` as one change-set to the rows of ``versions`` (a preview's), each only
    if it is still at the version the preview saw."""
    engine = ws.store
    actor = actor or actor_for(engine)
    progress = progress or NoProgress()
    wanted = sorted(versions)
    crash_point("fix-before-apply")
    change_set: int | None = None
    changed: list[int] = []
    refused: list[tuple[int, str]] = []
    for start in range(0, len(wanted), CHUNK):
        if progress.cancelled():
            break
        part = wanted[start : start + CHUNK]
        with transitions.write_transaction(engine) as conn:
            now = utcnow()
            rows = transitions.lock_rows(conn, part)
            stored = _stored(conn, part)
            headers = _headers(conn, {r.batch_id for r in rows.values()})
            kept: list[tuple[int, bytes | None, str, int, bytes, bytes, str]] = []
            for dl_id in part:
                row = rows.get(dl_id)
                why = transitions.refusal(conn, dl_id, row, versions[dl_id], "fixed", now)
                if why is not None:
                    refused.append((dl_id, why.reason))
                    continue
                assert row is not None
                try:
                    new = fixed_payload(
                        fix, row.payload, row.payload_kind, headers.get(row.batch_id)
                    )
                except NotApplicable as exc:  # the same version, the same payload: not seen
                    said = both(N_("dead letter {id}: {why}"), id=dl_id, why=reason_of(exc))
                    refused.append((dl_id, said))
                    continue
                payload_before, kind_before = stored[dl_id]
                kind = edited_kind(row.payload_kind).value
                kept.append(
                    (dl_id, payload_before, kind_before, row.version, row.payload, new, kind)
                )
            if kept:
                if change_set is None:
                    change_set = _new_change_set(conn, fix, actor, now)
                transitions.edit_many(
                    conn,
                    now,
                    [(new, kind, dl_id, seen) for dl_id, _, _, seen, _, new, kind in kept],
                )
                # Each line is also the row's ``edited`` event (expanded_events.py).
                transitions.driver_many(
                    conn,
                    "INSERT INTO change_set_rows (change_set_id, dead_letter_id, payload_before, "
                    "kind_before, version_after) VALUES (?, ?, ?, ?, ?)",
                    [(change_set, dl_id, b, k, seen + 1) for dl_id, b, k, seen, _, _, _ in kept],
                )
                conn.execute(
                    update(ChangeSet)
                    .where(ChangeSet.id == change_set)
                    .values(rows=ChangeSet.rows + len(kept))
                )
                crash_point("mid-change-set")
                changed += [k[0] for k in kept]
        progress.update(min(start + CHUNK, len(wanted)), len(wanted))
    return ChangeSetReport(change_set, "applied", tuple(changed), tuple(refused))


def _new_change_set(conn: Any, fix: Fix, actor: str, now: dt.datetime) -> int:
    return int(
        conn.execute(
            insert(ChangeSet)
            .values(
                at=now,
                actor=actor,
                description=fix.description,
                patch=fix.spec(),
                rows=0,
                # Who applied it, as the database knows them (a team store's trigger sets
                # the same whatever is sent): a steward reverts only their own.
                db_user=literal_column("session_user")
                if conn.dialect.name == "postgresql"
                else None,
            )
            .returning(ChangeSet.id)
        ).scalar_one()
    )


def _stored(conn: Any, ids: Sequence[int]) -> dict[int, tuple[bytes | None, str]]:
    """The payload column as stored (None: the row shows its original) and the kind."""
    stmt = select(DL.id, DL.payload, DL.payload_kind).where(id_in(conn, ids))
    return {r.id: (r.payload, r.payload_kind) for r in conn.execute(stmt)}


def _headers(conn: Any, batch_ids: set[str]) -> dict[str, bytes | None]:
    if not batch_ids:
        return {}
    stmt = select(Batch.batch_id, Batch.csv_header).where(Batch.batch_id.in_(batch_ids))
    return {r.batch_id: r.csv_header for r in conn.execute(stmt)}


# -- revert --------------------------------------------------------------------------------
def revert_detail(change_set_id: int) -> str:
    """How the ``edited`` events of this change-set's revert begin (stored before 0010,
    expanded since): the mark by which a later run of a change-set from before knows its
    own edits. The colon keeps change-set 1's apart from 12's."""
    return f"revert of change-set {change_set_id}: "


def revert_change_set(
    ws: Workspace, change_set_id: int, *, actor: str | None = None, progress: Progress | None = None
) -> ChangeSetReport:
    """Restore every row ``change_set_id`` changed to its payload from before, byte for
    byte, unless the row moved on since (reported). Each row is judged under its lock:

    - **restored**: still at the version the change-set left it, and free: restored now;
    - **already restored**: its line names a run of this revert (an earlier run, killed
      mid way or left open), or its payload is back at the one from before (edited back
      by hand);
    - **moved on**: changed since by someone else (with who and what). For good when the
      row is closed (resolved, discarded) or gone: nobody edits a closed row, and a revert
      that ran again could not restore it either, since versions only grow. Still open or
      parked, it waits for a person (edit it back, re-drive or discard it), and the
      change-set stays open;
    - **held** by a re-drive at that version: left for now (``refused``), to be tried again.

    The change-set is marked reverted when no row waits and none is held. That is the
    judgement of this run: a discarded row reopened later does not reopen the change-set.
    """
    engine = ws.store
    actor = actor or actor_for(engine)
    progress = progress or NoProgress()
    info = change_set(ws, change_set_id)
    if info.reverted_at is not None:
        raise TriageError(
            _("change-set {id} was reverted at {at} UTC by {actor}").format(
                id=change_set_id, at=utc_time(info.reverted_at), actor=info.reverted_by
            )
        )
    with engine.connect() as conn:
        lines = list(
            conn.execute(
                select(ChangeSetRow)
                .where(ChangeSetRow.change_set_id == change_set_id)
                .order_by(ChangeSetRow.dead_letter_id)
            )
        )
        stored_events = change_set_id < change_set_records_from(conn)
    run: int | None = None  # this run's change_set_reverts row, made with its first restore
    changed: list[int] = []
    already: list[int] = []
    moved_on: list[MovedOn] = []
    held: list[tuple[int, str]] = []
    for start in range(0, len(lines), CHUNK):
        part = lines[start : start + CHUNK]
        with transitions.write_transaction(engine) as conn:
            now = utcnow()
            ids = [ln.dead_letter_id for ln in part]
            rows = transitions.lock_rows(conn, ids)
            # Only a row no longer at the version the fix left can carry the revert's edit.
            ours = _reverted_by(
                conn,
                change_set_id,
                [i for i, ln in zip(ids, part, strict=True) if _moved(rows.get(i), ln)],
                stored_events,
            )
            back: list[tuple[int, bytes | None, str, int, bytes]] = []
            moved: list[tuple[Any, Any, transitions.Refused]] = []
            for ln in part:
                dl_id = ln.dead_letter_id
                row = rows.get(dl_id)
                if dl_id in ours:
                    already.append(dl_id)
                    continue
                why = transitions.refusal(conn, dl_id, row, ln.version_after, "reverted", now)
                if why is None:
                    assert row is not None
                    back.append(
                        (dl_id, ln.payload_before, ln.kind_before, row.version, row.payload)
                    )
                elif row is None:  # purged since its line was read
                    moved_on.append(MovedOn(dl_id, why.reason, still_open=False))
                elif isinstance(why, transitions.ChangedMeanwhile):
                    moved.append((ln, row, why))
                else:  # held by a re-drive: not changed, only busy
                    held.append((dl_id, why.reason))
            originals = _originals(
                conn, [ln.dead_letter_id for ln, _, _ in moved if ln.payload_before is None]
            )
            for ln, row, why in moved:
                dl_id = ln.dead_letter_id
                before = ln.payload_before
                if before is None:
                    before = originals[dl_id]
                if bytes(row.payload) == bytes(before):  # edited back by hand
                    already.append(dl_id)
                else:
                    still_open = row.status not in CLOSED
                    moved_on.append(MovedOn(dl_id, why.reason, still_open=still_open))
            if back:
                if run is None:
                    run = _new_revert(conn, change_set_id, actor, now)
                transitions.edit_many(
                    conn,
                    now,
                    [(before, kind, dl_id, seen) for dl_id, before, kind, seen, _ in back],
                )
                # The line names the run and keeps what the fix had made: the row's
                # ``edited`` event of the revert (expanded_events.py).
                transitions.driver_many(
                    conn,
                    "UPDATE change_set_rows SET reverted_in = ?, payload_reverted = ? "
                    "WHERE change_set_id = ? AND dead_letter_id = ?",
                    [(run, replaced, change_set_id, dl_id) for dl_id, _, _, _, replaced in back],
                )
                crash_point("mid-revert")
                changed += [b[0] for b in back]
        progress.update(min(start + CHUNK, len(lines)), len(lines))
    reverted_at: dt.datetime | None = None
    if not held and not any(m.still_open for m in moved_on):
        reverted_at = _mark_reverted(engine, change_set_id, actor)
    return ChangeSetReport(
        change_set_id,
        "reverted",
        tuple(changed),
        tuple(held),
        already=tuple(sorted(already)),
        moved_on=tuple(sorted(moved_on, key=lambda m: m.id)),
        reverted_at=reverted_at,
    )


def _moved(row: Any, line: Any) -> bool:
    return row is None or row.version != line.version_after


def _reverted_by(
    conn: Any, change_set_id: int, ids: Sequence[int], stored_events: bool
) -> set[int]:
    """The rows of ``ids`` this change-set's revert already restored: their line names a
    revert run, or (a change-set from before 0010, ``stored_events``) an ``edited`` event
    of theirs begins with ``revert_detail``. Both are only ever added, so this stays true
    whatever the row went through since."""
    if not ids:
        return set()
    csr = ChangeSetRow
    ours = set(
        conn.execute(
            select(csr.dead_letter_id).where(
                csr.change_set_id == change_set_id,
                csr.dead_letter_id.in_(select(DL.id).where(id_in(conn, ids))),
                csr.reverted_in.is_not(None),
            )
        ).scalars()
    )
    if not stored_events:
        return ours
    ev = AuditEvent
    stmt = (
        select(ev.dead_letter_id)
        .where(
            ev.dead_letter_id.in_(select(DL.id).where(id_in(conn, ids))),
            ev.action == AuditAction.EDITED.value,
            ev.detail.startswith(revert_detail(change_set_id), autoescape=True),
        )
        .distinct()
    )
    return ours | set(conn.execute(stmt).scalars())


def _new_revert(conn: Any, change_set_id: int, actor: str, now: dt.datetime) -> int:
    return int(
        conn.execute(
            insert(ChangeSetRevert)
            .values(change_set_id=change_set_id, at=now, actor=actor)
            .returning(ChangeSetRevert.id)
        ).scalar_one()
    )


def _originals(conn: Any, ids: Sequence[int]) -> dict[int, bytes]:
    if not ids:
        return {}
    stmt = select(DL.id, DL.original_payload).where(id_in(conn, ids))
    return {r.id: r.original_payload for r in conn.execute(stmt)}


def _mark_reverted(engine: Any, change_set_id: int, actor: str) -> dt.datetime:
    """Mark the change-set reverted (once: a revert that ran alongside may have been
    first); when it was."""
    with transitions.write_transaction(engine) as conn:
        conn.execute(
            update(ChangeSet)
            .where(ChangeSet.id == change_set_id, ChangeSet.reverted_at.is_(None))
            .values(reverted_at=utcnow(), reverted_by=actor)
        )
        at = conn.execute(
            select(ChangeSet.reverted_at).where(ChangeSet.id == change_set_id)
        ).scalar_one()
    assert at is not None  # set just now, or by the revert that was first
    return at


# -- reading -------------------------------------------------------------------------------
_INFO = (
    ChangeSet.id,
    ChangeSet.at,
    ChangeSet.actor,
    ChangeSet.description,
    ChangeSet.rows,
    ChangeSet.reverted_at,
    ChangeSet.reverted_by,
    ChangeSet.db_user,
)


def list_change_sets(ws: Workspace, *, limit: int = 100) -> list[ChangeSetInfo]:
    """The newest change-sets first."""
    with ws.store.connect() as conn:
        rows = conn.execute(select(*_INFO).order_by(ChangeSet.id.desc()).limit(limit))
        return [ChangeSetInfo(*r) for r in rows]


def change_set(ws: Workspace, change_set_id: int) -> ChangeSetInfo:
    with ws.store.connect() as conn:
        r = conn.execute(select(*_INFO).where(ChangeSet.id == change_set_id)).first()
    if r is None:
        raise TriageError(_("no change-set {id}").format(id=change_set_id))
    return ChangeSetInfo(*r)


def change_set_fix(ws: Workspace, change_set_id: int) -> Fix:
    """The fix a change-set applied, as it was given."""
    with ws.store.connect() as conn:
        r = conn.execute(
            select(ChangeSet.patch, ChangeSet.description).where(ChangeSet.id == change_set_id)
        ).first()
    if r is None:
        raise TriageError(_("no change-set {id}").format(id=change_set_id))
    return fix_from_spec(r.patch, r.description)
