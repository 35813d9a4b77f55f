"""Retrying transient failures: exponential backoff with full jitter."""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from triage_app.core.errors import DataError, TransientError

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
