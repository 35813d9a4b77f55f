"""A workspace this user may only read, and the CLI run as a user the file modes stop.

Tests run as root, whom file modes do not stop. The CLI then runs as root without the
capabilities that override file modes (``setpriv``), where file modes bind as they bind any
other user; as another user it runs as it is."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

# What lets root write anything: without them, root is held to the file modes.
NO_OVERRIDE = "--bounding-set=-dac_override,-dac_read_search,-fowner"


def run_without_override(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a user the file modes stop."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root and setpriv (util-linux) is not installed")
        prefix = [setpriv, NO_OVERRIDE, "--"]
    return subprocess.run(
        [*prefix, sys.executable, "-m", "triage_app", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )


def make_read_only(folder: Path, *, folder_too: bool) -> None:
    for p in folder.iterdir():
        p.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    if folder_too:
        folder.chmod(0o555)
