"""CSV cells a spreadsheet opens safely.

Dead letters hold whatever a partner sent, and signatures quote it: a cell that begins with
``=``, ``+``, ``-`` or ``@`` would run as a formula, and one beginning with a tab or a
carriage return can smuggle one past a spreadsheet's own check. Every CSV this project
writes (exports, chart numbers, the report) passes its cells through ``safe_cell``.
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """Text a spreadsheet would evaluate gets a leading apostrophe; anything else passes
    unchanged (``csv`` writes None as an empty cell)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
