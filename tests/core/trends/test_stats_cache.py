"""stats answers from its cache while the store is unchanged, and never from a stale one.

After a batch that quarantined nothing, only the batches' totals in the stamp move: the
entry is re-stamped with the batches' part of Trends read again (per-batch rates, spikes),
no dead letter counted; anything else (a quarantined row, an edit, a purge, another day)
counts everything again."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import func, select

from tests.support import gen_batch
from triage_app.cli import main
from triage_app.core import quick_stats
from triage_app.core.batch import run_batch
from triage_app.core.clock import today, utcnow
from triage_app.core.db import StatsCache, Workspace
from triage_app.core.deadletters import (
    apply_change,
    discard,
    edit_payload,
    list_dead_letters,
    park,
    purge,
)
from triage_app.core.jobs import BatchJob
from triage_app.core.trends import compute_stats, warm_stats_cache
from triage_app.core.trends import stats_json as cached_stats
from triage_app.core.trends.stats_cache import store_version
from triage_app.core.vocabulary import Status


def computed(ws: Workspace) -> int:
    with ws.store.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(StatsCache)).scalar_one())


def test_cache_follows_every_change(workspace: Workspace, seed_batch: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import triage_app.core.trends.stats as st

    calls = []
    real = st.compute_stats
    monkeypatch.setattr(st, "compute_stats", lambda ws: calls.append(1) or real(ws))

    empty = cached_stats(workspace)
    assert empty["total"] == 0 and len(calls) == 1
    run_batch(workspace, seed_batch, "pesanan@1")
    first = cached_stats(workspace)
    assert first["total"] == 4 and len(calls) == 2
    assert cached_stats(workspace) == first and len(calls) == 2  # unchanged: the cache
    assert computed(workspace) == 1

    apply_change(workspace, [list_dead_letters(workspace)[0].id], park())
    after = cached_stats(workspace)
    assert len(calls) == 3 and after["by_status"] == {"open": 3, "parked": 1}
    # What the cache gives is what a fresh computation gives.
    fresh = compute_stats(workspace).to_json()
    assert after["by_status"] == fresh["by_status"]
    assert after["top_signatures"] == fresh["top_signatures"]


def test_the_engine_free_path_agrees_and_misses_after_a_change(
    workspace: Workspace, seed_batch: Path
) -> None:
    import orjson

    from triage_app.core import quick_stats
    from triage_app.core.jobs import BatchJob

    db = workspace.config.folder / "dead_letter.db"  # type: ignore[operator]
    assert quick_stats.cached_answer(db) is None  # nothing cached yet
    BatchJob(seed_batch, "pesanan@1").run(workspace)  # a batch leaves the cache warm
    fast = quick_stats.cached_answer(db)
    slow = cached_stats(workspace)
    assert fast is not None and orjson.loads(fast) == slow
    apply_change(workspace, [list_dead_letters(workspace)[0].id], park())
    assert quick_stats.cached_answer(db) is None  # the store changed: the engine recomputes
    assert quick_stats.store_path(str(db.parent), None) == db
    assert quick_stats.store_path(None, "postgresql://h/db") is None


# -- re-stamped after a batch that quarantined nothing ------------------------------------


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per time the stats are computed from scratch (every dead letter counted)."""
    import triage_app.core.trends.stats as st

    calls: list[int] = []
    real = st.compute_stats
    monkeypatch.setattr(st, "compute_stats", lambda ws: calls.append(1) or real(ws))
    return calls


def entry(ws: Workspace) -> tuple[str, dt.datetime]:
    with ws.store.connect() as conn:
        row = conn.execute(select(StatsCache.version, StatsCache.computed_at)).one()
    return row.version, row.computed_at


def fresh(ws: Workspace) -> dict[str, Any]:
    """What ``stats --json`` would print after counting everything now (this module's
    ``compute_stats`` is the function itself, not the one ``counted`` watches)."""
    loaded: dict[str, Any] = orjson.loads(orjson.dumps(compute_stats(ws).to_json(), default=str))
    return loaded


def now_stamp(ws: Workspace) -> str:
    with ws.store.connect() as conn:
        return store_version(conn)


def run_file(ws: Workspace, path: Path) -> None:
    """A batch as ``triage-app run`` and the window run it: the cache is warmed after it."""
    BatchJob(path, "pesanan@1").run(ws)


@pytest.fixture
def nine_batches(workspace: Workspace, tmp_path: Path) -> Workspace:
    """Nine batches, the eighth a spike (30 % quarantined against 2 %): it is among the three
    newest, so the banner names it, until newer batches push it out."""
    for i in range(9):
        bad = 0.3 if i == 7 else 0.02
        run_file(workspace, gen_batch(tmp_path / f"night{i}.jsonl", 60, bad=bad, seed=i))
    return workspace


def test_a_clean_batch_re_stamps_the_cache_and_stats_is_served_from_it(
    nine_batches: Workspace,
    tmp_path: Path,
    counted: list[int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    ws = nine_batches
    before = cached_stats(ws)
    assert [s["recent"] for s in before["trends"]["spikes"]] == [True]
    old_version, computed_at = entry(ws)
    assert counted == []

    for i in range(3):  # three clean batches: the spike is no longer among the newest
        run_file(ws, gen_batch(tmp_path / f"clean{i}.jsonl", 40, bad=0.0, seed=100 + i))
        version, at = entry(ws)
        assert version == now_stamp(ws) != old_version  # re-stamped to the store's stamp
        assert at == computed_at  # and never counted again
        old_version = version
    assert counted == []

    # `stats --json` is answered from the cache, by the path that needs no engine.
    db = ws.config.folder / "dead_letter.db"  # type: ignore[operator]
    assert quick_stats.cached_answer(db) is not None
    assert main(["--workspace", str(db.parent), "stats", "--json"]) == 0
    served = orjson.loads(capsys.readouterr().out)
    assert counted == []
    # It is what counting everything now gives, and the batches' part did move.
    assert served == fresh(ws)
    assert len(served["trends"]["per_batch"]) == len(before["trends"]["per_batch"]) + 3
    assert [s["recent"] for s in served["trends"]["spikes"]] == [False]
    assert {k: v for k, v in served.items() if k != "trends"} == {
        k: v for k, v in before.items() if k != "trends"
    }


Change = Callable[[Workspace, Path, pytest.MonkeyPatch], None]


def _quarantining_batch(ws: Workspace, tmp: Path, _mp: pytest.MonkeyPatch) -> None:
    run_file(ws, gen_batch(tmp / "bad.jsonl", 40, bad=0.2, seed=77))


def _edit(ws: Workspace, tmp: Path, _mp: pytest.MonkeyPatch) -> None:
    edit_payload(ws, list_dead_letters(ws)[0].id, '{"pesanan_id": 1, "qty": 2}')
    warm_stats_cache(ws)


def _purge(ws: Workspace, tmp: Path, _mp: pytest.MonkeyPatch) -> None:
    apply_change(ws, [list_dead_letters(ws)[0].id], discard("junk"))
    warm_stats_cache(ws)  # the discard is counted here
    later = utcnow() + dt.timedelta(days=10)
    assert purge(ws, 1, [Status.DISCARDED], now=later).rows == 1
    warm_stats_cache(ws)


def _next_day(ws: Workspace, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import triage_app.core.trends.stats_cache as sc

    tomorrow = today() + dt.timedelta(days=1)
    monkeypatch.setattr(sc, "today", lambda: tomorrow)
    run_file(ws, gen_batch(tmp / "clean.jsonl", 40, bad=0.0, seed=5))  # clean, but a day on


@pytest.mark.parametrize(
    ("change", "counts"),
    [(_quarantining_batch, 1), (_edit, 1), (_purge, 2), (_next_day, 1)],
    ids=["quarantining batch", "edit", "purge", "next day"],
)
def test_any_other_change_counts_everything_again(
    nine_batches: Workspace,
    tmp_path: Path,
    counted: list[int],
    monkeypatch: pytest.MonkeyPatch,
    change: Change,
    counts: int,
) -> None:
    ws = nine_batches
    computed_at = entry(ws)[1]
    change(ws, tmp_path, monkeypatch)
    assert len(counted) == counts
    version, at = entry(ws)
    assert at > computed_at
    assert version == now_stamp(ws)
    assert cached_stats(ws) == fresh(ws)
    assert len(counted) == counts  # and then served from the cache


def test_only_the_batches_part_of_the_stamp_may_differ() -> None:
    day = dt.date(2026, 11, 30)
    # Events, dead letters, the newest resolution, batches, purges (VERSION_SQL's order).
    resolved = ("2026-11-29 08:00:00",)
    rows = [
        (7,),
        (5,),
        resolved,
        (3, 300, 9, "2026-11-30 10:00:00", "2026-11-30 10:00:01"),
        (0, None, None),
    ]
    assert len(rows) == len(quick_stats.VERSION_SQL)
    stamp = quick_stats.version_from(rows, day)
    batches = (4, 340, 9, "2026-11-30 11:00:00", "2026-11-30 11:00:01")
    clean = [rows[0], rows[1], rows[2], batches, rows[4]]
    assert quick_stats.only_batches_moved(stamp, clean, day)
    assert not quick_stats.only_batches_moved(stamp, rows, day)  # the same stamp
    assert not quick_stats.only_batches_moved(stamp, clean, day + dt.timedelta(days=1))
    # A re-drive's resolutions write no event: the newest resolved_at moves the stamp.
    for i, moved in ((0, (8,)), (1, (6,)), (2, ("2026-11-30 12:00:00",)), (4, (1, 1, 2))):
        other = list(clean)
        other[i] = moved
        assert not quick_stats.only_batches_moved(stamp, other, day), i
    assert not quick_stats.only_batches_moved(stamp + "|x", clean, day)
