"""The Trends tab on the crafted workspace (tests/crafted_trends.py), offscreen: the values
read back from the chart items are the hand-counted ones; clicks become table filters;
each chart exports PNG and CSV; a spike raises the banner."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage

from tests.support.crafted_trends import (
    MAR,
    QTY,
    TYPE_ERROR,
    Crafted,
    build_crafted,
    build_spike_store,
)
from triage_app.core.db import open_workspace, resolve_config
from triage_app.core.deadletters import DeadLetterFilter, count_dead_letters
from triage_app.core.trends import chart_tables
from triage_app.gui.trends import Link, SpikeBanner, TrendsTab
from triage_app.gui.trends.base import day_x
from triage_app.gui.trends.groups_view import COL_CLASS, COL_COUNT, COL_OPEN, COL_RESOLVED


def narrowed(link: Link, f: DeadLetterFilter) -> DeadLetterFilter:
    """The table's filter once ``link`` (a click in a chart) narrowed it."""
    return f.with_(**dict(link.changes))


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Crafted]:
    folder = tmp_path_factory.mktemp("crafted") / "ws"
    return folder, build_crafted(folder)


@pytest.fixture
def tab(qtbot, crafted):  # type: ignore[no-untyped-def]
    t = TrendsTab()
    qtbot.addWidget(t)
    t.resize(1300, 1000)
    t.show()
    with qtbot.waitSignal(t.updated, timeout=10_000):
        t.open_workspace(resolve_config(crafted[0], env={}))
    yield t
    t.close_workspace()


def heights(item) -> list[float]:  # type: ignore[no-untyped-def]
    return [float(v) for v in np.asarray(item.opts["height"])]


def xs(item) -> list[float]:  # type: ignore[no-untyped-def]
    return [float(v) for v in np.asarray(item.opts["x"])]


def test_failures_per_day_stacked_by_class(tab) -> None:  # type: ignore[no-untyped-def]
    stack = tab.failures.stack
    assert xs(stack["data"]) == [day_x(d) for d in MAR[:4]]
    assert heights(stack["data"]) == [3, 1, 0, 1]
    assert heights(stack["code"]) == [1, 1, 0, 0]
    assert heights(stack["transient"]) == [0, 0, 0, 0]
    # stacked: code sits on data
    assert [float(v) for v in stack["code"].opts["y0"]] == [3, 1, 0, 1]


def test_failures_per_batch(tab, qtbot) -> None:  # type: ignore[no-untyped-def]
    tab.per_batch.setChecked(True)
    stack = tab.failures.stack
    assert xs(stack["data"]) == [0, 1, 2]
    assert heights(stack["data"]) == [3, 1, 1]
    assert heights(stack["code"]) == [1, 1, 0]
    assert tab.failures.table_name == "failures_per_batch"
    tab.per_day.setChecked(True)
    assert heights(stack["data"]) == [3, 1, 0, 1]


def test_attempts_histogram_follows_the_filter(tab, qtbot) -> None:  # type: ignore[no-untyped-def]
    # The table's default filter (open) counts parked too, marked.
    assert xs(tab.attempts.waiting) == [1, 3]
    assert heights(tab.attempts.waiting) == [4, 0]
    assert heights(tab.attempts.parked) == [0, 1]
    with qtbot.waitSignal(tab.queries.idle, timeout=10_000):
        tab.set_filter(DeadLetterFilter(error_class="code"))
    assert xs(tab.attempts.waiting) == [1]
    assert heights(tab.attempts.waiting) == [2]


def test_backlog_lines(tab) -> None:  # type: ignore[no-untyped-def]
    x, open_ = tab.backlog.open_line.getData()
    _, resolved = tab.backlog.resolved_line.getData()
    assert list(x) == [day_x(d) for d in MAR[:4]]
    assert list(open_) == [4, 6, 5, 5]
    assert list(resolved) == [0, 0, 1, 1]


def test_rate_per_batch(tab) -> None:  # type: ignore[no-untyped-def]
    assert heights(tab.rate.normal) == pytest.approx([40.0, 40.0, 25.0])
    assert heights(tab.rate.spiked) == []
    assert tab.rate.threshold.getData()[0] is None or len(tab.rate.threshold.getData()[0]) == 0


def test_the_groups_model_passes_qt_model_tester(tab, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    assert tab.groups.model.rowCount() > 0
    qtmodeltester.check(tab.groups.model)


def test_error_groups_table_and_bars(tab) -> None:  # type: ignore[no-untyped-def]
    model = tab.groups.model
    assert model.rowCount() == 4
    assert [model.index(r, 0).data() for r in range(2)] == [QTY, TYPE_ERROR]
    columns = (COL_CLASS, COL_COUNT, COL_OPEN, COL_RESOLVED)
    assert [model.index(0, c).data() for c in columns] == ["data", "3", "1", "1"]
    widths = sorted(
        float(w) for item in tab.groups_chart.bar_items for w in np.asarray(item.opts["width"])
    )
    assert widths == [1, 1, 2, 3]


def test_clicks_become_filters_of_the_rows_counted(tab, crafted, qtbot) -> None:  # type: ignore[no-untyped-def]
    every = DeadLetterFilter()
    with open_workspace(crafted[0]) as ws:
        day = tab.failures.pick(day_x(MAR[0]), 0.5)  # the data part of March 1
        assert day is not None and day.label == "first failed 1 Mar 2026 · data"
        assert count_dead_letters(ws, narrowed(day, every)) == 3
        code = tab.failures.pick(day_x(MAR[0]), 3.5)  # the code part, on top
        assert code is not None and count_dead_letters(ws, narrowed(code, every)) == 1
        assert tab.failures.pick(day_x(MAR[0]), 4.5) is None  # above the bar
        parked = tab.attempts.pick(3, 0.5)
        assert parked is not None and count_dead_letters(ws, narrowed(parked, every)) == 1
        backlog_day = tab.backlog.pick(day_x(MAR[1]), 1)
        assert backlog_day is not None and count_dead_letters(ws, narrowed(backlog_day, every)) == 2
        batch = tab.rate.pick(2, 10)
        assert batch is not None
        assert count_dead_letters(ws, narrowed(batch, every)) == 1  # batch 3: g
        group = tab.groups.choose(0)
        assert group is not None and group.select_all
        assert count_dead_letters(ws, narrowed(group, every)) == 1  # the open one of three
        assert count_dead_letters(ws, narrowed(group, every.with_(status="all"))) == 3


def test_a_real_mouse_click_emits_the_link(tab, qtbot) -> None:  # type: ignore[no-untyped-def]
    chart = tab.attempts
    vb = chart.getPlotItem().getViewBox()
    scene_pos = vb.mapViewToScene(QPointF(1, 2))
    pos = chart.mapFromScene(scene_pos)
    with qtbot.waitSignal(chart.linked, timeout=2_000) as got:
        qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    link = got.args[0]
    assert isinstance(link, Link)
    assert dict(link.changes) == {"attempts": 1}


def test_each_chart_exports_png_and_csv(tab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tables = chart_tables(tab.trends)
    for name, panel in tab.panels.items():
        png = panel.export_png(tmp_path / f"{name}.png")
        image = QImage(str(png))
        assert not image.isNull() and image.width() > 100 and image.height() > 100, name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        out = panel.export_csv(tmp_path / f"{name}.csv")
        with out.open(encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        headers, data = tables[panel.chart.table_name]
        assert rows[0] == headers
        assert len(rows) == len(data) + 1
    with (tmp_path / "backlog.csv").open(encoding="utf-8") as fh:
        backlog = list(csv.DictReader(fh))
    assert [r["open"] for r in backlog] == ["4", "6", "5", "5"]


def _spike_store(folder: Path) -> None:
    build_spike_store(folder)


def test_a_spike_is_marked_and_raises_the_banner(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "ws"
    _spike_store(folder)
    t = TrendsTab()
    banner = SpikeBanner()
    qtbot.addWidget(t)
    qtbot.addWidget(banner)
    t.spikeChanged.connect(banner.show_spike)
    t.show()
    try:
        with qtbot.waitSignal(t.updated, timeout=10_000):
            t.open_workspace(resolve_config(folder, env={}))
        assert xs(t.rate.spiked) == [8]
        assert heights(t.rate.spiked) == pytest.approx([20.0])
        assert len(xs(t.rate.normal)) == 8
        tx, ty = t.rate.threshold.getData()
        assert list(tx) == [7, 8] and list(ty) == pytest.approx([6.0, 6.0])  # 3 x 2 %
        assert not banner.isHidden()
        assert "pesanan@2" in banner.text.text() and "night_8.jsonl" in banner.text.text()
        with qtbot.waitSignal(banner.showBatch) as shown:
            banner.show_button.click()
        assert shown.args == [f"{8:016x}"]
        banner.dismiss()
        assert banner.isHidden()
        # A stricter rule clears it; dismissed stays dismissed after a refresh.
        with qtbot.waitSignal(t.updated, timeout=10_000):
            t.factor_spin.setValue(12.0)
        assert xs(t.rate.spiked) == []
        with qtbot.waitSignal(t.updated, timeout=10_000):
            t.factor_spin.setValue(3.0)
        assert banner.isHidden()
    finally:
        t.close_workspace()


def test_refresh_reads_a_new_batch(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "ws"
    build_crafted(folder)
    t = TrendsTab()
    qtbot.addWidget(t)
    t.show()
    try:
        with qtbot.waitSignal(t.updated, timeout=10_000):
            t.open_workspace(resolve_config(folder, env={}))
        assert len(t.trends.per_batch) == 3
        from triage_app.core.batch import run_batch

        src = tmp_path / "more.jsonl"
        src.write_text('{"pesanan_id": 1}\n{"pesanan_id": 2, "qty": 1}\n', encoding="utf-8")
        with open_workspace(folder) as ws:
            run_batch(ws, src, "pesanan@1")
        with qtbot.waitSignal(t.updated, timeout=10_000):
            t.refresh()
        assert len(t.trends.per_batch) == 4
        assert heights(t.rate.normal)[-1] == pytest.approx(100.0)
    finally:
        t.close_workspace()


def test_the_filter_bar_shows_a_link_and_lifts_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    from triage_app.gui.quarantine.filter_bar import FilterBar

    bar = FilterBar()
    qtbot.addWidget(bar)
    bar.show()
    link = Link(
        "first failed 2026-03-01 · data",
        (
            ("failed_from", MAR[0]),
            ("failed_to", MAR[0]),
            ("status", "all"),
            ("error_class", "data"),
        ),
    )
    with qtbot.waitSignal(bar.filterChanged) as got:
        bar.apply_link(link)
    f = got.args[0]
    assert (f.failed_from, f.failed_to, f.status, f.error_class) == (MAR[0], MAR[0], "all", "data")
    assert bar.class_combo.currentData() == "data" and bar.status_combo.currentData() == "all"
    assert bar.link_chip.isVisible() and "2026-03-01" in bar.link_chip.text()
    with qtbot.waitSignal(bar.filterChanged) as got:
        bar.class_combo.setCurrentIndex(bar.class_combo.findData("code"))
    assert got.args[0].failed_from == MAR[0]  # the chip's narrowing stays until lifted
    with qtbot.waitSignal(bar.filterChanged) as got:
        bar.link_clear.click()
    assert got.args[0].failed_from is None and not bar.link_chip.isVisible()
    assert not bar.is_default()  # class and status stay as the link set them


def test_hovering_shows_the_numbers(tab) -> None:  # type: ignore[no-untyped-def]
    assert tab.failures.describe(day_x(MAR[0]), 1) == (
        "1 Mar 2026: 4 quarantined (data 3, code 1, transient 0)"
    )
    assert tab.failures.describe(day_x(MAR[2]), 0.5) is None  # nothing quarantined that day
    assert tab.backlog.describe(day_x(MAR[3]), 1).startswith("end of 4 Mar 2026: 5 waiting")
    assert "40.00% of 10 rows (too few batches" in tab.rate.describe(0, 10)
    assert tab.attempts.describe(3, 0.5) == "3 attempts: 1 dead letter, 1 parked"
    assert tab.groups_chart.describe(1, 3).startswith(QTY)


def test_off_screen_only_the_spike_is_read(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A hidden tab asks for the banner's spike only (batch counters); shown, it reads all."""
    folder = tmp_path / "ws"
    _spike_store(folder)
    t = TrendsTab()
    qtbot.addWidget(t)
    updated: list[bool] = []
    t.updated.connect(lambda: updated.append(True))
    try:
        with qtbot.waitSignal(t.spikeChanged, timeout=10_000) as got:
            t.open_workspace(resolve_config(folder, env={}))
        assert got.args[0].batch.transform == "pesanan@2"
        assert t.trends is None and not updated
        with qtbot.waitSignal(t.updated, timeout=10_000):
            t.show()
        assert xs(t.rate.spiked) == [8]
    finally:
        t.close_workspace()
