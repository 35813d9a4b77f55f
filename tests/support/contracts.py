"""The import-linter contracts, run on a copy of the package that a test may break: what the
contract tests of the engine (tests/core/test_import_contracts.py) and of the command line
(tests/cli/test_cli_layers.py) share."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import REPO, tool


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package at ``root``, with the contracts of its pyproject."""
    return subprocess.run(
        [tool("lint-imports"), "--no-cache", "--config", "pyproject.toml"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )


def package_copy(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """The package and its pyproject, copied where a test may break them."""
    root = tmp_path_factory.mktemp(name)
    shutil.copytree(
        REPO / "triage_app", root / "triage_app", ignore=shutil.ignore_patterns("*.pyc")
    )
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


def lint_with(root: Path, module: str, line: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the copy at ``root`` with ``line`` added to ``module`` (a path
    under ``triage_app/``, made for the run when it does not exist), then put back."""
    path = root / "triage_app" / module
    existed = path.exists()
    original = path.read_text() if existed else ""
    path.write_text(original + f"\n{line}  # noqa\n")
    try:
        return lint_imports(root)
    finally:
        if existed:
            path.write_text(original)
        else:
            path.unlink()
