"""The window's translation helpers (gui/i18n.py)."""

from __future__ import annotations

from triage_app.core import messages
from triage_app.gui.i18n import fill


def test_fill_replaces_each_placeholder_once_whatever_the_values_say() -> None:
    assert fill("%1 of %2", 3, 10) == "3 of 10"
    assert fill("%2, then %1", "a", "b") == "b, then a"
    # A value that itself reads like a placeholder (a path, a signature) is left alone.
    assert fill("%1 and %2", "/tmp/%2/ws", "x") == "/tmp/%2/ws and x"
    assert fill("row %1 of %10", *range(1, 11)) == "row 1 of 10"
    assert fill("%3 missing", 1) == "%3 missing"


def test_fill_writes_ints_the_languages_way() -> None:
    try:
        messages.use_language("id")
        assert fill("%1 baris", 1234567) == "1.234.567 baris"
        assert fill("%1", True) == "True"
    finally:
        messages.use_language("en")
    assert fill("%1 rows", 1234567) == "1,234,567 rows"
