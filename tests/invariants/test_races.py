"""Races that ended in a raw database error (issue 21), run by real processes that start
their racing part together (``tests/support/racers.py``), on SQLite and PostgreSQL. Each
race must end in a retry that succeeds or a guarded refusal in one line:

- several stewards set a new error group's owner at once: all succeed, one after another;
  with ``--if-version``, one succeeds and the others are refused naming who and when;
- two files into a fresh warehouse at once: both load (the table is created once, under
  a lock);
- two runs of one file at once: one loads it, the other says who is loading it (pid,
  host, since when) and exits 2; the batch ends as one clean run would, and a batch whose
  loader was killed still resumes;
- a write in a read-only workspace names the folder that is read-only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from tests.support import REPO, SEED_BATCH
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, Workspace, open_workspace
from triage_app.core.verify import reconcile
from triage_app.core.vocabulary import AuditAction

QTY = "DataError: kolom wajib hilang: qty"
ROUNDS = 2
GROUP_ROUNDS = 1  # eight processes, twice, per round: it failed in every round before


@dataclass
class Store:
    """Where the racers work: CLI options, and how the test opens it itself."""

    args: list[str]
    spec: str

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


@dataclass
class Ended:
    code: int
    out: str
    err: str


def race(tmp: Path, *argvs: list[str], env: dict[str, str] | None = None) -> list[Ended]:
    """Start one process per argument list, let them all import, then start them at once;
    how each ended."""
    go = tmp / f"go-{uuid.uuid4().hex}"
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.racers", str(go), *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env={**os.environ, **(env or {})},
        )
        for argv in argvs
    ]
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp.glob(go.name + ".ready.*"))) < len(procs):
            assert time.monotonic() < deadline, "the racers never got ready"
            assert all(p.poll() is None for p in procs), "a racer died before the start"
            time.sleep(0.01)
        go.touch()
        ended = []
        for p in procs:
            out, err = p.communicate(timeout=300)
            ended.append(Ended(p.returncode, out.decode(), err.decode()))
        return ended
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def one_line(e: Ended) -> str:
    """A refusal: exit 2 and one line on stderr, no traceback."""
    assert e.code == 2, (e.code, e.err)
    lines = e.err.strip().splitlines()
    assert len(lines) == 1, e.err
    assert "Traceback" not in e.err and "database error" not in e.err, e.err
    return lines[0]


# -- one new error group, many owners at once ------------------------------------------------


@pytest.mark.slow
def test_many_stewards_set_a_new_groups_owner_at_once(store: Store, tmp_path: Path) -> None:
    with store.open() as ws:
        run_batch(ws, SEED_BATCH, "pesanan@1")
    version = 0
    for round_ in range(GROUP_ROUNDS):
        # Free for all: every change applies, one after the other.
        ended = race(
            tmp_path,
            *([*store.args, "group", QTY, "--owner", f"s{round_}_{i}"] for i in range(8)),
        )
        assert [e.code for e in ended] == [0] * 8, [e.err for e in ended if e.code]
        version += 8
        with store.open() as ws:
            (g,) = dls.error_groups(ws, signature=QTY)
            assert g.version == version
            assert g.owner in {f"s{round_}_{i}" for i in range(8)}
        # Guarded by the version each saw: one wins, the rest are told who and when.
        ended = race(
            tmp_path,
            *(
                [*store.args, "group", QTY, "--tag", f"t{round_}_{i}", "--if-version", str(version)]
                for i in range(8)
            ),
        )
        won = [e for e in ended if e.code == 0]
        assert len(won) == 1, [e.err for e in ended]
        for e in ended:
            if e.code:
                line = one_line(e)
                assert f"changed since version {version} (by " in line, line
                assert f"it is now version {version + 1}" in line, line
        version += 1
    with store.open() as ws, ws.store.connect() as conn:
        events = conn.execute(
            select(AuditEvent.detail).where(AuditEvent.action == AuditAction.GROUP.value)
        ).scalars()
        assert len(list(events)) == version  # one audited change per version, no more


# -- two files into a fresh warehouse at once ------------------------------------------------


def _orders(path: Path, first: int, rows: int, *, bad_every: int = 0) -> Path:
    """A JSONL batch of ``rows`` orders with ids from ``first``; every ``bad_every``-th
    lacks its quantity (a dead letter)."""
    with path.open("wb") as f:
        for i in range(rows):
            record = {
                "pesanan_id": first + i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": f"p{i}",
                "produk": "kopi",
                "qty": 1 + i % 3,
                "harga": 1000 + i,
                "diskon": 0,
            }
            if bad_every and i % bad_every == 0:
                del record["qty"]
            f.write(orjson.dumps(record) + b"\n")
    return path


def test_files_into_a_fresh_warehouse_at_once(store: Store, tmp_path: Path) -> None:
    for round_ in range(ROUNDS):
        if round_:  # a fresh warehouse again: the race is over its first table
            with store.open() as ws, ws.warehouse.begin() as conn:
                conn.exec_driver_sql("DROP TABLE pesanan")
        files = [
            _orders(tmp_path / f"r{round_}_{k}.jsonl", (round_ * 10 + k) * 1000, 200)
            for k in range(3)
        ]
        ended = race(
            tmp_path,
            *([*store.args, "run", str(f), "--transform", "pesanan@1", "--json"] for f in files),
        )
        assert [e.code for e in ended] == [0, 0, 0], [e.err for e in ended]
        assert [orjson.loads(e.out)["loaded"] for e in ended] == [200, 200, 200]
        with store.open() as ws, ws.warehouse.connect() as conn:
            n = conn.exec_driver_sql("SELECT count(*) FROM pesanan").scalar_one()
            assert n == 600


@pytest.mark.slow
def test_files_into_a_warehouse_from_before_the_version_at_once(
    store: Store, tmp_path: Path
) -> None:
    """Issue 25's lineage: three processes write into a table from before ``_transform``
    at once; one of them adds and fills the column, the others find it there, and every
    row ends with the version that wrote it."""
    first = _orders(tmp_path / "old.jsonl", 90_000, 200)
    with store.open() as ws:
        run_batch(ws, first, "pesanan@1")
        with ws.warehouse.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE pesanan DROP COLUMN _transform")
    files = [_orders(tmp_path / f"new_{k}.jsonl", k * 1000, 200) for k in range(3)]
    ended = race(
        tmp_path,
        *([*store.args, "run", str(f), "--transform", "pesanan@2", "--json"] for f in files),
    )
    assert [e.code for e in ended] == [0, 0, 0], [e.err for e in ended]
    with store.open() as ws, ws.warehouse.connect() as conn:
        rows = conn.exec_driver_sql(
            "SELECT pesanan_id >= 90000, _transform, count(*) FROM pesanan GROUP BY 1, 2"
        ).all()
    assert sorted((bool(old), v, n) for old, v, n in rows) == [
        (False, "pesanan@2", 600),
        (True, "pesanan@1", 200),
    ]


# -- two runs of one file at once ------------------------------------------------------------

BUSY = "this file is being loaded by another process"


def _wait_for(path: Path, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[1].decode()
        assert time.monotonic() < deadline, "the run never reached its pause"
        time.sleep(0.01)


@pytest.mark.parametrize("lanes", ["1", "2"])
def test_two_runs_of_one_file_at_once(store: Store, tmp_path: Path, lanes: str) -> None:
    """A run held after its first chunk: a second run of the file is refused in one line
    naming it; the first killed (with its lane), two more runs race to resume it: one does
    and completes the batch as one clean run would, the other is refused or finds it
    loaded. Never a raw database error."""
    src = _orders(tmp_path / "same.jsonl", 0, 6000, bad_every=7)
    env = {**os.environ, "TRIAGE_LANES": lanes}
    run = [*store.args, "run", str(src), "--transform", "pesanan@1", "--chunk-size", "500"]
    gate = tmp_path / "gate"
    first = subprocess.Popen(
        [sys.executable, "-m", "triage_app", *run],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env={**env, "TRIAGE_PAUSE_AT": "after-chunk-commit", "TRIAGE_PAUSE_FILE": str(gate)},
        start_new_session=True,  # its own group: killed below with its second lane
    )
    try:
        _wait_for(Path(f"{gate}.reached"), first)
        second = subprocess.run(
            [sys.executable, "-m", "triage_app", *run],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=env,
            timeout=120,
        )
        line = one_line(Ended(second.returncode, second.stdout, second.stderr))
        assert line.startswith(f"triage-app: {BUSY} (pid {first.pid} on "), line
        assert " since 20" in line and line.endswith("; run the same command again when it ends"), (
            line
        )
    finally:
        os.killpg(first.pid, 9)  # the holder dies: nothing of its lock may outlive it
        first.communicate()
    ended = race(tmp_path, [*run, "--json"], [*run, "--json"], env={"TRIAGE_LANES": lanes})
    done = [orjson.loads(e.out) for e in ended if e.code == 0]
    for e in ended:
        if e.code:
            assert one_line(e).startswith(f"triage-app: {BUSY} (pid "), e.err
    assert [d["already_loaded"] for d in done] in ([False], [False, True], [True, False])
    # Resumed after the chunk the killed run committed (from line 0 its ledger rows would
    # have collided), and ended where one clean run ends.
    resumed = next(d for d in done if not d["already_loaded"])
    assert (resumed["rows"], resumed["quarantined"]) == (6000, 858)
    assert resumed["loaded"] + resumed["superseded"] == 6000 - 858
    with store.open() as ws:
        assert reconcile(ws, resumed["batch_id"]).ok
    if store.spec.count(",") == 0:  # SQLite: its lock file goes with the run that held it
        assert not list(Path(store.spec).glob("*.lock"))
