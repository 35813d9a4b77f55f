"""Numbers and dates the user's language's way (core/locale_format.py)."""

from __future__ import annotations

import datetime as dt

from triage_app.core.locale_format import (
    format_date,
    format_datetime,
    format_int,
    format_number,
    format_percent,
    format_time,
)


def test_numbers() -> None:
    assert format_int(1234567, "en") == "1,234,567"
    assert format_int(1234567, "id") == "1.234.567"
    assert format_int(-1000, "id") == "-1.000"
    assert format_int(999, "id") == "999"
    assert format_number(1234.5, 1, "en") == "1,234.5"
    assert format_number(1234.5, 1, "id") == "1.234,5"
    assert format_percent(0.125, 1, "id") == "12,5%"
    assert format_percent(0.125, 1, "en") == "12.5%"


def test_dates() -> None:
    day = dt.date(2026, 11, 30)
    assert format_date(day, "en") == "30 Nov 2026"
    assert format_date(day, "id") == "30 Nov 2026"
    assert format_date(dt.date(2026, 5, 1), "id") == "1 Mei 2026"
    assert format_date(dt.date(2026, 8, 17), "id") == "17 Agu 2026"
    assert format_date(dt.date(2026, 12, 3), "id") == "3 Des 2026"
    moment = dt.datetime(2026, 11, 30, 14, 5, 9)
    assert format_datetime(moment, "en") == "30 Nov 2026 14:05"
    assert format_datetime(moment, "id") == "30 Nov 2026 14.05"
    assert format_datetime(moment, "id", seconds=True) == "30 Nov 2026 14.05.09"
    assert format_time(moment, "id") == "14.05"


def test_the_pseudo_locale_and_unknown_ones_write_english() -> None:
    assert format_int(1234, "xx") == "1,234"
    assert format_date(dt.date(2026, 10, 1), "fr") == "1 Oct 2026"
