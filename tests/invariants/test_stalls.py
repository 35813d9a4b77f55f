"""A re-drive that stalls (a process stopped, a laptop asleep) while another steward works
on the same rows, with real processes, on SQLite and PostgreSQL (issue 21):

- stalled past its lease between its warehouse commit and its settle, while the row is
  discarded or edited: the re-drive does not resolve the row, says what happened to it
  meanwhile (``lapsed``), and takes back what it loaded, so that the warehouse never keeps
  a discarded row nor a payload the dead letter no longer has;
- stalled past its lease with nobody touching the row: its own lease is not "taken";
- stopped (SIGSTOP) inside its settle transaction, holding the rows' locks: another
  steward's discard waits a bounded time, then says in one line who holds the rows and
  since when, and the re-drive, resumed, finishes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from tests.support import REPO
from tests.support.stewards import open_store
from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, DeadLetter, target_table
from triage_app.core.deadletters import get_dead_letter
from triage_app.core.transforms import default_registry

LEASE = "2"  # seconds: the stall below outlasts it
PESANAN = default_registry().get("pesanan@2")


def _store_args(spec: str) -> list[str]:
    if "," in spec:
        wh, dl = spec.split(",", 1)
        return ["--warehouse", wh, "--dead-letter", dl]
    return ["--workspace", spec]


@pytest.fixture(params=["sqlite", "postgresql"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "ws")
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield f"{wh},{dl}"


def _quarantine(spec: str, tmp_path: Path, rows: int = 3) -> list[int]:
    """Rows that fail pesanan@1 (a null diskon) and load with pesanan@2; their ids."""
    path = tmp_path / "orders.jsonl"
    with path.open("wb") as f:
        for i in range(rows):
            record = {
                "pesanan_id": 700 + i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": f"p{i}",
                "produk": "kopi",
                "qty": 1,
                "harga": 1000 + i,
                "diskon": None,
            }
            f.write(orjson.dumps(record) + b"\n")
    with open_store(spec) as ws:
        s = run_batch(ws, path, "pesanan@1")
        assert s.quarantined == rows
        with ws.store.connect() as conn:
            return sorted(conn.execute(select(DeadLetter.id)).scalars())


def _cli(spec: str, *args: str, env: dict[str, str] | None = None, timeout: float = 120):  # type: ignore[no-untyped-def]
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *_store_args(spec), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        cwd=REPO,
    )


def _paused_redrive(
    spec: str, ids: list[int], point: str, pause: Path, extra: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """A re-drive of ``ids`` through pesanan@2 in a process of its own, held at ``point``
    until ``pause`` exists."""
    env = {
        **os.environ,
        "TRIAGE_LEASE_SECONDS": LEASE,
        "TRIAGE_PAUSE_AT": point,
        "TRIAGE_PAUSE_FILE": str(pause),
        **(extra or {}),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "triage_app", *_store_args(spec), "--json", "redrive"]
        + [str(i) for i in ids]
        + ["--transform", "pesanan@2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    reached = Path(f"{pause}.reached")
    deadline = time.monotonic() + 90
    while not reached.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the re-drive never reached its pause"
        time.sleep(0.02)
    return proc


def _finish(proc: subprocess.Popen[str], pause: Path) -> dict:  # type: ignore[type-arg]
    pause.touch()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 1), err
    assert "Traceback" not in err
    return orjson.loads(out)


def _warehouse_row(spec: str, key: int) -> tuple | None:  # type: ignore[type-arg]
    table = target_table(PESANAN)
    with open_store(spec) as ws, ws.warehouse.connect() as conn:
        row = conn.execute(select(table).where(table.c.pesanan_id == key)).first()
    return None if row is None else tuple(row)


def _actions(spec: str, dl_id: int) -> list[str]:
    with open_store(spec) as ws, ws.store.connect() as conn:
        return list(
            conn.execute(
                select(AuditEvent.action)
                .where(AuditEvent.dead_letter_id == dl_id)
                .order_by(AuditEvent.id)
            ).scalars()
        )


@pytest.mark.slow
@pytest.mark.parametrize("meanwhile", ["discard", "edit"])
def test_a_redrive_stalled_past_its_lease_leaves_the_row_and_takes_its_load_back(
    spec: str, tmp_path: Path, meanwhile: str
) -> None:
    ids = _quarantine(spec, tmp_path)
    target = ids[0]
    key = 700
    pause = tmp_path / "go"
    proc = _paused_redrive(spec, [target], "redrive-after-warehouse", pause)
    # The warehouse has the row now; the store does not know yet. The lease runs out.
    assert _warehouse_row(spec, key) is not None
    time.sleep(float(LEASE) + 1)
    if meanwhile == "discard":
        done = _cli(spec, "discard", str(target), "--reason", "junk, says the vendor")
    else:
        with open_store(spec) as ws:
            d = get_dead_letter(ws, target, reveal=True)
        fixed = orjson.loads(d.payload_bytes)
        fixed.update(diskon=7, harga=4321)
        done = _cli(spec, "edit", str(target), "--payload", orjson.dumps(fixed).decode())
    assert done.returncode == 0, done.stderr
    summary = _finish(proc, pause)

    (result,) = summary["results"]
    assert result["outcome"] == "lapsed", result
    assert summary["lapsed"] == 1 and summary["succeeded"] == 0
    what = "discarded" if meanwhile == "discard" else "edited"
    assert f"({what} by " in result["error"]
    assert "taken back from the warehouse" in result["error"]
    assert "another re-drive" not in result["error"]
    with open_store(spec) as ws:
        d = get_dead_letter(ws, target, reveal=True)
    assert d.status == ("discarded" if meanwhile == "discard" else "open")
    assert "resolved" not in _actions(spec, target)
    # Nothing in the warehouse that no dead letter or batch line explains: the row was new
    # to the warehouse, so taking the load back leaves no row for its key.
    assert _warehouse_row(spec, key) is None
    # The other rows were never touched.
    assert _warehouse_row(spec, 701) is None

    # The edited row, re-driven now, loads with the steward's payload.
    if meanwhile == "edit":
        again = _cli(spec, "--json", "redrive", str(target), "--transform", "pesanan@2")
        assert again.returncode == 0, again.stderr
        row = _warehouse_row(spec, key)
        assert row is not None and row[PESANAN.column_names.index("harga")] == 4321


def test_a_load_that_replaced_a_row_is_taken_back_to_that_row(spec: str, tmp_path: Path) -> None:
    """A dead letter whose key the warehouse already had (an older line of another batch):
    taking the load back restores that row, not an empty key."""
    ids = _quarantine(spec, tmp_path)
    healthy = tmp_path / "healthy.jsonl"
    healthy.write_bytes(
        orjson.dumps(
            {
                "pesanan_id": 700,
                "waktu": "2026-01-11T08:00:00",
                "pelanggan": "earlier",
                "produk": "teh",
                "qty": 2,
                "harga": 500,
                "diskon": 0,
            }
        )
        + b"\n"
    )
    with open_store(spec) as ws:
        assert run_batch(ws, healthy, "pesanan@2").loaded == 1
    before = _warehouse_row(spec, 700)
    pause = tmp_path / "go"
    proc = _paused_redrive(spec, [ids[0]], "redrive-after-warehouse", pause)
    assert _warehouse_row(spec, 700) != before  # the re-drive's row (newer) replaced it
    time.sleep(float(LEASE) + 1)
    assert _cli(spec, "discard", str(ids[0]), "--reason", "junk").returncode == 0
    summary = _finish(proc, pause)
    assert summary["results"][0]["outcome"] == "lapsed"
    assert _warehouse_row(spec, 700) == before


def test_own_lease_that_ran_out_is_not_taken(spec: str, tmp_path: Path) -> None:
    """Stalled past its lease after the claim, with nobody touching the rows: the re-drive
    takes its own lease again and resolves them; nothing is reported taken."""
    ids = _quarantine(spec, tmp_path)
    pause = tmp_path / "go"
    proc = _paused_redrive(spec, ids, "redrive-after-claim", pause)
    time.sleep(float(LEASE) + 1)
    summary = _finish(proc, pause)
    assert summary["succeeded"] == len(ids), summary
    assert summary["taken"] == 0 and summary["lapsed"] == 0


def test_a_lapse_after_the_load_with_nobody_meanwhile_keeps_the_load(
    spec: str, tmp_path: Path
) -> None:
    """Stalled past its lease after the load, nobody touched the row: it is not resolved
    (the lease ran out), it says nothing changed, and the warehouse keeps what the row's
    payload loads; the next re-drive resolves it."""
    ids = _quarantine(spec, tmp_path)
    pause = tmp_path / "go"
    proc = _paused_redrive(spec, [ids[0]], "redrive-after-warehouse", pause)
    loaded = _warehouse_row(spec, 700)
    time.sleep(float(LEASE) + 1)
    summary = _finish(proc, pause)
    (result,) = summary["results"]
    assert result["outcome"] == "lapsed" and "nothing changed since" in result["error"]
    assert "taken" not in result["error"]
    assert _warehouse_row(spec, 700) == loaded
    again = _cli(spec, "--json", "redrive", str(ids[0]), "--transform", "pesanan@2")
    assert again.returncode == 0 and orjson.loads(again.stdout)["succeeded"] == 1


def test_a_redrive_stopped_in_its_settle_makes_others_wait_a_bounded_time(
    spec: str, tmp_path: Path
) -> None:
    ids = _quarantine(spec, tmp_path)
    pause = tmp_path / "go"
    proc = _paused_redrive(spec, ids, "redrive-mid-settle", pause)
    os.kill(proc.pid, signal.SIGSTOP)  # as a suspended laptop or a debugger would
    try:
        started = time.monotonic()
        waited = _cli(
            spec,
            "discard",
            str(ids[0]),
            "--reason",
            "junk",
            env={"TRIAGE_LOCK_WAIT_SECONDS": "2", "TRIAGE_BUSY_TIMEOUT_MS": "2000"},
            timeout=90,
        )
        took = time.monotonic() - started
    finally:
        os.kill(proc.pid, signal.SIGCONT)
    assert waited.returncode != 0
    lines = waited.stderr.strip().splitlines()
    assert len(lines) == 1, waited.stderr
    line = lines[0]
    assert "Traceback" not in waited.stderr
    assert "locked by" in line and f"pid {proc.pid}" in line, line
    assert "since" in line and "waited 2 s" in line, line
    assert took < 30, took  # bounded: two seconds of waiting plus a process's start
    summary = _finish(proc, pause)
    assert summary["succeeded"] == len(ids)  # resumed, the re-drive finishes
    with open_store(spec) as ws:
        assert get_dead_letter(ws, ids[0], reveal=True).status == "resolved"
