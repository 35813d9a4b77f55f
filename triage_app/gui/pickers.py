"""Pickers whose choices come from the store (owners, tags): refilled as the store changes,
keeping what the steward chose."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QComboBox

from triage_app.core.vocabulary import NOBODY
from triage_app.gui.i18n import translate

# The first choices of the owner and tag pickers: no narrowing, and the groups nobody owns.
# Their labels are translated where they are offered (``refill``); the names after them are
# the team's own, shown as they are.
OWNER_CHOICES: tuple[tuple[str, str | None], ...] = (
    (QT_TRANSLATE_NOOP("pickers", "anyone"), None),
    (QT_TRANSLATE_NOOP("pickers", "nobody"), NOBODY),
)
TAG_CHOICES: tuple[tuple[str, str | None], ...] = ((QT_TRANSLATE_NOOP("pickers", "any"), None),)
_OWN_LABELS = frozenset((*OWNER_CHOICES, *TAG_CHOICES))


def shown(text: str, value: str | None) -> str:
    """A choice's label as the picker shows it: the pickers' own first choices in the
    user's language, a steward's name or a tag as it is."""
    return translate("pickers", text) if (text, value) in _OWN_LABELS else text


def refill(combo: QComboBox, choices: Sequence[tuple[str, str | None]]) -> None:
    """Offer ``choices`` (label, value), keeping the current choice without a change signal;
    a choice no longer offered (its owner's groups reassigned meanwhile) stays, added."""
    current = combo.currentData() if combo.currentIndex() >= 0 else None
    combo.blockSignals(True)
    combo.clear()
    for text, value in choices:
        combo.addItem(shown(text, value), value)
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
