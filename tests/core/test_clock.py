"""The one clock and how times are written: ``iso`` is whole seconds with a ``Z`` (the
fraction cut, never rounded) and "" for no time; ``readable`` of an ``iso`` text is exactly
``seconds`` of the same time; ``day_start``, ``minute`` and ``day`` have their documented
forms; ``utcnow`` is naive UTC, the way every timestamp is stored, and ``today`` is its
day."""

from __future__ import annotations

import datetime as dt

import pytest

from triage_app.core import clock
from triage_app.core.clock import day, day_start, iso, minute, readable, seconds, today, utcnow

T = dt.datetime(2026, 3, 1, 10, 5, 9, 987_654)


def test_iso_is_whole_seconds_with_a_z() -> None:
    assert iso(T) == "2026-03-01T10:05:09Z"  # 09.987654 is cut to 09, not rounded to 10
    assert iso(dt.datetime(2026, 1, 2)) == "2026-01-02T00:00:00Z"


def test_iso_of_no_time_is_empty() -> None:
    assert iso(None) == ""


def test_iso_texts_sort_as_their_times() -> None:
    times = [T, T - dt.timedelta(days=40), T + dt.timedelta(seconds=1), dt.datetime(2025, 12, 31)]
    assert sorted(iso(t) for t in times) == [iso(t) for t in sorted(times)]


def test_day_start_is_midnight_of_that_day() -> None:
    start = day_start(dt.date(2026, 2, 28))
    assert start == dt.datetime(2026, 2, 28, 0, 0, 0)
    assert start.tzinfo is None
    assert day_start(T.date()) <= T < day_start(T.date() + dt.timedelta(days=1))


def test_minute_day_and_seconds() -> None:
    assert minute(T) == "2026-03-01 10:05"
    assert day(T.date()) == "2026-03-01"
    assert day(T) == "2026-03-01"
    assert seconds(T) == "2026-03-01 10:05:09"


@pytest.mark.parametrize(
    "t", [T, dt.datetime(2026, 1, 1), dt.datetime(1999, 12, 31, 23, 59, 59, 999_999)]
)
def test_readable_iso_is_seconds(t: dt.datetime) -> None:
    assert readable(iso(t)) == seconds(t)


def test_utcnow_is_naive_utc() -> None:
    now = utcnow()
    aware = dt.datetime.now(dt.UTC)
    assert now.tzinfo is None
    assert abs(aware.replace(tzinfo=None) - now) < dt.timedelta(seconds=5)


def test_today_is_the_utc_day() -> None:
    before = utcnow().date()
    day_now = today()
    after = utcnow().date()
    assert day_now in (before, after)


def test_waited_says_the_unit_that_matters() -> None:
    assert clock.waited(dt.timedelta(seconds=59)) == "0 min"
    assert clock.waited(dt.timedelta(minutes=119)) == "119 min"
    assert clock.waited(dt.timedelta(hours=2)) == "2 h"
    assert clock.waited(dt.timedelta(hours=47, minutes=59)) == "47 h"
    assert clock.waited(dt.timedelta(days=2)) == "2 d"
    assert clock.waited(dt.timedelta(days=1200)) == "1,200 d"
    assert clock.waited(dt.timedelta(seconds=-5)) == "0 min"  # a clock a little behind


def test_iso_says_a_zoned_time_in_utc() -> None:
    import datetime as dt

    from triage_app.core.clock import iso

    jakarta = dt.timezone(dt.timedelta(hours=7))
    assert iso(dt.datetime(2026, 12, 1, 19, 3, 48, 5, tzinfo=jakarta)) == "2026-12-01T12:03:48Z"
    assert iso(dt.datetime(2026, 12, 1, 12, 3, 48)) == "2026-12-01T12:03:48Z"
