"""A click on a chart, as the table's filter narrows to it: the one thing of Trends the
window needs before any chart exists (the charts import pyqtgraph and numpy, a third of a
second, and are built when the tab is first shown)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Link:
    """A click on a chart, as a narrowing of the quarantine table's filter."""

    label: str  # what the status bar says: "first failed 2026-03-02 · data"
    changes: tuple[tuple[str, Any], ...]  # DeadLetterFilter fields to set
    select_all: bool = False  # a group: select its rows, ready for one re-drive
