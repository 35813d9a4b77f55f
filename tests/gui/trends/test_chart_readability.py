"""The Trends charts read right for a newcomer at 1280x720, offscreen: a one-day backlog
shows its point, per-batch bars are told apart by their source file (or id), counts tick on
whole numbers, and no legend covers the plot."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest
from PySide6.QtGui import QColor, QImage

from triage_app.core.deadletters import ErrorGroup
from triage_app.core.trends.model import (
    AttemptsBucket,
    BacklogPoint,
    BatchPoint,
    DayCount,
    Trends,
)
from triage_app.core.trends.spikes import SpikeRule
from triage_app.gui import style
from triage_app.gui.trends.attempts_chart import AttemptsChart
from triage_app.gui.trends.backlog_chart import BacklogChart
from triage_app.gui.trends.count_axis import CountAxis, count_text
from triage_app.gui.trends.failures_chart import FailuresChart
from triage_app.gui.trends.groups_chart import GroupsChart
from triage_app.gui.trends.rate_chart import RateChart
from triage_app.gui.trends.time_axis import BatchAxis

DAY = dt.date(2026, 12, 1)
START = dt.datetime(2026, 12, 1, 1, 0)


def batch(i: int, source: str, quarantined: int = 5) -> BatchPoint:
    return BatchPoint(
        batch_id=f"{i:02d}c0ffee{i:08x}",
        source_name=source,
        transform="pesanan@1",
        started_at=START + dt.timedelta(minutes=9 * i),
        rows=100,
        quarantined=quarantined,
        by_class={"data": quarantined, "code": 0, "transient": 0},
    )


def trends(
    *,
    open_: int = 517,
    per_batch: tuple[BatchPoint, ...] = (),
    attempts: tuple[AttemptsBucket, ...] = (),
    per_day: tuple[DayCount, ...] = (),
) -> Trends:
    """One day of history: every dead letter quarantined on DAY."""
    return Trends(
        since=None,
        attempts=attempts,
        per_day=per_day or (DayCount(DAY, {"data": open_, "code": 0, "transient": 0}),),
        per_batch=per_batch,
        backlog=(BacklogPoint(DAY, open_, 0, open_, 0, 0),),
        groups=(),
        checks=tuple(SpikeRule().check([b.rate for b in per_batch])),
    )


def shown(qtbot, chart, t: Trends, size: tuple[int, int] = (600, 300)):  # type: ignore[no-untyped-def]
    qtbot.addWidget(chart)
    chart.resize(*size)
    chart.show()
    chart.show_trends(t)
    qtbot.waitExposed(chart)
    qtbot.wait(10)
    return chart


def ticks(axis, lo: float, hi: float, pixels: float) -> tuple[list[float], list[str]]:  # type: ignore[no-untyped-def]
    values = [v for _, level in axis.tickValues(lo, hi, pixels) for v in level]
    return values, axis.tickStrings(values, 1.0, 1.0)


# 1. A one-day backlog shows its point.


def test_a_one_day_backlog_draws_its_point(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    chart = shown(qtbot, BacklogChart(), trends(open_=517))
    x, y = chart.open_line.getData()
    assert len(x) == 1 and list(y) == [517]
    assert chart.open_line.opts["symbol"] is not None  # a line of one point draws nothing
    assert chart.resolved_line.opts["symbol"] is not None
    # On screen (and in report's backlog.png): a pixel of the open colour in the view box.
    png = chart.export_png(tmp_path / "backlog.png")
    image = QImage(str(png))
    vb = chart.getPlotItem().getViewBox()
    rect = chart.mapFromScene(vb.sceneBoundingRect()).boundingRect()
    ratio = image.width() / chart.width()
    want = QColor(style.OPEN)
    found = any(
        _near(QColor(image.pixel(int(px * ratio), int(py * ratio))), want)
        for px in range(rect.left() + 1, rect.right() - 1)
        for py in range(rect.top() + 1, rect.bottom() - 1)
    )
    assert found, "no pixel of the open line's colour inside the plot"


def _near(a: QColor, b: QColor) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 40


def test_a_long_backlog_draws_a_plain_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    days = [DAY - dt.timedelta(days=i) for i in range(60)][::-1]
    t = replace(trends(), backlog=tuple(BacklogPoint(d, 5, 1, 1, 0, 0) for d in days))
    chart = shown(qtbot, BacklogChart(), t)
    assert chart.open_line.opts["symbol"] is None  # 60 markers would blot the line


# 2. Per-batch charts tell the batches apart.


def _ten(sources: list[str]) -> tuple[BatchPoint, ...]:
    return tuple(batch(i, s) for i, s in enumerate(sources))


@pytest.mark.parametrize("width", [1100, 560])
def test_ten_batches_of_one_day_are_named_by_their_source_files(qtbot, width: int) -> None:  # type: ignore[no-untyped-def]
    t = trends(per_batch=_ten([f"/data/in/orders_{i:02d}.jsonl" for i in range(10)]))
    for chart in (RateChart(), FailuresChart()):
        if isinstance(chart, FailuresChart):
            chart.set_mode("batch")
        shown(qtbot, chart, t, (width, 300))
        axis = chart.getPlotItem().getAxis("bottom")
        assert isinstance(axis, BatchAxis)
        lo, hi = chart.getPlotItem().getViewBox().viewRange()[0]
        values, labels = ticks(axis, lo, hi, axis.geometry().width())
        if width == 1100:
            assert labels == [f"orders_{i:02d}" for i in range(10)]
        assert len(labels) == len(set(labels)) >= 5, labels
        assert all(label and DAY.isoformat() not in label for label in labels), labels
        assert values[-1] == 9  # the newest batch is always named
        # The tooltip keeps what the label leaves out: the full name, the id, the time.
        tip = chart.describe(9, 1)
        assert tip is not None
        assert "orders_09.jsonl" in tip and t.per_batch[9].batch_id[:8] in tip
        assert "1 Dec 2026 02:21" in tip


def test_batches_of_one_source_name_are_named_by_short_id(qtbot) -> None:  # type: ignore[no-untyped-def]
    t = trends(per_batch=_ten(["orders.jsonl"] * 10))
    chart = shown(qtbot, RateChart(), t, (1100, 300))
    axis = chart.batch_axis
    values, labels = ticks(axis, -0.8, 9.8, 1000)
    assert values == [float(i) for i in range(10)]
    assert labels == [b.batch_id[:8] for b in t.per_batch]
    assert len(set(labels)) == 10 and all(len(label) == 8 for label in labels)


def test_long_shared_names_lose_their_shared_start_before_anything_else(qtbot) -> None:  # type: ignore[no-untyped-def]
    names = [f"nightly_orders_export_2026-12-01_part{i:02d}.jsonl" for i in range(10)]
    chart = shown(qtbot, RateChart(), trends(per_batch=_ten(names)), (560, 260))
    values, labels = ticks(chart.batch_axis, -0.8, 9.8, 480)
    assert len(labels) >= 5 and len(set(labels)) == len(labels)
    # What tells them apart (the part number) survives; the start all share goes first.
    for v, label in zip(values, labels, strict=True):
        assert label.startswith("…") and label.endswith(f"{int(v):02d}"), labels


# 3. Counts tick on whole numbers.


def _count_axes(qtbot, top: int) -> dict[str, CountAxis]:  # type: ignore[no-untyped-def]
    t = trends(
        open_=top,
        per_batch=(batch(0, "a.jsonl", top),),
        attempts=(AttemptsBucket(1, top, 0), AttemptsBucket(2, top // 2, 0)),
    )
    t = replace(t, groups=(_group("DataError: qty", top), _group("KeyError: x", 1)))
    failures = shown(qtbot, FailuresChart(), t)
    backlog = shown(
        qtbot, BacklogChart(), replace(t, backlog=(BacklogPoint(DAY, top, top, 0, 0, 0),))
    )
    attempts = shown(qtbot, AttemptsChart(), t)
    groups = shown(qtbot, GroupsChart(), t)
    axes = {
        "failures left": failures.getPlotItem().getAxis("left"),
        "backlog left": backlog.getPlotItem().getAxis("left"),
        "backlog right": backlog.getPlotItem().getAxis("right"),
        "attempts left": attempts.getPlotItem().getAxis("left"),
        "groups bottom": groups.getPlotItem().getAxis("bottom"),
    }
    for name, axis in axes.items():
        assert isinstance(axis, CountAxis), name
    return axes


def _group(signature: str, count: int) -> ErrorGroup:
    return ErrorGroup(signature, "data", count, {"open": count}, START, START)


@pytest.mark.parametrize("top", [1, 2, 3, 7])
def test_count_axes_tick_on_whole_numbers(qtbot, top: int) -> None:  # type: ignore[no-untyped-def]
    for name, axis in _count_axes(qtbot, top).items():
        lo, hi = axis.range
        assert hi >= top, name
        for pixels in (60.0, 150.0, 400.0, 900.0):
            values, labels = ticks(axis, lo, hi, pixels)
            assert values, (name, pixels)
            assert all(v == int(v) for v in values), (name, pixels, values)
            assert all("." not in s for s in labels), (name, labels)
            assert [int(s) for s in labels] == [int(v) for v in values]
            spacing = axis.tickSpacing(lo, hi, pixels)
            assert all(step >= 1 and step == int(step) for step, _ in spacing), spacing
        if top <= 2:  # a small range still shows every whole number
            values, _ = ticks(axis, lo, hi, 150.0)
            assert values == [float(v) for v in range(top + 1)], (name, values)


def test_count_labels_separate_thousands() -> None:
    axis = CountAxis("left")
    values, labels = ticks(axis, 0, 12_345, 300)
    assert all(v == int(v) for v in values)
    assert "10,000" in labels and "2,000" in labels
    assert count_text(1_250_000) == "1.25M" and count_text(3_000_000) == "3M"
    assert count_text(999_000) == "999,000"


def test_a_short_count_axis_thins_its_ticks_to_fit() -> None:
    axis = CountAxis("left")
    values, _ = ticks(axis, 0, 7.4, 60)  # about two text lines tall
    assert len(values) <= 3 and all(v == int(v) for v in values)


# 4. Legends outside the plot.


def _plot_trends() -> Trends:
    return trends(
        open_=40,
        per_batch=_ten([f"orders_{i:02d}.jsonl" for i in range(10)]),
        attempts=(AttemptsBucket(1, 40, 0), AttemptsBucket(2, 9, 3), AttemptsBucket(3, 2, 2)),
    )


@pytest.mark.parametrize("make", [FailuresChart, BacklogChart, RateChart, AttemptsChart])
def test_no_legend_lies_over_the_plot(qtbot, make) -> None:  # type: ignore[no-untyped-def]
    chart = shown(qtbot, make(), _plot_trends(), (600, 300))
    item = chart.getPlotItem()
    legend = item.legend
    assert legend is not None and legend.isVisible() and legend.items
    plot = item.getViewBox().sceneBoundingRect()
    box = legend.sceneBoundingRect()
    assert box.width() > 20 and box.height() > 5
    assert not box.intersects(plot), (box, plot)
    assert chart.rect().contains(chart.mapFromScene(box).boundingRect())  # in the PNG too


def test_the_purge_note_lies_outside_the_plot_too(qtbot) -> None:  # type: ignore[no-untyped-def]
    from triage_app.core.trends.model import PurgeNote

    t = replace(_plot_trends(), purges=(PurgeNote(dt.datetime(2026, 12, 1), 1234, ("resolved",)),))
    chart = shown(qtbot, FailuresChart(), t, (560, 260))
    assert chart.purge_note.isVisible()
    assert "1,234 rows purged on 1 Dec 2026" in chart.purge_note.textItem.toPlainText()
    plot = chart.getPlotItem().getViewBox().sceneBoundingRect()
    note = chart.purge_note.sceneBoundingRect()
    legend = chart.getPlotItem().legend.sceneBoundingRect()
    assert not note.intersects(plot) and not note.intersects(legend)
    assert chart.rect().contains(chart.mapFromScene(note).boundingRect())


def test_a_source_name_is_one_line_of_its_stem() -> None:
    from triage_app.gui.trends.time_axis import source_stem

    assert source_stem("/srv/in/orders_01.jsonl") == "orders_01"
    assert source_stem("C:\\in\\orders_02.csv") == "orders_02"
    assert source_stem("ord\u202eers\x1b\n.jsonl") == "ord ers  "
