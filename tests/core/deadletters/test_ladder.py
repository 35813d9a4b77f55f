"""The retry ladder (issue 27): transient dead letters wait 5 min, 30 min, 2 h, each time
re-driven through the version that failed them; a success resolves, a failure moves down,
the end parks for a person. The clock is injected: nothing here sleeps."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, DeadLetter, Workspace, open_workspace
from triage_app.core.deadletters import (
    DEFAULT_LADDER,
    END_OF_LADDER,
    Ladder,
    apply_change,
    discard,
    edit_payload,
    ladder_backlog,
    park,
    reclassify_as,
    redrive,
    reopen,
    retry_due,
    set_workspace_ladder,
    workspace_ladder_of,
)
from triage_app.core.demo import write_orders
from triage_app.core.errors import TransientError, TriageError
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Registry
from triage_app.core.transforms.pesanan import TRANSFORMS

PESANAN = TRANSFORMS[0]  # pesanan@1
MIN = dt.timedelta(minutes=1)
NO_WAIT = RetryPolicy(attempts=1)


class Warehouse:
    """Whether the flaky version's infrastructure is up: while down, every record fails
    transiently (``TransientError``, as a busy API or database raises)."""

    def __init__(self) -> None:
        self.down = True
        self.data_error = False

    def registry(self, ladder: Ladder | None = None) -> Registry:
        base = PESANAN

        def fn(record: Any) -> tuple[Any, ...]:
            if self.data_error:
                raise ValueError("qty tidak valid")
            if self.down:
                raise TransientError("gudang sibuk: coba lagi nanti")
            return base.fn(record)

        reg = Registry()
        reg.register(replace(base, fn=fn, fast=None, retry_ladder=ladder))
        return reg


@pytest.fixture
def state() -> Warehouse:
    return Warehouse()


def quarantine_transient(ws: Workspace, tmp: Path, reg: Registry, rows: int = 6) -> list[int]:
    path = write_orders(tmp / f"orders{rows}.jsonl", rows, bad=0.0, seed=rows)
    s = run_batch(ws, path, "pesanan@1", registry=reg, retry=NO_WAIT)
    assert s.quarantined == rows and s.loaded == 0
    return ids_of(ws)


def ids_of(ws: Workspace) -> list[int]:
    with ws.store.connect() as conn:
        return list(conn.execute(select(DeadLetter.id).order_by(DeadLetter.id)).scalars())


def places(ws: Workspace) -> dict[int, tuple[str, str, int, dt.datetime | None]]:
    dl = DeadLetter
    with ws.store.connect() as conn:
        stmt = select(dl.id, dl.status, dl.error_class, dl.retry_step, dl.next_attempt_at)
        return {r[0]: tuple(r[1:]) for r in conn.execute(stmt)}  # type: ignore[misc]


def events(ws: Workspace, dl_id: int) -> list[tuple[str, str]]:
    ev = AuditEvent
    with ws.store.connect() as conn:
        stmt = select(ev.action, ev.detail).where(ev.dead_letter_id == dl_id).order_by(ev.id)
        return [(a, d) for a, d in conn.execute(stmt)]


def warehouse_keys(ws: Workspace) -> list[Any]:
    with ws.warehouse.connect() as conn:
        return sorted(conn.exec_driver_sql(f"SELECT {PESANAN.key} FROM pesanan").scalars())


def test_ladder_text_round_trips_and_refuses_bad_text() -> None:
    assert Ladder.parse("5m,30m,2h") == DEFAULT_LADDER
    assert DEFAULT_LADDER.describe() == "5m,30m,2h"
    assert DEFAULT_LADDER.words() == "5 min, 30 min, 2 h, then parked"
    assert Ladder.parse(" 90m, 7200s ,1d").describe() == "90m,2h,1d"
    for bad in ("", "5", "5x", "5m,,2h", "-5m", "0m", "40d", "5m;30m", ",".join(["1m"] * 21)):
        with pytest.raises(TriageError) as e:
            Ladder.parse(bad)
        assert "\n" not in str(e.value)


def test_the_ladder_with_an_injected_clock(workspace: Workspace, tmp_path: Path, state) -> None:
    reg = state.registry()
    before = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    ids = quarantine_transient(workspace, tmp_path, reg)
    after = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    at = places(workspace)
    # Every transient row waits for its first retry, 5 min after it failed.
    for i in ids:
        status, cls, step, due = at[i]
        assert (status, cls, step) == ("open", "transient", 0)
        assert due is not None and before + 5 * MIN <= due <= after + 5 * MIN
    first_due = max(at[i][3] for i in ids)  # type: ignore[type-var]

    # 4 minutes on: nothing is due, nothing changes.
    p = retry_due(workspace, now=before + 4 * MIN, registry=reg, retry=NO_WAIT)
    assert (p.due, p.retried) == (0, 0)
    assert places(workspace) == at

    # Due: retried, still down: each moves to the 30 min step, saying so.
    p = retry_due(workspace, now=first_due, registry=reg, retry=NO_WAIT)
    assert (p.due, p.retried, p.moved_down, p.resolved, p.parked) == (6, 6, 6, 0, 0)
    assert p.waits == (("30 min", 6),)
    assert p.outcome_words() == "Retried 6: 6 wait 30 min"
    for i in ids:
        assert places(workspace)[i] == ("open", "transient", 1, first_due + 30 * MIN)
        action, detail = events(workspace, i)[-1]
        assert action == "redrive_failed"
        assert detail.startswith(
            "retry 1 of 3 failed; next at "
            + _iso(first_due + 30 * MIN)
            + " (attempt 2 with pesanan@1): TransientError: gudang sibuk"
        ), detail

    # 29 minutes later: not yet. 30: the 2 h step.
    assert retry_due(workspace, now=first_due + 29 * MIN, registry=reg).retried == 0
    second = first_due + 30 * MIN
    p = retry_due(workspace, now=second, registry=reg, retry=NO_WAIT)
    assert (p.retried, p.moved_down, p.waits) == (6, 6, (("2 h", 6),))
    assert {places(workspace)[i] for i in ids} == {("open", "transient", 2, second + 120 * MIN)}

    # The last retry fails too: parked for a person, the end of the ladder said.
    p = retry_due(workspace, now=second + 120 * MIN, registry=reg, retry=NO_WAIT)
    assert (p.retried, p.parked, p.moved_down, p.waiting, p.next_due) == (6, 6, 0, 0, None)
    for i in ids:
        assert places(workspace)[i] == ("parked", "transient", 3, None)
        assert [a for a, _ in events(workspace, i)][-2:] == ["redrive_failed", "parked"]
        assert events(workspace, i)[-1][1] == END_OF_LADDER
        assert "retry 3 of 3 failed" in events(workspace, i)[-2][1]
    assert ladder_backlog(workspace, now=second + 121 * MIN).parked_at_end == 6
    # Nothing more is due, ever: a pass much later finds nothing.
    assert retry_due(workspace, now=second + 1000 * MIN, registry=reg).due == 0
    assert warehouse_keys(workspace) == []


def test_success_resolves_and_a_row_fixed_meanwhile_loads_as_fixed(
    workspace: Workspace, tmp_path: Path, state
) -> None:
    reg = state.registry()
    ids = quarantine_transient(workspace, tmp_path, reg, rows=5)
    due = max(places(workspace)[i][3] for i in ids)  # type: ignore[type-var]
    # A steward fixes one row meanwhile: it keeps its place on the ladder.
    from triage_app.core.deadletters import get_dead_letter

    fixed = get_dead_letter(workspace, ids[0])
    import orjson

    record = orjson.loads(fixed.payload_bytes or fixed.original_bytes)
    record["qty"] = 77
    place = places(workspace)[ids[0]]
    edit_payload(workspace, ids[0], orjson.dumps(record).decode())
    assert places(workspace)[ids[0]] == place
    state.down = False  # the infrastructure is back
    p = retry_due(workspace, now=due, registry=reg, retry=NO_WAIT)
    assert (p.due, p.retried, p.resolved, p.moved_down, p.waiting) == (5, 5, 5, 0, 0)
    assert p.outcome_words() == "Retried 5: 5 resolved"
    for i in ids:
        assert places(workspace)[i] == ("resolved", "transient", 0, None)
    assert len(warehouse_keys(workspace)) == 5
    with workspace.warehouse.connect() as conn:
        qtys = set(conn.exec_driver_sql("SELECT qty FROM pesanan").scalars())
    assert 77 in qtys
    # Resolved rows are never retried again.
    assert retry_due(workspace, now=due + 600 * MIN, registry=reg).due == 0


def test_a_row_that_now_fails_as_data_leaves_the_ladder(
    workspace: Workspace, tmp_path: Path, state
) -> None:
    reg = state.registry()
    ids = quarantine_transient(workspace, tmp_path, reg, rows=3)
    due = max(places(workspace)[i][3] for i in ids)  # type: ignore[type-var]
    state.data_error = True
    p = retry_due(workspace, now=due, registry=reg, retry=NO_WAIT)
    assert (p.retried, p.left_ladder, p.moved_down, p.parked) == (3, 3, 0, 0)
    for i in ids:
        # Open for a person, not waiting, not parked by any attempt limit.
        assert places(workspace)[i] == ("open", "data", 0, None)
    # Again and again: a data row never comes back on its own.
    assert retry_due(workspace, now=due + 1000 * MIN, registry=reg).due == 0


def test_changes_by_hand_move_rows_on_and_off_the_ladder(
    workspace: Workspace, tmp_path: Path, state
) -> None:
    reg = state.registry()
    ids = quarantine_transient(workspace, tmp_path, reg, rows=4)
    a, b, c, d = ids
    apply_change(workspace, [a], park("looking at it"))
    apply_change(workspace, [b], discard("duplicate"))
    apply_change(workspace, [c], reclassify_as("data"))
    at = places(workspace)
    assert at[a][3] is None and at[b][3] is None and at[c][3] is None
    assert at[d][3] is not None  # untouched: still waiting
    # Back on the ladder, at its first step: a reopen of a transient row, a reclassify to
    # transient. The ladder is the one of the row's version (the default here).
    before = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    apply_change(workspace, [a, b], reopen("back"))
    apply_change(workspace, [c], reclassify_as("transient"))
    after = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    for i in (a, b, c):
        status, cls, step, due = places(workspace)[i]
        assert (status, cls, step) == ("open", "transient", 0)
        assert due is not None and before + 5 * MIN <= due <= after + 5 * MIN


def test_a_manual_redrive_moves_a_transient_failure_down_the_ladder(
    workspace: Workspace, tmp_path: Path, state
) -> None:
    """One rule: whoever re-drives it, a transient failure moves down the ladder, and the
    attempt limit does not park it before the ladder's end."""
    reg = state.registry()
    ids = quarantine_transient(workspace, tmp_path, reg, rows=2)
    s = redrive(workspace, "pesanan@1", ids=ids, registry=reg, retry=NO_WAIT, max_attempts=2)
    assert (s.failed, s.parked) == (2, 0)
    for i in ids:
        status, _, step, due = places(workspace)[i]
        assert (status, step) == ("open", 1) and due is not None
    s = redrive(workspace, "pesanan@1", ids=ids, registry=reg, retry=NO_WAIT, max_attempts=2)
    s = redrive(workspace, "pesanan@1", ids=ids, registry=reg, retry=NO_WAIT, max_attempts=2)
    assert s.parked == 2
    assert {places(workspace)[i] for i in ids} == {("parked", "transient", 3, None)}


def test_which_ladder_applies(tmp_path: Path, state) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        assert workspace_ladder_of(ws) is None
        set_workspace_ladder(ws, Ladder.parse("1m,2m"))
        assert workspace_ladder_of(ws) == Ladder.parse("1m,2m")
        ids = quarantine_transient(ws, tmp_path, state.registry(), rows=2)
        due = places(ws)[ids[0]][3]
        first = places(ws)[ids[0]]
        assert first[3] is not None
        backlog = ladder_backlog(ws, now=due)
        assert backlog.ladder.describe() == "1m,2m" and backlog.own
        assert backlog.waiting == 2 and backlog.steps[0].step == 0
        # Past its two steps the row parks: the workspace's ladder, not the default.
        reg = state.registry()
        latest = max(places(ws)[i][3] for i in ids)  # type: ignore[type-var]
        retry_due(ws, now=latest, registry=reg, retry=NO_WAIT)
        retry_due(ws, now=latest + 2 * MIN, registry=reg, retry=NO_WAIT)
        assert {places(ws)[i][0] for i in ids} == {"parked"}
        set_workspace_ladder(ws, None)
        assert workspace_ladder_of(ws) is None
    # A transform's own ladder wins over the workspace's.
    with open_workspace(tmp_path / "ws2") as ws:
        set_workspace_ladder(ws, Ladder.parse("1h"))
        reg = state.registry(ladder=Ladder.parse("10s,20s"))
        before = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        ids = quarantine_transient(ws, tmp_path, reg, rows=1)
        due = places(ws)[ids[0]][3]
        assert due is not None and due < before + MIN
        p = retry_due(ws, now=due, registry=reg, retry=NO_WAIT)
        assert p.moved_down == 1
        assert places(ws)[ids[0]][2:] == (1, due + dt.timedelta(seconds=20))


def _iso(t: dt.datetime) -> str:
    return t.replace(microsecond=0).isoformat() + "Z"
