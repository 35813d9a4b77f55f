"""triage_app.core never imports Qt or pyqtgraph: not in its source, not at run time."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import triage_app.core

CORE = Path(triage_app.core.__file__).parent
FORBIDDEN = ("PySide6", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6")


def test_no_qt_import_in_core_sources() -> None:
    pattern = re.compile(r"^\s*(from|import)\s+(" + "|".join(FORBIDDEN) + r")\b", re.M)
    offenders = [
        str(p.relative_to(CORE)) for p in CORE.rglob("*.py") if pattern.search(p.read_text())
    ]
    assert offenders == []


def test_importing_every_core_module_loads_no_qt() -> None:
    modules = sorted(
        "triage_app.core." + ".".join(p.relative_to(CORE).with_suffix("").parts)
        for p in CORE.rglob("*.py")
        if p.name != "__init__.py"
    )
    code = (
        f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(k for k in sys.modules if k.split('.')[0] in {FORBIDDEN!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    assert len(modules) > 10
