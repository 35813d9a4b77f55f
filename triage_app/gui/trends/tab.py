"""The Trends tab: five views a team lead reads to answer "better or worse, which cause,
did last night's release break something". All numbers come from one core call
(``compute_trends``) on the tab's own query thread; the charts only draw them.

A click on a bar, a day or a group emits ``linked`` with a narrowing of the quarantine
table's filter; the window applies it. ``spikeChanged`` carries the spike the banner shows.
"""

from __future__ import annotations

import datetime as dt
import importlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.clock import today
from triage_app.core.db import Workspace, WorkspaceConfig
from triage_app.core.deadletters import DeadLetterFilter, ladder_backlog
from triage_app.core.trends import (
    DEFAULT_SPIKE_FACTOR,
    DEFAULT_SPIKE_WINDOW,
    FILTERED_PARTS,
    Headline,
    Spike,
    SpikeRule,
    Trends,
    banner_spike,
    compute_filtered_trends,
    compute_trends,
)
from triage_app.core.vocabulary import ALL
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.settings import settings_store
from triage_app.gui.trends.groups_view import GroupsView
from triage_app.gui.trends.headline_bar import HeadlineBar
from triage_app.gui.trends.link import Link
from triage_app.gui.trends.words import batch_link, time_of_day_said
from triage_app.gui.workers import QueryThread

if TYPE_CHECKING:
    from triage_app.gui.trends.base import TrendChart

SINCE_CHOICES = (
    (QT_TRANSLATE_NOOP("TrendsTab", "All time"), None),
    (QT_TRANSLATE_NOOP("TrendsTab", "Last 7 days"), 7),
    (QT_TRANSLATE_NOOP("TrendsTab", "Last 30 days"), 30),
    (QT_TRANSLATE_NOOP("TrendsTab", "Last 90 days"), 90),
)
PANEL_MIN_HEIGHT = 210  # a chart's axes, bars and labels stay readable
PANEL_MIN_WIDTH = 300
GROUPS_MIN_HEIGHT = 150  # the groups' filter row, header and four groups
GROUPS_SHARE = 66  # at most this % of the room below the headline, while groups need it
FACTOR_KEY = "trends/spike_factor"
WINDOW_KEY = "trends/spike_window"
FOLLOW_KEY = "trends/follow/{}"
# Which charts follow the quarantine table's filter until the lead says otherwise: the
# attempts histogram, as it always did; the rest show the whole store.
FOLLOWS_BY_DEFAULT = frozenset({"attempts"})
PER_DAY_HINT = QT_TRANSLATE_NOOP("TrendsTab", "quarantined, stacked by class (UTC days)")
PER_BATCH_HINT = QT_TRANSLATE_NOOP("TrendsTab", "quarantined per batch, from its counters")
PRELOAD_AFTER_MS = 300


# Imported off the GUI thread ahead of the charts: numpy alone. pyqtgraph builds Qt types
# and enums as it is imported, which crashed the GUI thread painting meanwhile (a segfault
# in 1 of 40 runs of the keyboard test with the cores busy), so it is imported by the GUI
# thread when the charts are built (0.25-0.33 s more on Trends' first paint).
_THREAD_SAFE_IMPORTS = "numpy"


def _preload_chart_libraries() -> None:
    """Import what the charts need and Qt does not, in a daemon thread. Third-party modules
    only: were one of ours imported here while the GUI thread imported it too, each could
    wait on the other's module lock."""
    if _THREAD_SAFE_IMPORTS in sys.modules:
        return
    threading.Thread(
        target=importlib.import_module,
        args=(_THREAD_SAFE_IMPORTS,),
        name="chart imports",
        daemon=True,
    ).start()


# What ``_build_charts`` makes: asked for before the tab was shown, they are built then.
_CHART_ATTRIBUTES = frozenset(
    {"failures", "backlog", "rate", "attempts", "groups_chart", "per_day", "per_batch", "panels"}
)


@dataclass(frozen=True)
class TrendsRead:
    """One refresh: the whole store, and the table's filter for the charts that follow it
    (None when none does)."""

    whole: Trends | None
    chosen: Trends | None
    parts: frozenset[str] = frozenset()  # the charts ``chosen`` was counted for


def _trends_call(
    f: DeadLetterFilter,
    since: dt.date | None,
    rule: SpikeRule,
    following: frozenset[str],
    whole: bool = True,
) -> Callable[[Workspace], TrendsRead]:
    """A refresh: the whole store (unless ``whole`` is False: the filter changed, only the
    charts that follow it are read) and the charts that follow the filter."""

    def run(ws: Workspace) -> TrendsRead:
        # Every group: the groups' table is the team's backlog.
        everything = compute_trends(ws, None, since=since, rule=rule, top=None) if whole else None
        return TrendsRead(everything, _chosen(ws, f, since, rule, following), following)

    return run


def _chosen(
    ws: Workspace,
    f: DeadLetterFilter,
    since: dt.date | None,
    rule: SpikeRule,
    following: frozenset[str],
) -> Trends | None:
    if not following:
        return None
    return compute_filtered_trends(ws, f, since=since, rule=rule, top=None, parts=following)


def _spike_call(since: dt.date | None, rule: SpikeRule) -> Callable[[Workspace], Spike | None]:
    def run(ws: Workspace) -> Spike | None:
        return banner_spike(ws, since=since, rule=rule)

    return run


class TrendsTab(QWidget):
    linked = Signal(object)  # Link
    groupEditRequested = Signal(object, str)  # ErrorGroup, what: owner, tags or note
    spikeChanged = Signal(object)
    updated = Signal()  # the charts show fresh numbers
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trendsTab")
        self.queries: QueryThread | None = None
        self.filter = DeadLetterFilter()
        self.trends: Trends | None = None  # the whole store
        self.chosen: Trends | None = None  # the table's filter, for the charts that follow it
        self._chosen_parts: frozenset[str] = frozenset()
        self.last_render_ms = 0.0
        self._stale = False  # refreshed while off screen: read again when shown
        self._settings = settings_store()
        self._charts_built = False
        self._build()
        # Off the GUI thread and after the first paint: numpy, so that the charts' first
        # build (on first show) waits only for pyqtgraph's own import.
        if _THREAD_SAFE_IMPORTS not in sys.modules:
            self._preload = QTimer(self, singleShot=True, interval=PRELOAD_AFTER_MS)
            self._preload.timeout.connect(_preload_chart_libraries)
            self._preload.start()

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(8, 6, 8, 2)
        self.since_combo = QComboBox(objectName="trendsSince")
        for text, days in SINCE_CHOICES:
            self.since_combo.addItem(translate("TrendsTab", text), days)
        self.since_combo.currentIndexChanged.connect(self.refresh)
        self.factor_spin = QDoubleSpinBox(objectName="spikeFactor", minimum=1.0, maximum=50.0)
        self.factor_spin.setSingleStep(0.5)
        self.factor_spin.setDecimals(1)
        self.factor_spin.setSuffix(" ×")
        self.factor_spin.setValue(float(self._settings.value(FACTOR_KEY, DEFAULT_SPIKE_FACTOR)))
        self.window_spin = QSpinBox(objectName="spikeWindow", minimum=1, maximum=100)
        self.window_spin.setValue(int(self._settings.value(WINDOW_KEY, DEFAULT_SPIKE_WINDOW)))
        for spin in (self.factor_spin, self.window_spin):
            spin.setToolTip(
                translate(
                    "TrendsTab",
                    "The spike rule: a batch whose quarantine rate exceeds this many "
                    "times the median of this many previous batches",
                )
            )
            spin.valueChanged.connect(self._on_rule_changed)
        self.since_combo.setAccessibleName(translate("TrendsTab", "Trends period"))
        self.factor_spin.setAccessibleName(translate("TrendsTab", "Spike factor"))
        self.window_spin.setAccessibleName(translate("TrendsTab", "Spike window in batches"))
        self.updated_label = QLabel(objectName="trendsUpdated")
        self.updated_label.setStyleSheet(style.HINT)
        bar.setSpacing(6)  # a label never touches its box
        # One sentence around the two boxes: "Spike: rate above [3.0 ×] the median of the
        # previous [5] batches"; each piece is translated to read on with its box.
        for text, widget in (
            (translate("TrendsTab", "Show"), self.since_combo),
            (translate("TrendsTab", "Spike: rate above"), self.factor_spin),
            (translate("TrendsTab", "the median of the previous"), self.window_spin),
        ):
            label = QLabel(text)
            label.setBuddy(widget)
            bar.addWidget(label)
            bar.addWidget(widget)
            bar.addSpacing(10 if widget is self.since_combo else 0)
        n = self.window_spin.value()
        self.batches_label = QLabel(translate("TrendsTab", "batch(es)", "", n))
        bar.addWidget(self.batches_label)
        bar.addStretch(1)
        bar.addWidget(self.updated_label)

        # What a lead reads first, without scrolling at 1280x720: the headline, then the
        # error groups with their owners; the charts below, in a pane of their own.
        self.headline = HeadlineBar()
        self.headline.unownedRequested.connect(self.show_unowned)
        self.headline.spikeRequested.connect(self._show_batch)
        self.groups = GroupsView()
        self.groups.setMinimumHeight(GROUPS_MIN_HEIGHT)
        self.groups.editRequested.connect(self.groupEditRequested)
        self.groups.linked.connect(self.linked)
        # The charts come when the tab is first shown (``_build_charts``): they import
        # pyqtgraph and numpy, a third of a second the window's first page need not wait
        # for (issue 23: the first page at ten million rows under 0.5 s).
        self._scroll = QScrollArea(objectName="trendsCharts")
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self._scroll.setMinimumHeight(PANEL_MIN_HEIGHT // 2)
        self.split = QSplitter(Qt.Orientation.Vertical, objectName="trendsSplit")
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(self.groups)
        self.split.addWidget(self._scroll)
        self.split.setStretchFactor(0, 2)
        self.split.setStretchFactor(1, 3)
        self._split_moved = False  # the lead dragged it: the groups keep that height
        self.split.splitterMoved.connect(lambda *_: setattr(self, "_split_moved", True))
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(4)
        v.addLayout(bar)
        head = QHBoxLayout()
        head.setContentsMargins(6, 0, 6, 0)
        head.addWidget(self.headline)
        v.addLayout(head)
        body = QHBoxLayout()
        body.setContentsMargins(6, 0, 6, 4)
        body.addWidget(self.split)
        v.addLayout(body, 1)

    def __getattr__(self, name: str) -> Any:
        # A chart asked for before the tab was shown (a link, a test, the report): built
        # now. Only for the charts' own names; anything else is a plain AttributeError.
        if name in _CHART_ATTRIBUTES and not self.__dict__.get("_charts_built", False):
            self._build_charts()
            return self.__dict__[name]
        raise AttributeError(name)

    def _build_charts(self) -> None:
        from triage_app.gui.trends.attempts_chart import AttemptsChart
        from triage_app.gui.trends.backlog_chart import BacklogChart
        from triage_app.gui.trends.failures_chart import FailuresChart
        from triage_app.gui.trends.groups_chart import GroupsChart
        from triage_app.gui.trends.panel import ChartPanel
        from triage_app.gui.trends.rate_chart import RateChart

        self._charts_built = True
        self.failures = FailuresChart()
        self.backlog = BacklogChart()
        self.rate = RateChart()
        self.attempts = AttemptsChart()
        self.groups_chart = GroupsChart()

        mode = QWidget()
        mh = QHBoxLayout(mode)
        mh.setContentsMargins(0, 0, 0, 0)
        self.per_day = QRadioButton(
            translate("TrendsTab", "per day"), objectName="failuresPerDay", checked=True
        )
        self.per_batch = QRadioButton(
            translate("TrendsTab", "per batch"), objectName="failuresPerBatch"
        )
        group = QButtonGroup(mode)
        for b in (self.per_day, self.per_batch):
            group.addButton(b)
            mh.addWidget(b)
        self.per_batch.toggled.connect(self._on_mode)

        hint = translate("TrendsTab", "click a bar: the table shows those rows")
        self.panels = {
            "failures": ChartPanel(
                "failures",
                translate("TrendsTab", "Failures over time"),
                translate("TrendsTab", PER_DAY_HINT),
                self.failures,
                self.failures,
                mode,
            ),
            "backlog": ChartPanel(
                "backlog",
                translate("TrendsTab", "Backlog"),
                translate("TrendsTab", "waiting vs resolved"),
                self.backlog,
                self.backlog,
            ),
            "rate": ChartPanel(
                "rate",
                translate("TrendsTab", "Quarantine rate per batch"),
                translate("TrendsTab", "spikes in red"),
                self.rate,
                self.rate,
            ),
            "attempts": ChartPanel(
                "attempts",
                translate("TrendsTab", "Attempts"),
                translate("TrendsTab", "parked in red"),
                self.attempts,
                self.attempts,
            ),
            "groups": ChartPanel(
                "groups",
                translate("TrendsTab", "Largest error groups"),
                translate("TrendsTab", "click a bar: its rows, selected"),
                self.groups_chart,
                self.groups_chart,
            ),
        }
        for chart in self.charts():
            chart.setToolTip(hint)
            chart.linked.connect(self.linked)
        for panel in self.panels.values():
            panel.setMinimumSize(PANEL_MIN_WIDTH, PANEL_MIN_HEIGHT)
            panel.exported.connect(self.message)
            panel.followToggled.connect(self.set_follows)
        self._say_scopes()

        grid_host = QWidget()
        grid = QGridLayout(grid_host)
        grid.setContentsMargins(0, 4, 0, 0)
        grid.setSpacing(6)
        grid.addWidget(self.panels["failures"], 0, 0)
        grid.addWidget(self.panels["backlog"], 0, 1)
        grid.addWidget(self.panels["rate"], 0, 2)
        grid.addWidget(self.panels["groups"], 1, 0, 1, 2)
        grid.addWidget(self.panels["attempts"], 1, 2)
        for col in range(3):
            grid.setColumnStretch(col, 1)
        self._scroll.setWidget(grid_host)

    def charts(self) -> list[TrendChart]:
        return [self.failures, self.backlog, self.rate, self.attempts, self.groups_chart]

    # -- which charts follow the table's filter ---------------------------------------------
    def follows(self, name: str) -> bool:
        stored = self._settings.value(FOLLOW_KEY.format(name), name in FOLLOWS_BY_DEFAULT)
        return stored in (True, "true", "1", 1)

    def following(self) -> frozenset[str]:
        return frozenset(n for n in FILTERED_PARTS if self.follows(n))

    @Slot(str, bool)
    def set_follows(self, name: str, on: bool) -> None:
        """Make chart ``name`` follow the table's filter (or show the whole store), and
        read its numbers again."""
        self._settings.setValue(FOLLOW_KEY.format(name), on)
        if self._charts_built:
            self._say_scopes()
        if on:
            self._read_chosen()
        else:
            self._draw_all()

    def _say_scopes(self) -> None:
        described = self.filter.describe()
        for name, panel in self.panels.items():
            panel.say_scope(
                self.follows(name),
                fill(translate("TrendsTab", "the table's filter: %1"), described),
            )

    @Slot()
    def show_unowned(self) -> None:
        self.groups.show_unowned()

    @Slot(str)
    def _show_batch(self, batch_id: str) -> None:
        self.linked.emit(Link(batch_link(batch_id), (("batch_id", batch_id), ("status", ALL))))

    # -- the workspace --------------------------------------------------------------------
    def open_workspace(self, config: WorkspaceConfig | None) -> None:
        """Its own query thread: a trends refresh never delays the table's counts."""
        self.close_workspace()
        if config is not None:
            self.queries = QueryThread(config, self)
            self.queries.thread.setObjectName("trend queries")
            self.refresh()

    def close_workspace(self) -> None:
        if self.queries is not None:
            self.queries.release()
            self.queries = None

    def rule(self) -> SpikeRule:
        return SpikeRule(factor=self.factor_spin.value(), window=self.window_spin.value())

    def since(self) -> dt.date | None:
        days = self.since_combo.currentData()
        if days is None:
            return None
        return today() - dt.timedelta(days=int(days) - 1)

    # -- reading --------------------------------------------------------------------------
    @Slot()
    def refresh(self) -> None:
        """Read every chart again (after a batch, a re-drive, a change of status). Off
        screen only the banner's spike is read (batch counters, no dead letters counted);
        the charts are read when the tab is shown, so they are current whenever seen."""
        if self.queries is None:
            return
        if not self.isVisible():
            self._stale = True
            self.queries.submit(
                _spike_call(self.since(), self.rule()),
                self.spikeChanged.emit,
                self._failed,
                key="trends-spike",
            )
            return
        self._stale = False
        self.queries.submit(
            _trends_call(self.filter, self.since(), self.rule(), self.following()),
            self.show_read,
            self._failed,
            key="trends",
        )
        # The retry ladder's backlog, in the headline: the waiting rows per step.
        self.queries.submit(ladder_backlog, self.headline.show_ladder, self._failed, key="ladder")

    def _read_chosen(self) -> None:
        """Only what the charts that follow the table's filter show."""
        if self.queries is None or not self.isVisible():
            self._stale = True
            return
        self.queries.submit(
            _trends_call(self.filter, self.since(), self.rule(), self.following(), whole=False),
            self.show_read,
            self._failed,
            key="trends-chosen",
        )

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # The numbers first: the query thread reads them while this one imports pyqtgraph
        # and builds the charts; they are drawn when they come, after the build.
        if self._stale:
            self.refresh()
        if not self._charts_built:
            self._build_charts()
            if self.trends is not None:  # numbers read before the charts existed
                self._draw_all()

    def set_filter(self, f: DeadLetterFilter) -> None:
        """The table's filter changed: the charts that follow it read it again."""
        if f == self.filter:
            return
        self.filter = f
        if self._charts_built:
            self._say_scopes()
        if self.following():
            self._read_chosen()

    def busy(self) -> bool:
        return self.queries is not None and self.queries.busy()

    @Slot(object)
    def show_read(self, read: TrendsRead) -> None:
        if read.whole is not None:
            self.trends = read.whole
        if read.parts or read.whole is None:
            self.chosen, self._chosen_parts = read.chosen, read.parts
        if self.trends is None:
            return
        t = self.trends
        self.headline.show_headline(Headline.of(t))
        self.groups.show_trends(t)
        self._fit_groups()
        self._draw_all()
        total = sum(g.count for g in t.groups)
        n = len(t.per_batch)
        self.updated_label.setText(
            fill(
                translate("TrendsTab", "%Ln batch(es) · updated %1", "", n),
                time_of_day_said(dt.datetime.now()),
            )
            if t.per_batch or total
            else translate("TrendsTab", "no dead letters yet")
        )
        if read.whole is not None:
            self.spikeChanged.emit(t.banner_spike())
        self.updated.emit()

    def show_trends(self, t: Trends) -> None:
        """Show ``t`` (the whole store) everywhere; a chart that follows the filter keeps
        its own numbers until they are read."""
        self.show_read(TrendsRead(t, self.chosen, self._chosen_parts))

    def _fit_groups(self) -> None:
        """The groups' pane as tall as its rows need (within two thirds of the room: on a
        laptop the groups come first, the charts below them), the charts taking the rest;
        not once the lead has dragged the divider."""
        total = sum(self.split.sizes())
        if self._split_moved or total <= 0:
            return
        wanted = self.groups.wanted_height()
        groups = max(GROUPS_MIN_HEIGHT, min(wanted, total * GROUPS_SHARE // 100))
        self.split.setSizes([groups, total - groups])

    def _draw_all(self) -> None:
        if self.trends is None or not self._charts_built:
            return
        started = time.perf_counter()
        for name in FILTERED_PARTS:
            chosen = self.chosen if name in self._chosen_parts and self.follows(name) else None
            self.panels[name].chart.show_trends(chosen or self.trends)
        self.last_render_ms = (time.perf_counter() - started) * 1000

    def _failed(self, message: str) -> None:
        self.message.emit(fill(translate("TrendsTab", "trends: %1"), message))

    @Slot(bool)
    def _on_mode(self, per_batch: bool) -> None:
        self.failures.set_mode("batch" if per_batch else "day")
        hint = PER_BATCH_HINT if per_batch else PER_DAY_HINT
        self.panels["failures"].hint.setText(translate("TrendsTab", hint))
        self.panels["failures"].title.setToolTip(translate("TrendsTab", hint))

    @Slot()
    def _on_rule_changed(self) -> None:
        n = self.window_spin.value()
        self.batches_label.setText(translate("TrendsTab", "batch(es)", "", n))
        self._settings.setValue(FACTOR_KEY, self.factor_spin.value())
        self._settings.setValue(WINDOW_KEY, self.window_spin.value())
        self.refresh()
