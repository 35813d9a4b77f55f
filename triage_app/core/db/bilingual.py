"""Sentences that are both read by a person and written into ``--json``: kept in the user's
language and in English at once, so that the text a person reads is translated while the
JSON stays locale-free (the same bytes whatever the language).

A ``Said`` holds both: ``str(said)`` is the user's language, ``said.english`` the text as
written in the source. ``said.format(...)`` fills both, each value the way its language
writes it (an int as ``1,234`` in English and ``1.234`` in Indonesian, a day as ``1 May
2026`` / ``1 Mei 2026``; a Said value in its own language). An identifier that is a number
(a line, a signature's id) is passed as text, never grouped.

Where a module's every sentence goes both ways (the reconciliation's problems), it imports
``_`` and ``ngettext`` from here rather than from ``core/messages``: the catalogue finds
the texts by those names, and each call returns a Said. Elsewhere a text is marked with
``N_`` where it is written and made a Said by ``said``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from triage_app.core import language, messages
from triage_app.core.locale_format import format_date, format_int

__all__ = ["Said", "_", "ngettext", "said"]


class Said:
    """One sentence in the user's language (``str``) and in English (``english``)."""

    __slots__ = ("english", "shown")

    def __init__(self, english: str, shown: str | None = None) -> None:
        self.english = english
        self.shown = english if shown is None else shown

    def format(self, **values: Any) -> Said:
        """Both texts filled: ``{name}`` placeholders, as ``str.format``."""
        return Said(
            self.english.format(**{k: _value(v, english=True) for k, v in values.items()}),
            self.shown.format(**{k: _value(v, english=False) for k, v in values.items()}),
        )

    def __str__(self) -> str:
        return self.shown

    def __repr__(self) -> str:
        return f"Said({self.english!r}, {self.shown!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and (self.english, self.shown) == (
            other.english,
            other.shown,
        )

    def __hash__(self) -> int:
        return hash((self.english, self.shown))


def _value(value: Any, *, english: bool) -> Any:
    if isinstance(value, Said):
        return value.english if english else value.shown
    lang = language.ENGLISH if english else None
    if isinstance(value, int) and not isinstance(value, bool):
        return format_int(value, lang)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return format_date(value, lang)
    return value


def _(message: str) -> Said:
    """``message`` (a literal) in both languages."""
    return Said(message, messages._(message))


def ngettext(singular: str, plural: str, n: int) -> Said:
    """The form of a counted sentence for ``n``, in both languages."""
    return Said(singular if n == 1 else plural, messages.ngettext(singular, plural, n))


def said(template: str, **values: Any) -> Said:
    """``template`` (marked ``N_`` where it is written) in both languages, filled."""
    return Said(template, messages._(template)).format(**values)
