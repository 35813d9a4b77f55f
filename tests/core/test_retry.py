"""Transient failures retry with backoff and jitter at the back of the queue; nothing is
quarantined for a transient cause unless its retries run out."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.deadletters import list_dead_letters, redrive
from triage_app.core.errors import TransientError
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Column, Registry, Transform

COLUMNS = (Column("id", "int"), Column("v", "text"))


def flaky_registry(fail_times: dict[int, int], calls: list[int]) -> Registry:
    """A transform that fails ``fail_times[id]`` times with a transient error, then works."""
    seen: Counter[int] = Counter()

    def fn(rec: Any) -> tuple[Any, ...]:
        rid = rec["id"]
        calls.append(rid)
        seen[rid] += 1
        if seen[rid] <= fail_times.get(rid, 0):
            raise TransientError(f"lookup service busy for {rid}")
        return (rid, str(rec.get("v")))

    reg = Registry()
    reg.register(Transform("flaky", 1, "flaky", "id", COLUMNS, fn))
    return reg


def write(path: Path, ids: list[int]) -> Path:
    path.write_text("".join(f'{{"id": {i}, "v": "x{i}"}}\n' for i in ids))
    return path


def policy() -> RetryPolicy:
    return RetryPolicy(attempts=3, base_delay=0.01, max_delay=0.05, rng=random.Random(1))


def test_batch_retries_transient_then_loads(workspace: Workspace, tmp_path: Path) -> None:
    calls: list[int] = []
    sleeps: list[float] = []
    reg = flaky_registry({2: 2}, calls)
    s = run_batch(
        workspace,
        write(tmp_path / "a.jsonl", [1, 2, 3, 4]),
        "flaky@1",
        registry=reg,
        retry=policy(),
        sleep=sleeps.append,
    )
    assert (s.loaded, s.quarantined) == (4, 0)
    # Record 2 went to the back of the queue: 3 and 4 did not wait for it.
    assert calls == [1, 2, 3, 4, 2, 2]
    assert all(0 <= d <= 0.05 for d in sleeps)


def test_batch_quarantines_transient_when_retries_run_out(
    workspace: Workspace, tmp_path: Path
) -> None:
    calls: list[int] = []
    reg = flaky_registry({2: 99}, calls)
    s = run_batch(
        workspace,
        write(tmp_path / "b.jsonl", [1, 2, 3]),
        "flaky@1",
        registry=reg,
        retry=policy(),
        sleep=lambda _d: None,
    )
    assert s.by_class == {"transient": 1} and s.loaded == 2
    assert calls.count(2) == 3
    (dl,) = list_dead_letters(workspace)
    assert dl.error_class == "transient" and dl.error.startswith("TransientError: ")


def test_redrive_retries_transient_at_the_back(workspace: Workspace, tmp_path: Path) -> None:
    calls: list[int] = []
    reg = flaky_registry({1: 99, 2: 99, 3: 99}, calls)
    run_batch(
        workspace,
        write(tmp_path / "c.jsonl", [1, 2, 3]),
        "flaky@1",
        registry=reg,
        retry=policy(),
        sleep=lambda _d: None,
    )
    ids = [d.id for d in list_dead_letters(workspace)]
    calls.clear()
    reg2 = flaky_registry({1: 1}, calls)
    r = redrive(workspace, "flaky@1", ids=ids, registry=reg2, retry=policy(), sleep=lambda _d: None)
    assert r.succeeded == 3
    assert calls == [1, 2, 3, 1]


def test_backoff_is_exponential_with_full_jitter() -> None:
    p = RetryPolicy(attempts=6, base_delay=0.1, max_delay=1.0, rng=random.Random(7))
    ceilings = [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    for failures, ceiling in enumerate(ceilings, 1):
        samples = [p.delay(failures) for _ in range(200)]
        assert max(samples) <= ceiling
        assert max(samples) > ceiling * 0.8  # jitter spreads over the whole range
        assert min(samples) < ceiling * 0.2


@pytest.mark.parametrize("attempts", [1, 2])
def test_with_retry_gives_up(attempts: int) -> None:
    from triage_app.core.retry import with_retry

    calls = []

    def boom() -> None:
        calls.append(1)
        raise TransientError("still down")

    with pytest.raises(TransientError):
        with_retry(boom, RetryPolicy(attempts=attempts), sleep=lambda _d: None)
    assert len(calls) == attempts
