"""Sentences said twice: in the reader's language, and in English.

Most of what the engine says is only shown: ``_()`` where it is said (``core/messages.py``).
Some sentences are shown AND kept: why a row was refused, skipped or not delivered is shown
to the steward, and is also a value of ``--json`` (the same in every language: scripts read
it) or is stored (an ``undelivered`` event, a reconcile problem: one store serves stewards
of both languages). Such a sentence is a ``Said``: a ``str`` in the reader's language, so
that whatever shows it needs nothing more, carrying its English (``english(text)``) for
``--json`` and the store.

- ``both(N_("dead letter {id} is gone"), id=7)``: a text marked for the catalogue where it
  is written, filled in both languages (a ``Said`` value gives each its own; other values
  as given, so an id is never grouped);
- ``both_gettext("…")`` and ``both_ngettext("…", "…", n)``: a literal text, or the form of
  a counted one, in both languages; its ``.format(...)`` fills both, a count written each
  language's way (``1,234`` / ``1.234``), a day too (``1 May 2026`` / ``1 Mei 2026``). A
  module whose every sentence goes both ways imports them as ``_`` and ``ngettext``: the
  catalogue script finds texts by those names;
- ``said(lambda _, ngettext, lang: ...)``: a sentence built from several pieces, numbers or
  dates: called twice, with the reader's words and ``lang`` None (the current language),
  then with English ones and ``lang`` "en" (for ``locale_format``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from triage_app.core import language, messages
from triage_app.core.locale_format import format_date, format_int

__all__ = [
    "Said",
    "both",
    "both_gettext",
    "both_ngettext",
    "english",
    "headed",
    "reason_of",
    "said",
    "speech",
]


class Said(str):
    """A sentence in the reader's language that keeps its English (``english``); ``head``,
    when set, is the reason it gives without its particulars ("changed since version 1"
    of "changed since version 1 (edited by ani at …)"), by which a summary counts rows."""

    english: str
    head: Said | None = None

    def __new__(cls, shown: str, english: str) -> Said:
        self = super().__new__(cls, shown)
        self.english = english
        return self

    def format(self, *args: Any, **values: Any) -> Said:
        """Both texts filled, each value the way its language writes it."""
        return Said(
            str(self).format(*args, **{k: _value(v, english=False) for k, v in values.items()}),
            self.english.format(*args, **{k: _value(v, english=True) for k, v in values.items()}),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_remade, (str(self), self.english, self.head))


def _remade(shown: str, english: str, head: Said | None) -> Said:
    return headed(Said(shown, english), head)


def _value(value: Any, *, english: bool) -> Any:
    if isinstance(value, Said):
        return value.english if english else str(value)
    lang = language.ENGLISH if english else None
    if isinstance(value, int) and not isinstance(value, bool):
        return format_int(value, lang)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return format_date(value, lang)
    return value


def headed(text: Said, head: Said | None) -> Said:
    """``text`` with ``head``: the reason without its particulars."""
    text.head = head
    return text


def english(text: Any) -> Any:
    """What ``--json`` and the store keep of ``text``: its English when it is a ``Said``,
    else ``text`` itself (a transform's error, a name: data, the same in every language)."""
    return text.english if isinstance(text, Said) else text


def reason_of(exc: BaseException) -> str:
    """An exception's message as a ``Said`` when it was raised with one (its English kept
    for ``--json`` and the store), else as text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Said) else str(exc)


def both_gettext(message: str) -> Said:
    """``message`` (a literal) in both languages."""
    return Said(messages._(message), message)


def both_ngettext(singular: str, plural: str, n: int) -> Said:
    """The form of a counted sentence for ``n``, in both languages."""
    return Said(messages.ngettext(singular, plural, n), singular if n == 1 else plural)


def _english_gettext(message: str) -> str:
    return message


def _english_ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


Build = Callable[[Callable[[str], str], Callable[[str, str, int], str], str | None], str]


Speech = tuple[Callable[[str], str], Callable[[str, str, int], str], str | None]


def speech(english: bool = False) -> Speech:
    """``_``, ``ngettext`` and the ``locale_format`` language of one saying: the reader's
    (``lang`` None: the current language), or English for ``--json`` and the store. Used as
    ``_, ngettext, lang = speech(english)`` so that the catalogue finds the texts."""
    if english:
        return _english_gettext, _english_ngettext, language.ENGLISH
    return messages._, messages.ngettext, None


def said(build: Build) -> Said:
    """``build(_, ngettext, lang)`` in the reader's language, and in English."""
    return Said(build(*speech()), build(*speech(english=True)))


def both(message: str, **values: Any) -> Said:
    """``message`` (marked with ``N_`` where it is written) filled with ``values`` in the
    reader's language and in English; a ``Said`` value gives each language its own."""
    return Said(
        messages._(message).format(
            **{k: str(v) if isinstance(v, Said) else v for k, v in values.items()}
        ),
        message.format(**{k: english(v) for k, v in values.items()}),
    )
