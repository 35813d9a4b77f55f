"""The filter row above the quarantine table: class, status, batch, transform, the error
group's owner and tag, attempts, search; and the source picker, which the window shows in
the row above once the store has connectors. It only builds a ``DeadLetterFilter``; the
model runs it in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QWidget,
)

from triage_app.core.batch import BatchInfo
from triage_app.core.deadletters import FILES, DeadLetterFilter
from triage_app.core.vocabulary import ALL, ErrorClass, Status
from triage_app.gui import pickers, style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.pickers import OWNER_CHOICES, TAG_CHOICES
from triage_app.gui.quarantine.model import shown_time
from triage_app.gui.shortcuts import with_keys

if TYPE_CHECKING:
    from triage_app.gui.trends.link import Link

# The pickers' choices: (label, value); None is "any". The labels are translated where
# they are offered.
CLASS_CHOICES = (
    (QT_TRANSLATE_NOOP("FilterBar", "All"), None),
    (QT_TRANSLATE_NOOP("FilterBar", "Data"), ErrorClass.DATA.value),
    (QT_TRANSLATE_NOOP("FilterBar", "Code"), ErrorClass.CODE.value),
    (QT_TRANSLATE_NOOP("FilterBar", "Transient"), ErrorClass.TRANSIENT.value),
)
STATUS_CHOICES = (
    (QT_TRANSLATE_NOOP("FilterBar", "Open"), Status.OPEN.value),
    (QT_TRANSLATE_NOOP("FilterBar", "Parked"), Status.PARKED.value),
    (QT_TRANSLATE_NOOP("FilterBar", "Resolved"), Status.RESOLVED.value),
    (QT_TRANSLATE_NOOP("FilterBar", "Discarded"), Status.DISCARDED.value),
    (QT_TRANSLATE_NOOP("FilterBar", "All"), ALL),
)
# The source picker's first choices: every source, and the desk's own batches (files).
SOURCE_CHOICES: tuple[tuple[str, str | None], ...] = (
    (QT_TRANSLATE_NOOP("FilterBar", "All sources"), None),
    (QT_TRANSLATE_NOOP("FilterBar", "Files"), FILES),
)
SEARCH_DEBOUNCE_MS = 300
PAIR_SPACING = 3


class FilterBar(QWidget):
    filterChanged = Signal(object)  # DeadLetterFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        h = QHBoxLayout(self)
        h.setContentsMargins(4, 2, 4, 2)
        h.setSpacing(10)

        self.class_combo = QComboBox(objectName="classFilter")
        for text, value in CLASS_CHOICES:
            self.class_combo.addItem(translate("FilterBar", text), value)
        self.status_combo = QComboBox(objectName="statusFilter")
        for text, value in STATUS_CHOICES:
            self.status_combo.addItem(translate("FilterBar", text), value)
        self.batch_combo = QComboBox(objectName="batchFilter")
        self.batch_combo.setMinimumContentsLength(10)  # "1a2b3c4d · orders": the id, a name
        self.batch_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.batch_combo.addItem(translate("FilterBar", "all"), None)
        # Where the rows came from: the desk's files, or a connector (a dead-letter queue
        # or table imported from). Shown once the store has a connector (``set_sources``),
        # in the row above the filters, which has room: this row fills a 1280-pixel laptop
        # already (a picker more held the window wider than issue 20's 92% of the screen).
        self.source_combo = QComboBox(objectName="sourceFilter")
        self.source_combo.setAccessibleName(translate("FilterBar", "Source filter"))
        self.source_combo.setToolTip(
            translate("FilterBar", "Only the rows imported from this queue or table, or files")
        )
        self.source_box = QWidget(self, objectName="sourcePicker")
        source_label = QLabel(translate("FilterBar", "Source"))
        source_label.setBuddy(self.source_combo)
        pair = QHBoxLayout(self.source_box)
        pair.setContentsMargins(0, 0, 0, 0)
        pair.setSpacing(PAIR_SPACING)
        pair.addWidget(source_label)
        pair.addWidget(self.source_combo)
        self.transform_combo = QComboBox(objectName="transformFilter")
        self.transform_combo.addItem(translate("FilterBar", "all"), None)
        # The team backlog (issue 13): the rows of the error groups someone owns or tagged.
        self.owner_combo = QComboBox(objectName="ownerFilter")
        self.owner_combo.setToolTip(
            translate("FilterBar", "Only the rows of the error groups this steward owns")
        )
        self.tag_combo = QComboBox(objectName="tagFilter")
        self.tag_combo.setToolTip(
            translate("FilterBar", "Only the rows of the error groups tagged so")
        )
        self.set_team([], [])
        self.attempts_spin = QSpinBox(objectName="attemptsFilter", minimum=1, maximum=999)
        self.attempts_spin.setPrefix("≥ ")
        self.attempts_spin.setToolTip(
            translate("FilterBar", "Only dead letters that failed at least this often")
        )
        self.search = QLineEdit(objectName="searchBox")
        self.search.setPlaceholderText(
            with_keys(
                translate("FilterBar", "search payload and error"), QKeySequence.StandardKey.Find
            )
        )
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(130)  # on a 1280-pixel laptop it still says what it is
        self.search.setToolTip(
            translate("FilterBar", "Literal text: % _ and quotes are plain characters")
        )

        for label, widget, name in (
            (
                translate("FilterBar", "Class"),
                self.class_combo,
                translate("FilterBar", "Class filter"),
            ),
            (
                translate("FilterBar", "Status"),
                self.status_combo,
                translate("FilterBar", "Status filter"),
            ),
            (
                translate("FilterBar", "Batch"),
                self.batch_combo,
                translate("FilterBar", "Batch filter"),
            ),
            (
                translate("FilterBar", "Transform"),
                self.transform_combo,
                translate("FilterBar", "Transform filter"),
            ),
            (
                translate("FilterBar", "Owner"),
                self.owner_combo,
                translate("FilterBar", "Owner filter"),
            ),
            (translate("FilterBar", "Tag"), self.tag_combo, translate("FilterBar", "Tag filter")),
            (
                translate("FilterBar", "Attempts"),
                self.attempts_spin,
                translate("FilterBar", "Minimum attempts filter"),
            ),
        ):
            shown = QLabel(label)
            shown.setBuddy(widget)
            widget.setAccessibleName(name)
            # Each label close to its picker, the pairs apart: read as pairs, and narrow
            # enough for the window's first size on a 1280-pixel laptop (92% of it).
            pair = QHBoxLayout()
            pair.setSpacing(PAIR_SPACING)
            pair.addWidget(shown)
            pair.addWidget(widget)
            h.addLayout(pair)
        self._with_filters = True
        self.set_sources([])
        self.search.setAccessibleName(translate("FilterBar", "Search dead letters"))
        h.addWidget(self.search, 1)
        # A narrowing the pickers cannot show (a day, an exact attempt count, an error
        # group), chosen by a click in the Trends tab; the chip says what, ✕ lifts it.
        self._extra: dict[str, Any] = {}
        self.link_chip = QLabel(objectName="linkChip")
        self.link_chip.setStyleSheet(style.LINK_CHIP)
        self.link_clear = QToolButton(objectName="linkClear", text="✕")
        self.link_clear.setAutoRaise(True)
        self.link_clear.setToolTip(translate("FilterBar", "Lift the narrowing chosen in Trends"))
        # ✕ says nothing aloud
        self.link_clear.setAccessibleName(translate("FilterBar", "Lift the narrowing"))
        self.link_clear.clicked.connect(self.clear_link)
        for w in (self.link_chip, self.link_clear):
            h.addWidget(w)
            w.hide()

        self._debounce = QTimer(self, singleShot=True, interval=SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(self._emit)
        self.class_combo.currentIndexChanged.connect(self._emit)
        self.status_combo.currentIndexChanged.connect(self._emit)
        self.batch_combo.currentIndexChanged.connect(self._emit)
        self.source_combo.currentIndexChanged.connect(self._emit)
        self.transform_combo.currentIndexChanged.connect(self._emit)
        self.owner_combo.currentIndexChanged.connect(self._emit)
        self.tag_combo.currentIndexChanged.connect(self._emit)
        self.attempts_spin.valueChanged.connect(self._emit)
        self.search.textChanged.connect(self._on_search_typed)
        self._quiet = False
        self._last = self.current_filter()

    def focus_order(self) -> list[QWidget]:
        """The controls in the order Tab visits them: as they stand, left to right."""
        return [
            self.source_combo,  # in the row above, the first it shows
            self.class_combo,
            self.status_combo,
            self.batch_combo,
            self.transform_combo,
            self.owner_combo,
            self.tag_combo,
            self.attempts_spin,
            self.search,
            self.link_clear,
        ]

    def current_filter(self) -> DeadLetterFilter:
        search = self.search.text()
        attempts = self.attempts_spin.value()
        return DeadLetterFilter(
            error_class=self.class_combo.currentData(),
            status=self.status_combo.currentData() or Status.OPEN,
            batch_id=self.batch_combo.currentData(),
            source=self.source_combo.currentData(),
            transform=self.transform_combo.currentData(),
            owner=self.owner_combo.currentData(),
            tag=self.tag_combo.currentData(),
            min_attempts=attempts if attempts > 1 else None,
            search=search if search.strip() else None,
            **self._extra,
        )

    def apply_link(self, link: Link) -> None:
        """Show what a Trends click chose: class, status and batch in their pickers, the
        rest as the chip. Replaces an earlier chip; the other pickers stay as they are."""
        changes = dict(link.changes)
        self._quiet = True
        if "error_class" in changes:
            self.class_combo.setCurrentIndex(
                max(self.class_combo.findData(changes["error_class"]), 0)
            )
        if "status" in changes:
            self.status_combo.setCurrentIndex(max(self.status_combo.findData(changes["status"]), 0))
        if "batch_id" in changes:
            i = self.batch_combo.findData(changes["batch_id"])
            if i < 0:
                self.batch_combo.addItem(str(changes["batch_id"])[:8], changes["batch_id"])
                i = self.batch_combo.count() - 1
            self.batch_combo.setCurrentIndex(i)
        for combo, key in ((self.owner_combo, "owner"), (self.tag_combo, "tag")):
            if key in changes:
                pickers.choose(combo, changes[key])
        self._quiet = False
        shown = ("error_class", "status", "batch_id", "owner", "tag")
        self._extra = {k: v for k, v in changes.items() if k not in shown}
        self.link_chip.setText(fill(translate("FilterBar", "Trends: %1"), link.label))
        self.link_chip.setToolTip(link.label)
        for w in (self.link_chip, self.link_clear):
            w.setVisible(bool(self._extra))
        self._emit()

    @Slot()
    def clear_link(self) -> None:
        self._extra = {}
        self.link_chip.hide()
        self.link_clear.hide()
        self._emit()

    def set_batches(self, batches: Sequence[BatchInfo]) -> None:
        """Fill the batch picker, newest first, keeping the current choice."""
        current = self.batch_combo.currentData()
        self.batch_combo.blockSignals(True)
        self.batch_combo.clear()
        self.batch_combo.addItem(translate("FilterBar", "all"), None)
        for b in batches:
            self.batch_combo.addItem(f"{b.batch_id[:8]} · {b.source_name}", b.batch_id)
            rows = b.rows
            tip = translate(
                "FilterBar",
                "%1: %2 with %3, %Ln row(s), %4 quarantined, started %5 (UTC)",
                "",
                rows,
            )
            self.batch_combo.setItemData(
                self.batch_combo.count() - 1,
                fill(
                    tip,
                    b.batch_id,
                    b.source_name,
                    b.transform,
                    b.quarantined,
                    shown_time(b.started_at),
                ),
                Qt.ItemDataRole.ToolTipRole,
            )
        i = self.batch_combo.findData(current)
        self.batch_combo.setCurrentIndex(max(i, 0))
        self.batch_combo.blockSignals(False)
        if i < 0 and current is not None:
            self._emit()

    def set_team(self, owners: Sequence[str], tags: Sequence[str]) -> None:
        """Fill the owner and tag pickers with those in use, keeping the current choices."""
        pickers.refill(self.owner_combo, [*OWNER_CHOICES, *((n, n) for n in owners)])
        pickers.refill(self.tag_combo, [*TAG_CHOICES, *((t, t) for t in tags)])

    def set_sources(self, connectors: Sequence[str]) -> None:
        """Offer every source: files and each connector by name, keeping the current
        choice. Without connectors there is no picker to show (``has_sources``): files are
        the only source."""
        own = [(translate("FilterBar", text), value) for text, value in SOURCE_CHOICES]
        pickers.refill(self.source_combo, [*own, *((n, n) for n in connectors)])
        self._has_sources = bool(connectors) or self.source_combo.currentData() is not None
        self.source_box.setVisible(self._has_sources and self._with_filters)

    def has_sources(self) -> bool:
        return self._has_sources

    def show_with_filters(self, shown: bool) -> None:
        """The filters shown or hidden (the Audit tab has its own), the source picker
        with them, where there is more than one source."""
        self._with_filters = shown
        self.setVisible(shown)
        self.source_box.setVisible(shown and self._has_sources)

    def set_transforms(self, refs: Sequence[str]) -> None:
        current = self.transform_combo.currentData()
        self.transform_combo.blockSignals(True)
        self.transform_combo.clear()
        self.transform_combo.addItem(translate("FilterBar", "all"), None)
        for ref in refs:
            self.transform_combo.addItem(ref, ref)
        self.transform_combo.setCurrentIndex(max(self.transform_combo.findData(current), 0))
        self.transform_combo.blockSignals(False)

    def show_batch(self, batch_id: str) -> None:
        """Filter to one batch, every status: what the batch summary's button does."""
        self._quiet = True
        i = self.batch_combo.findData(batch_id)
        if i < 0:
            self.batch_combo.addItem(batch_id[:8], batch_id)
            i = self.batch_combo.count() - 1
        self.batch_combo.setCurrentIndex(i)
        self.class_combo.setCurrentIndex(0)
        self.status_combo.setCurrentIndex(self.status_combo.findData(ALL))
        self._quiet = False
        self._emit()

    def show_one(self, dl_id: int) -> None:
        """One dead letter, whatever its status, every other picker reset: what a
        double-click in the Audit tab asks for. The chip says which; ✕ lifts it."""
        self._quiet = True
        self.class_combo.setCurrentIndex(0)
        self.status_combo.setCurrentIndex(self.status_combo.findData(ALL))
        self.batch_combo.setCurrentIndex(0)
        self.source_combo.setCurrentIndex(0)
        self.transform_combo.setCurrentIndex(0)
        self.owner_combo.setCurrentIndex(0)
        self.tag_combo.setCurrentIndex(0)
        self.attempts_spin.setValue(1)
        self.search.clear()
        self._quiet = False
        self._extra = {"ids": (dl_id,)}
        self.link_chip.setText(fill(translate("FilterBar", "Audit: dead letter #%1"), str(dl_id)))
        self.link_chip.setToolTip(translate("FilterBar", "chosen in the Audit tab"))
        for w in (self.link_chip, self.link_clear):
            w.show()
        self._emit()

    def is_default(self) -> bool:
        return self.current_filter() == DeadLetterFilter()

    @Slot()
    def _on_search_typed(self) -> None:
        self._debounce.start()

    @Slot()
    def _emit(self) -> None:
        if self._quiet:
            return
        self._debounce.stop()
        f = self.current_filter()
        if f != self._last:
            self._last = f
            self.filterChanged.emit(f)
