"""The layering and the sub-package interfaces hold: the import-linter contracts in
pyproject.toml are kept, and each kind of contract breaks when the code breaks it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.contracts import lint_imports, lint_with, package_copy


def test_every_contract_is_kept() -> None:
    out = lint_imports(REPO)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package_copy(tmp_path_factory, "layout")


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # The window reaching past an interface into a module of a sub-package.
        ("gui/app.py", "from triage_app.core.batch.run import run_batch", "batch: its"),
        # An import that runs back up the engine's layers.
        ("core/db/audit.py", "import triage_app.core.batch", "dependencies point down"),
        # Qt in the engine.
        ("core/clock.py", "import PySide6", "never imports Qt"),
        # The engine reaching up into the window.
        ("core/jobs.py", "import triage_app.gui.style", "sit on the engine"),
    ],
)
def test_a_broken_contract_is_reported(copy: Path, module: str, line: str, broken: str) -> None:
    out = lint_with(copy, module, line)
    assert out.returncode == 1, out.stdout[-2000:]
    (reported,) = [ln for ln in out.stdout.splitlines() if ln.endswith(" BROKEN")]
    assert broken in reported
