"""The team lead's morning on one laptop screen (issue 24): the real window at 1280x720 over
ten nights whose last one spiked with data errors (``core/demo/morning.py``). Without
scrolling: the headline (open rows, oldest wait, the spike with its verdict, the groups
nobody owns) and the error groups with owner, tags, note and oldest open. "Unowned" is said
and filterable from the headline. Each chart says whether it follows the table's filter,
and the toggle changes what it draws."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QWidget

from triage_app.core.db import open_workspace
from triage_app.core.demo.morning import OWNED, QTY, fill_morning
from triage_app.core.locale_format import format_date
from triage_app.core.vocabulary import NOBODY
from triage_app.gui.trends.groups_view import (
    COL_FIRST,
    COL_NOTE,
    COL_OWNER,
    COL_TAGS,
    COL_TREND,
    COL_WAITED,
    UNOWNED,
)


@pytest.fixture(scope="module")
def morning(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("morning") / "ws"
    with open_workspace(folder) as ws:
        fill_morning(ws, "data")
    return folder


@pytest.fixture
def lead(qtbot, open_main_window, morning):  # type: ignore[no-untyped-def]
    w = open_main_window(morning)
    w.resize(1280, 720)
    w.tabs.setCurrentWidget(w.trends)
    qtbot.waitUntil(lambda: w.trends.trends is not None and not w.trends.busy(), timeout=10_000)
    qtbot.wait(50)  # the layout settles on the groups' rows
    return w


def _shown_whole(widget: QWidget, window: QWidget) -> bool:
    """``widget`` is visible and lies inside the window's own rectangle."""
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(window, widget.rect().topLeft())
    return window.rect().contains(QRect(top_left, widget.size()))


def test_the_headline_and_the_owned_groups_fit_1280x720(lead) -> None:  # type: ignore[no-untyped-def]
    trends = lead.trends
    assert lead.size().width() <= 1280 and lead.size().height() <= 720
    for tile in (
        trends.headline.open_tile,
        trends.headline.wait_tile,
        trends.headline.spike_tile,
        trends.headline.unowned_tile,
    ):
        assert _shown_whole(tile, lead), tile.objectName()
    table = trends.groups.table
    assert _shown_whole(table, lead)
    viewport = table.viewport().rect()
    header = table.horizontalHeader()
    for col in (COL_WAITED, COL_OWNER, COL_TAGS, COL_NOTE, COL_TREND):
        left = header.sectionViewportPosition(col)
        assert left >= 0 and left + header.sectionSize(col) <= viewport.width(), col
    # Every group with an owner, and at least five groups, without scrolling down.
    rows_seen = viewport.height() // table.verticalHeader().defaultSectionSize()
    assert rows_seen >= 5
    model = trends.groups.model
    owned = [i for i, g in enumerate(model.groups) if g.owner]
    assert owned and max(owned) < rows_seen


def test_the_headline_says_it_in_numbers(lead) -> None:  # type: ignore[no-untyped-def]
    h = lead.trends.headline.headline
    t = lead.trends.trends
    assert h.open_now == t.backlog[-1].open > 0
    unowned = [g for g in t.groups if g.owner is None]
    assert h.unowned == len(unowned) == len(t.groups) - len(OWNED)
    assert f">{h.unowned:,}<" in lead.trends.headline.unowned_tile.text()
    assert "groups nobody owns" in lead.trends.headline.unowned_tile.text()
    assert "d" in lead.trends.headline.wait_tile.text()  # nine days: "9 d"
    spike = lead.trends.headline.spike_tile
    assert "data errors" in spike.text() and "release" not in spike.text()
    assert "the source sent 254 rows that fail the same check" in spike.toolTip()
    # The window's banner: the verdict, never the transform's blame.
    banner = lead.spike_banner
    assert not banner.isHidden()
    assert "The source sent" in banner.text.text() and QTY in banner.text.text()
    assert "broke" not in banner.text.text()


def test_unowned_is_said_and_the_headline_filters_to_it(qtbot, lead) -> None:  # type: ignore[no-untyped-def]
    groups = lead.trends.groups
    model = groups.model
    every = len(model.groups)
    said = [model.index(i, COL_OWNER).data() for i in range(every)]
    assert said.count(UNOWNED) == every - len(OWNED)
    lead.trends.headline.unowned_tile.linkActivated.emit("unowned")
    assert groups.owner_combo.currentData() == NOBODY
    assert len(model.groups) == every - len(OWNED)
    assert all(g.owner is None for g in model.groups)
    assert groups.count_label.text().startswith(f"{every - len(OWNED)} of")


def test_since_when_and_which_release_in_the_groups(lead) -> None:  # type: ignore[no-untyped-def]
    model = lead.trends.groups.model
    row = next(i for i, g in enumerate(model.groups) if g.signature == QTY)
    g = model.groups[row]
    assert g.first_transform == "pesanan@1" and g.first_batch and g.first_source
    first = model.index(row, COL_FIRST).data()
    assert first.startswith(format_date(g.first_seen.date())) and "pesanan@1" in first
    assert g.first_source in model.index(row, COL_FIRST).data(3)  # the tooltip names the file
    assert model.index(row, COL_TREND).data() == f"▲ +{g.last_24h:,}" and g.trend == "growing"


def test_each_chart_says_whether_it_follows_the_filter_and_a_lead_toggles_it(  # type: ignore[no-untyped-def]
    qtbot, lead
) -> None:
    trends = lead.trends
    scopes = {name: panel.scope.text() for name, panel in trends.panels.items()}
    assert scopes["attempts"].startswith("— the table's filter: status open")
    assert {scopes[n] for n in ("failures", "backlog", "rate", "groups")} == {"— whole store"}

    whole = sum(float(v) for v in np.asarray(trends.failures.stack["data"].opts["height"]))
    # Follow: the failures chart counts only the table's rows (class code, any status).
    with qtbot.waitSignal(trends.updated, timeout=10_000):
        trends.panels["failures"].follow.setChecked(True)
    lead.filter_bar.class_combo.setCurrentIndex(lead.filter_bar.class_combo.findData("code"))
    qtbot.waitUntil(lambda: "class code" in trends.panels["failures"].scope.text())
    qtbot.waitUntil(
        lambda: (
            sum(np.asarray(trends.failures.stack["data"].opts["height"])) == 0
            and sum(np.asarray(trends.failures.stack["code"].opts["height"])) > 0
        ),
        timeout=10_000,
    )
    assert trends.panels["backlog"].scope.text() == "— whole store"
    assert trends.follows("failures")
    # And back: the whole store again, at once.
    trends.panels["failures"].follow.setChecked(False)
    assert trends.panels["failures"].scope.text() == "— whole store"
    again = sum(float(v) for v in np.asarray(trends.failures.stack["data"].opts["height"]))
    assert again == whole
