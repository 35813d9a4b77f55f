"""Another steward at work on the team's store while a window watches it: the store as the
CLI names it, the CLI run in a process of its own, and how soon the window shows it."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from triage_app.core.db import open_workspace

LIVE_WITHIN = 2.0  # seconds from the other process's exit to the window showing it


@dataclass
class Store:
    args: list[str]  # how the CLI names the store
    folder: Path | None
    urls: tuple[str, str] | None

    def open(self):  # type: ignore[no-untyped-def]
        if self.urls is not None:
            return open_workspace(warehouse_url=self.urls[0], dead_letter_url=self.urls[1])
        return open_workspace(self.folder)


def forget_edit(w) -> None:  # type: ignore[no-untyped-def]
    """A test that leaves an edit in the editor would be asked about it on close."""
    if w.detail.is_dirty():
        w.detail.discard_edit()


def other_steward(qtbot, store: Store, *args: str) -> float:  # type: ignore[no-untyped-def]
    """Run the CLI in another process while the window's event loop keeps running; the
    time it exited."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "triage_app", *store.args, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    qtbot.waitUntil(lambda: proc.poll() is not None, timeout=60_000)
    _out, err = proc.communicate()
    assert proc.returncode == 0, err
    return time.monotonic()


def shown_within(qtbot, since: float, condition) -> float:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(condition, timeout=int(LIVE_WITHIN * 1000))
    return time.monotonic() - since
