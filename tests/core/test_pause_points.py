"""Pause points: ``TRIAGE_PAUSE_AT=point:k`` with ``TRIAGE_PAUSE_FILE=path`` holds a process the
k-th time it reaches the point: it says so in ``path.reached`` and goes on only once ``path``
exists (proven in a child process); without the file to wait for it is a ValueError."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import REPO
from triage_app.core import crashpoints
from triage_app.core.crashpoints import ENV, PAUSE_ENV, PAUSE_FILE_ENV, crash_point

SNIPPET = (
    "from triage_app.core.crashpoints import crash_point\n"
    "for n in range(1, 4):\n"
    "    crash_point('after-chunk-commit')\n"
    "    print(f'passed {n}', flush=True)\n"
)


def test_the_kth_time_holds_the_process_until_released(tmp_path: Path) -> None:
    release = tmp_path / "go"
    env = {k: v for k, v in os.environ.items() if k != ENV}
    env |= {PAUSE_ENV: "after-chunk-commit:2", PAUSE_FILE_ENV: str(release)}
    proc = subprocess.Popen(
        [sys.executable, "-c", SNIPPET], stdout=subprocess.PIPE, text=True, env=env, cwd=REPO
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "passed 1\n"
        reached = Path(f"{release}.reached")
        deadline = time.monotonic() + 30
        while not reached.exists():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert reached.read_text() == f"after-chunk-commit {proc.pid}\n"
        time.sleep(0.3)
        assert proc.poll() is None  # held: the second pass has not printed
        release.touch()
        out, _ = proc.communicate(timeout=30)
        assert (proc.returncode, out) == (0, "passed 2\npassed 3\n")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_pause_without_a_file_to_wait_for_is_a_value_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(crashpoints, "_armed", None)
    monkeypatch.setattr(crashpoints, "_hits", {})
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.delenv(PAUSE_FILE_ENV, raising=False)
    monkeypatch.setenv(PAUSE_ENV, "after-chunk-commit")
    with pytest.raises(ValueError, match=PAUSE_FILE_ENV):
        crash_point("after-chunk-commit")
    monkeypatch.setenv(PAUSE_ENV, "after-chunk-comit")
    with pytest.raises(ValueError, match="unknown crash point 'after-chunk-comit'"):
        crash_point("after-chunk-commit")
    monkeypatch.delenv(PAUSE_ENV)
    crash_point("after-chunk-commit")  # re-armed, with nothing: a no-op again
    assert crashpoints._watched == frozenset()
