"""The headline a report opens with: better or worse, which cause, and did a release break
something, in numbers."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from triage_app.core.deadletters import ErrorGroup
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.trends.counting import status_totals
from triage_app.core.trends.model import Spike, Trends


@dataclass(frozen=True)
class Headline:
    """Better or worse, which cause, and did a release break something: in numbers."""

    dead_letters: int  # from ``since`` on (all time without it)
    by_status: dict[str, int]
    open_now: int  # open or parked, whole store
    open_week_ago: int | None  # None: the chart does not reach back a week
    arrived_last_7: int  # quarantined in the last 7 days of the chart
    arrived_previous_7: int | None
    top_group: ErrorGroup | None
    spike: Spike | None  # the banner's spike, if any
    # Whose it is: the groups nobody owns, and of those the ones with rows waiting.
    unowned: int = 0
    unowned_open: int = 0
    oldest_open: dt.datetime | None = None  # the first failure of the oldest open row

    @classmethod
    def of(cls, t: Trends) -> Headline:
        """The headline of ``t``."""
        backlog_now = t.backlog[-1].open if t.backlog else 0
        week_ago = t.backlog[-8].open if len(t.backlog) >= 8 else None
        per_day = [d.total for d in t.per_day]
        last_7 = sum(per_day[-7:])
        previous_7 = sum(per_day[-14:-7]) if len(per_day) >= 14 else None
        by_status = status_totals(t.by_class_status)
        return cls(
            dead_letters=sum(by_status.values()),
            by_status=by_status,
            open_now=backlog_now,
            open_week_ago=week_ago,
            arrived_last_7=last_7,
            arrived_previous_7=previous_7,
            top_group=t.groups[0] if t.groups else None,
            spike=t.banner_spike(),
            unowned=sum(1 for g in t.groups if g.owner is None),
            unowned_open=sum(1 for g in t.groups if g.owner is None and g.open),
            oldest_open=min((g.oldest_open for g in t.groups if g.oldest_open), default=None),
        )

    @property
    def backlog_change(self) -> int | None:
        return None if self.open_week_ago is None else self.open_now - self.open_week_ago

    def oldest_wait(self, now: dt.datetime) -> dt.timedelta | None:
        """How long the oldest open row has waited at ``now``; None when none is open."""
        return None if self.oldest_open is None else now - self.oldest_open

    def ownership(self) -> str:
        """``3 error groups nobody owns (2 with open rows)``; ``every error group has an
        owner``."""
        if not self.unowned:
            return _("every error group has an owner")
        return ngettext(
            "{n} error group nobody owns ({open} with open rows)",
            "{n} error groups nobody owns ({open} with open rows)",
            self.unowned,
        ).format(n=format_int(self.unowned), open=format_int(self.unowned_open))

    def direction(self) -> str:
        """One sentence on the backlog: "falling", "rising" or "flat", with the numbers."""
        change, n = self.backlog_change, self.open_now
        if change is None:
            text = ngettext(
                "{n} dead letter waits for a person.", "{n} dead letters wait for a person.", n
            )
        elif change > 0:
            text = ngettext(
                "The backlog is rising: {n} dead letter waits for a person, {change} in 7 days.",
                "The backlog is rising: {n} dead letters wait for a person, {change} in 7 days.",
                n,
            )
        elif change < 0:
            text = ngettext(
                "The backlog is falling: {n} dead letter waits for a person, {change} in 7 days.",
                "The backlog is falling: {n} dead letters wait for a person, {change} in 7 days.",
                n,
            )
        else:
            text = ngettext(
                "The backlog is flat: {n} dead letter waits for a person, {change} in 7 days.",
                "The backlog is flat: {n} dead letters wait for a person, {change} in 7 days.",
                n,
            )
        signed = "" if change is None else ("-" if change < 0 else "+") + format_int(abs(change))
        return text.format(n=format_int(n), change=signed)
