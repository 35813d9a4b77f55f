"""Crash points: ``TRIAGE_CRASH_AT=point:k`` kills the process with SIGKILL the k-th time the
point is reached, no earlier and with nothing flushed after (proven in a child process, the
only safe place to be killed); a bare ``point`` means the first time; an unknown point name
is a ValueError that lists the known ones; and unarmed, or armed for another point, a
crash point does nothing and counts nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.support import REPO
from triage_app.core import crashpoints
from triage_app.core.crashpoints import ENV, POINTS, crash_point

SNIPPET = (
    "from triage_app.core.crashpoints import crash_point\n"
    "for n in range(1, 4):\n"
    "    crash_point('mid-edit')\n"
    "    print(f'passed {n}', flush=True)\n"
)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The module as a new process has it: not yet armed, nothing counted (restored after)."""
    monkeypatch.setattr(crashpoints, "_armed", None)
    monkeypatch.setattr(crashpoints, "_hits", {})
    return monkeypatch


def run_snippet(spec: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != ENV}
    if spec is not None:
        env[ENV] = spec
    return subprocess.run(
        [sys.executable, "-c", SNIPPET],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=30,
    )


def test_the_kth_time_kills_the_process() -> None:
    done = run_snippet("mid-edit:2")
    assert done.stdout == "passed 1\n"
    assert done.returncode == -signal.SIGKILL == -9


def test_a_bare_point_kills_the_first_time() -> None:
    done = run_snippet("mid-parse, mid-edit")
    assert done.stdout == ""
    assert done.returncode == -9


def test_unarmed_the_child_runs_to_the_end() -> None:
    done = run_snippet(None)
    assert (done.returncode, done.stdout) == (0, "passed 1\npassed 2\npassed 3\n")


def test_an_unknown_point_is_a_value_error_naming_the_known_ones(
    fresh: pytest.MonkeyPatch,
) -> None:
    fresh.setenv(ENV, "mid-edt:2")
    with pytest.raises(ValueError) as err:
        crash_point("mid-edit")
    message = str(err.value)
    assert "'mid-edt'" in message and ENV in message
    for point in POINTS:
        assert point in message


def test_unarmed_a_point_does_nothing(fresh: pytest.MonkeyPatch) -> None:
    fresh.delenv(ENV, raising=False)
    for point in POINTS:
        for _ in range(3):
            assert crash_point(point) is None
    assert crashpoints._armed == {}
    assert crashpoints._hits == {}


def test_another_armed_point_is_not_counted(fresh: pytest.MonkeyPatch) -> None:
    fresh.setenv(ENV, "after-chunk-commit:1000")
    for _ in range(5):
        crash_point("mid-edit")
    crash_point("after-chunk-commit")
    assert crashpoints._armed == {"after-chunk-commit": 1000}
    assert crashpoints._hits == {"after-chunk-commit": 1}
