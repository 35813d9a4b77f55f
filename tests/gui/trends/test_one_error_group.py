"""One error group (issue 22): the command line's ``groups`` and ``stats`` and the window's
groups table show the same groups of one store, the same values: one ``ErrorGroup``, built
by one query, of which ``groups --json`` and ``stats --json`` are two views."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter
from triage_app.core.demo import make_demo

QTY = "DataError: kolom wajib hilang: qty"
CODE = "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"


def _without_age(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``groups --json`` less the oldest open row's age in days, which moves with the clock."""
    return [{k: v for k, v in g.items() if k != "oldest_open_days"} for g in groups]


def test_the_cli_and_the_window_show_the_same_groups(qtbot, open_main_window, tmp_path: Path):  # type: ignore[no-untyped-def]
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        make_demo(ws)
        dls.set_group(ws, QTY, owner="ani", add_tags=["needs source fix"], note="asked")
        dls.set_group(ws, CODE, add_tags=["waiting on vendor"])
        # Not every group all open: one resolved, one parked.
        dls.redrive(ws, "pesanan@2", where=DeadLetterFilter(signature=CODE))
        (row,) = dls.list_dead_letters(ws, DeadLetterFilter(signature=QTY))
        dls.apply_change(ws, [row.id], dls.park("waiting on the shop"))
        queried = dls.error_groups(ws)

    window = open_main_window(folder)
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    shown = window.trends.groups.model.all_groups

    # The same values: counts by status, first and last seen, oldest open, owner, tags, note.
    assert shown == queried and len(shown) == 4
    assert {g.signature: (g.open, g.by_status) for g in shown}[CODE] == (0, {"resolved": 1})

    now = dt.datetime(2030, 1, 1)
    listed = json.loads(
        cli("--workspace", str(folder), "--json", "groups", "--sort", "count").stdout
    )
    assert _without_age(listed) == _without_age([g.to_json(now) for g in shown])
    stats = json.loads(cli("--workspace", str(folder), "--json", "stats").stdout)
    assert stats["trends"]["error_groups"] == [g.to_trends_json() for g in shown]
