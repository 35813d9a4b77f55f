"""Paths and helpers the tests share (fixtures live in conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from triage_app.core.resources import resources_dir

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
SEED_BATCH = resources_dir() / "demo" / "pesanan_2026-01-12.jsonl"
SEED_ORDERS = resources_dir() / "demo" / "orders_2026-01-09.csv"
GEN_BATCH = SHARED / "bench" / "gen_batch.py"
CONFORMANCE = SHARED / "conformance" / "json-test-suite" / "test_parsing"


def gen_batch(out: Path, rows: int, bad: float = 0.01, seed: int = 43) -> Path:
    """A deterministic orders batch from the shared generator."""
    subprocess.run(
        [
            sys.executable,
            str(GEN_BATCH),
            str(out),
            "--rows",
            str(rows),
            "--bad",
            str(bad),
            "--seed",
            str(seed),
        ],
        check=True,
    )
    return out


def cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """The real CLI in a child process, as a user or a script would run it."""
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
