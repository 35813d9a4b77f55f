"""Two stewards at once, as real processes, on SQLite and PostgreSQL (docs/design.md,
invariant 7): two re-drives of one set, re-drives through two versions, an edit or a
discard during a re-drive, two editors of one row. Each race is repeated over a few rounds
and checked the same way afterwards:

- every row resolved at most once; attempts are one plus its failed re-drives;
- the re-drives' ``succeeded`` add up to the rows resolved;
- every resolved row's warehouse row is what its final payload transforms to, and no
  discarded row reached the warehouse;
- no edit was lost: a second edit replaced the first one's payload, not the original;
- ``reconcile`` of the batch is consistent.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select, text

from tests.support import REPO
from tests.support.events import events_by_row, whole_trail
from triage_app.core.batch import run_batch
from triage_app.core.db import (
    AuditEvent,
    ChangeSetRow,
    DeadLetter,
    Workspace,
    counts,
    open_workspace,
)
from triage_app.core.db.models import working_payload
from triage_app.core.transforms import default_registry
from triage_app.core.verify import reconcile

ROWS = 1200  # more than one claim chunk (the first is 500 rows)
ROUNDS = 3


@dataclass
class Store:
    """Where the stewards work, as the CLI and the steward script take it."""

    args: list[str]  # CLI options
    spec: str  # tests/support/stewards.py's STORE_ARGS

    def open(self) -> Workspace:
        if "," in self.spec:
            wh, dl = self.spec.split(",", 1)
            return open_workspace(warehouse_url=wh, dead_letter_url=dl)
        return open_workspace(self.spec)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        ws = tmp_path / "ws"
        yield Store(["--workspace", str(ws)], str(ws))
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield Store(["--warehouse", wh, "--dead-letter", dl], f"{wh},{dl}")


def _batch(store: Store, tmp: Path, round_: int) -> tuple[str, list[int]]:
    """A batch whose every row fails pesanan@1 (a null diskon) and loads with pesanan@2."""
    src = tmp / f"pesanan_round{round_}.jsonl"
    base = round_ * 100_000
    with src.open("wb") as f:
        for i in range(ROWS):
            record = {
                "pesanan_id": base + i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": f"p{i}",
                "produk": "kopi",
                "qty": 1 + i % 3,
                "harga": 1000 + i,
                "diskon": None,
            }
            f.write(orjson.dumps(record) + b"\n")
    with store.open() as ws:
        s = run_batch(ws, src, "pesanan@1")
        assert s.quarantined == ROWS
        with ws.store.connect() as conn:
            ids = list(
                conn.execute(
                    select(DeadLetter.id)
                    .where(DeadLetter.batch_id == s.batch_id)
                    .order_by(DeadLetter.id)
                ).scalars()
            )
    return s.batch_id, ids


def _cli(store: Store, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "triage_app", *store.args, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )


def _steward(store: Store, action: str, ids: list[int], bump: int = 1) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.stewards", action, store.spec, str(bump)]
        + [str(i) for i in ids],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )


def _json(p: subprocess.Popen[bytes]) -> dict:  # type: ignore[type-arg]
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err.decode()
    return orjson.loads(out)


def _redrive(store: Store, batch_id: str, transform: str) -> subprocess.Popen[bytes]:
    return _cli(store, "redrive", "--batch", batch_id, "--transform", transform, "--json")


def _warehouse(ws: Workspace) -> dict[int, tuple]:  # type: ignore[type-arg]
    """The warehouse's pesanan rows by key, as the transforms make them."""
    with ws.warehouse.connect() as conn:
        return {
            r[0]: tuple(r)
            for r in conn.execute(
                text("SELECT pesanan_id, waktu, pelanggan, produk, qty, harga, total FROM pesanan")
            )
        }


def _check(store: Store, batch_id: str, summaries: list[dict]) -> dict[str, int]:  # type: ignore[type-arg]
    """The invariants every race must keep; the count of rows by status."""
    registry = default_registry()
    with store.open() as ws:
        with ws.store.connect() as conn:
            dls = conn.execute(
                select(
                    DeadLetter.id,
                    DeadLetter.status,
                    DeadLetter.attempts,
                    working_payload().label("payload"),
                    DeadLetter.transform,
                    DeadLetter.original_payload,
                    DeadLetter.claimed_by,
                ).where(DeadLetter.batch_id == batch_id)
            ).all()
            # Each row's events as every reader sees them: stored, and expanded from the
            # set records (its batch, the re-drive that resolved it).
            by_row = events_by_row(conn, [d.id for d in dls])
        warehouse = _warehouse(ws)
        statuses: Counter[str] = Counter()
        for d in dls:
            statuses[d.status] += 1
            actions = Counter(e.action for e in by_row[d.id])
            assert actions["resolved"] == (1 if d.status == "resolved" else 0), d.id
            assert d.attempts == 1 + actions["redrive_failed"], d.id
            assert d.claimed_by is None, f"dead letter {d.id} still claimed"
            record = orjson.loads(d.payload)
            key = record["pesanan_id"]
            if d.status == "resolved":
                expected = registry.get(d.transform).fn(record)
                assert warehouse.get(key) == tuple(expected), d.id
            elif d.status == "discarded":
                assert key not in warehouse, d.id
                assert actions["discarded"] == 1
            # No lost edit: each edit replaced the payload the one before it wrote.
            replaced = [e.replaced_payload for e in by_row[d.id] if e.action == "edited"]
            assert replaced[:1] in ([], [d.original_payload]), d.id
            assert len(set(replaced)) == len(replaced), f"dead letter {d.id}: an edit was lost"
        assert sum(s["succeeded"] for s in summaries) == statuses["resolved"]
        assert reconcile(ws, batch_id).ok
        with ws.store.connect() as conn:  # the summary Trends reads, whole store
            assert counts.differences(conn) == [], "the summary drifted in the race"
    return dict(statuses)


@pytest.mark.slow
def test_two_redrives_of_one_set_resolve_each_row_once(store: Store, tmp_path: Path) -> None:
    taken = 0
    for round_ in range(ROUNDS):
        batch_id, _ = _batch(store, tmp_path, round_)
        a, b = (_redrive(store, batch_id, "pesanan@2") for _ in range(2))
        summaries = [_json(a), _json(b)]
        assert _check(store, batch_id, summaries) == {"resolved": ROWS}
        taken += sum(s["taken"] for s in summaries)
        for s in summaries:
            outcomes = Counter(r["outcome"] for r in s["results"])
            assert outcomes["resolved"] == s["succeeded"]
            assert set(outcomes) <= {"resolved", "taken", "skipped"}
    print(f"rows taken by the other re-drive over {ROUNDS} rounds: {taken}")


@pytest.mark.slow
def test_redrives_through_two_versions_keep_attempts_and_status(
    store: Store, tmp_path: Path
) -> None:
    for round_ in range(ROUNDS):
        batch_id, _ = _batch(store, tmp_path, round_)
        a, b = _redrive(store, batch_id, "pesanan@2"), _redrive(store, batch_id, "pesanan@1")
        summaries = [_json(a), _json(b)]
        counts = _check(store, batch_id, summaries)
        assert sum(counts.values()) == ROWS
        assert set(counts) <= {"resolved", "open"}
        # Every row pesanan@1 failed and pesanan@2 did not resolve is open with attempt 2.
        assert summaries[1]["succeeded"] == 0


@pytest.mark.slow
def test_an_edit_during_a_redrive_is_either_loaded_or_refused(store: Store, tmp_path: Path) -> None:
    refused = edited = 0
    for round_ in range(ROUNDS):
        batch_id, ids = _batch(store, tmp_path, round_)
        r = _redrive(store, batch_id, "pesanan@2")
        e = _steward(store, "edit", ids[::-1][:700])
        summary, edits = _json(r), _json(e)
        refused += len(edits["refused"])
        edited += len(edits["done"])
        # The re-drive may have left edited rows open for a later one; the warehouse
        # holds exactly what resolved each resolved row (checked in _check).
        _check(store, batch_id, [summary])
    print(f"edits applied {edited}, refused {refused}")


@pytest.mark.slow
def test_a_discard_during_a_redrive_never_reaches_the_warehouse(
    store: Store, tmp_path: Path
) -> None:
    for round_ in range(ROUNDS):
        batch_id, ids = _batch(store, tmp_path, round_)
        r = _redrive(store, batch_id, "pesanan@2")
        d = _steward(store, "discard", ids[::-1])
        summary, discards = _json(r), _json(d)
        counts = _check(store, batch_id, [summary])
        assert counts.get("discarded", 0) == len(discards["done"])
        assert counts.get("resolved", 0) + counts.get("discarded", 0) == ROWS


@pytest.mark.slow
def test_two_editors_of_one_row_never_lose_an_edit(store: Store, tmp_path: Path) -> None:
    both = 0
    for round_ in range(ROUNDS):
        batch_id, ids = _batch(store, tmp_path, round_)
        chosen = ids[:300]
        a, b = _steward(store, "edit", chosen, 1), _steward(store, "edit", chosen, 2)
        ra, rb = _json(a), _json(b)
        for dl_id in chosen:
            # Each edit either applied or was refused; none silently replaced another.
            assert (dl_id in ra["done"]) != (dl_id in ra["refused"])
        _check(store, batch_id, [])
        with store.open() as ws, ws.store.connect() as conn:
            edits = Counter(
                conn.execute(
                    select(AuditEvent.dead_letter_id).where(
                        AuditEvent.dead_letter_id.in_(chosen), AuditEvent.action == "edited"
                    )
                ).scalars()
            )
        for dl_id in chosen:
            done = (dl_id in ra["done"]) + (dl_id in rb["done"])
            assert edits[dl_id] == done, dl_id
            both += done == 2
    print(f"rows both editors changed, one after the other: {both}")


def _fix(store: Store, batch_id: str, *steps: str) -> subprocess.Popen[bytes]:
    return _cli(store, "--json", "fix", "--batch", batch_id, "--status", "all", *steps)


def _fix_json(p: subprocess.Popen[bytes]) -> dict:  # type: ignore[type-arg]
    """A fix's output: exit 0, or 1 when it left rows out (changed meanwhile)."""
    out, err = p.communicate(timeout=300)
    assert p.returncode in (0, 1), err.decode()
    return orjson.loads(out)


@pytest.mark.slow
def test_two_fixes_of_one_set_change_each_row_in_turn(store: Store, tmp_path: Path) -> None:
    """Two stewards apply different fixes to the same rows at once: each row is changed
    by one, or by both one after the other (a preview that came after the other's apply),
    never patched over a version it did not see; every change-set lists exactly the rows
    it changed, and the row ends as the last change-set made it."""
    both = 0
    for round_ in range(ROUNDS):
        batch_id, ids = _batch(store, tmp_path, round_)
        a = _fix(store, batch_id, "--set", 'kanal="a"')
        b = _fix(store, batch_id, "--set", 'kanal="b"', "--default", "ongkir=0")
        ra, rb = _fix_json(a), _fix_json(b)
        _check(store, batch_id, [])
        done = {}
        for name, r in (("a", ra), ("b", rb)):
            applied = r["applied"]
            changed = set(applied["changed"])
            left_out = {x["id"] for x in applied["refused"]}
            assert not changed & left_out
            assert changed | left_out == set(ids)  # every row it previewed: one or the other
            assert all("changed since version" in x["reason"] for x in applied["refused"])
            done[name] = (applied["change_set"], changed)
        with store.open() as ws, ws.store.connect() as conn:
            lines = Counter(
                conn.execute(
                    select(ChangeSetRow.change_set_id).where(ChangeSetRow.dead_letter_id.in_(ids))
                ).scalars()
            )
            trail = whole_trail()  # a change-set's lines are its rows' events
            edits = Counter(
                conn.execute(
                    select(trail.c.dead_letter_id).where(
                        trail.c.dead_letter_id.in_(ids), trail.c.action == "edited"
                    )
                ).scalars()
            )
            final = dict(
                conn.execute(
                    select(DeadLetter.id, working_payload()).where(DeadLetter.id.in_(ids))
                ).all()
            )
        for cs, changed in done.values():
            assert lines[cs] == len(changed)
        for dl_id in ids:
            n = (dl_id in done["a"][1]) + (dl_id in done["b"][1])
            assert n >= 1 and edits[dl_id] == n, dl_id
            both += n == 2
            kanal = orjson.loads(final[dl_id])["kanal"]
            if n == 1:
                assert kanal == ("a" if dl_id in done["a"][1] else "b"), dl_id
    print(f"rows both fixes changed, one after the other: {both}")


@pytest.mark.slow
def test_a_fix_during_a_redrive_never_touches_a_row_the_redrive_holds(
    store: Store, tmp_path: Path
) -> None:
    """A re-drive is held right after it claimed its first chunk; a fix of the whole
    batch then runs: the held rows are left out ("held by a re-drive"), the others are
    fixed; the re-drive goes on and resolves every row, the fixed ones with their fix (the
    warehouse holds what each final payload makes, checked in _check)."""
    import os
    import time

    for round_ in range(ROUNDS):
        batch_id, ids = _batch(store, tmp_path, round_)
        gate = tmp_path / f"gate{round_}"
        r = subprocess.Popen(
            [
                *(sys.executable, "-m", "triage_app", *store.args),
                *("redrive", "--batch", batch_id, "--transform", "pesanan@2", "--json"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env={
                **os.environ,
                "TRIAGE_PAUSE_AT": "redrive-after-claim",
                "TRIAGE_PAUSE_FILE": str(gate),
            },
        )
        reached = Path(f"{gate}.reached")
        deadline = time.monotonic() + 60
        while not reached.exists() and r.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert reached.exists(), r.communicate()[1].decode()
        report = _fix_json(_fix(store, batch_id, "--set", 'kanal="toko"'))["applied"]
        gate.touch()
        summary = _json(r)
        held = {x["id"] for x in report["refused"]}
        assert held and all("held by a re-drive" in x["reason"] for x in report["refused"])
        assert set(report["changed"]) | held == set(ids)
        assert _check(store, batch_id, [summary]) == {"resolved": ROWS}
        with store.open() as ws, ws.store.connect() as conn:
            payloads = dict(
                conn.execute(
                    select(DeadLetter.id, working_payload()).where(DeadLetter.id.in_(ids))
                ).all()
            )
        for dl_id in ids:
            assert ("kanal" in orjson.loads(payloads[dl_id])) == (dl_id not in held), dl_id


STALL_LEASE = "2"  # seconds: the stall below outlasts it


@pytest.mark.slow
def test_a_redrive_stalled_past_its_lease_keeps_every_invariant(
    store: Store, tmp_path: Path
) -> None:
    """A re-drive stops after loading its first chunk (a process stopped, a laptop asleep)
    for longer than its lease, while another steward discards, edits or fixes rows of that
    chunk and a second re-drive takes what is free; then it goes on. Each round, every
    invariant holds, and the stalled chunk's rows are left as the others made them: none
    resolved by the stalled re-drive after its lease ran out, nothing it loaded kept for a
    row discarded or changed meanwhile."""
    import os
    import time

    for round_, meanwhile in enumerate(("discard", "edit", "fix")):
        batch_id, ids = _batch(store, tmp_path, round_)
        first_chunk = ids[:500]
        pause = tmp_path / f"go{round_}"
        env = {
            **os.environ,
            "TRIAGE_LEASE_SECONDS": STALL_LEASE,
            "TRIAGE_PAUSE_AT": "redrive-after-warehouse",
            "TRIAGE_PAUSE_FILE": str(pause),
        }
        command = ["redrive", "--batch", batch_id, "--transform", "pesanan@2", "--json"]
        stalled = subprocess.Popen(
            [sys.executable, "-m", "triage_app", *store.args, *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=env,
        )
        deadline = time.monotonic() + 120
        while not Path(f"{pause}.reached").exists():
            assert stalled.poll() is None, stalled.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(float(STALL_LEASE) + 1)
        # The steward first (a re-drive started at once would claim the rows first: they
        # are free), then a second re-drive takes what is free, all while the first stalls.
        if meanwhile == "fix":
            did = _fix_json(_fix(store, batch_id, "--set", 'kanal="toko"'))
        else:
            did = _json(_steward(store, meanwhile, first_chunk[::2]))
        summaries = [_json(_redrive(store, batch_id, "pesanan@2"))]
        pause.touch()
        summaries.append(_json(stalled))
        counts = _check(store, batch_id, summaries)
        assert sum(counts.values()) == ROWS
        lapsed = [r for r in summaries[1]["results"] if r["outcome"] == "lapsed"]
        assert summaries[1]["lapsed"] == len(lapsed) > 0, summaries[1]
        assert all(r["id"] in first_chunk for r in lapsed)
        assert not any("another re-drive has it" in (r["error"] or "") for r in lapsed)
        changed = set(did["done"]) if meanwhile != "fix" else set(did["applied"]["changed"])
        assert changed, f"the race never happened: the steward's {meanwhile} changed nothing"
        # Every row of the stalled chunk a steward changed meanwhile: not resolved by the
        # stalled re-drive, and if open, the warehouse holds nothing it loaded for it.
        _open_rows_explain_the_warehouse(store, batch_id)


def _open_rows_explain_the_warehouse(store: Store, batch_id: str) -> None:
    """A waiting row's key in the warehouse holds what its payload loads, or nothing: never
    a payload it no longer has."""
    registry = default_registry()
    with store.open() as ws:
        with ws.store.connect() as conn:
            waiting = conn.execute(
                select(DeadLetter.id, working_payload().label("payload")).where(
                    DeadLetter.batch_id == batch_id, DeadLetter.status.in_(["open", "parked"])
                )
            ).all()
        warehouse = _warehouse(ws)
    fn = registry.get("pesanan@2").fn
    for d in waiting:
        record = orjson.loads(d.payload)
        got = warehouse.get(record["pesanan_id"])
        assert got is None or got == tuple(fn(record)), d.id
