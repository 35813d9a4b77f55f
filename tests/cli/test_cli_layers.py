"""The command line's layering (issue 22): every module of the package sits in a layer, and
inside ``triage_app.cli`` each family of commands stands on ``support`` alone. Each contract
breaks when the code breaks it (as tests/core/test_import_contracts.py does for the rest)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.contracts import lint_with, package_copy

FAMILY = "cli: each family of commands stands alone on the shared support"
LAYERS = "The window and the command line sit on the engine"


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package_copy(tmp_path_factory, "cli_layout")


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # One family of commands using another's: what they share belongs in support.
        ("cli/batches.py", "from triage_app.cli import store", FAMILY),
        # The shared support reaching up into a family.
        ("cli/support.py", "import triage_app.cli.dead_letters", FAMILY),
        # A module of the command line that says nowhere where it sits.
        ("cli/stray.py", "import argparse", FAMILY),
        # A module of the package outside every layer.
        ("stray.py", "import argparse", LAYERS),
    ],
)
def test_a_broken_cli_contract_is_reported(copy: Path, module: str, line: str, broken: str) -> None:
    out = lint_with(copy, module, line)
    assert out.returncode == 1, out.stdout[-2000:]
    reported = [ln for ln in out.stdout.splitlines() if ln.endswith(" BROKEN")]
    assert reported == [f"{broken} BROKEN"], out.stdout[-2000:]
