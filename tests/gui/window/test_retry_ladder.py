"""The retry ladder in the window (issue 27): the status bar says how many rows wait and
when the next is due; Batch > Retry due rows now runs a pass on a worker, which resolves the
due rows (read from the store), says what it did and reads the table again; the window's
own pass runs every minute while a workspace is open and stops with it; Trends' headline
shows the backlog per step."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import select

from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, open_workspace
from triage_app.core.deadletters import Ladder, set_workspace_ladder
from triage_app.core.demo import write_orders
from triage_app.core.errors import TransientError
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Registry, default_registry
from triage_app.gui.window.retry_ladder import EVERY_MS


def down_registry() -> Registry:
    base = default_registry().get("pesanan@1")

    def fn(_record: Any) -> tuple[Any, ...]:
        raise TransientError("layanan stok tidak menjawab")

    reg = Registry()
    reg.register(replace(base, fn=fn, fast=None))
    return reg


def ladder_workspace(folder: Path, waiting: int, due: int) -> None:
    """``waiting`` transient rows due in 5 min, and ``due`` more due in a second (their
    service is back by the time the window retries them: the real pesanan@1 loads them)."""
    reg, once = down_registry(), RetryPolicy(attempts=1)
    with open_workspace(folder) as ws:
        path = write_orders(folder.parent / "later.jsonl", waiting, bad=0.0, seed=3)
        run_batch(ws, path, "pesanan@1", registry=reg, retry=once)
        set_workspace_ladder(ws, Ladder.parse("1s"))
        path = write_orders(folder.parent / "due.jsonl", due, bad=0.0, seed=4)
        run_batch(ws, path, "pesanan@1", registry=reg, retry=once)
        set_workspace_ladder(ws, None)
    time.sleep(1.1)


def statuses(folder: Path) -> dict[str, int]:
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        rows = conn.execute(select(DeadLetter.status)).scalars().all()
    return {s: rows.count(s) for s in set(rows)}


def test_the_window_runs_retry_passes_and_says_where_the_ladder_stands(
    qtbot, open_main_window, tmp_path
):
    folder = tmp_path / "ws"
    ladder_workspace(folder, waiting=4, due=3)
    window = open_main_window(folder)
    window.resize(1280, 720)
    ladder = window.ladder
    qtbot.waitUntil(lambda: ladder.state is not None)
    # This user may write the store and re-drive: passes run every minute.
    assert ladder.state.refusal is None
    assert ladder.timer.isActive() and ladder.timer.interval() == EVERY_MS
    assert window.menu.retry_now_action.isEnabled()
    # Rows that fell due while the window was closed are retried as it opens, not a minute
    # later: a pass on a worker, which resolves them (the service is back).
    qtbot.waitUntil(lambda: ladder.last is not None and not ladder.running(), timeout=30_000)
    assert (ladder.last.due, ladder.last.retried, ladder.last.resolved) == (3, 3, 3)
    assert window.statusBar().currentMessage() == "Retried 3: 3 resolved"
    assert statuses(folder) == {"open": 4, "resolved": 3}
    # The table read again (open rows only), the label says the rest wait 5 minutes.
    qtbot.waitUntil(lambda: window.model.total() == 4, timeout=10_000)
    qtbot.waitUntil(lambda: "due now" not in ladder.label.text(), timeout=10_000)
    assert ladder.label.text().startswith("· Retry ladder: 4 waiting, next due ")
    assert "Last pass: Retried 3: 3 resolved" in ladder.label.toolTip()

    # By hand, nothing due now: it says so.
    window.menu.retry_now_action.trigger()
    qtbot.waitUntil(lambda: not ladder.running() and ladder.last.due == 0, timeout=30_000)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Retry pass: nothing"))

    # Trends' headline: the rows per step.
    window.tabs.setCurrentWidget(window.trends)
    headline = window.trends.headline
    qtbot.waitUntil(lambda: headline.ladder is not None, timeout=20_000)
    qtbot.waitUntil(lambda: headline.ladder.waiting == 4, timeout=20_000)
    assert "on the retry ladder: 4 at 5m" in headline.ladder_tile.text()

    # Closing the workspace stops the passes.
    window.close_workspace()
    assert not ladder.timer.isActive() and not ladder.label.isVisible()


def test_no_pass_where_this_user_may_not_retry(qtbot, open_main_window, tmp_path, monkeypatch):
    """A store this user may not write, or a role that may not re-drive (core's
    ``why_no_retry_pass``): the window runs no pass, by the minute or by hand, and says why
    in the label's tooltip; the rows stay due."""
    from triage_app.core.deadletters import LadderState, ladder_backlog
    from triage_app.gui.window import retry_ladder

    def refused(ws):  # type: ignore[no-untyped-def]
        return LadderState(ladder_backlog(ws), "a viewer may not re-drive (a steward's act)")

    monkeypatch.setattr(retry_ladder, "ladder_state", refused)
    folder = tmp_path / "ws"
    ladder_workspace(folder, waiting=1, due=2)
    window = open_main_window(folder)
    ladder = window.ladder
    qtbot.waitUntil(lambda: ladder.state is not None)
    assert not ladder.timer.isActive() and ladder.last is None
    assert ladder.label.text() == "· Retry ladder: 3 waiting, 2 due now (not retried here)"
    assert "runs no retry pass: a viewer may not re-drive" in ladder.label.toolTip()
    window.menu.retry_now_action.trigger()
    assert not ladder.running()
    assert window.statusBar().currentMessage().startswith("No retry pass: a viewer may not")
    assert statuses(folder) == {"open": 3}


def test_why_no_retry_pass_names_a_read_only_store(tmp_path):
    from triage_app.core.deadletters import why_no_retry_pass

    with open_workspace(tmp_path / "ws") as ws:
        assert why_no_retry_pass(ws) is None  # SQLite: the OS user is the lead
        ws.store_read_only = True
        assert why_no_retry_pass(ws) == "the store is read-only for this user"
