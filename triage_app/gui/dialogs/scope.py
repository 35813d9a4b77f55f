"""Which rows a dialog's work is for: the selected dead letters, or every one matching the
table's filter (the re-drive and the fix dialogs). The selection is chosen when there is
one."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QRadioButton, QVBoxLayout, QWidget

from triage_app.core.deadletters import DeadLetterFilter


class RowsScope(QWidget):
    def __init__(
        self,
        selected_ids: Sequence[int],
        where: DeadLetterFilter,
        matching: int | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ids = tuple(selected_ids)
        self.where = where
        n = len(self.ids)
        self.selected = QRadioButton(f"the {n:,} selected dead letter{'s' if n != 1 else ''}")
        self.selected.setObjectName("scopeSelected")
        self.selected.setEnabled(bool(self.ids))
        every = "every" if matching is None else f"all {matching:,}"
        self.filter = QRadioButton(f"{every} dead letters matching the filter")
        self.filter.setObjectName("scopeFilter")
        (self.selected if self.ids else self.filter).setChecked(True)
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(self.selected)
        v.addWidget(self.filter)

    def chosen(self) -> tuple[tuple[int, ...] | None, DeadLetterFilter | None]:
        """The ids chosen, or the filter: one of the two is None."""
        return (self.ids, None) if self.selected.isChecked() else (None, self.where)
