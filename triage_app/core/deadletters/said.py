"""Sentences said twice, in the reader's language and in English; the words for statuses,
classes and actions in sentences.

Most of what this package says is only shown (a summary, an error raised to the user):
``_()`` where it is said. Some sentences are shown AND kept: why a row was refused, skipped
or not delivered is shown to the steward, and is also a value of ``--json`` (the same in
every language: scripts read it) or is stored (an ``undelivered`` event, a re-drive's
record: one store serves stewards of both languages). Such a sentence is a ``Said``: a
``str`` in the reader's language, so that whatever shows it needs nothing more, carrying
its English (``english(text)``) for ``--json`` and the store.

- ``both(N_("dead letter {id} is gone"), id=7)``: a text marked for the catalogue, filled
  in both languages (a ``Said`` value gives each its own);
- ``said(lambda _, ngettext, lang: ...)``: a counted sentence, or one with numbers or
  dates: the function is called twice, with the reader's words and ``lang`` None (the
  current language), then with English ones and ``lang`` "en" (for ``locale_format``).
  Its ``_`` and ``ngettext`` calls take literal texts, as everywhere (the catalogue
  script reads them).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from triage_app.core import language
from triage_app.core.locale_format import format_datetime
from triage_app.core.messages import N_, _, ngettext


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

    def __reduce__(self) -> tuple[Any, ...]:
        return (_remade, (str(self), self.english, self.head))


def _remade(shown: str, english: str, head: Said | None) -> Said:
    return headed(Said(shown, english), head)


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


def _english_gettext(message: str) -> str:
    return message


def _english_ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


Build = Callable[[Callable[[str], str], Callable[[str, str, int], str], str | None], str]


def said(build: Build) -> Said:
    """``build(_, ngettext, lang)`` in the reader's language, and in English."""
    return Said(
        build(_, ngettext, None), build(_english_gettext, _english_ngettext, language.ENGLISH)
    )


def both(message: str, **values: Any) -> Said:
    """``message`` (marked with ``N_`` where it is written) filled with ``values`` in the
    reader's language and in English; a ``Said`` value gives each language its own."""
    return Said(
        _(message).format(**values),
        message.format(**{k: english(v) for k, v in values.items()}),
    )


def stored_count(n: int, one: str, many: str) -> str:
    """``n`` things in a text kept in the store, which is English for every reader:
    ``1 dead letter``, ``2,000 dead letters`` (never through the catalogue)."""
    return f"{n:,} {one if n == 1 else many}"


# -- the words of the vocabulary, in sentences ------------------------------------------------
# The values themselves (``open``, ``data``, ``discarded``) are machine keys in ``--json`` and
# the store; these are how a sentence says them.

STATUS_WORDS = {
    "open": N_("open"),
    "resolved": N_("resolved"),
    "parked": N_("parked"),
    "discarded": N_("discarded"),
}

CLASS_WORDS = {
    "data": N_("data"),
    "code": N_("code"),
    "transient": N_("transient"),
}

# "3 resolved", "2 data": a count of rows of one status or class.
_STATUS_COUNTS = {
    "open": N_("{n} open"),
    "resolved": N_("{n} resolved"),
    "parked": N_("{n} parked"),
    "discarded": N_("{n} discarded"),
}
_CLASS_COUNTS = {
    "data": N_("{n} data"),
    "code": N_("{n} code"),
    "transient": N_("{n} transient"),
}


def status_word(status: str, lang: str | None = None) -> str:
    """``discarded`` as a sentence says it (``dibuang``); an unknown value as it is."""
    word = STATUS_WORDS.get(str(status))
    if word is None:
        return str(status)
    return word if lang == language.ENGLISH else _(word)


def class_word(error_class: str, lang: str | None = None) -> str:
    """``transient`` as a sentence says it (``sementara``); an unknown value as it is."""
    word = CLASS_WORDS.get(str(error_class))
    if word is None:
        return str(error_class)
    return word if lang == language.ENGLISH else _(word)


def counted_word(value: str, n: str, lang: str | None = None) -> str:
    """``n`` rows of a status or a class: ``3 resolved``, ``2 data`` (``n`` formatted)."""
    text = _STATUS_COUNTS.get(str(value)) or _CLASS_COUNTS.get(str(value))
    if text is None:
        return f"{n} {value}"
    return (text if lang == language.ENGLISH else _(text)).format(n=n)


# What was done to a row, by whom and when: the newest event of a row, said in a refusal
# ("discarded by ani at 1 Mar 2026 10:00 UTC"). Keyed by the audit action's value.
_DONE_BY = {
    "quarantined": N_("quarantined by {actor} at {at} UTC"),
    "edited": N_("edited by {actor} at {at} UTC"),
    "resolved": N_("resolved by {actor} at {at} UTC"),
    "redrive_failed": N_("re-drive failed by {actor} at {at} UTC"),
    "parked": N_("parked by {actor} at {at} UTC"),
    "discarded": N_("discarded by {actor} at {at} UTC"),
    "reopened": N_("reopened by {actor} at {at} UTC"),
    "reclassified": N_("reclassified by {actor} at {at} UTC"),
    "note": N_("note by {actor} at {at} UTC"),
    "undelivered": N_("not delivered by {actor} at {at} UTC"),
    "revealed": N_("revealed by {actor} at {at} UTC"),
}


def utc_time(at: Any, lang: str | None = None) -> str:
    """A stored time (naive UTC; one with a zone is said in UTC) as the language writes it,
    ``1 Mar 2026 10:00`` (sentences add "UTC"); text a database handed back stays as it is."""
    if not isinstance(at, dt.datetime):
        return "" if at is None else str(at)
    if at.tzinfo is not None:
        at = at.astimezone(dt.UTC).replace(tzinfo=None)
    return format_datetime(at, lang)


def done_by(action: str, actor: str, at: Any) -> Said:
    """``discarded by ani at 1 Mar 2026 10:00 UTC``, in both languages."""
    text = _DONE_BY.get(str(action))

    def build(t: Callable[[str], str], _n: Any, lang: str | None) -> str:
        when = utc_time(at, lang)
        if text is None:
            return t(N_("{action} by {actor} at {at} UTC")).format(
                action=action, actor=actor, at=when
            )
        return t(text).format(actor=actor, at=when)

    return said(build)
