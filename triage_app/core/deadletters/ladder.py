"""The retry ladder (issue 27, seed 002's retry topics): a transient dead letter is not
poison. It waits, and is re-driven after each wait of its ladder (default 5 min, 30 min,
2 h); the end of the ladder parks it for a person.

Which ladder: the one the transform version that failed the row declares
(``Transform.retry_ladder``), else the workspace's (a store setting, ``ladder set``, a
lead's), else ``DEFAULT_LADDER``. Where a row stands: ``retry_step`` (0 before its first
retry) and ``next_attempt_at``, set only while it waits (open and transient); every other
row has it NULL, so the partial index ``ix_dl_next_attempt`` holds the waiting rows only.

This module says which ladder applies and where a row goes when a change by hand moves it
(``place_after``, used by ``transitions.py``; a re-drive's outcomes are placed by
``settling.py``), and reads the backlog (``ladder_backlog``). The pass that re-drives the
due rows is ``retrying.py``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, select

from triage_app.core.batch import ladder_in_force, workspace_ladder
from triage_app.core.clock import iso, utcnow
from triage_app.core.db import (
    Act,
    DeadLetter,
    Workspace,
    require,
    role_of,
    set_store_setting,
    why_not,
)
from triage_app.core.locale_format import format_int, format_time
from triage_app.core.messages import _
from triage_app.core.retry import DEFAULT_LADDER as DEFAULT_LADDER
from triage_app.core.retry import LADDER_KEY, said_wait
from triage_app.core.retry import Ladder as Ladder
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import ErrorClass, Status

DL = DeadLetter
TRANSIENT = ErrorClass.TRANSIENT.value
OPEN = Status.OPEN.value
# Stored (the park's reason, in the row's history): English, as every stored detail.
END_OF_LADDER = "parked: end of the retry ladder"


class Ladders:
    """The ladder of each transform version, asked for by the label a row carries; the
    workspace's ladder read once. A label no transform has (a connector's, a version gone)
    gets the workspace's."""

    def __init__(self, bind: Engine | Connection, registry: Registry | None = None) -> None:
        self.bind = bind
        self.registry = registry
        self._workspace: list[Ladder] = []
        self._of: dict[str | None, Ladder] = {}

    def workspace(self) -> Ladder:
        if not self._workspace:
            self._workspace.append(workspace_ladder(self.bind) or DEFAULT_LADDER)
        return self._workspace[0]

    def of(self, ref: str | None) -> Ladder:
        if ref not in self._of:
            self._of[ref] = self.for_transform(self.transform(ref))
        return self._of[ref]

    def for_transform(self, transform: Transform | None) -> Ladder:
        if transform is not None and transform.retry_ladder is not None:
            return transform.retry_ladder
        return self.workspace()

    def climbs(self, ref: str | None) -> bool:
        """Whether rows of ``ref`` go on the ladder: a transform version known here that
        loads row by row (an import's letters go back by hand; an atomic batch loads
        whole)."""
        transform = self.transform(ref)
        return transform is not None and not transform.atomic

    def transform(self, ref: str | None) -> Transform | None:
        if not ref or "@" not in ref:
            return None
        try:
            return (self.registry or default_registry()).get(ref)
        except Exception:  # not a transform here (a connector's label, a version gone)
            return None


def place_after(
    row: Any,
    status: str,
    error_class: str,
    now: dt.datetime,
    ladders: Ladders,
) -> dict[str, Any]:
    """The ladder's columns for ``row`` (its state before: ``status``, ``error_class``,
    ``retry_step``, ``next_attempt_at``, ``transform``) once a change by hand leaves it in
    ``status`` and ``error_class``: a row that becomes open and transient (reopened,
    reclassified as transient) starts the ladder again, due after its first wait (when its
    version is one the ladder can re-drive through, ``Ladders.climbs``); a row whose status
    and class stay keeps its place; any other row waits for nobody (NULL)."""
    if status == row.status and error_class == row.error_class:
        return {}  # a note, a park of a parked row: its place is as it was
    if status == OPEN and error_class == TRANSIENT and ladders.climbs(row.transform):
        ladder = ladders.of(row.transform)
        return {"retry_step": 0, "next_attempt_at": now + ladder.waits[0]}
    if row.next_attempt_at is not None:
        return {"next_attempt_at": None}
    return {}


def set_workspace_ladder(ws: Workspace, ladder: Ladder | None) -> None:
    """Keep ``ladder`` as the workspace's (None: back to the default). A lead's act
    (``Act.POLICY``). Rows already waiting keep the time they are due; each next step
    follows the new ladder."""
    require(ws.store, Act.POLICY)
    set_store_setting(ws.store, LADDER_KEY, None if ladder is None else ladder.describe())


def workspace_ladder_of(ws: Workspace) -> Ladder | None:
    """The ladder the team set for the workspace, None when it is the default."""
    return workspace_ladder(ws.store)


def transform_ladder(ws: Workspace, transform: Transform | None) -> Ladder:
    """The ladder of ``transform``'s transient rows (its own, the workspace's, the default)."""
    return ladder_in_force(ws.store, transform)


@dataclass(frozen=True)
class LadderStep:
    """The rows waiting for one retry: ``step`` 0 waits for the first."""

    step: int
    waiting: int
    next_due: dt.datetime | None

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "retry": self.step + 1,
            "waiting": self.waiting,
            "next_due": iso(self.next_due) or None,
        }


@dataclass(frozen=True)
class LadderBacklog:
    """The ladder in force for the workspace, and the rows on it: waiting per step, due
    now, and parked at its end (waiting for a person)."""

    ladder: Ladder
    own: bool  # the workspace set it (else the default)
    steps: tuple[LadderStep, ...]
    due_now: int
    parked_at_end: int
    now: dt.datetime
    # Transform versions that declare a ladder of their own, and it.
    declared: tuple[tuple[str, str], ...] = ()

    @property
    def waiting(self) -> int:
        return sum(s.waiting for s in self.steps)

    @property
    def next_due(self) -> dt.datetime | None:
        dues = [s.next_due for s in self.steps if s.next_due is not None]
        return min(dues) if dues else None

    def to_json(self) -> dict[str, Any]:
        return {
            "ladder": self.ladder.describe(),
            "set_for_workspace": self.own,
            "declared_by_transforms": dict(self.declared),
            "waiting": self.waiting,
            "due_now": self.due_now,
            "parked_at_end": self.parked_at_end,
            "next_due": iso(self.next_due) or None,
            "steps": [s.to_json() for s in self.steps],
            "now": iso(self.now),
        }

    def headline(self) -> str:
        """``Retry ladder: 12 waiting, 3 due now, next due 14:05; 2 parked at its end``."""
        n = format_int(self.waiting)
        if not self.waiting:
            text = _("Retry ladder: nothing waiting")
        elif self.due_now:
            text = _("Retry ladder: {n} waiting, {due} due now").format(
                n=n, due=format_int(self.due_now)
            )
        elif self.next_due is not None:
            text = _("Retry ladder: {n} waiting, next due {time} UTC").format(
                n=n, time=format_time(self.next_due)
            )
        else:
            text = _("Retry ladder: {n} waiting").format(n=n)
        if self.parked_at_end:
            text += "; " + _("{n} parked at its end").format(n=format_int(self.parked_at_end))
        return text


# Before any time a row can be due: ``next_attempt_at >= EVER`` is "waiting" said as a range
# of the partial index, which PostgreSQL then reads as its condition (IS NOT NULL alone
# matched the index's predicate, and read it through without one).
EVER = dt.datetime(1970, 1, 1)


def on_the_ladder() -> Any:
    """The rows waiting on the ladder, as a range of ``ix_dl_next_attempt``."""
    return DL.next_attempt_at.is_not(None) & (DL.next_attempt_at >= EVER)


def ladder_backlog(
    ws: Workspace, *, now: dt.datetime | None = None, registry: Registry | None = None
) -> LadderBacklog:
    """The rows on the ladder: per step, how many wait and the soonest due; how many are
    due at ``now``; how many the ladder's end parked. Read from the partial index of the
    waiting rows (the parked ones: the parked rows' status index)."""
    now = now or utcnow()
    ladders = Ladders(ws.store, registry)
    with ws.store.connect() as conn:
        waiting = on_the_ladder()
        per_step = conn.execute(
            select(DL.retry_step, func.count(), func.min(DL.next_attempt_at))
            .where(waiting)
            .group_by(DL.retry_step)
            .order_by(DL.retry_step)
        ).all()
        due_now = conn.execute(
            select(func.count()).where(waiting, DL.next_attempt_at <= now)
        ).scalar_one()
        # Parked transient rows past their ladder's last step: the ladder's end parked them
        # (a person's park leaves the step where it was).
        parked = conn.execute(
            select(DL.transform, DL.retry_step, func.count())
            .where(
                DL.status == Status.PARKED.value,
                DL.error_class == TRANSIENT,
                DL.retry_step > 0,
            )
            .group_by(DL.transform, DL.retry_step)
        ).all()
        ladder = ladders.workspace()
        own = workspace_ladder(conn) is not None
    at_end = sum(int(n) for ref, step, n in parked if int(step) >= len(ladders.of(ref)))
    declared = tuple(
        (t.ref, t.retry_ladder.describe())
        for t in (registry or default_registry()).all()
        if t.retry_ladder is not None
    )
    return LadderBacklog(
        ladder,
        own,
        tuple(LadderStep(int(s), int(n), first) for s, n, first in per_step),
        int(due_now),
        at_end,
        now,
        declared,
    )


def wait_words(w: dt.timedelta) -> str:
    """``30 min``: a wait as the status bar says it."""
    return said_wait(w)


def why_no_retry_pass(ws: Workspace) -> str | None:
    """Why this user cannot run retry passes on ``ws`` (a store it may not write, a role
    that may not re-drive), in one line; None when it can. The window runs passes only
    then."""
    if getattr(ws, "store_read_only", False):
        return _("the store is read-only for this user")
    return why_not(role_of(ws.store), Act.REDRIVE)


@dataclass(frozen=True)
class LadderState:
    """What the window shows of the ladder: its backlog, and why it runs no pass (None:
    it does)."""

    backlog: LadderBacklog
    refusal: str | None


def ladder_state(ws: Workspace) -> LadderState:
    return LadderState(ladder_backlog(ws), why_no_retry_pass(ws))
