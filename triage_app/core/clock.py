"""The one clock, and the few ways a time is written.

Times are stored as naive UTC, the same way on every dialect; days are UTC days. Only the
standard library here: the CLI's fast paths import this module without the engine.
"""

from __future__ import annotations

import datetime as dt

from triage_app.core.locale_format import format_int
from triage_app.core.messages import _


def utcnow() -> dt.datetime:
    """Now, as naive UTC: how every timestamp is stored."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def today() -> dt.date:
    """Today's UTC day."""
    return dt.datetime.now(dt.UTC).date()


def day_start(d: dt.date) -> dt.datetime:
    """Midnight (UTC) at the start of ``d``."""
    return dt.datetime(d.year, d.month, d.day)


def iso(t: dt.datetime | None) -> str:
    """``2026-03-01T10:00:00Z`` (whole seconds); "" for no time. A time that carries its
    zone (PostgreSQL's own clock, ``pg_stat_activity``) is said in UTC like the rest."""
    if t is None:
        return ""
    if t.tzinfo is not None:
        t = t.astimezone(dt.UTC).replace(tzinfo=None)
    return t.replace(microsecond=0).isoformat() + "Z"


def seconds(t: dt.datetime) -> str:
    """``2026-03-01 10:00:00``: a time for people, to the second."""
    return t.replace(microsecond=0).isoformat(sep=" ")


def minute(t: dt.datetime) -> str:
    """``2026-03-01 10:00``: a time for tables and tooltips."""
    return t.strftime("%Y-%m-%d %H:%M")


def day(t: dt.date) -> str:
    """``2026-03-01``."""
    return t.strftime("%Y-%m-%d")


def readable(iso_text: str) -> str:
    """An ``iso()`` text for people: ``2026-03-01 10:00:00``."""
    return iso_text.replace("T", " ").rstrip("Z")


def waited(span: dt.timedelta) -> str:
    """How long something has waited, to the unit that matters: ``3 d``, ``5 h``, ``12 min``."""
    minutes = max(int(span.total_seconds() // 60), 0)
    if minutes >= 2 * 24 * 60:
        return _("{n} d").format(n=format_int(minutes // (24 * 60)))
    if minutes >= 120:
        return _("{n} h").format(n=format_int(minutes // 60))
    return _("{n} min").format(n=format_int(minutes))
