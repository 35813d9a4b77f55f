"""The words for statuses, classes and actions in sentences, in the reader's language and
in English (a ``Said``: ``core/bilingual.py`` says why some sentences are said twice).

"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from triage_app.core import language
from triage_app.core.bilingual import (  # re-exported: this package's modules import them here
    Said,
    both,
    english,
    headed,
    reason_of,
    said,
)
from triage_app.core.locale_format import format_datetime
from triage_app.core.messages import N_, _


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


__all__ = [
    "Said",
    "both",
    "class_word",
    "counted_word",
    "done_by",
    "english",
    "headed",
    "reason_of",
    "said",
    "status_word",
    "stored_count",
    "utc_time",
]
