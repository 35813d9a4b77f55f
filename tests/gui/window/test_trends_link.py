"""The Trends tab inside the real window, on real workspaces: linked views filter the
quarantine table, a group selects its rows, charts refresh after a batch and a re-drive,
and a spike raises the window's banner naming the transform."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.crafted_trends import MAR, TYPE_ERROR, build_crafted, build_spike_store
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import redrive
from triage_app.gui.trends.base import day_x


@pytest.fixture
def crafted_window(open_main_window, tmp_path: Path, qtbot):  # type: ignore[no-untyped-def]
    folder = tmp_path / "ws"
    build_crafted(folder)
    w = open_main_window(folder)
    w.tabs.setCurrentWidget(w.trends)  # the charts are read when the tab is on screen
    qtbot.waitUntil(lambda: w.trends.trends is not None and not w.trends.busy(), timeout=10_000)
    return w


def test_the_window_has_a_trends_tab(crafted_window) -> None:  # type: ignore[no-untyped-def]
    w = crafted_window
    tabs = [w.tabs.tabText(i) for i in range(w.tabs.count())]
    assert tabs == ["Quarantine", "Trends", "Audit"]
    assert w.trends.trends.per_batch and len(w.trends.trends.groups) == 4
    assert w.spike_banner.isHidden()


def test_a_day_click_filters_the_table(crafted_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = crafted_window
    w.tabs.setCurrentWidget(w.trends)
    link = w.trends.failures.click(day_x(MAR[0]), 0.5)  # March 1, the data part
    assert link is not None
    qtbot.waitUntil(lambda: w.model.total() is not None)
    f = w.model.filter
    assert (f.failed_from, f.failed_to, f.error_class, f.status) == (MAR[0], MAR[0], "data", "all")
    assert w.model.total() == 3
    assert w.tabs.currentWidget() is w.quarantine
    assert w.filter_bar.link_chip.isVisible()
    w.filter_bar.link_clear.click()
    qtbot.waitUntil(lambda: w.model.total() is not None)
    assert w.model.filter.failed_from is None and w.model.total() == 5  # all data


def test_a_group_selects_its_rows(crafted_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = crafted_window
    row = [g.signature for g in w.trends.trends.groups].index(TYPE_ERROR)
    w.trends.groups.choose(row)
    qtbot.waitUntil(lambda: w.selected_count() == 2)
    assert w.model.filter.signature == TYPE_ERROR
    assert w.model.filter.status == "open"  # the steward's view: the rows still to fix
    assert len(w.selected_ids()) == 2


def test_charts_refresh_after_a_batch_and_a_redrive(crafted_window, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = crafted_window
    src = tmp_path / "tonight.jsonl"
    src.write_text('{"pesanan_id": 900}\n{"pesanan_id": 901, "qty": -3}\n', encoding="utf-8")
    with open_workspace(w.config.folder) as ws:
        summary = run_batch(ws, src, "pesanan@1")
    with qtbot.waitSignal(w.trends.updated, timeout=10_000):
        w.work.finished(summary)  # what every job dialog's jobFinished calls
    assert len(w.trends.trends.per_batch) == 4
    open_before = w.trends.trends.backlog[-1].open
    code_ids = [g for g in w.trends.trends.groups if g.signature == TYPE_ERROR]
    assert code_ids and code_ids[0].open == 2
    with open_workspace(w.config.folder) as ws:
        done = redrive(ws, "pesanan@2", where=w.model.filter.with_(signature=TYPE_ERROR))
    assert done.succeeded == 2
    with qtbot.waitSignal(w.trends.updated, timeout=10_000):
        w.work.finished(done)  # what every job dialog's jobFinished calls
    assert w.trends.trends.backlog[-1].open == open_before - 2
    group = next(g for g in w.trends.trends.groups if g.signature == TYPE_ERROR)
    assert (group.open, group.resolved) == (0, 2)


def test_a_spike_raises_the_banner_in_the_window(open_main_window, tmp_path, qtbot) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "ws"
    build_spike_store(folder)
    w = open_main_window(folder)
    qtbot.waitUntil(lambda: not w.spike_banner.isHidden(), timeout=10_000)
    assert "pesanan@2 is new: the release likely broke the transform" in w.spike_banner.text.text()
    w.spike_banner.show_button.click()
    assert w.model.filter.batch_id == f"{8:016x}"
    assert w.tabs.currentWidget() is w.quarantine


def test_a_hidden_tab_is_read_again_when_shown(crafted_window, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = crafted_window
    w.tabs.setCurrentWidget(w.quarantine)
    src = tmp_path / "late.jsonl"
    src.write_text('{"pesanan_id": 950, "qty": 0}\n', encoding="utf-8")
    with open_workspace(w.config.folder) as ws:
        summary = run_batch(ws, src, "pesanan@1")
    w.work.finished(summary)
    qtbot.waitUntil(lambda: not w.trends.busy(), timeout=10_000)
    assert len(w.trends.trends.per_batch) == 3  # not on screen: not redrawn yet
    with qtbot.waitSignal(w.trends.updated, timeout=10_000):
        w.tabs.setCurrentWidget(w.trends)
    assert len(w.trends.trends.per_batch) == 4
