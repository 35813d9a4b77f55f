"""Crash safety, proven: SIGKILL at each named point, then integrity, the same command
again, and a reconciliation against an oracle computed from the input independently."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from tests.support import gen_batch
from tests.support.events import whole_trail
from triage_app.core.crashpoints import POINTS
from triage_app.core.db import Workspace, open_workspace, table_sha256
from triage_app.core.deadletters import (
    DeadLetterFilter,
    audit_trail,
    get_dead_letter,
    list_dead_letters,
)
from triage_app.core.transforms.pesanan import TRANSFORMS, pesanan_v2
from triage_app.core.verify import reconcile

PESANAN = TRANSFORMS[1]
BATCH_POINTS = [
    "mid-parse",
    "before-chunk-commit",
    "mid-upsert",
    "after-warehouse-commit",
    "after-chunk-commit",
]


def oracle(src: Path) -> tuple[dict[int, tuple[Any, ...]], set[int]]:
    """What a correct run must leave: the newest valid version per key (later lines win:
    pesanan has no ordering column), and the lines that must be quarantined. Parsed with
    the standard library, not the engine's parser."""
    final: dict[int, tuple[Any, ...]] = {}
    bad: set[int] = set()
    for n, line in enumerate(src.read_bytes().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = pesanan_v2(json.loads(line))
        except Exception:
            bad.add(n)
            continue
        final[row[0]] = row
    return final, bad


def check_against_oracle(ws_dir: Path, src: Path) -> None:
    for db in ("warehouse.db", "dead_letter.db"):
        with sqlite3.connect(ws_dir / db) as c:
            assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with open_workspace(ws_dir) as ws:
        check_workspace_against_oracle(ws, src)


def check_workspace_against_oracle(ws: Workspace, src: Path) -> list[int]:
    """The oracle's table and dead letters (none doubled) and a clean reconcile, on any
    dialect; the dead letters' lines."""
    final, bad = oracle(src)
    with ws.warehouse.connect() as conn:
        rows = conn.execute(
            text("SELECT pesanan_id, waktu, pelanggan, produk, qty, harga, total FROM pesanan")
        ).all()
    assert {r[0]: tuple(r) for r in rows} == final
    dls = list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
    lines = [d.line for d in dls]
    assert len(lines) == len(set(lines)), "a dead letter is doubled"
    assert set(lines) == bad
    (batch_id,) = {d.batch_id for d in dls}
    r = reconcile(ws, batch_id)
    assert r.ok and r.complete, r.to_json()
    return lines


def cli_run(
    ws_dir: Path, src: Path, env: dict[str, str], *extra: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "triage_app",
            "--workspace",
            str(ws_dir),
            "run",
            str(src),
            "--transform",
            "pesanan@2",
            "--chunk-size",
            "1000",
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return gen_batch(tmp_path_factory.mktemp("crash") / "orders.jsonl", 12_000, bad=0.03)


def test_every_point_is_known() -> None:
    assert set(BATCH_POINTS) < set(POINTS)


@pytest.mark.parametrize("lanes", ["1", "2"])
@pytest.mark.parametrize("point", BATCH_POINTS)
def test_batch_killed_at_point_then_rerun(
    point: str, lanes: str, src: Path, tmp_path: Path
) -> None:
    ws_dir = tmp_path / "ws"
    armed = {**os.environ, "TRIAGE_LANES": lanes, "TRIAGE_CRASH_AT": f"{point}:3"}
    killed = cli_run(ws_dir, src, armed)
    # One lane: the CLI itself dies. Two: either lane may reach the point first; when the
    # second lane dies the first stops with a one-line message.
    assert killed.returncode == -signal.SIGKILL or (
        lanes == "2" and killed.returncode == 2 and "second lane" in killed.stderr
    ), killed.stderr
    clean_env = {k: v for k, v in armed.items() if k != "TRIAGE_CRASH_AT"}
    again = cli_run(ws_dir, src, clean_env)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resumed batch")
    check_against_oracle(ws_dir, src)


REDRIVE_POINTS = [
    "redrive-after-claim",
    "redrive-after-warehouse",
    "redrive-after-resolutions",
    "redrive-mid-settle",
]
REDRIVE_ROWS = 3_000  # 2,940 of code class: claim chunks of 500, 1,000, 1,440


def _redrive_batch(path: Path) -> Path:
    """Orders whose null diskon fails pesanan@1 (code class) and loads with pesanan@2,
    with every 50th missing its qty (data class): the re-drive by class leaves those."""
    lines = []
    for i in range(1, REDRIVE_ROWS + 1):
        record: dict[str, Any] = {
            "pesanan_id": i,
            "waktu": "w",
            "pelanggan": "p",
            "produk": "x",
            "qty": 1 + i % 4,
            "harga": 10,
            "diskon": None,
        }
        if i % 50 == 0:
            del record["qty"]
        lines.append(json.dumps(record) + "\n")
    path.write_text("".join(lines))
    return path


def _redrive_state(ws_dir: Path) -> tuple[str, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The warehouse's hash, every dead letter's state and every event (by row, oldest
    first: stored and those the batch and the re-drive stand for), with what differs
    between two runs of the same thing (ids of events, times, actors) left out."""
    with sqlite3.connect(ws_dir / "dead_letter.db") as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = c.execute(
            "SELECT line, status, attempts, version, transform, error_class, claimed_by,"
            " claim_until, resolved_at IS NULL FROM dead_letters ORDER BY line"
        ).fetchall()
        line_of = dict(c.execute("SELECT id, line FROM dead_letters").fetchall())
        # Nothing half: a resolved row has its line of a run, and only a resolved row.
        assert c.execute(
            "SELECT count(*) FROM dead_letters d LEFT JOIN resolutions r"
            " ON r.dead_letter_id = d.id LEFT JOIN redrive_runs u ON u.id = r.run_id"
            " WHERE (d.status = 'resolved') != (u.id IS NOT NULL)"
        ).fetchone() == (0,)
    with open_workspace(ws_dir) as ws:
        trail = audit_trail(ws, limit=100_000)
        events = sorted(
            ((line_of[e.dead_letter_id], e.action, e.detail, e.version) for e in reversed(trail)),
            key=lambda e: e[0],  # stable: each row's events stay oldest first
        )
        return table_sha256(ws.warehouse, PESANAN), rows, events


@pytest.mark.slow
@pytest.mark.parametrize("point", REDRIVE_POINTS)
def test_redrive_killed_at_point_then_rerun_ends_as_a_clean_run(point: str, tmp_path: Path) -> None:
    """Killed inside the bulk re-drive (leases taken; rows loaded but not resolved; the
    outcomes written but not committed), the same command again ends exactly where a
    run never killed ends: the same warehouse, the same dead letters (status, attempts,
    version, no lease left), the same events, each row resolved once. The dead run's
    leases are void at once on this machine: the re-run does not wait for them."""
    src = _redrive_batch(tmp_path / "nulls.jsonl")
    env = {**os.environ, "TRIAGE_LANES": "1"}

    def cli(ws_dir: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "triage_app", "--workspace", str(ws_dir), *args],
            env={**env, "TRIAGE_CRASH_AT": crash} if crash else env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    redrive = ("redrive", "--class", "code", "--transform", "pesanan@2")
    clean, victim = tmp_path / "clean", tmp_path / "victim"
    for ws_dir in (clean, victim):
        ran = cli(ws_dir, "run", str(src), "--transform", "pesanan@1")
        assert ran.returncode == 0, ran.stderr
    done = cli(clean, *redrive)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Re-drove 2,940 dead letters with pesanan@2: 2,940 resolved")
    assert len(done.stdout.splitlines()) == 1  # a summary: rows only with --verbose

    killed = cli(victim, *redrive, crash=f"{point}:2")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    _, rows, _ = _redrive_state(victim)
    resolved = sum(r[1] == "resolved" for r in rows)
    held = sum(r[6] is not None for r in rows)
    with sqlite3.connect(victim / "warehouse.db") as c:
        loaded = c.execute("SELECT count(*) FROM pesanan").fetchone()[0]
    # The first chunk (500 rows) is resolved; the second (1,000) is claimed by the dead
    # process and, from the warehouse's commit on, loaded.
    assert resolved == 500
    assert held == 1000
    assert loaded == (500 if point == "redrive-after-claim" else 1500)

    again = cli(victim, *redrive)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Re-drove 2,440 dead letters with pesanan@2: 2,440 resolved")
    got, want = _redrive_state(victim), _redrive_state(clean)
    assert got[0] == want[0], "the warehouse differs from a clean run"
    assert got[1] == want[1], "the dead letters differ from a clean run"
    assert got[2] == want[2], "the events differ from a clean run"
    assert {r[1] for r in got[1]} == {"resolved", "open"}
    assert sum(r[1] == "resolved" for r in got[1]) == 2940
    assert all(r[6] is None and r[7] is None for r in got[1]), "a lease is left"
    assert Counter(e[0] for e in got[2] if e[1] == "resolved") == Counter(
        r[0] for r in got[1] if r[1] == "resolved"
    )


def test_edit_killed_mid_transaction(tmp_path: Path) -> None:
    ws_dir = tmp_path / "ws"
    src = tmp_path / "one.jsonl"
    src.write_text('{"broken\n')
    base = [sys.executable, "-m", "triage_app", "--workspace", str(ws_dir)]
    subprocess.run(
        [*base, "run", str(src), "--transform", "pesanan@1"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    edit = [*base, "edit", "1", "--payload", '{"fixed": true}']
    killed = subprocess.run(
        edit,
        env={**os.environ, "TRIAGE_CRASH_AT": "mid-edit"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL
    with open_workspace(ws_dir) as ws:
        d = get_dead_letter(ws, 1, reveal=True)
        assert d.payload == '{"broken' and [e.action for e in d.events] == ["quarantined"]
    assert subprocess.run(edit, capture_output=True, timeout=120).returncode == 0
    with open_workspace(ws_dir) as ws:
        d = get_dead_letter(ws, 1, reveal=True)
        assert d.payload == '{"fixed": true}'
        assert [e.action for e in d.events] == ["quarantined", "edited"]


def progress(store: Path) -> int:
    """Chunks committed and events recorded so far: grows with every commit of a batch or
    a re-drive."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=0.05) as conn:
            return sum(
                conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("batch_chunks", "audit_events")
            )
    except sqlite3.Error:
        return 0  # not created yet, or busy: ask again


def kill_mid_run(
    cmd: list[str], env: dict[str, str], rnd: random.Random, kills: int, store: Path
) -> int:
    """Start ``cmd`` and SIGKILL it a random moment after it committed something, ``kills``
    times; how many runs were really killed (a run may finish first). Waiting for progress
    rather than a clock keeps the kills mid-run however fast the engine or the machine."""
    killed = 0
    for _ in range(kills):
        before = progress(store)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while proc.poll() is None and progress(store) == before:
            time.sleep(0.002)
        time.sleep(rnd.uniform(0, 0.05))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.wait()
    return killed


@pytest.mark.slow
def test_random_kills_of_a_300k_batch_and_a_10k_redrive(tmp_path: Path) -> None:
    rnd = random.Random(20261130)
    big = gen_batch(tmp_path / "orders_300k.jsonl", 300_000, bad=0.002)
    nulls = tmp_path / "nulls_10k.jsonl"
    nulls.write_text(
        "".join(
            json.dumps(
                {
                    "pesanan_id": 500_000 + i,
                    "waktu": "w",
                    "pelanggan": "p",
                    "produk": "x",
                    "qty": 2,
                    "harga": 7,
                    "diskon": None,
                }
            )
            + "\n"
            for i in range(10_000)
        )
    )

    def steps(ws_dir: Path) -> list[list[str]]:
        base = [sys.executable, "-m", "triage_app", "--workspace", str(ws_dir)]
        return [
            [*base, "run", str(big), "--transform", "pesanan@2", "--chunk-size", "20000"],
            [*base, "run", str(nulls), "--transform", "pesanan@1"],
            # Only the code class: re-driving the data failures again would (rightly) count
            # one more attempt for every interrupted run.
            [*base, "redrive", "--class", "code", "--transform", "pesanan@2"],
        ]

    env = dict(os.environ)
    clean = tmp_path / "clean"
    for cmd in steps(clean):
        assert subprocess.run(cmd, env=env, capture_output=True, timeout=300).returncode == 0
    victim = tmp_path / "victim"
    killed = 0
    for i, cmd in enumerate(steps(victim)):
        if i != 1:  # the small batch of nulls runs clean; the big batch and re-drive are hit
            killed += kill_mid_run(cmd, env, rnd, kills=4, store=victim / "dead_letter.db")
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    assert killed >= 4, f"only {killed} runs were killed before they finished"

    def state(ws_dir: Path) -> tuple[str, list[tuple[int, str, str, int]]]:
        with open_workspace(ws_dir) as ws:
            dls = list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
            return (
                table_sha256(ws.warehouse, PESANAN),
                sorted((d.line, d.batch_id, d.status, d.attempts) for d in dls),
            )

    got, want = state(victim), state(clean)
    assert got[0] == want[0], "the warehouse differs from a clean run"
    assert [x for x in got[1] if x not in want[1]] == []
    assert got[1] == want[1]
    with open_workspace(victim) as ws:
        for b in {
            d.batch_id for d in list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
        }:
            assert reconcile(ws, b).ok


# -- fixes for many rows and their reverts, on both stores -----------------------------------
CHANGE_SET_POINTS = ["fix-before-apply:1", "mid-change-set:2", "mid-revert:2"]
CHANGE_SET_ROWS = 4_500  # three chunks of a change-set (2,000 rows each)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_args(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    """The CLI's options for a store: a workspace folder, or PostgreSQL schemas."""
    if request.param == "sqlite":
        return ["--workspace", str(tmp_path / "ws")]
    wh, dl = request.getfixturevalue("pg_urls")
    return ["--warehouse", wh, "--dead-letter", dl]


def _open(args: list[str]) -> Workspace:
    if args[0] == "--workspace":
        return open_workspace(args[1])
    return open_workspace(warehouse_url=args[1], dead_letter_url=args[3])


def _change_set_state(args: list[str]) -> tuple[dict[int, Any], Counter[str], list[Any]]:
    """Every dead letter's stored payload, kind, version and lease; the events by action
    and kind of edit; each change-set's rows and whether it is reverted."""
    with _open(args) as ws, ws.store.connect() as conn:
        rows = {
            r[0]: tuple(r[1:])
            for r in conn.execute(
                text(
                    "SELECT id, payload, payload_kind, version, claimed_by FROM dead_letters"
                    " ORDER BY id"
                )
            )
        }
        # As the trail tells them: stored, or expanded from the change-sets' lines.
        trail = whole_trail()
        events = Counter(
            f"{r[0]} {r[1].split(':')[0]}" if r[0] == "edited" else r[0]
            for r in conn.execute(select(trail.c.action, trail.c.detail))
        )
        sets = [
            tuple(r)
            for r in conn.execute(
                text("SELECT id, rows, reverted_at IS NOT NULL FROM change_sets ORDER BY id")
            )
        ]
    return rows, events, sets


@pytest.mark.slow
@pytest.mark.parametrize("point", CHANGE_SET_POINTS)
def test_fix_and_revert_killed_at_point_then_rerun(
    point: str, store_args: list[str], tmp_path: Path
) -> None:
    """kill -9 of ``fix`` (before it writes; mid change-set) and of ``revert`` (mid way),
    on SQLite and PostgreSQL: what the dead process committed is whole (a change-set lists
    exactly the rows it changed, each audited once), the same commands again finish the
    work, and reverting what was applied brings every payload back byte for byte, each
    row edited once by a fix and once by a revert, every change-set reverted."""
    src = tmp_path / "nulls.jsonl"
    record = {"waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1, "harga": 5, "diskon": None}
    src.write_text(
        "".join(json.dumps({"pesanan_id": i, **record}) + "\n" for i in range(CHANGE_SET_ROWS))
    )
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_CRASH_AT"}

    def cli(*args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "triage_app", *store_args, *args],
            env={**env, "TRIAGE_CRASH_AT": crash} if crash else env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    ran = cli("run", str(src), "--transform", "pesanan@1")
    assert ran.returncode == 0, ran.stderr
    before, _, _ = _change_set_state(store_args)
    fix = ("fix", "--status", "open", "--set", "kanal=toko")
    if point != "mid-revert:2":
        killed = cli(*fix, crash=point)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        rows, events, sets = _change_set_state(store_args)
        changed = {i for i, r in rows.items() if r[0] is not None}
        written = 0 if point.startswith("fix-before-apply") else 2_000
        assert len(changed) == events["edited change-set 1"] == written
        assert sets == ([(1, written, False)] if written else [])
        assert all(r[3] is None for r in rows.values()), "a lease is left"
    again = cli(*fix)
    assert again.returncode == 0, again.stderr
    _, events, sets = _change_set_state(store_args)
    assert sum(n for s, n, _ in sets) == CHANGE_SET_ROWS  # every row changed, once

    for cs, _, _ in reversed(sets):
        if point == "mid-revert:2":
            killed = cli("revert", str(cs), crash=point)
            assert killed.returncode == -signal.SIGKILL, killed.stderr
            _, events, _ = _change_set_state(store_args)
            assert events[f"edited revert of change-set {cs}"] == 2_000
        undone = cli("--json", "revert", str(cs))
        assert undone.returncode == 0, undone.stdout + undone.stderr
        report = json.loads(undone.stdout)
        assert report["moved_on"] == [] and report["reverted_at"] is not None
    rows, events, sets = _change_set_state(store_args)
    assert {i: r[0] for i, r in rows.items()} == {i: r[0] for i, r in before.items()}
    assert {i: r[1] for i, r in rows.items()} == {i: r[1] for i, r in before.items()}
    assert all(r[2] == 3 and r[3] is None for r in rows.values())  # a fix, a revert: once each
    fixed = sum(n for k, n in events.items() if k.startswith("edited change-set"))
    reverted = sum(n for k, n in events.items() if k.startswith("edited revert of"))
    assert fixed == reverted == CHANGE_SET_ROWS
    assert all(done for _, _, done in sets)
