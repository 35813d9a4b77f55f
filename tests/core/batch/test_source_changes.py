"""Invariant 8, the input is what was read, proven with real processes: a source truncated,
extended or rewritten while ``triage-app run`` reads it fails the batch in one line (exit 2),
the batch is never recorded complete, what it committed reconciles, and the intact file then
resumes it and loads it in full, exactly as a clean run would. One lane and two, SQLite and
PostgreSQL. Also standard input (``-``), a named pipe refused at once, and a file whose format
the transform does not read, refused before anything is written.

The file is changed at a known moment: ``TRIAGE_PAUSE_AT=after-chunk-commit:1`` holds the run
after its first committed chunk until the test has changed the file."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zstandard
from sqlalchemy import select, text

from tests.support import gen_batch
from triage_app.core.batch import list_batches
from triage_app.core.db import DeadLetter, Workspace, open_workspace, table_sha256
from triage_app.core.transforms import default_registry
from triage_app.core.verify import reconcile

PESANAN_2 = default_registry().get("pesanan@2")
CHUNK = "2000"
ROWS = 20_000  # about 2.8 MB: past the 1 MiB a reader holds, ten chunks of 2,000 lines


@pytest.fixture(scope="module")
def intact(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = gen_batch(tmp_path_factory.mktemp("src") / "orders.jsonl", ROWS, bad=0.02)
    return path.read_bytes()


@pytest.fixture(scope="module")
def clean(intact: bytes, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What a clean run of the intact file leaves: the oracle for every resumed one."""
    tmp = tmp_path_factory.mktemp("clean")
    src = tmp / "orders.jsonl"
    src.write_bytes(intact)
    ran = run_cli(["--workspace", str(tmp / "ws")], src, {"TRIAGE_LANES": "1"})
    assert ran.returncode == 0, ran.stderr
    with open_workspace(tmp / "ws") as ws:
        return outcome(ws)


def run_cli(
    where: list[str], src: Path | str, env: dict[str, str], *extra: str, **kw: Any
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "triage_app",
            *where,
            "run",
            str(src),
            "--transform",
            "pesanan@2",
            "--chunk-size",
            CHUNK,
            *extra,
        ],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=180,
        **kw,
    )


def outcome(ws: Workspace) -> dict[str, Any]:
    (b,) = list_batches(ws)
    with ws.store.connect() as conn:
        dls = conn.execute(
            select(DeadLetter.line, DeadLetter.original_payload).order_by(DeadLetter.line)
        ).all()
    return {
        "batch": (b.batch_id, b.state, b.rows, b.loaded, b.superseded, b.quarantined),
        "warehouse": table_sha256(ws.warehouse, PESANAN_2),
        "dead_letters": [tuple(d) for d in dls],
    }


def run_paused(
    where: list[str],
    src: Path,
    lanes: str,
    change: Callable[[], None],
    tmp: Path,
    at: str = "after-chunk-commit:1",
) -> subprocess.CompletedProcess[str]:
    """Run the batch, held at pause point ``at`` while ``change`` runs."""
    release = tmp / "release"
    env = {
        **os.environ,
        "TRIAGE_LANES": lanes,
        "TRIAGE_PAUSE_AT": at,
        "TRIAGE_PAUSE_FILE": str(release),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "triage_app",
            *where,
            "run",
            str(src),
            "--transform",
            "pesanan@2",
            "--chunk-size",
            CHUNK,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not Path(f"{release}.reached").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the run never reached its pause"
            time.sleep(0.01)
        change()
        release.touch()
        out, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def truncate(src: Path) -> None:
    with src.open("r+b") as f:
        f.truncate(src.stat().st_size // 3)


def append(src: Path) -> None:
    with src.open("ab") as f:
        f.write(src.read_bytes()[:100_000])


def rewrite(src: Path) -> None:
    """Same size, other bytes, well past what the first chunk read."""
    data = bytearray(src.read_bytes())
    at = len(data) * 3 // 4
    data[at : at + 8] = b"XXXXXXXX"
    with src.open("r+b") as f:
        f.write(data)


CHANGES = {"truncated": truncate, "appended": append, "rewritten": rewrite}


def check_changed_then_resumed(
    where: list[str],
    ws: Callable[[], Workspace],
    src: Path,
    intact: bytes,
    clean: dict[str, Any],
    lanes: str,
    change: str,
    tmp: Path,
) -> None:
    src.write_bytes(intact)
    failed = run_paused(where, src, lanes, lambda: CHANGES[change](src), tmp)
    assert failed.returncode == 2, (failed.stdout, failed.stderr)
    assert failed.stderr.count("\n") == 1 and failed.stderr.startswith("triage-app: ")
    assert "orders.jsonl changed while it was read" in failed.stderr
    assert "Traceback" not in failed.stderr
    with ws() as w:
        (b,) = list_batches(w)
        assert b.state == "running"  # never complete
        r = reconcile(w, b.batch_id)
        # What was committed is consistent, and it is not all of the file.
        assert r.ok and not r.complete, r.to_json()
        assert 0 < r.rows < clean["batch"][2]
    src.write_bytes(intact)
    again = run_cli(where, src, {"TRIAGE_LANES": lanes})
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resumed batch")
    with ws() as w:
        got = outcome(w)
        r = reconcile(w, got["batch"][0])
        assert r.ok and r.complete, r.to_json()
    assert got == clean  # loaded in full: as a clean run of the intact file


@pytest.mark.parametrize("lanes", ["1", "2"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_source_changed_mid_run_fails_then_the_intact_file_completes_it(
    change: str, lanes: str, intact: bytes, clean: dict[str, Any], tmp_path: Path
) -> None:
    ws_dir = tmp_path / "ws"
    check_changed_then_resumed(
        ["--workspace", str(ws_dir)],
        lambda: open_workspace(ws_dir),
        tmp_path / "orders.jsonl",
        intact,
        clean,
        lanes,
        change,
        tmp_path,
    )


@pytest.mark.slow
def test_on_postgresql_too(
    pg_urls: tuple[str, str], intact: bytes, clean: dict[str, Any], tmp_path: Path
) -> None:
    wh, dl = pg_urls
    check_changed_then_resumed(
        ["--warehouse", wh, "--dead-letter", dl],
        lambda: open_workspace(None, warehouse_url=wh, dead_letter_url=dl),
        tmp_path / "orders.jsonl",
        intact,
        clean,
        "2",
        "truncated",
        tmp_path,
    )


def test_a_change_after_the_last_chunk_still_fails_the_batch(intact: bytes, tmp_path: Path) -> None:
    """Appended once every line was read and committed: the end check sees it."""
    src = tmp_path / "orders.jsonl"
    src.write_bytes(intact)
    ws_dir = tmp_path / "ws"
    last = -(-len(intact.splitlines()) // int(CHUNK))  # the last chunk's commit
    failed = run_paused(
        ["--workspace", str(ws_dir)],
        src,
        "1",
        lambda: append(src),
        tmp_path,
        f"after-chunk-commit:{last}",
    )
    assert failed.returncode == 2 and "changed while it was read" in failed.stderr
    with open_workspace(ws_dir) as ws:
        (b,) = list_batches(ws)
        assert b.state == "running"
        r = reconcile(ws, b.batch_id)
        assert r.ok and not r.complete and r.lines_done == len(intact.splitlines())


# Standard input


def test_standard_input_is_read_hashed_and_spooled(
    intact: bytes, clean: dict[str, Any], tmp_path: Path
) -> None:
    ws_dir = tmp_path / "ws"
    for lanes in ("1", "2"):
        ran = run_cli(
            ["--workspace", str(ws_dir)],
            "-",
            {"TRIAGE_LANES": lanes},
            "--format",
            "jsonl",
            input=intact.decode(),
        )
        assert ran.returncode == 0, ran.stderr
        if lanes == "1":
            assert ran.stdout.startswith("Batch ")
            with open_workspace(ws_dir) as ws:
                got = outcome(ws)
                (b,) = list_batches(ws)
            # The same bytes are the same batch, whatever they came through.
            assert got == clean and b.source_name == "<stdin>"
        else:
            assert "already loaded" in ran.stdout  # the same bytes again: the same batch
    # No spool left behind; the source kept (issue 25): the bytes that came in, once.
    assert sorted(p.name for p in ws_dir.iterdir()) == [
        "dead_letter.db",
        "sources",
        "warehouse.db",
    ]
    (kept,) = [p for p in (ws_dir / "sources").rglob("*") if p.is_file()]
    assert kept.name.endswith(".jsonl.zst")
    assert zstandard.ZstdDecompressor().decompressobj().decompress(kept.read_bytes()) == intact


def test_standard_input_needs_a_format(tmp_path: Path) -> None:
    ran = run_cli(["--workspace", str(tmp_path / "ws")], "-", {}, input="{}\n")
    assert ran.returncode == 2
    assert ran.stderr == (
        "triage-app: cannot tell the format of standard input: pass --format jsonl or csv\n"
    )
    assert not (tmp_path / "ws").exists()  # refused before any workspace was made


def test_a_terminal_as_standard_input_is_refused_not_waited_on(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    try:
        ran = run_cli(
            ["--workspace", str(tmp_path / "ws")], "-", {}, "--format", "jsonl", stdin=follower
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert ran.returncode == 2
    assert ran.stderr.startswith("triage-app: standard input is a terminal")
    assert ran.stderr.count("\n") == 1
    assert not (tmp_path / "ws").exists()


# Pipes


def test_a_named_pipe_is_refused_at_once_pointing_to_standard_input(tmp_path: Path) -> None:
    fifo = tmp_path / "orders.jsonl"
    os.mkfifo(fifo)
    started = time.monotonic()
    ran = run_cli(["--workspace", str(tmp_path / "ws")], fifo, {})
    assert time.monotonic() - started < 30  # no writer ever comes: it must not wait
    assert ran.returncode == 2
    assert ran.stderr.count("\n") == 1
    assert ran.stderr.startswith(f"triage-app: {fifo} is a pipe, not a file")
    assert "pass - as the file" in ran.stderr
    assert not (tmp_path / "ws").exists()  # no workspace, so no phantom running batch


def test_dev_stdin_as_a_pipe_is_refused_the_same_way(intact: bytes, tmp_path: Path) -> None:
    ran = run_cli(
        ["--workspace", str(tmp_path / "ws")], "/dev/stdin", {}, "--format", "jsonl", input="{}\n"
    )
    assert ran.returncode == 2
    assert "is a pipe, not a file" in ran.stderr and "pass - as the file" in ran.stderr
    assert not (tmp_path / "ws").exists()


# Formats


def test_a_format_the_transform_does_not_read_is_refused_before_anything_is_written(
    intact: bytes, tmp_path: Path
) -> None:
    src = tmp_path / "orders.jsonl"
    src.write_bytes(intact)
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "triage_app",
            "--workspace",
            str(tmp_path / "ws"),
            "run",
            str(src),
            "--transform",
            "orders@1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 2
    assert ran.stderr == (
        "triage-app: orders@1 reads csv and the file is jsonl: "
        "use jurnal@1 or pesanan@1 or pesanan@2 "
        "(or give the right format, if the file's name misleads)\n"
    )
    assert not (tmp_path / "ws").exists()  # not one row quarantined: nothing written


def test_the_engine_refuses_it_too(workspace: Workspace, tmp_path: Path, intact: bytes) -> None:
    from triage_app.core.batch import run_batch
    from triage_app.core.errors import TriageError

    src = tmp_path / "orders.jsonl"
    src.write_bytes(intact[:10_000])
    with pytest.raises(TriageError, match="orders@1 reads csv and the file is jsonl"):
        run_batch(workspace, src, "orders@1")
    assert list_batches(workspace) == []
    with workspace.store.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM dead_letters")).scalar() == 0
