"""Retrying transient failures: inside a batch or a re-drive, exponential backoff with full
jitter (``RetryPolicy``: fractions of a second); and between runs, the retry ladder
(``Ladder``: waits of minutes to hours, each transient dead letter carrying its step and next
attempt time, re-driven by a retry pass, ``deadletters/retrying.py``)."""

from __future__ import annotations

import datetime as dt
import random
import re
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from triage_app.core import language
from triage_app.core.errors import DataError, TransientError, TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry a transient failure."""

    attempts: int = 5  # tries in all, the first included
    base_delay: float = 0.05
    max_delay: float = 5.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def delay(self, failures: int) -> float:
        """Full jitter: uniform in [0, min(max, base * 2**(failures-1))]."""
        ceiling = min(self.max_delay, self.base_delay * (2 ** max(0, failures - 1)))
        return self.rng.uniform(0, ceiling)


# Exceptions a transform raises on bad data or a bug, which never mean a transient cause:
# asked once per failing record (every row of a bad day), they skip the checks below.
_NEVER_TRANSIENT = frozenset(
    {TypeError, ValueError, KeyError, AttributeError, IndexError, DataError}
)


def is_transient(exc: BaseException) -> bool:
    """Infrastructure failures that a retry may fix: locks, lost connections, a full disk."""
    if type(exc) in _NEVER_TRANSIENT:
        return False
    # SQLAlchemy wraps the driver's exception; judge the driver's own.
    orig = getattr(exc, "orig", None)
    if isinstance(orig, BaseException):
        exc = orig
    if isinstance(exc, TransientError | TimeoutError | ConnectionError):
        return True
    if isinstance(exc, sqlite3.OperationalError):
        msg = str(exc).lower()
        return any(w in msg for w in ("locked", "busy", "disk", "full", "i/o", "unable to open"))
    # psycopg is imported only where a PostgreSQL URL is used; its OperationalError is a
    # lost connection, a server shutting down, an unreachable host.
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(exc, psycopg.OperationalError)


def with_retry(
    fn: Callable[[], T],
    policy: RetryPolicy,
    on_retry: Callable[[BaseException], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Call ``fn`` until it succeeds, retrying transient failures per ``policy``."""
    failures = 0
    while True:
        try:
            return fn()
        except Exception as exc:
            if not is_transient(exc):
                raise
            failures += 1
            if failures >= policy.attempts:
                raise
            if on_retry is not None:
                on_retry(exc)
            sleep(policy.delay(failures))


# -- the retry ladder ------------------------------------------------------------------------
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_WAIT = re.compile(r"\s*(\d{1,6})\s*([smhd])\s*")
MOST_STEPS = 20
LONGEST_WAIT = dt.timedelta(days=30)
LADDER_KEY = "retry_ladder"  # the store setting that holds a workspace's ladder ("5m,30m,2h")


@dataclass(frozen=True)
class Ladder:
    """The waits of a transient dead letter's retries, in order: retried after the first
    wait, again after the second if it failed, and so on; after the last failed retry it is
    parked for a person. Written and read as ``5m,30m,2h`` (s, m, h, d)."""

    waits: tuple[dt.timedelta, ...]

    def __post_init__(self) -> None:
        if not self.waits or len(self.waits) > MOST_STEPS:
            raise TriageError(
                _("a retry ladder has 1 to {most} waits, e.g. 5m,30m,2h").format(most=MOST_STEPS)
            )
        for w in self.waits:
            if not dt.timedelta(seconds=1) <= w <= LONGEST_WAIT:
                raise TriageError(_("each wait of a retry ladder is 1s to 30d, e.g. 5m,30m,2h"))

    @classmethod
    def parse(cls, text: str) -> Ladder:
        """``5m,30m,2h`` as a ladder; one line naming the text when it is not one."""
        parts = str(text).split(",")
        waits: list[dt.timedelta] = []
        for part in parts:
            m = _WAIT.fullmatch(part)
            if m is None:
                shown = str(text)[:60].encode("unicode_escape").decode("ascii")
                raise TriageError(
                    _(
                        "not a retry ladder: {text}; write the waits in order, each a number "
                        "and s, m, h or d, e.g. 5m,30m,2h"
                    ).format(text=repr(shown))
                )
            waits.append(dt.timedelta(seconds=int(m.group(1)) * _UNITS[m.group(2)]))
        return cls(tuple(waits))

    def __len__(self) -> int:
        return len(self.waits)

    def wait(self, step: int) -> dt.timedelta | None:
        """The wait before retry ``step + 1`` (step 0: the first retry); None past the end."""
        return self.waits[step] if 0 <= step < len(self.waits) else None

    def describe(self) -> str:
        """``5m,30m,2h``: what ``parse`` reads back."""
        return ",".join(short_wait(w) for w in self.waits)

    def words(self) -> str:
        """``5 min, 30 min, 2 h, then parked``."""
        return _("{waits}, then parked").format(waits=", ".join(said_wait(w) for w in self.waits))


def short_wait(w: dt.timedelta) -> str:
    """A wait in its largest whole unit: ``90m`` stays ``90m``, ``7200s`` is ``2h``."""
    secs = int(w.total_seconds())
    for unit in ("d", "h", "m"):
        if secs % _UNITS[unit] == 0:
            return f"{secs // _UNITS[unit]}{unit}"
    return f"{secs}s"


# A wait in its unit, for people (``said_wait``).
_SAID_UNITS = {"s": N_("{n} s"), "m": N_("{n} min"), "h": N_("{n} h"), "d": N_("{n} d")}


def said_wait(w: dt.timedelta, *, english: bool = False) -> str:
    """A wait for people: ``5 min``, ``2 h``, ``1 d``, ``45 s`` (``30 mnt`` in Indonesian).
    ``english``: the English words whatever the user's language, for a ``--json`` key."""
    text = short_wait(w)
    number, unit = int(text[:-1]), text[-1]
    if english:
        return _SAID_UNITS[unit].format(n=format_int(number, language.ENGLISH))
    return _(_SAID_UNITS[unit]).format(n=format_int(number))


DEFAULT_LADDER = Ladder((dt.timedelta(minutes=5), dt.timedelta(minutes=30), dt.timedelta(hours=2)))
