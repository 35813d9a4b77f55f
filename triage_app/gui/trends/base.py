"""What every Trends chart shares: a white plot with readable axes (whole-number ticks on
the axes that count), the class colours of the quarantine table, a legend in a row of its
own above the plot, a click that becomes a table filter, and PNG export."""

from __future__ import annotations

import datetime as dt
from functools import partial
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QFont
from PySide6.QtWidgets import QSizePolicy, QToolTip

from triage_app.core.trends import Trends
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.trends.count_axis import CountAxis
from triage_app.gui.trends.link import Link

GRID_ALPHA = 0.15
DAY_SECONDS = 86_400.0
# The y range above the tallest value: a little air, so a bar or a line's point never
# touches the frame (the legend has a row of its own, outside the plot).
HEADROOM = 1.06
LEGEND_GAP = 4  # pixels between the legend row and the plot
RIGHT_MARGIN = 14  # pixels right of the plot


def dead_letters(n: int) -> str:
    """``1 dead letter``, ``2,000 dead letters`` (Indonesian ``2.000 dead letter``)."""
    return translate("base", "%Ln dead letter(s)", "", n)


def day_x(day: dt.date) -> float:
    """A UTC day on a date axis: its noon, so a bar one day wide sits on its own label."""
    return dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC).timestamp()


def _dispose_all(objects: list[QObject], *_: object) -> None:
    for obj in objects:
        dispose(obj)


def style_axis(axis: pg.AxisItem) -> None:
    """The charts' axis look: dark text and line, the tick font at 9 pt."""
    font = QFont()
    font.setPointSize(9)
    axis.setPen(pg.mkPen(style.TEXT))
    axis.setTextPen(pg.mkPen(style.TEXT))
    axis.setStyle(tickFont=font, tickTextOffset=4)


class LegendRow(pg.GraphicsWidget):
    """A row of the PlotItem's layout between its title and its view box, as wide as the
    view box: what is drawn here (the legend, a note) never covers a bar or a line. Its
    height follows what it holds; empty, it takes none."""

    def __init__(self) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.fit()

    def fit(self) -> None:
        shown = [c for c in self.childItems() if c.isVisible()]
        bottom = max((c.mapRectToParent(c.boundingRect()).bottom() for c in shown), default=0)
        height = bottom + LEGEND_GAP if bottom > 0 else 0
        self.setMinimumHeight(height)
        self.setMaximumHeight(height)
        self.setPreferredHeight(height)
        self.updateGeometry()


class RowLegend(pg.LegendItem):
    """A legend that stays in its row: pyqtgraph's can be dragged over the data."""

    def mouseDragEvent(self, ev: Any) -> None:
        ev.ignore()


class TrendChart(pg.PlotWidget):
    """A pyqtgraph plot styled for reading at a glance; subclasses draw one chart."""

    linked = Signal(object)  # Link
    table_name = ""  # the chart_tables() entry its CSV export writes

    def __init__(
        self,
        left: str,
        bottom: str = "",
        axis_items: dict[str, Any] | None = None,
        counts: tuple[str, ...] = (),
    ):
        """``left``, ``bottom``: the axes' titles, translated; ``counts``: the axes that
        count dead letters, ticked on whole numbers."""
        axes = {name: CountAxis(name) for name in counts} | (axis_items or {})
        super().__init__(background="w", axisItems=axes)
        self.setObjectName(type(self).__name__)
        self.setAntialiasing(True)
        item = self.getPlotItem()
        # pyqtgraph builds both context menus (off here) as parentless windows that only
        # Python references keep, through edges its collector cannot follow: left alone they
        # outlive the chart for good. They are deleted with the chart, in the GUI thread.
        menus = [m for m in (item.ctrlMenu, item.getViewBox().menu) if m is not None]
        self.destroyed.connect(partial(_dispose_all, menus))
        item.setMenuEnabled(False)
        item.hideButtons()
        item.showGrid(x=False, y=True, alpha=GRID_ALPHA)
        for name in ("left", "bottom", "right"):
            style_axis(item.getAxis(name))
        # Room at the right for the last tick label's overhang, where no axis is.
        item.layout.setContentsMargins(1, 1, RIGHT_MARGIN, 1)
        item.setLabel("left", left, color=style.TEXT)
        if bottom:
            item.setLabel("bottom", bottom, color=style.TEXT)
        item.getAxis("left").setWidth(64)
        vb = item.getViewBox()
        vb.setMouseEnabled(x=False, y=False)  # a report, not a canvas: clicks filter
        vb.setMenuEnabled(False)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.scene().sigMouseClicked.connect(self._on_click)
        self.scene().sigMouseMoved.connect(self._on_hover)
        self.trends: Trends | None = None
        # The legend row takes the top axis's cell of the PlotItem's layout (row 1, between
        # the title and the view box): no chart shows a top axis.
        item.layout.removeItem(item.getAxis("top"))
        self.legend_row = LegendRow()
        item.layout.addItem(self.legend_row, 1, 1)

    def legend(self, columns: int = 1) -> pg.LegendItem:
        """The legend, at the left of the row above the plot: items added with a ``name``
        after this join it."""
        legend = RowLegend(labelTextColor=style.TEXT, colCount=columns, frame=False)
        legend.setParentItem(self.legend_row)
        legend.anchor(itemPos=(0, 0), parentPos=(0, 0), offset=(0, 0))
        legend.geometryChanged.connect(self.legend_row.fit)
        self.getPlotItem().legend = legend  # PlotItem.addItem() adds named items to it
        self.legend_row.fit()
        return legend

    def show_trends(self, t: Trends) -> None:
        self.trends = t
        self.draw(t)

    def draw(self, t: Trends) -> None:
        raise NotImplementedError

    def pick(self, x: float, y: float) -> Link | None:
        """The link under the data point (x, y), or None."""
        return None

    def describe(self, x: float, y: float) -> str | None:
        """The numbers under the data point (x, y), for the tooltip; None: nothing there."""
        return None

    def _on_hover(self, pos: Any) -> None:
        vb = self.getPlotItem().getViewBox()
        text = None
        if vb.sceneBoundingRect().contains(pos):
            pt = vb.mapSceneToView(pos)
            text = self.describe(pt.x(), pt.y())
        if text != self.toolTip():
            self.setToolTip(text or "")
            if text:
                QToolTip.showText(QCursor.pos(), text, self)
            else:
                QToolTip.hideText()

    def click(self, x: float, y: float) -> Link | None:
        link = self.pick(x, y)
        if link is not None:
            self.linked.emit(link)
        return link

    def _on_click(self, ev: Any) -> None:
        if ev.button() != Qt.MouseButton.LeftButton or ev.double():
            return
        vb = self.getPlotItem().getViewBox()
        pos = ev.scenePos()
        if vb.sceneBoundingRect().contains(pos):
            pt = vb.mapSceneToView(pos)
            self.click(pt.x(), pt.y())

    def export_png(self, path: Path, size: tuple[int, int] | None = None) -> Path:
        """The chart as shown (or at ``size``), as a PNG file."""
        if size is not None:
            self.resize(*size)
        image = self.grab()
        # Encoded in memory and written by Python: Qt cannot name a file whose name is not
        # UTF-8, and a failed write then raises the OS's own error, naming the file.
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):
            raise OSError(
                fill(translate("TrendChart", "cannot encode the chart for %1"), path.name)
            )
        Path(path).write_bytes(data.data())
        return path


def bars(**opts: Any) -> pg.BarGraphItem:
    """A BarGraphItem without outlines: an outline would draw a zero-height segment of a
    stack as a coloured hairline on top of the bar below it."""
    brush = opts.pop("brush")
    return pg.BarGraphItem(brush=pg.mkBrush(QColor(brush)), pen=pg.mkPen(None), **opts)
