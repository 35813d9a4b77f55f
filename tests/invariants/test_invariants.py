"""The invariants of docs/design.md, each proven by a test that could fail."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.support import REPO, gen_batch
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, open_workspace, table_sha256
from triage_app.core.deadletters import (
    DeadLetterFilter,
    apply_change,
    discard,
    edit_payload,
    get_dead_letter,
    list_dead_letters,
    park,
    reclassify_as,
    redrive,
)
from triage_app.core.transforms.pesanan import TRANSFORMS
from triage_app.core.vocabulary import ErrorClass

PESANAN = TRANSFORMS[1]


def dead_letter_lines(ws: Workspace) -> dict[int, str]:
    return {
        d.line: d.error for d in list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
    }


def warehouse_lines(ws: Workspace) -> set[int]:
    with ws.warehouse.connect() as conn:
        return set(conn.execute(text("SELECT _line FROM pesanan")).scalars())


@pytest.fixture(scope="module")
def batch_20k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return gen_batch(tmp_path_factory.mktemp("b") / "orders_20k.jsonl", 20_000, bad=0.05)


@pytest.mark.parametrize("lanes", ["1", "2"])
@pytest.mark.parametrize("chunk", [7, 1_000, 50_000])
def test_nothing_lost_nothing_doubled(
    tmp_path: Path, batch_20k: Path, lanes: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Invariant 1, whatever the chunk size and the number of lanes."""
    monkeypatch.setenv("TRIAGE_LANES", lanes)
    ws = open_workspace(tmp_path / "ws")
    s = run_batch(ws, batch_20k, "pesanan@2", chunk_size=chunk)
    n_lines = sum(1 for line in batch_20k.read_bytes().splitlines() if line.strip())
    assert s.rows == n_lines
    assert s.rows == s.loaded + s.superseded + s.quarantined
    dl = dead_letter_lines(ws)
    wh = warehouse_lines(ws)
    assert len(dl) == s.quarantined > 0
    assert s.superseded > 0  # the generator re-sends duplicates
    assert not (set(dl) & wh), "a line is both loaded and quarantined"
    with ws.warehouse.connect() as conn:
        stored = conn.execute(text("SELECT count(*) FROM pesanan")).scalar_one()
    assert stored == len(wh) <= s.loaded
    ws.close()


def test_same_result_whatever_the_lanes_and_chunk(
    tmp_path: Path, batch_20k: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = set()
    for lanes, chunk in (("1", 50_000), ("2", 333), ("1", 7), ("2", 1_000)):
        monkeypatch.setenv("TRIAGE_LANES", lanes)
        ws = open_workspace(tmp_path / f"l{lanes}c{chunk}")
        run_batch(ws, batch_20k, "pesanan@2", chunk_size=chunk)
        results.add(
            (table_sha256(ws.warehouse, PESANAN), tuple(sorted(dead_letter_lines(ws).items())))
        )
        ws.close()
    assert len(results) == 1


def test_idempotent_rerun_and_redrive(workspace: Workspace, batch_20k: Path) -> None:
    """Invariant 2: the same file again changes nothing; re-driving a resolved row again
    changes nothing."""
    first = run_batch(workspace, batch_20k, "pesanan@1")
    h1 = table_sha256(workspace.warehouse, PESANAN)
    n_dl = len(dead_letter_lines(workspace))
    again = run_batch(workspace, batch_20k, "pesanan@1")
    assert again.already_loaded and again.batch_id == first.batch_id
    assert (again.rows, again.loaded, again.quarantined) == (
        first.rows,
        first.loaded,
        first.quarantined,
    )
    assert table_sha256(workspace.warehouse, PESANAN) == h1
    assert len(dead_letter_lines(workspace)) == n_dl

    code = list_dead_letters(workspace, DeadLetterFilter(error_class="code"), limit=None)
    assert code, "v1 must fail the null discounts as code"
    ids = [d.id for d in code]
    r1 = redrive(workspace, "pesanan@2", ids=ids)
    assert r1.succeeded == len(ids)
    h2 = table_sha256(workspace.warehouse, PESANAN)
    events = [len(get_dead_letter(workspace, i, reveal=True).events) for i in ids]
    r2 = redrive(workspace, "pesanan@2", ids=ids)
    assert {r.outcome for r in r2.results} == {"skipped"} and r2.attempted == 0
    assert table_sha256(workspace.warehouse, PESANAN) == h2
    assert [len(get_dead_letter(workspace, i, reveal=True).events) for i in ids] == events


def test_a_different_transform_is_a_different_batch(workspace: Workspace, seed_batch: Path) -> None:
    a = run_batch(workspace, seed_batch, "pesanan@1")
    b = run_batch(workspace, seed_batch, "pesanan@2")
    assert a.batch_id != b.batch_id and not b.already_loaded
    assert b.quarantined == 3  # v2 loads the null discount


def test_crash_safe_kill_9_then_resume(tmp_path: Path) -> None:
    """Invariant 4: SIGKILL in the middle, the same command again, the clean result."""
    src = gen_batch(tmp_path / "orders_60k.jsonl", 60_000, bad=0.02)
    clean = open_workspace(tmp_path / "clean")
    run_batch(clean, src, "pesanan@2")
    want = (table_sha256(clean.warehouse, PESANAN), sorted(dead_letter_lines(clean).items()))
    clean.close()

    ws_dir = tmp_path / "killed"
    cmd = [
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
        "2000",
    ]
    env = {**os.environ, "TRIAGE_LANES": "2"}
    kills = 0
    for _ in range(3):
        # Nothing reads its output: a pipe nobody closes is a ResourceWarning (and could fill).
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        store = ws_dir / "dead_letter.db"
        # Kill once some chunks are committed, at a moment the run chose, not the test.
        while time.monotonic() < deadline and proc.poll() is None:
            if store.exists():
                try:
                    with sqlite3.connect(store, timeout=1) as c:
                        done = c.execute("SELECT max(lines_done) FROM batches").fetchone()[0]
                except sqlite3.Error:
                    done = None
                if done and done >= 2000 * (kills + 2):
                    break
            time.sleep(0.005)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
    assert kills >= 1, "the run finished before it could be killed; make the batch larger"
    for db in ("warehouse.db", "dead_letter.db"):
        with sqlite3.connect(ws_dir / db) as c:
            assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Resumed batch" in done.stdout
    ws = open_workspace(ws_dir)
    got = (table_sha256(ws.warehouse, PESANAN), sorted(dead_letter_lines(ws).items()))
    summary = run_batch(ws, src, "pesanan@2")
    ws.close()
    assert got == want
    assert summary.already_loaded
    assert summary.rows == summary.loaded + summary.superseded + summary.quarantined


def test_evidence_kept_byte_exact(workspace: Workspace, tmp_path: Path) -> None:
    """Invariant 5: raw bytes survive (invalid UTF-8, NUL); edits keep the original; every
    change is an audit event."""
    bad_utf8 = b'{"pesanan_id": 1, "pelanggan": "\xff\xfe caf\xc3"}'
    nul = b'{"pesanan_id": 2,\x00 "qty": 1}'
    crlf = b'{"pesanan_id": 3, "qty": 0}'
    src = tmp_path / "evil.jsonl"
    src.write_bytes(bad_utf8 + b"\n" + nul + b"\n\n" + crlf + b"\r\n")
    s = run_batch(workspace, src, "pesanan@2")
    assert (s.rows, s.quarantined) == (3, 3)  # the blank line is not a record
    by_line = {d.line: d for d in list_dead_letters(workspace)}
    assert sorted(by_line) == [1, 2, 4]
    assert get_dead_letter(workspace, by_line[1].id, reveal=True).original_bytes == bad_utf8
    assert get_dead_letter(workspace, by_line[2].id, reveal=True).original_bytes == nul
    assert get_dead_letter(workspace, by_line[4].id, reveal=True).original_bytes == crlf
    assert "\\xff" in by_line[1].payload  # shown escaped, stored exact

    dl_id = by_line[4].id
    edit_payload(workspace, dl_id, '{"pesanan_id": 3, "qty": 2}')
    apply_change(workspace, [dl_id], reclassify_as(ErrorClass.CODE))
    apply_change(workspace, [dl_id], park())
    apply_change(workspace, [by_line[2].id], discard("junk from a test feed"))
    d = get_dead_letter(workspace, dl_id, reveal=True)
    assert d.original_bytes == crlf and d.payload == '{"pesanan_id": 3, "qty": 2}'
    assert [e.action for e in d.events] == ["quarantined", "edited", "reclassified", "parked"]
    assert all(e.actor and e.at for e in d.events)
    # Discarded rows are kept for the audit.
    assert get_dead_letter(workspace, by_line[2].id, reveal=True).status == "discarded"


def test_error_messages_are_data(workspace: Workspace, seed_batch: Path) -> None:
    """Invariant 6: one line, ``Type: message``; tracebacks only for code, with no paths."""
    run_batch(workspace, seed_batch, "pesanan@1")
    for d in list_dead_letters(workspace):
        detail = get_dead_letter(workspace, d.id, reveal=True)
        assert "\n" not in d.error and ": " in d.error
        if d.error_class == "code":
            assert detail.traceback and "pesanan.py" in detail.traceback
            assert str(REPO) not in detail.traceback and '"/' not in detail.traceback
            assert not any(part.startswith("/") for part in detail.traceback.split())
        else:
            assert detail.traceback is None


def test_sink_refusal_quarantines_the_row_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An integer too large for the column fails at the warehouse; its chunk still loads."""
    lines = [
        f'{{"pesanan_id": {i}, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1,'
        f' "harga": {10**30 if i == 3 else 1000}, "diskon": 0}}'
        for i in range(1, 6)
    ]
    src = tmp_path / "big.jsonl"
    src.write_text("\n".join(lines) + "\n")
    for lanes in ("1", "2"):
        monkeypatch.setenv("TRIAGE_LANES", lanes)
        ws = open_workspace(tmp_path / f"lanes{lanes}")
        s = run_batch(ws, src, "pesanan@2")
        assert (s.rows, s.loaded, s.quarantined) == (5, 4, 1), lanes
        (dl,) = list_dead_letters(ws)
        assert dl.line == 3 and dl.error_class == "data"
        assert "1000000000000000000000000000000" in dl.payload
        assert warehouse_lines(ws) == {1, 2, 4, 5}
        ws.close()
