"""Transient faults: a locked SQLite database, a PostgreSQL connection killed mid-run, a
full disk. Each is retried with backoff and then completes, or stops cleanly and resumes;
nothing is quarantined for a transient cause."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.support import cli, gen_batch
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace, table_sha256
from triage_app.core.deadletters import DeadLetterFilter, list_dead_letters
from triage_app.core.transforms.pesanan import TRANSFORMS

PESANAN = TRANSFORMS[1]


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return gen_batch(tmp_path_factory.mktemp("faults") / "orders.jsonl", 30_000, bad=0.01)


@pytest.fixture(scope="module")
def clean(src: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[int]]:
    with open_workspace(tmp_path_factory.mktemp("clean")) as ws:
        run_batch(ws, src, "pesanan@2")
        return table_sha256(ws.warehouse, PESANAN), dead_lines(ws)


def dead_lines(ws) -> list[int]:  # type: ignore[no-untyped-def]
    dls = list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
    assert all(d.error_class != "transient" for d in dls)
    return sorted(d.line for d in dls)


def test_sqlite_locked_by_another_process(
    src: Path, clean: tuple[str, list[int]], tmp_path: Path
) -> None:
    ws_dir = tmp_path / "ws"
    with open_workspace(ws_dir) as ws:  # the table exists; now another process locks it
        run_batch(ws, _tiny(tmp_path), "pesanan@2")
    locker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"c = sqlite3.connect({str(ws_dir / 'warehouse.db')!r}, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(1.2)\n"
            "c.execute('ROLLBACK')\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
    started = time.monotonic()
    # Five tries of 400 ms each outlast the 1.2 s lock whatever the jitter draws and however
    # fast the command starts; 150 ms tries (0.75 s plus jitter) lost the race once start-up
    # got quicker.
    env = {**os.environ, "TRIAGE_BUSY_TIMEOUT_MS": "400", "TRIAGE_LANES": "1"}
    out = cli(
        "--workspace",
        str(ws_dir),
        "run",
        str(src),
        "--transform",
        "pesanan@2",
        env=env,
        timeout=120,
    )
    locker.wait()
    assert out.returncode == 0, out.stderr
    assert time.monotonic() - started > 1.0  # it really waited for the lock
    with open_workspace(ws_dir) as ws:
        got = table_sha256(ws.warehouse, PESANAN)
        lines = dead_lines(ws)
    # The tiny batch wrote order 1 first; the big one replaced it (the later version wins).
    assert got == clean[0]
    assert lines == clean[1]


def _tiny(tmp_path: Path) -> Path:
    p = tmp_path / "tiny.jsonl"
    p.write_text(
        '{"pesanan_id": 1, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1,'
        ' "harga": 1, "diskon": 0}\n'
    )
    return p


@pytest.mark.postgres
def test_postgres_connection_killed_mid_run(
    pg_urls: tuple[str, str], src: Path, clean: tuple[str, list[int]]
) -> None:
    import psycopg

    tag = f"triage-victim-{uuid.uuid4().hex[:8]}"
    wh, dl = (
        make_url(u)
        .update_query_dict({"application_name": tag})
        .render_as_string(hide_password=False)
        for u in pg_urls
    )
    base = make_url(pg_urls[0])
    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:
        with psycopg.connect(
            host=base.host,
            port=base.port or 5432,
            user=base.username,
            dbname=base.database,
            autocommit=True,
        ) as admin:
            while not stop.is_set() and len(killed) < 4:
                time.sleep(0.15)
                rows = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s AND pid <> pg_backend_pid()",
                    (tag,),
                ).fetchall()
                killed.extend(1 for r in rows if r[0])

    t = threading.Thread(target=killer)
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        t.start()
        try:
            s = run_batch(ws, src, "pesanan@2", chunk_size=1000, lanes=1)
        finally:
            stop.set()
            t.join()
        assert killed, "no connection was killed: the run was too quick to hit"
        assert s.rows == s.loaded + s.superseded + s.quarantined
        assert table_sha256(ws.warehouse, PESANAN) == clean[0]
        assert dead_lines(ws) == clean[1]


def _mount_tmpfs(where: Path, size: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    return done.returncode == 0


def test_disk_full_stops_cleanly_then_resumes(
    src: Path, clean: tuple[str, list[int]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = tmp_path / "small-disk"
    if _mount_tmpfs(disk, "1500k"):
        try:
            env = {**os.environ, "TRIAGE_LANES": "1"}
            args = (
                "--workspace",
                str(disk / "ws"),
                "run",
                str(src),
                "--transform",
                "pesanan@2",
                "--chunk-size",
                "2000",
            )
            full = cli(*args, env=env, timeout=120)
            assert full.returncode == 2, full.stderr
            assert full.stderr.count("\n") == 1 and "resume" in full.stderr
            with sqlite3.connect(disk / "ws" / "dead_letter.db") as c:
                done = c.execute("SELECT lines_done FROM batches").fetchone()[0]
            assert 0 <= done < 30_000
            subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
            again = cli(*args, env=env, timeout=120)
            assert again.returncode == 0, again.stderr
            assert "Resumed batch" in again.stdout
            with open_workspace(disk / "ws") as ws:
                assert table_sha256(ws.warehouse, PESANAN) == clean[0]
                assert dead_lines(ws) == clean[1]
        finally:
            subprocess.run(["umount", "-l", str(disk)], check=False)
        return
    # No file system of our own here: the same path with a simulated full disk.
    import triage_app.core.db.warehouse as upsert

    real = upsert.upsert_rows
    fails = {"left": 3}

    def full_disk(*a, **k):  # type: ignore[no-untyped-def]
        if fails["left"]:
            fails["left"] -= 1
            raise sqlite3.OperationalError("database or disk is full")
        return real(*a, **k)

    monkeypatch.setattr("triage_app.core.db.warehouse.upsert_rows", full_disk)
    with open_workspace(tmp_path / "ws") as ws:
        run_batch(ws, src, "pesanan@2", lanes=1, sleep=lambda _d: None)
        assert table_sha256(ws.warehouse, PESANAN) == clean[0]
        assert dead_lines(ws) == clean[1]
