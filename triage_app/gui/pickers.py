"""Pickers whose choices come from the store (owners, tags): refilled as the store changes,
keeping what the steward chose."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox

from triage_app.core.vocabulary import NOBODY

# The first choices of the owner and tag pickers: no narrowing, and the groups nobody owns.
OWNER_CHOICES: tuple[tuple[str, str | None], ...] = (("anyone", None), ("nobody", NOBODY))
TAG_CHOICES: tuple[tuple[str, str | None], ...] = (("any", None),)


def refill(combo: QComboBox, choices: Sequence[tuple[str, str | None]]) -> None:
    """Offer ``choices`` (label, value), keeping the current choice without a change signal;
    a choice no longer offered (its owner's groups reassigned meanwhile) stays, added."""
    current = combo.currentData() if combo.currentIndex() >= 0 else None
    combo.blockSignals(True)
    combo.clear()
    for text, value in choices:
        combo.addItem(text, value)
    choose(combo, current)
    combo.blockSignals(False)


def choose(combo: QComboBox, value: str | None) -> None:
    """Choose ``value`` (None: the first choice, "any"), added when not offered yet: an
    owner assigned a moment ago in another window."""
    i = 0 if value is None else combo.findData(value)
    if i < 0:
        combo.addItem(value, value)
        i = combo.count() - 1
    combo.setCurrentIndex(i)
