"""The whole Trends picture in one call, and the banner's spike alone (what the window
asks while the Trends tab is not on screen)."""

from __future__ import annotations

import datetime as dt

from triage_app.core.db import Workspace
from triage_app.core.deadletters import DeadLetterFilter, ErrorGroup, error_groups
from triage_app.core.trends.batches import per_batch, per_batch_of, spike_checks
from triage_app.core.trends.causes import spike_causes
from triage_app.core.trends.counting import (
    STATUSES,
    attempts_histogram,
    backlog,
    cube_for,
    cube_totals,
    failures_per_day,
    status_totals,
)
from triage_app.core.trends.model import (
    AttemptsBucket,
    BacklogPoint,
    BatchPoint,
    DayCount,
    Spike,
    Trends,
)
from triage_app.core.trends.purged import add_back, purged_back
from triage_app.core.trends.spikes import SpikeRule
from triage_app.core.vocabulary import Status


def compute_trends(
    ws: Workspace,
    f: DeadLetterFilter | None = None,
    *,
    since: dt.date | None = None,
    rule: SpikeRule | None = None,
    top: int | None = 20,
) -> Trends:
    """The whole Trends picture. ``f`` is the table's filter: only the attempts histogram
    follows it (without one, it covers every dead letter); the other charts show the whole
    store from ``since`` (a UTC day) on."""
    rule = rule or SpikeRule()
    with ws.store.connect() as conn:
        earliest: dict[tuple[str, str, str, int], dt.datetime | None] = {}
        cells = cube_for(conn, None, since, STATUSES, earliest)
        by_class_status, by_attempts_status = cube_totals(cells)
        if f is None:
            hist = tuple(
                AttemptsBucket(a, sum(st.values()), st.get(Status.PARKED, 0))
                for a, st in by_attempts_status.items()
            )
        else:
            hist = attempts_histogram(conn, f)
        held = failures_per_day(conn, since=since)  # the rows the store still holds
        purged = purged_back(conn, since)
        days = add_back(held, purged)  # and those a retention purge removed
        batches = per_batch(conn, since)
        status_now: dict[str, int] | None = None
        if since is None:  # the cube covers the whole store: its totals are today's
            status_now = status_totals(by_class_status)
        queue = backlog(conn, since, held, status_now, purged)
        groups = error_groups(conn, since=since, top=top, cells=cells, earliest=earliest)
        checks = spike_checks(batches, rule)
        causes = spike_causes(conn, batches, checks)
    return Trends(
        since,
        hist,
        days,
        batches,
        queue,
        groups,
        checks,
        rule,
        by_class_status,
        by_attempts_status,
        purged.notes,
        causes,
    )


# What each chart of the tab needs of ``compute_filtered_trends``.
FILTERED_PARTS = frozenset({"failures", "backlog", "rate", "attempts", "groups"})


def compute_filtered_trends(
    ws: Workspace,
    f: DeadLetterFilter,
    *,
    since: dt.date | None = None,
    rule: SpikeRule | None = None,
    top: int | None = 20,
    parts: frozenset[str] = FILTERED_PARTS,
) -> Trends:
    """The Trends picture of only the dead letters the table's filter ``f`` chooses: what
    a chart shows when the lead asks it to follow the filter. Per batch, the rate is the
    chosen rows' share of the batch; the backlog takes ``f`` without its status; rows a
    retention purge removed are not added back (no filter can choose among them).
    ``parts``: only the charts named there are counted (the others stay empty)."""
    rule = rule or SpikeRule()
    days: tuple[DayCount, ...] = ()
    batches: tuple[BatchPoint, ...] = ()
    queue: tuple[BacklogPoint, ...] = ()
    groups: tuple[ErrorGroup, ...] = ()
    hist: tuple[AttemptsBucket, ...] = ()
    with ws.store.connect() as conn:
        if "failures" in parts:
            days = failures_per_day(conn, f, since)
        if parts & {"failures", "rate"}:
            batches = per_batch_of(conn, f, since)
        if "backlog" in parts:
            queue = backlog(conn, since, f=f)
        if "groups" in parts:
            groups = error_groups(conn, f, since, top=top)
        if "attempts" in parts:
            hist = attempts_histogram(conn, f)
    return Trends(since, hist, days, batches, queue, groups, spike_checks(batches, rule), rule)


def banner_spike(
    ws: Workspace, *, since: dt.date | None = None, rule: SpikeRule | None = None
) -> Spike | None:
    """Only the spike the banner names: the batch counters and the rule, no dead letters
    counted. What the window asks while the Trends tab is not on screen."""
    rule = rule or SpikeRule()
    with ws.store.connect() as conn:
        batches = per_batch(conn, since)
        checks = spike_checks(batches, rule)
        causes = spike_causes(conn, batches, checks)
    return Trends(since, (), (), batches, (), (), checks, rule, causes=causes).banner_spike()
