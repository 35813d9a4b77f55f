"""The window's live view while a re-drive stalls (issue 21), SQLite and PostgreSQL: a
re-drive in another process is held past its lease after loading row 4, another steward
discards the row, and the open window shows the discard within 2 s and never a resolution
afterwards; while a re-drive is stopped (SIGSTOP) inside its settle transaction, holding
the rows' locks, the window still reads the store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.live import other_steward, shown_within
from triage_app.core.deadletters import get_dead_letter


def _held_redrive(qtbot, store, point: str, pause: Path) -> subprocess.Popen[str]:  # type: ignore[no-untyped-def]
    env = {
        **os.environ,
        "TRIAGE_LEASE_SECONDS": "2",
        "TRIAGE_PAUSE_AT": point,
        "TRIAGE_PAUSE_FILE": str(pause),
    }
    command = ["redrive", "4", "--transform", "pesanan@2"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "triage_app", *store.args, *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    qtbot.waitUntil(lambda: Path(f"{pause}.reached").exists(), timeout=60_000)
    return proc


def _ended(qtbot, proc: subprocess.Popen[str], pause: Path) -> str:  # type: ignore[no-untyped-def]
    pause.touch()
    qtbot.waitUntil(lambda: proc.poll() is not None, timeout=60_000)
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    return out


@pytest.mark.slow
def test_a_discard_under_a_stalled_redrive_shows_and_stays(qtbot, live_window, store, tmp_path):
    w = live_window
    pause = tmp_path / "go"
    proc = _held_redrive(qtbot, store, "redrive-after-warehouse", pause)
    qtbot.wait(3000)  # the lease runs out; the window keeps running
    done = other_steward(qtbot, store, "discard", "4", "--reason", "junk")
    shown_within(qtbot, done, lambda: w.model.total() == 3)
    assert 4 not in [w.model.row(r).id for r in range(3)]
    out = _ended(qtbot, proc, pause)
    assert "lease ran out" in out and "taken back" in out
    w.refresh()
    qtbot.waitUntil(lambda: not w.queries.busy())
    assert w.model.total() == 3  # still the three open rows: row 4 was never resolved
    with store.open() as ws:
        assert get_dead_letter(ws, 4, reveal=True).status == "discarded"


def test_the_window_reads_while_a_redrive_is_stopped_in_its_settle(
    qtbot, live_window, store, tmp_path
):
    w = live_window
    pause = tmp_path / "go"
    proc = _held_redrive(qtbot, store, "redrive-mid-settle", pause)
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        w.refresh()
        qtbot.waitUntil(lambda: not w.queries.busy(), timeout=5_000)
        assert time.monotonic() - started < 5
        assert w.model.total() == 4  # the stopped re-drive's outcome is not committed
    finally:
        os.kill(proc.pid, signal.SIGCONT)
    _ended(qtbot, proc, pause)
    w.refresh()
    qtbot.waitUntil(lambda: not w.queries.busy() and w.model.total() == 3, timeout=5_000)
