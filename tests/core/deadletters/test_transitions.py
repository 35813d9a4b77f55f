"""Guarded transitions: versions, re-drive leases, and the refusals that name who and when.
The races between real processes are in tests/invariants/test_many_hands.py; these pin
each rule on its own."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select, text, update

from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, Workspace
from triage_app.core.deadletters import (
    ChangedMeanwhile,
    Refused,
    apply_change,
    claims,
    discard,
    edit_payload,
    get_dead_letter,
    leases,
    note,
    park,
    redrive,
    settling,
    transitions,
)
from triage_app.core.vocabulary import RedriveOutcome

ROWS = 6


@pytest.fixture
def ws(workspace: Workspace, tmp_path: Path) -> Workspace:
    """Six orders that fail pesanan@1 (a null diskon) and load with pesanan@2: ids 1-6."""
    src = tmp_path / "orders.jsonl"
    src.write_bytes(
        b"".join(
            orjson.dumps(
                {
                    "pesanan_id": i,
                    "waktu": "2026-01-12T08:00:00",
                    "pelanggan": "p",
                    "produk": "kopi",
                    "qty": 1,
                    "harga": 100 * i,
                    "diskon": None,
                }
            )
            + b"\n"
            for i in range(1, ROWS + 1)
        )
    )
    assert run_batch(workspace, src, "pesanan@1").quarantined == ROWS
    return workspace


def version(ws: Workspace, dl_id: int) -> int:
    return get_dead_letter(ws, dl_id, reveal=True).version


def warehouse_keys(ws: Workspace) -> set[int]:
    with ws.warehouse.connect() as conn:
        try:
            return set(conn.execute(text("SELECT pesanan_id FROM pesanan")).scalars())
        except Exception:  # no table yet: nothing loaded
            return set()


def test_every_change_bumps_the_version(ws: Workspace) -> None:
    assert version(ws, 1) == 1
    edit_payload(ws, 1, '{"pesanan_id": 1}')
    assert version(ws, 1) == 2
    apply_change(ws, [1], note("asked"))
    apply_change(ws, [1], park("later"))
    assert version(ws, 1) == 4
    assert redrive(ws, "pesanan@2", ids=[2]).succeeded == 1
    assert version(ws, 2) == 2


def test_an_edit_at_an_old_version_is_refused_with_who_and_when(ws: Workspace) -> None:
    apply_change(ws, [1], note("looking"), actor="ana@desk")
    with pytest.raises(ChangedMeanwhile) as caught:
        edit_payload(ws, 1, '{"pesanan_id": 1}', if_version=1)
    message = str(caught.value)
    assert re.match(
        r"dead letter 1 changed since version 1 "
        r"\(note by ana@desk at \d+ \w+ 20\d\d \d\d:\d\d UTC\)",
        message,
    ), message
    assert message.endswith("); it is now version 2")
    assert caught.value.version == 2
    assert (
        get_dead_letter(ws, 1, reveal=True).payload_bytes
        == get_dead_letter(ws, 1, reveal=True).original_bytes
    )
    edit_payload(ws, 1, '{"pesanan_id": 1}', if_version=2)  # at the version it is: applies


def test_a_held_row_refuses_edits_and_status_changes_but_takes_a_note(ws: Workspace) -> None:
    token = leases.new_token("bob@laptop")  # this very process: alive, so it holds
    got = claims.claim(ws.store, [1, 2], token)
    assert [r.id for r in got.rows] == [1, 2]
    for change in (
        lambda: edit_payload(ws, 1, '{"pesanan_id": 1}'),
        lambda: apply_change(ws, [1], park()),
        lambda: apply_change(ws, [2, 3], discard("junk")),
    ):
        with pytest.raises(
            Refused,
            match=r"is held by a re-drive \(bob@laptop\) until \d+ \w+ 20\d\d \d\d:\d\d UTC",
        ):
            change()
    assert get_dead_letter(ws, 3, reveal=True).status == "open"  # all or none
    assert len(apply_change(ws, [1], note("seen it")).changed) == 1
    claims.release(ws.store, [1, 2], token)
    assert len(apply_change(ws, [1], park()).changed) == 1


def test_a_redrive_leaves_rows_another_holds_as_taken(ws: Workspace) -> None:
    other = leases.new_token("bob@laptop")
    claims.claim(ws.store, [2, 5], other)
    s = redrive(ws, "pesanan@2", ids=list(range(1, ROWS + 1)))
    outcomes = {r.id: r.outcome for r in s.results}
    assert outcomes == {
        1: "resolved",
        2: "taken",
        3: "resolved",
        4: "resolved",
        5: "taken",
        6: "resolved",
    }
    assert (s.attempted, s.succeeded, s.taken) == (4, 4, 2)
    assert warehouse_keys(ws) == {1, 3, 4, 6}  # the taken rows were not loaded
    assert {get_dead_letter(ws, i, reveal=True).status for i in (2, 5)} == {"open"}


def test_an_expired_lease_is_free(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(leases.LEASE_ENV, "0")
    claims.claim(ws.store, [1], leases.new_token("bob@laptop"))
    monkeypatch.delenv(leases.LEASE_ENV)  # our own re-drive takes the usual lease
    assert redrive(ws, "pesanan@2", ids=[1]).succeeded == 1


def test_the_lease_of_a_process_that_is_gone_is_void(ws: Workspace) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    token = leases.new_token("bob@laptop").split(" ", 2)
    host = token[1].rpartition(":")[0]
    stale = f"{token[0]} {host}:{dead.pid} bob@laptop"
    claims.claim(ws.store, [1], stale)
    assert redrive(ws, "pesanan@2", ids=[1]).succeeded == 1
    # Another host's lease is only ended by its expiry.
    elsewhere = f"{token[0]} some-other-host:{dead.pid} bob@laptop"
    claims.claim(ws.store, [2], elsewhere)
    assert redrive(ws, "pesanan@2", ids=[2]).taken == 1


def test_an_outcome_after_a_lost_lease_is_lapsed_and_writes_nothing(ws: Workspace) -> None:
    mine, theirs = (leases.new_token(a) for a in ("ana", "bob"))
    claims.claim(ws.store, [1, 2], mine)
    with ws.store.begin() as conn:  # row 1's lease runs out...
        past = dt.datetime(2000, 1, 1)
        conn.execute(update(DeadLetter).where(DeadLetter.id == 1).values(claim_until=past))
    claims.claim(ws.store, [1], theirs)  # ...and another re-drive takes row 1
    assert claims.renew(ws.store, [1, 2], mine) == {2}
    settled = settling.settle(ws.store, mine, [1, 2], {}, "pesanan@2", 3, "ana")
    # Not "taken": the lease ran out first; the outcome says what happened since.
    assert settled[1].outcome == RedriveOutcome.LAPSED
    assert (
        settled[1].error is not None and "another re-drive holds it now (bob)" in settled[1].error
    )
    assert settled[2].outcome == RedriveOutcome.RESOLVED
    d = get_dead_letter(ws, 1, reveal=True)
    assert (d.status, d.version) == ("open", 1)
    with ws.store.connect() as conn:
        holder = conn.execute(select(DeadLetter.claimed_by).where(DeadLetter.id == 1)).scalar()
    assert holder == theirs


def test_failed_attempts_are_counted_from_the_row_as_it_is(ws: Workspace) -> None:
    for expected in (2, 3):
        s = redrive(ws, "pesanan@1", ids=[1], max_attempts=3)
        assert s.failed == 1
        d = get_dead_letter(ws, 1, reveal=True)
        assert d.attempts == expected
        failed = [e for e in d.events if e.action == "redrive_failed"]
        assert failed[-1].detail.startswith(f"attempt {expected} with pesanan@1")
    assert (
        get_dead_letter(ws, 1, reveal=True).status == "parked"
    )  # the third attempt reached the limit


def test_nothing_else_updates_a_dead_letter() -> None:
    """Two modules own the transitions, by hand and a re-drive's outcomes: any other UPDATE
    of the table would bypass the version and the lease. The claims write a lease's own
    columns and nothing else."""
    import re

    from tests.support import REPO

    writes = re.compile(r"update\(\s*(DeadLetter|DL)\b|UPDATE\s+dead_letters", re.IGNORECASE)
    here = REPO / "triage_app/core/deadletters"
    transitions_py, settling_py, claims_py = (
        here / f"{m}.py" for m in ("transitions", "settling", "claims")
    )
    owners = {transitions_py, settling_py, claims_py}
    # Each UPDATE of the claims (claim, renew, release) sets claimed_by and claim_until only.
    code = claims_py.read_text(encoding="utf-8")
    claim_writes = re.findall(r"\.values\(([^)]*)\)", code)
    assert len(writes.findall(code)) == len(claim_writes) == 3
    for values in claim_writes:
        assert {v.split("=")[0].strip() for v in values.split(",") if v.strip()} <= {
            "claimed_by",
            "claim_until",
        }, values
    # Migrations change how rows are stored, under the upgrade's lock, never what they say.
    migrations = REPO / "triage_app/core/db/migrations/versions"
    offenders = [
        str(path.relative_to(REPO))
        for path in (REPO / "triage_app").rglob("*.py")
        if path not in owners
        and path.parent != migrations
        and writes.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
    assert writes.search(transitions_py.read_text(encoding="utf-8"))
    assert writes.search(settling_py.read_text(encoding="utf-8"))


def test_a_killed_redrives_lease_stops_no_edit_or_discard(ws: Workspace) -> None:
    """A lease whose process is gone (killed on this machine) is void at once: an edit and
    a discard cross it, rather than failing as "changed while being changed"."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    token = leases.new_token("bob@laptop").split(" ", 2)
    stale = f"{token[0]} {token[1].rpartition(':')[0]}:{dead.pid} bob@laptop"
    claims.claim(ws.store, [1, 2], stale)
    report = transitions.change_rows(ws.store, [1], transitions.discard("junk"), actor="ana")
    assert report.changed == (1,)
    assert transitions.edit(ws.store, 2, '{"pesanan_id": 2}', if_version=1, actor="ana") == 2
    with ws.store.connect() as conn:
        holders = conn.execute(select(DeadLetter.claimed_by).where(DeadLetter.id.in_([1, 2])))
        assert set(holders.scalars()) == {None}
