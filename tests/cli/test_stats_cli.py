"""``stats`` prints failures per day, as its help says (issue 20): each of the last N UTC
days by the day of first failure, with the classes; ``--json`` keeps every day.

The command counts to its own today, which it names in the section's head; the tests read
that day there, so a run across midnight UTC (rows planted on one day, counted on the next)
checks the same thing as any other run, against the day the command used. The days are
written the language's way (English here: ``3 Dec 2026``), as every date a person reads."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import orjson

from tests.support import cli
from triage_app.core.clock import day_start, today
from triage_app.core.db import open_workspace
from triage_app.core.demo import StoreFiller
from triage_app.core.locale_format import format_date

HEAD = re.compile(
    r"failures per day \(first failure, UTC\), last (\d+) days? \((?:(.+?) to )?([^()]+)\):"
)
ONE_DAY = dt.timedelta(days=1)


def date_of(text: str) -> dt.date:
    """``3 Dec 2026`` (English) as a date."""
    return dt.datetime.strptime(text, "%d %b %Y").date()


def said(day: dt.date) -> str:
    """A day as a line of the section starts with it: right-aligned, 11 wide."""
    return format_date(day, "en").rjust(11)


def per_day(stdout: str) -> tuple[int, dt.date, list[str]]:
    """The section's days, the last of them (the command's today), and its lines."""
    lines = stdout.splitlines()
    (at,) = [i for i, line in enumerate(lines) if HEAD.fullmatch(line)]
    m = HEAD.fullmatch(lines[at])
    assert m is not None
    days, last = int(m[1]), date_of(m[3])
    if days > 1:  # the head names the first day too: days - 1 before the last
        assert date_of(m[2]) == last - (days - 1) * ONE_DAY
    return days, last, lines[at + 1 : lines.index("top signatures:", at)]


def test_stats_prints_failures_per_day(tmp_path: Path) -> None:
    planted = today()
    failed = {n: day_start(planted - n * ONE_DAY) + dt.timedelta(hours=9) for n in (0, 2, 30)}
    plan = [(2, "data"), (2, "data"), (2, "code"), (0, "code"), (30, "data")]
    with open_workspace(tmp_path / "ws") as ws, StoreFiller(ws) as filler:
        filler.batch("0123456789abcdef", rows=100, quarantined=len(plan), started_at=failed[30])
        for line, (days, cls) in enumerate(plan, start=1):
            filler.dead_letter(
                "0123456789abcdef",
                line,
                error=f"DataError: qty tidak valid: -{line}",
                error_class=cls,
                failed_at=failed[days],
            )
    args = ["--workspace", str(tmp_path / "ws"), "stats"]
    done = cli(*args, "--days", "3")
    assert done.returncode == 0, done.stderr
    days, last, lines = per_day(done.stdout)
    # Its today: the day the rows were planted, or the next if midnight UTC came between.
    assert days == 3 and last in (planted, planted + ONE_DAY) and last <= today()
    day = {n: said(planted - n * ONE_DAY) for n in (30, 2, 1, 0, -1)}
    assert (
        lines
        == {
            planted: [
                f"  {day[2]}       3  code 1, data 2",
                f"  {day[1]}       0",
                f"  {day[0]}       1  code 1",
            ],
            planted + ONE_DAY: [f"  {day[0]}       1  code 1", f"  {day[-1]}       0"],
        }[last]
    )
    # The default is two weeks: the row of 30 days ago is in --days 31 only (counted from
    # the day each run names).
    oldest = f"  {day[30]}       1  data 1"
    for asked in ("14", "31"):
        days, last, lines = per_day(cli(*args, "--days", asked).stdout)
        in_window = (last - failed[30].date()).days < days
        assert (oldest in lines) is in_window
        if last == planted:  # the usual run: the edge of the window is where it is tested
            assert in_window is (asked == "31")
    everything = orjson.loads(cli(*args, "--json").stdout)["failures_per_day"]
    assert sum(d["count"] for d in everything) == 5
    assert {d["day"] for d in everything} == {
        (planted - n * ONE_DAY).isoformat() for n in (2, 0, 30)
    }


def test_stats_says_when_the_last_days_had_no_failures(tmp_path: Path) -> None:
    long_ago = day_start(today() - 100 * ONE_DAY)
    with open_workspace(tmp_path / "ws") as ws, StoreFiller(ws) as filler:
        filler.batch("0123456789abcdef", rows=1, quarantined=1, started_at=long_ago)
        filler.dead_letter("0123456789abcdef", 1, error="DataError: x", failed_at=long_ago)
    done = cli("--workspace", str(tmp_path / "ws"), "stats")
    days, last, lines = per_day(done.stdout)
    assert days == 14 and last >= long_ago.date() + 100 * ONE_DAY
    assert lines == [f"  none (the newest: {format_date(long_ago.date(), 'en')})"]
