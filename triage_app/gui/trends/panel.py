"""A titled frame around one chart, with its PNG and CSV export buttons."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.trends import chart_tables, write_csv
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.trends.base import TrendChart

WHOLE_STORE = QT_TRANSLATE_NOOP("ChartPanel", "whole store")


class ChartPanel(QFrame):
    """A chart under its title, with what it covers: the whole store, or the quarantine
    table's filter (the "follows the filter" box, which a lead toggles). ``title`` and
    ``hint`` come translated; ``name`` is a key (object names, settings)."""

    exported = Signal(str)  # a line for the status bar
    followToggled = Signal(str, bool)  # the panel's name, follows the table's filter

    def __init__(
        self,
        name: str,
        title: str,
        hint: str,
        body: QWidget,
        chart: TrendChart,
        extra: QWidget | None = None,
    ) -> None:
        super().__init__(objectName=f"panel_{name}")
        self.name = name
        self.chart = chart
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"#panel_{name} {{ background: white; }}")
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(f"<b>{title}</b>", objectName=f"title_{name}")
        # A third of a laptop screen is narrow: the hint is clipped before anything else.
        self.hint = QLabel(hint, self)
        self.hint.setStyleSheet(style.HINT)
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setToolTip(hint)
        self.follow = QCheckBox(
            translate("ChartPanel", "follows the filter"), objectName=f"follow_{name}"
        )
        self.follow.setToolTip(
            translate(
                "ChartPanel",
                "Checked: this chart counts only the rows the quarantine table's filter "
                "chooses. Unchecked: the whole store.",
            )
        )
        self.follow.setAccessibleName(
            fill(translate("ChartPanel", "%1 follows the table's filter"), title)
        )
        self.follow.toggled.connect(lambda on: self.followToggled.emit(self.name, on))
        self.scope = QLabel(translate("ChartPanel", WHOLE_STORE), objectName=f"scope_{name}")
        self.scope.setStyleSheet(style.HINT)
        self.scope.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.addWidget(self.title)
        head.addSpacing(8)
        if extra is None:
            head.addWidget(self.hint, 1)
        else:  # its own controls say what it shows; the hint is the title's tooltip
            self.hint.hide()
            head.addStretch(1)
            head.addWidget(extra)
        self.png_button = self._button(
            "png",
            translate("ChartPanel", "PNG…"),
            translate("ChartPanel", "Save the chart as a PNG image"),
            self.ask_png,
        )
        self.csv_button = self._button(
            "csv",
            translate("ChartPanel", "CSV…"),
            translate("ChartPanel", "Save the chart's numbers as CSV"),
            self.ask_csv,
        )
        # Five panels each have a "PNG…": the spoken name says which chart.
        self.png_button.setAccessibleName(fill(translate("ChartPanel", "Export %1 as PNG"), title))
        self.csv_button.setAccessibleName(fill(translate("ChartPanel", "Export %1 as CSV"), title))
        self.title_text = title
        foot = QHBoxLayout()
        foot.setContentsMargins(0, 0, 0, 0)
        foot.addWidget(self.follow)
        foot.addWidget(self.scope, 1)
        foot.addWidget(self.png_button)
        foot.addWidget(self.csv_button)
        v = QVBoxLayout(self)
        v.setContentsMargins(8, 6, 8, 6)
        v.setSpacing(2)
        v.addLayout(head)
        v.addWidget(body, 1)
        v.addLayout(foot)

    def say_scope(self, follows: bool, described: str) -> None:
        """Say what the chart covers: the filter, in words, or the whole store."""
        self.follow.blockSignals(True)
        self.follow.setChecked(follows)
        self.follow.blockSignals(False)
        whole = translate("ChartPanel", WHOLE_STORE)
        self.scope.setText(f"— {described}" if follows else f"— {whole}")
        self.scope.setToolTip(described if follows else "")

    def _button(self, kind: str, text: str, tip: str, slot: Callable[[], None]) -> QToolButton:
        b = QToolButton(text=text, objectName=f"{kind}_{self.name}")
        b.setToolTip(tip)
        b.setAutoRaise(True)
        b.clicked.connect(slot)
        return b

    def export_png(self, path: Path) -> Path:
        return self.chart.export_png(path)

    def export_csv(self, path: Path) -> Path:
        if self.chart.trends is None:
            raise ValueError(translate("ChartPanel", "no numbers yet"))
        write_csv(path, chart_tables(self.chart.trends)[self.chart.table_name])
        return path

    @Slot()
    def ask_png(self) -> None:
        self._ask(translate("ChartPanel", "PNG image (*.png)"), ".png", self.export_png)

    @Slot()
    def ask_csv(self) -> None:
        self._ask(translate("ChartPanel", "CSV file (*.csv)"), ".csv", self.export_csv)

    def _ask(self, filter_: str, suffix: str, write: Callable[[Path], Path]) -> None:
        default = f"{self.chart.table_name or self.name}{suffix}"
        path, _ = QFileDialog.getSaveFileName(
            self, fill(translate("ChartPanel", "Export %1"), self.title_text), default, filter_
        )
        if not path:
            return
        try:
            write(Path(path))
        except (OSError, ValueError) as exc:
            self.exported.emit(fill(translate("ChartPanel", "not exported: %1"), str(exc)))
        else:
            self.exported.emit(fill(translate("ChartPanel", "exported %1"), Path(path).name))
