"""The engine type-checks under mypy --strict and the tree passes ruff: checks that any
change can fail, run with the suite so CI holds them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import REPO, tool


@pytest.mark.slow
def test_core_is_mypy_strict_clean() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "triage_app/core"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-3000:]


def test_ruff_is_clean() -> None:
    ruff = tool("ruff")
    out = subprocess.run(
        [ruff, "check", "triage_app", "tests", "benchmarks", "scripts"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-3000:]
