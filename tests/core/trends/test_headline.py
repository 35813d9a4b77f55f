"""The headline a report opens with: counted on the crafted workspace, and its sentence on
the backlog for each direction."""

from __future__ import annotations

import datetime as dt

from tests.support.crafted_trends import MAR, MISSING, QTY
from triage_app.core.db import Workspace
from triage_app.core.deadletters import ErrorGroup
from triage_app.core.trends import (
    BacklogPoint,
    DayCount,
    Headline,
    Trends,
    compute_trends,
)


def headline(open_now: int, open_week_ago: int | None) -> Headline:
    return Headline(
        dead_letters=open_now,
        by_status={"open": open_now},
        open_now=open_now,
        open_week_ago=open_week_ago,
        arrived_last_7=0,
        arrived_previous_7=None,
        top_group=None,
        spike=None,
    )


def test_headline_of_the_crafted_workspace(ws: Workspace) -> None:
    h = Headline.of(compute_trends(ws))
    assert h.dead_letters == 7
    assert h.by_status == {"open": 4, "resolved": 1, "parked": 1, "discarded": 1}
    assert h.open_now == 5  # b e f g open, d parked
    assert h.open_week_ago is None and h.backlog_change is None  # four days of chart
    assert h.arrived_last_7 == 7  # all of them, in the four days
    assert h.arrived_previous_7 is None
    assert h.top_group is not None
    assert (h.top_group.signature, h.top_group.count) == (QTY, 3)
    assert h.spike is None  # three batches: too few to judge
    assert h.direction() == "5 dead letters wait for a person."


def test_headline_since_a_day_counts_from_it_but_the_queue_is_the_whole_store(
    ws: Workspace,
) -> None:
    h = Headline.of(compute_trends(ws, since=MAR[1]))
    assert h.dead_letters == 3  # e f g
    assert h.by_status == {"open": 3}
    assert h.open_now == 5
    assert h.arrived_last_7 == 3
    assert h.top_group is not None and h.top_group.signature == MISSING  # ties by signature


def test_headline_of_two_weeks_compares_with_a_week_ago() -> None:
    start = dt.date(2026, 3, 1)
    days = [start + dt.timedelta(days=i) for i in range(15)]
    per_day = tuple(
        DayCount(d, {"data": i + 1, "code": 0, "transient": 0}) for i, d in enumerate(days)
    )
    backlog = tuple(BacklogPoint(d, 100 + i, i, i + 1, 0, 0) for i, d in enumerate(days))
    group = ErrorGroup(QTY, "data", 120, {"open": 114, "resolved": 6}, None, None)
    t = Trends(
        None,
        (),
        per_day,
        (),
        backlog,
        (group,),
        (),
        by_class_status={"data": {"open": 114, "resolved": 6}},
    )
    h = Headline.of(t)
    assert h.open_now == 114  # the last day
    assert h.open_week_ago == 107  # seven days before it
    assert h.backlog_change == 7
    assert h.arrived_last_7 == sum(range(9, 16))  # days 9 to 15
    assert h.arrived_previous_7 == sum(range(2, 9))  # days 2 to 8
    assert h.dead_letters == 120 and h.top_group == group
    assert h.direction() == (
        "The backlog is rising: 114 dead letters wait for a person, +7 in 7 days."
    )
    # A week of chart exactly is not enough to look a week back.
    short = Headline.of(Trends(None, (), per_day[:7], (), backlog[:7], (), ()))
    assert short.open_week_ago is None and short.arrived_previous_7 is None
    assert short.arrived_last_7 == sum(range(1, 8))


def test_headline_of_an_empty_store() -> None:
    h = Headline.of(Trends(None, (), (), (), (), (), ()))
    assert (h.dead_letters, h.open_now, h.arrived_last_7, h.top_group) == (0, 0, 0, None)
    assert h.direction() == "0 dead letters wait for a person."


def test_direction_rising_falling_flat_and_without_a_week() -> None:
    assert headline(12_345, 10_000).direction() == (
        "The backlog is rising: 12,345 dead letters wait for a person, +2,345 in 7 days."
    )
    assert headline(40, 1_040).direction() == (
        "The backlog is falling: 40 dead letters wait for a person, -1,000 in 7 days."
    )
    assert headline(7, 7).direction() == (
        "The backlog is flat: 7 dead letters wait for a person, +0 in 7 days."
    )
    assert headline(1_500, None).direction() == "1,500 dead letters wait for a person."
    assert headline(0, 3).backlog_change == -3


def test_one_dead_letter_is_said_in_the_singular() -> None:
    assert headline(1, None).direction() == "1 dead letter waits for a person."
    assert headline(1, 3).direction() == (
        "The backlog is falling: 1 dead letter waits for a person, -2 in 7 days."
    )
    assert headline(2, None).direction() == "2 dead letters wait for a person."
