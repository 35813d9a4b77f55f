"""PySide6-Essentials 6.12.0 on Python 3.11 corrupts the refcount of None on every call of
a Qt method returning void, and the interpreter aborts after some thousands of calls
(docs/design.md, "Known trap"). The pin keeps it out; this test notices if it comes back."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
from PySide6.QtCore import QObject
o = QObject()
for i in range(100_000):
    o.setObjectName("x")  # returns void
print("ok")
"""


def test_100k_void_qt_calls_do_not_abort_the_interpreter():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"
