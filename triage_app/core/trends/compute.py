"""The whole Trends picture in one call, and the banner's spike alone (what the window
asks while the Trends tab is not on screen)."""

from __future__ import annotations

import datetime as dt

from triage_app.core.db import Workspace
from triage_app.core.deadletters import DeadLetterFilter, error_groups
from triage_app.core.trends.batches import per_batch, spike_checks
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
from triage_app.core.trends.model import AttemptsBucket, Spike, Trends
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
