"""Numbers and dates as the user's language writes them, for every text a person reads.

English: ``1,234,567``, ``3.5``, ``30 Nov 2026``, ``30 Nov 2026 14:05``.
Indonesian: ``1.234.567``, ``3,5``, ``30 Nov 2026``, ``30 Nov 2026 14.05`` (CLDR's ``id``).

``--json`` output never goes through here: it stays locale-free. The window uses the same
functions, so the table, the charts, the report and the command line agree.
"""

from __future__ import annotations

import datetime as dt

from triage_app.core import language

_MONTHS = {
    language.ENGLISH: [
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "May",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Oct",
        "Nov",
        "Dec",
    ],
    language.INDONESIAN: [
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "Mei",
        "Jun",
        "Jul",
        "Agu",
        "Sep",
        "Okt",
        "Nov",
        "Des",
    ],
}
# (thousands, decimal, time) separators.
_SEPARATORS = {language.ENGLISH: (",", ".", ":"), language.INDONESIAN: (".", ",", ".")}


def _lang(lang: str | None) -> str:
    chosen = lang or language.current()
    return chosen if chosen in _SEPARATORS else language.ENGLISH


def format_int(value: int, lang: str | None = None) -> str:
    """``1234567`` -> ``1,234,567`` (en) or ``1.234.567`` (id)."""
    thousands = _SEPARATORS[_lang(lang)][0]
    return f"{value:,}".replace(",", thousands)


def format_number(value: float, digits: int = 1, lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals and grouped thousands: ``1,234.5`` / ``1.234,5``."""
    thousands, decimal, _ = _SEPARATORS[_lang(lang)]
    text = f"{value:,.{digits}f}"
    return text.replace(",", "\0").replace(".", decimal).replace("\0", thousands)


def format_percent(fraction: float, digits: int = 1, lang: str | None = None) -> str:
    """``0.125`` -> ``12.5%`` / ``12,5%``."""
    return format_number(fraction * 100, digits, lang) + "%"


def format_date(day: dt.date, lang: str | None = None) -> str:
    """``30 Nov 2026`` in both languages, the month's abbreviation in the user's."""
    months = _MONTHS[_lang(lang)]
    return f"{day.day} {months[day.month - 1]} {day.year}"


def format_datetime(moment: dt.datetime, lang: str | None = None, *, seconds: bool = False) -> str:
    """``30 Nov 2026 14:05`` / ``30 Nov 2026 14.05`` (in the moment's own time zone)."""
    return f"{format_date(moment.date(), lang)} {format_time(moment, lang, seconds=seconds)}"


def format_time(
    moment: dt.datetime | dt.time, lang: str | None = None, *, seconds: bool = False
) -> str:
    """``14:05`` / ``14.05`` (``seconds``: ``14:05:09`` / ``14.05.09``)."""
    sep = _SEPARATORS[_lang(lang)][2]
    clock = f"{moment.hour:02d}{sep}{moment.minute:02d}"
    return clock + f"{sep}{moment.second:02d}" if seconds else clock
