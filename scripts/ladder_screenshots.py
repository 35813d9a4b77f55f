"""Regenerate the retry ladder's screenshots (issue 27): the main window whose status bar
says how many rows wait on the ladder and when the next is due, after a pass it ran (its
message: what the pass did), and Trends' headline with the ladder's backlog per step.
Rendered offscreen; look at them after running.

    .venv/bin/python scripts/ladder_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from scripts.screenshots import ROOT, open_sized_window, throwaway_settings, wait_until
from triage_app.core.batch import run_batch
from triage_app.core.clock import utcnow
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import Ladder, retry_due, set_workspace_ladder
from triage_app.core.demo import make_demo, write_orders
from triage_app.core.errors import TransientError
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Registry, default_registry

ONCE = RetryPolicy(attempts=1)


def down_registry() -> Registry:
    """``pesanan@1`` while the shop's stock service is down: every record fails
    transiently, as it did the night these rows were quarantined."""
    base = default_registry().get("pesanan@1")

    def fn(_record: Any) -> tuple[Any, ...]:
        raise TransientError("layanan stok tidak menjawab (timeout 30 s)")

    reg = Registry()
    reg.register(replace(base, fn=fn, fast=None))
    return reg


def fill(folder: Path, tmp: Path) -> None:
    """The demo, and transient dead letters at each step of the ladder: some waiting for
    their first retry, some for their second, some parked at its end, and five due in a
    second (the window's pass resolves them: the service is back)."""
    reg = down_registry()
    with open_workspace(folder) as ws:
        make_demo(ws)
        waits = (dt.timedelta(minutes=5), dt.timedelta(minutes=30), dt.timedelta(hours=2))
        # In turn, so that each batch's passes find only its own rows due.
        for name, rows, passes in (("late", 2, 3), ("second", 4, 1), ("first", 8, 0)):
            path = write_orders(tmp / f"{name}.jsonl", rows, bad=0.0, seed=rows * 7)
            run_batch(ws, path, "pesanan@1", registry=reg, retry=ONCE)
            at = utcnow()
            for step in range(passes):
                at += waits[step]
                retry_due(ws, now=at, registry=reg, retry=ONCE)
        # Five due in a second: the workspace's ladder is a second long while they fail.
        set_workspace_ladder(ws, Ladder.parse("1s"))
        path = write_orders(tmp / "due.jsonl", 5, bad=0.0, seed=5)
        run_batch(ws, path, "pesanan@1", registry=reg, retry=ONCE)
        set_workspace_ladder(ws, None)
        time.sleep(1.2)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with throwaway_settings() as tmp:
        folder = tmp / "TokoKita"
        fill(folder, tmp)
        app, window = open_sized_window(folder)
        wait_until(app, lambda: window.ladder.state is not None and not window.queries.busy())
        # The pass the window runs as it opens (then every minute): the five due rows resolve.
        wait_until(app, lambda: window.ladder.last is not None and not window.ladder.running())
        wait_until(app, lambda: not window.queries.busy() and window.ladder.label.isVisible())
        # A row one step down: its history says which retry failed and when the next is.
        window.table.selectRow(4)
        wait_until(
            app, lambda: window.detail.current_id() is not None and not window.queries.busy()
        )
        window.detail.tabs.setCurrentWidget(window.detail.history)
        wait_until(app, lambda: not window.queries.busy())
        window.grab().save(str(out / "retry-ladder-status.png"))
        print("wrote", out / "retry-ladder-status.png")
        print("status:", window.statusBar().currentMessage(), "|", window.ladder.label.text())
        window.tabs.setCurrentWidget(window.trends)
        wait_until(
            app, lambda: window.trends.headline.ladder is not None and not window.trends.busy()
        )
        window.grab().save(str(out / "retry-ladder-trends.png"))
        print("wrote", out / "retry-ladder-trends.png")
        print("tile:", window.trends.headline.ladder_tile.text())
        window.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
