"""scripts/catalogues.py, loaded for the tests that check the catalogues and run the
pseudo-locale (it is a script, not a module of the package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def catalogue_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "catalogues_tool", REPO / "scripts" / "catalogues.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
