"""Rows per second and the time left, from a job's progress reports: over the last few
seconds, not since the start, and said in one line."""

from __future__ import annotations

import pytest

from triage_app.core.progress import Pace, PaceMeter, describe_left, describe_pace


def test_a_steady_job_has_its_rate_and_the_time_left_exactly() -> None:
    meter = PaceMeter()
    pace = meter.update(1.0, 10_000, 200_000, 10_000)
    assert pace.rows_per_second == pytest.approx(10_000)
    assert pace.seconds_left == pytest.approx(19.0)
    pace = meter.update(2.0, 20_000, 200_000, 20_000)
    assert pace.rows_per_second == pytest.approx(10_000)
    assert pace.seconds_left == pytest.approx(18.0)
    assert pace.fraction == pytest.approx(0.1)


def test_a_slow_start_is_forgotten_after_the_window() -> None:
    """A re-drive's first chunks are small: since the start, the rate would stay low for
    the whole run; over the last 5 s it follows the job."""
    meter = PaceMeter(window=5.0)
    meter.update(10.0, 1_000, 100_000, 1_000)  # 100 rows/s for ten seconds
    for t in range(11, 17):
        pace = meter.update(float(t), 1_000 + (t - 10) * 10_000, 100_000, 1_000 + (t - 10) * 10_000)
    assert pace.rows_per_second == pytest.approx(10_000)
    assert pace.seconds_left == pytest.approx((100_000 - 61_000) / 10_000)


def test_the_time_left_counts_units_and_the_rate_counts_rows() -> None:
    """A batch reports bytes done and rows read: the time left is in bytes, the rate in
    rows."""
    meter = PaceMeter()
    pace = meter.update(2.0, 50_000_000, 200_000_000, 400_000)
    assert pace.rows_per_second == pytest.approx(200_000)
    assert pace.seconds_left == pytest.approx(6.0)


def test_a_stall_has_no_estimate_and_a_finished_job_nothing_left() -> None:
    meter = PaceMeter(window=2.0)
    meter.update(1.0, 500, 1_000, 500)
    meter.update(4.0, 500, 1_000, 500)
    stalled = meter.update(6.5, 500, 1_000, 500)  # nothing moved for the whole window
    assert stalled.rows_per_second == 0
    assert stalled.seconds_left is None
    done = meter.update(7.0, 1_000, 1_000, 1_000)
    assert done.seconds_left == 0


def test_the_first_report_at_time_zero_has_no_rate_yet() -> None:
    pace = PaceMeter().update(0.0, 0, 1_000, 0)
    assert pace.rows_per_second is None and pace.seconds_left is None


def test_a_job_that_starts_over_is_measured_afresh() -> None:
    meter = PaceMeter()
    meter.update(1.0, 900, 1_000, 900)
    pace = meter.update(2.0, 100, 1_000, 100)  # the count went back
    assert pace.rows_per_second is None
    pace = meter.update(3.0, 300, 1_000, 300)
    assert pace.rows_per_second == pytest.approx(200)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.4, "less than a second left"),
        (9.2, "about 9 s left"),
        (59.4, "about 59 s left"),
        (61, "about 1 min left"),
        (270, "about 4 min left"),
        (3_600 + 5 * 60, "about 1 h 05 min left"),
    ],
)
def test_the_time_left_is_rounded_as_far_as_an_estimate_deserves(seconds: float, text: str) -> None:
    assert describe_left(seconds) == text


def test_one_line_for_a_redrive_and_for_a_batch() -> None:
    redrive = Pace(84_000, 200_000, 84_000, 7.0, 12_345.6, 9.4)
    assert describe_pace(redrive, "Re-driving", done_counts_rows=True) == (
        "Re-driving 84,000 of 200,000 rows · 12,346 rows/s · about 9 s left"
    )
    batch = Pace(30_000_000, 120_000_000, 250_000, 0.5, 500_000.0, 1.5)
    assert describe_pace(batch, "Loading orders.jsonl", done_counts_rows=False) == (
        "Loading orders.jsonl: 250,000 rows, 25% · 500,000 rows/s · about 2 s left"
    )
    # Before a rate can be told, and once done, the line says only what is known.
    first = Pace(500, 200_000, 500, 0.0, None, None)
    assert describe_pace(first, "Re-driving", done_counts_rows=True) == (
        "Re-driving 500 of 200,000 rows"
    )
    last = Pace(200_000, 200_000, 200_000, 9.0, 20_000.0, 0.0)
    assert describe_pace(last, "Re-driving", done_counts_rows=True) == (
        "Re-driving 200,000 of 200,000 rows · 20,000 rows/s"
    )


def test_one_row_is_said_in_the_singular() -> None:
    from triage_app.core.progress import Pace, describe_pace

    one = Pace(done=0, total=1, rows=1, elapsed=0.0, rows_per_second=None, seconds_left=None)
    assert describe_pace(one, "Re-driving", done_counts_rows=True) == "Re-driving 0 of 1 row"
    assert describe_pace(one, "Loading", done_counts_rows=False) == "Loading: 1 row, 0%"
