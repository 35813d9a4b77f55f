"""stats answers from its cache while the store is unchanged, and never from a stale one."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from triage_app.core.batch import run_batch
from triage_app.core.db import StatsCache, Workspace
from triage_app.core.deadletters import list_dead_letters, set_status
from triage_app.core.trends import compute_stats
from triage_app.core.trends import stats_json as cached_stats
from triage_app.core.vocabulary import Status


def computed(ws: Workspace) -> int:
    with ws.store.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(StatsCache)).scalar_one())


def test_cache_follows_every_change(workspace: Workspace, seed_batch: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import triage_app.core.trends.stats_cache as sc

    calls = []
    real = sc.compute_stats
    monkeypatch.setattr(sc, "compute_stats", lambda ws: calls.append(1) or real(ws))

    empty = cached_stats(workspace)
    assert empty["total"] == 0 and len(calls) == 1
    run_batch(workspace, seed_batch, "pesanan@1")
    first = cached_stats(workspace)
    assert first["total"] == 4 and len(calls) == 2
    assert cached_stats(workspace) == first and len(calls) == 2  # unchanged: the cache
    assert computed(workspace) == 1

    set_status(workspace, [list_dead_letters(workspace)[0].id], Status.PARKED)
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
    set_status(workspace, [list_dead_letters(workspace)[0].id], Status.PARKED)
    assert quick_stats.cached_answer(db) is None  # the store changed: the engine recomputes
    assert quick_stats.store_path(str(db.parent), None) == db
    assert quick_stats.store_path(None, "postgresql://h/db") is None
