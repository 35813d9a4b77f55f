"""Shortcuts, shown where a steward looks for them.

A menu shows an action's keys by itself; a tooltip does not, so each tooltip that goes
with a shortcut is written here from the tip and the key sequence ("Re-drive dead letters
(Ctrl+R)"). Written from the sequence, it cannot go on naming keys that changed.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton

from triage_app.gui.i18n import fill, translate

KeysLike = QKeySequence | QKeySequence.StandardKey | str


def keys_text(keys: KeysLike) -> str:
    """The keys as the platform writes them (Ctrl+R here, ⌘R on a Mac)."""
    return QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)


def with_keys(tip: str, keys: KeysLike | None) -> str:
    """``tip (keys)``; just ``tip`` when there are no keys."""
    shown = keys_text(keys) if keys is not None else ""
    return fill(translate("shortcuts", "%1 (%2)"), tip, shown) if shown else tip


def plain_text(action: QAction) -> str:
    """An action's menu text without its mnemonic ampersand."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")


def show_keys(action: QAction, tip: str = "") -> None:
    """The action's tooltip: ``tip`` (or its menu text) and its shortcut; the status bar's
    line (``statusTip``) stays without the keys."""
    tip = tip or plain_text(action)
    action.setToolTip(with_keys(tip, action.shortcut()))


def button_keys(button: QAbstractButton, tip: str, keys: KeysLike | None = None) -> None:
    """The button's tooltip: ``tip`` and the keys that do what the button does, its own
    shortcut unless ``keys`` names those of the menu action it stands for."""
    button.setToolTip(with_keys(tip, keys if keys is not None else button.shortcut()))
