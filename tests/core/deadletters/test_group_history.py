"""Since when, which release, still growing (issue 24): each error group names the batch its
first row came in, that batch's source and the version the row went through, and its new
rows in the last 24 h against the 24 h before; ``groups --json`` carries the same, and
``groups`` says "unowned" and waits in minutes. On SQLite and PostgreSQL, with the cells'
path and a search (the rows' path)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import DeadLetterFilter
from triage_app.core.demo import StoreFiller
from triage_app.core.vocabulary import ALL

OLD = "DataError: qty tidak valid: <n>"
NEW = "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"
NOW = dt.datetime(2026, 3, 10, 12, 0)


def _fill(ws: Workspace) -> None:
    """OLD since night 1 (pesanan@1), a few rows a night; NEW since night 8 through
    pesanan@2, 2 rows in the 24 h before the last day and 5 in the last 24 h."""
    nights = [NOW - dt.timedelta(days=9 - i, hours=1) for i in range(10)]  # Mar 1 ... Mar 10
    with StoreFiller(ws) as f:
        for i, started in enumerate(nights):
            version = "pesanan@2" if i >= 8 else "pesanan@1"
            f.batch(
                f"{i:016x}",
                source_name=f"night_{i}.jsonl",
                transform=version,
                rows=100,
                quarantined=0,
                started_at=started,
            )
        line = 0

        def row(batch: int, sig: str, cls: str, at: dt.datetime, version: str) -> None:
            nonlocal line
            line += 1
            f.dead_letter(
                f"{batch:016x}", line, error=sig, error_class=cls, transform=version, failed_at=at
            )

        for i in range(1, 10):
            row(i, OLD, "data", nights[i] + dt.timedelta(minutes=1), "pesanan@1")
        # the 24 h before the last 24 h: night 8 (Mar 9, 11:00)
        for k in range(2):
            row(8, NEW, "code", nights[8] + dt.timedelta(minutes=2 + k), "pesanan@2")
        # the last 24 h: night 9 (Mar 10, 11:00)
        for k in range(5):
            row(9, NEW, "code", nights[9] + dt.timedelta(minutes=2 + k), "pesanan@2")


def _check(ws: Workspace) -> None:
    for f in (None, DeadLetterFilter(status=ALL, search="a")):  # the cells; the rows
        groups = {g.signature: g for g in dls.error_groups(ws, f, now=NOW)}
        old, new = groups[OLD], groups[NEW]
        assert (old.first_batch, old.first_source, old.first_transform) == (
            f"{1:016x}",
            "night_1.jsonl",
            "pesanan@1",
        ), f
        assert (new.first_batch, new.first_source, new.first_transform) == (
            f"{8:016x}",
            "night_8.jsonl",
            "pesanan@2",
        ), f
        assert (new.last_24h, new.previous_24h, new.trend) == (5, 2, "growing")
        assert (old.last_24h, old.previous_24h, old.trend) == (1, 1, "steady")
        assert new.first_said() == "9 Mar 2026 11:02, batch 00000000 (night_8.jsonl), pesanan@2"
    # Two days on, nothing new: stopped, then quiet.
    later = {g.signature: g for g in dls.error_groups(ws, now=NOW + dt.timedelta(days=1))}
    assert (later[NEW].last_24h, later[NEW].previous_24h, later[NEW].trend) == (0, 5, "stopped")
    quiet = {g.signature: g for g in dls.error_groups(ws, now=NOW + dt.timedelta(days=3))}
    assert quiet[NEW].trend == "quiet"
    # The growing first, when asked.
    by_growth = dls.error_groups(ws, sort="growth", now=NOW)
    assert [g.signature for g in by_growth] == [NEW, OLD]


def test_first_release_and_growth_on_sqlite(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        _fill(ws)
        _check(ws)


def test_first_release_and_growth_on_postgresql(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        _fill(ws)
        _check(ws)


def test_groups_json_and_text_say_it(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        _fill(ws)
    listed = json.loads(cli("--workspace", folder, "--json", "groups").stdout)
    new = next(g for g in listed if g["signature"] == NEW)
    assert new["first_batch"] == f"{8:016x}" and new["first_source"] == "night_8.jsonl"
    assert new["first_transform"] == "pesanan@2" and new["first_seen"] == "2026-03-09T11:02:00Z"
    # The clock is today's, months after the store's rows: nothing in 48 h.
    assert (new["last_24h"], new["previous_24h"], new["trend"]) == (0, 0, "quiet")
    text = cli("--workspace", folder, "groups").stdout
    assert "unowned" in text and " - " not in text.splitlines()[1]
    assert "first: 9 Mar 2026 11:02, batch 00000000 (night_8.jsonl), pesanan@2" in text


def test_a_wait_of_minutes_is_said_in_minutes(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    with open_workspace(folder) as ws, StoreFiller(ws) as f:
        f.batch("a" * 16, rows=1, quarantined=1, started_at=now)
        f.dead_letter("a" * 16, 1, error=OLD, failed_at=now - dt.timedelta(minutes=12))
    line = cli("--workspace", folder, "groups").stdout.splitlines()[1]
    assert " 12 min " in line and " 0 h" not in line
    assert "+1" in line and "growing" in line


@pytest.mark.parametrize("last,before,word", [(3, 1, "growing"), (1, 3, "slowing")])
def test_trend_words(last: int, before: int, word: str) -> None:
    g = dls.ErrorGroup("s", "data", 4, {"open": 4}, None, None, last_24h=last, previous_24h=before)
    assert g.trend == word
    assert g.trend_said() == f"{word}: +{last} in 24 h ({before} the 24 h before)"
