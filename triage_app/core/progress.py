"""The progress contract between long work in core and whoever shows it.

Core functions take a ``Progress``; the CLI passes a silent one, the GUI adapts it to
signals. Cancellation is polled at chunk boundaries, where the state is consistent.

``PaceMeter`` turns the reports of one job into rows per second and the time left, and
``describe_pace`` into the one line a window shows ("Re-driving 84,000 of 200,000 rows ·
12,300 rows/s · about 9 s left"): arithmetic that is tested here, without a window.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Protocol

from triage_app.core.locale_format import format_int, format_number, format_percent
from triage_app.core.messages import _, ngettext


class Progress(Protocol):
    def update(self, done: int, total: int, rows: int = 0) -> None:
        """``done`` of ``total`` units (bytes for a batch, dead letters for a re-drive)."""

    def cancelled(self) -> bool:
        """True once the user asked to stop; checked per chunk."""


class NoProgress:
    def update(self, done: int, total: int, rows: int = 0) -> None:
        pass

    def cancelled(self) -> bool:
        return False


@dataclass(frozen=True)
class Pace:
    """Where a job is, and how fast it goes (None until it can be told)."""

    done: int
    total: int
    rows: int
    elapsed: float  # seconds since the job started
    rows_per_second: float | None
    seconds_left: float | None

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0


class PaceMeter:
    """Rows per second and the time left of one job, from its reports.

    Both are taken over the last ``window`` seconds of reports, not since the start: a
    job's speed changes (a re-drive's first chunks are small, a batch's last lane ends
    alone, the machine gets busy), and the estimate should follow within seconds. The
    time left is the units left at the recent pace of units (bytes for a batch), so an
    estimate holds whatever the units are.
    """

    def __init__(self, window: float = 5.0) -> None:
        self.window = window
        # (elapsed, done, rows); the job starts at nothing done.
        self._samples: deque[tuple[float, int, int]] = deque([(0.0, 0, 0)])

    def update(self, elapsed: float, done: int, total: int, rows: int) -> Pace:
        samples = self._samples
        if elapsed < samples[-1][0] or done < samples[-1][1]:
            # A clock or a count that went back (a job started over): measure afresh.
            samples.clear()
            samples.append((elapsed, done, rows))
        else:
            samples.append((elapsed, done, rows))
        # Keep the newest sample at least `window` old, and every one after it.
        while len(samples) > 2 and elapsed - samples[1][0] >= self.window:
            samples.popleft()
        t0, done0, rows0 = samples[0]
        span = elapsed - t0
        if span <= 0 or len(samples) < 2:
            return Pace(done, total, rows, elapsed, None, None)
        rate = max(0, rows - rows0) / span
        unit_rate = max(0, done - done0) / span
        if done >= total:
            left: float | None = 0.0
        elif unit_rate > 0:
            left = (total - done) / unit_rate
        else:
            left = None  # nothing moved in the window: no honest estimate
        return Pace(done, total, rows, elapsed, rate, left)


def describe_left(seconds: float) -> str:
    """``about 9 s left``, ``about 4 min left``, ``about 1 h 05 min left``: rounded as far
    as an estimate deserves."""
    if seconds < 1:
        return _("less than a second left")
    if seconds < 60:
        return _("about {n} s left").format(n=format_int(round(seconds)))
    if seconds < 3600:
        return _("about {n} min left").format(n=format_int(round(seconds / 60)))
    minutes = round(seconds / 60)
    return _("about {hours} h {minutes} min left").format(
        hours=format_int(minutes // 60), minutes=f"{minutes % 60:02d}"
    )


def describe_pace(pace: Pace, verb: str, *, done_counts_rows: bool) -> str:
    """One line for a status bar. ``verb``: what the job does, in the user's language
    ("Re-driving"). ``done_counts_rows``: the job's units are rows (a re-drive, an export),
    so "84,000 of 200,000 rows"; otherwise (a batch counts bytes) the rows so far and the
    share done."""
    if done_counts_rows:
        parts = [
            ngettext("{verb} {done} of {n} row", "{verb} {done} of {n} rows", pace.total).format(
                verb=verb, done=format_int(pace.done), n=format_int(pace.total)
            )
        ]
    else:
        parts = [
            ngettext("{verb}: {n} row, {share}", "{verb}: {n} rows, {share}", pace.rows).format(
                verb=verb, n=format_int(pace.rows), share=format_percent(pace.fraction, 0)
            )
        ]
    if pace.rows_per_second is not None:
        parts.append(_("{n} rows/s").format(n=format_number(pace.rows_per_second, 0)))
    if pace.seconds_left is not None and pace.done < pace.total:
        parts.append(describe_left(pace.seconds_left))
    return " · ".join(parts)
