"""What the tests share besides fixtures (those are in conftest.py): paths, the batch
generator, the CLI as a child process, the JSONTestSuite corpus."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triage_app.core.demo import write_orders
from triage_app.core.places import resources_dir

REPO = Path(__file__).resolve().parent.parent.parent
TESTS = REPO / "tests"
SEED_BATCH = resources_dir() / "demo" / "pesanan_2026-01-12.jsonl"
SEED_ORDERS = resources_dir() / "demo" / "orders_2026-01-09.csv"
HOSTILE = TESTS / "hostile"
JSON_TEST_SUITE = TESTS / "conformance" / "json-test-suite" / "test_parsing"


def gen_batch(out: Path, rows: int, bad: float = 0.01, seed: int = 43) -> Path:
    """A deterministic orders batch (the project's own generator, ``core/demo/orders.py``)."""
    return write_orders(out, rows, bad, seed)


def tool(name: str) -> str:
    """The path of a command the test extras install (ruff, mypy, lint-imports)."""
    path = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert path is not None, f"{name} is not installed: it is in the test extras (.[test])"
    return path


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


def history_actions(window: Any) -> list[str]:
    """The actions in the window's History tab, oldest first."""
    h = window.detail.history
    return [h.topLevelItem(i).text(2) for i in range(h.topLevelItemCount())]


@dataclass(frozen=True)
class JsonTestSuite:
    """The 318 parsing cases of JSONTestSuite, vendored under tests/conformance."""

    cases: tuple[Path, ...]

    @classmethod
    def load(cls) -> JsonTestSuite:
        """Every case, or AssertionError naming what is missing: the corpus is part of the
        repository, so a missing case is a broken checkout, never a reason to skip."""
        cases = tuple(sorted(JSON_TEST_SUITE.glob("*.json")))
        counts = {p: sum(c.name.startswith(p) for c in cases) for p in ("y_", "n_", "i_")}
        assert len(cases) == 318 and counts == {"y_": 95, "n_": 188, "i_": 35}, (
            f"JSONTestSuite at {JSON_TEST_SUITE} is incomplete: {len(cases)} cases, {counts}"
        )
        return cls(cases)

    @property
    def valid(self) -> tuple[Path, ...]:
        return tuple(c for c in self.cases if c.name.startswith("y_"))

    @property
    def invalid(self) -> tuple[Path, ...]:
        return tuple(c for c in self.cases if c.name.startswith("n_"))
