"""``stats`` prints failures per day, as its help says (issue 20): each of the last N UTC
days by the day of first failure, with the classes; ``--json`` keeps every day."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import orjson

from tests.support import cli
from triage_app.core.clock import day_start, today
from triage_app.core.db import open_workspace
from triage_app.core.demo import StoreFiller


def test_stats_prints_failures_per_day(tmp_path: Path) -> None:
    now = today()
    ago = {n: day_start(now - dt.timedelta(days=n)) + dt.timedelta(hours=9) for n in (0, 2, 30)}
    plan = [(2, "data"), (2, "data"), (2, "code"), (0, "code"), (30, "data")]
    with open_workspace(tmp_path / "ws") as ws, StoreFiller(ws) as filler:
        filler.batch("0123456789abcdef", rows=100, quarantined=len(plan), started_at=ago[30])
        for line, (days, cls) in enumerate(plan, start=1):
            filler.dead_letter(
                "0123456789abcdef",
                line,
                error=f"DataError: qty tidak valid: -{line}",
                error_class=cls,
                failed_at=ago[days],
            )
    args = ["--workspace", str(tmp_path / "ws"), "stats"]
    done = cli(*args, "--days", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("failures per day (first failure, UTC), last 3 days:")
    day = [(now - dt.timedelta(days=n)).isoformat() for n in (2, 1, 0)]
    assert lines[at + 1 : at + 4] == [
        f"  {day[0]}       3  code 1, data 2",
        f"  {day[1]}       0",
        f"  {day[2]}       1  code 1",
    ]
    assert lines[at + 4] == "top signatures:"
    # The default is two weeks: the row of 30 days ago is in --days 31 only.
    assert f"  {(now - dt.timedelta(days=30)).isoformat()}       1  data 1" not in done.stdout
    assert f"  {(now - dt.timedelta(days=30)).isoformat()}       1  data 1" in (
        cli(*args, "--days", "31").stdout
    )
    everything = orjson.loads(cli(*args, "--json").stdout)["failures_per_day"]
    assert sum(d["count"] for d in everything) == 5
    assert {d["day"] for d in everything} == {
        day[0],
        day[2],
        (now - dt.timedelta(days=30)).isoformat(),
    }


def test_stats_says_when_the_last_days_had_no_failures(tmp_path: Path) -> None:
    long_ago = day_start(today() - dt.timedelta(days=100))
    with open_workspace(tmp_path / "ws") as ws, StoreFiller(ws) as filler:
        filler.batch("0123456789abcdef", rows=1, quarantined=1, started_at=long_ago)
        filler.dead_letter("0123456789abcdef", 1, error="DataError: x", failed_at=long_ago)
    done = cli("--workspace", str(tmp_path / "ws"), "stats")
    assert (
        "last 14 days:\n  none (the newest: " + long_ago.date().isoformat() + ")\n" in done.stdout
    )
