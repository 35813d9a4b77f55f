"""A re-drive that guards itself (issue 13): a canary first, going on only if few enough of
it failed; stopping by itself when too many of the last rows fail, saying why and how far
it got; and a pace, rows a second, that a busy warehouse can take."""

from __future__ import annotations

import json
import time
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, Workspace, open_workspace
from triage_app.core.deadletters import DeadLetterFilter, RedriveGuard
from triage_app.core.errors import TriageError


def _batch(ws: Workspace, folder: Path, bad: set[int], n: int) -> list[int]:
    """n orders all failing pesanan@1 (a null diskon); those in ``bad`` also fail @2."""
    src = folder / "orders.jsonl"
    with src.open("wb") as f:
        for i in range(1, n + 1):
            record = {
                "pesanan_id": i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": "p",
                "produk": "kopi",
                "qty": -1 if i in bad else 1,
                "harga": 1000,
                "diskon": None,
            }
            f.write(orjson.dumps(record) + b"\n")
    assert run_batch(ws, src, "pesanan@1").quarantined == n
    return dls.chosen_ids(ws, None, DeadLetterFilter())


def _touched(ws: Workspace) -> set[int]:
    """The rows a re-drive touched: resolved, or a second attempt."""
    with ws.store.connect() as conn:
        return set(
            conn.execute(
                select(DeadLetter.id).where(
                    (DeadLetter.status == "resolved") | (DeadLetter.attempts > 1)
                )
            ).scalars()
        )


def test_a_canary_that_fails_stops_the_redrive_before_the_rest(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path, bad=set(range(2, 201, 2)), n=200)  # half fail @2
    s = dls.redrive(
        workspace, "pesanan@2", ids=ids, guard=RedriveGuard(canary=10, max_failure_rate=0.2)
    )
    assert (s.attempted, s.succeeded, s.failed) == (10, 5, 5)
    assert s.stopped == (
        "the canary failed: 5 of its 10 rows failed, more than 20%; the other 190 were not touched"
    )
    assert _touched(workspace) == set(ids[:10])


def test_a_canary_that_passes_goes_on_and_the_last_rows_stop_it(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path, bad=set(range(301, 601)), n=600)
    guard = RedriveGuard(canary=10, max_failure_rate=0.2, window=200)
    s = dls.redrive(workspace, "pesanan@2", ids=ids, guard=guard)
    # The canary (10 good rows) passes; the next chunk (500 rows) ends in 210 failures.
    assert s.attempted == 510 and s.succeeded == 300
    assert s.stopped == "200 of the last 200 rows failed, more than 20%: stopped after 510 of 600"
    assert _touched(workspace) == set(ids[:510])


def test_a_guard_that_is_never_crossed_changes_nothing(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path, bad={7}, n=300)
    s = dls.redrive(workspace, "pesanan@2", ids=ids, guard=RedriveGuard(canary=0))
    assert s.stopped is None and (s.attempted, s.failed) == (300, 1)


def test_the_default_canary_is_ten_rows_or_one_percent() -> None:
    guard = RedriveGuard(canary=0)
    assert (guard.canary_size(100), guard.canary_size(2_000), guard.canary_size(12_345)) == (
        10,
        20,
        124,
    )
    with pytest.raises(TriageError):
        RedriveGuard(max_failure_rate=1.5)
    with pytest.raises(TriageError):
        RedriveGuard(pace=0)


def test_the_pace_holds_within_ten_percent(workspace: Workspace, tmp_path: Path) -> None:
    """On a clock of its own (its time moves only when the re-drive waits), the pace is
    exactly what was asked: rows / pace seconds, in chunks of a quarter second's rows."""
    ids = _batch(workspace, tmp_path, bad=set(), n=1_000)
    now = [0.0]
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    sizes: list[int] = []
    s = dls.redrive(
        workspace,
        "pesanan@2",
        ids=ids,
        guard=RedriveGuard(pace=400),
        sleep=sleep,
        clock=lambda: now[0],
        on_results=lambda chunk: sizes.append(len(chunk)),
    )
    assert s.succeeded == 1_000 and s.stopped is None
    assert max(sizes) == 100  # a quarter of a second at 400 rows a second
    assert abs(now[0] - 1_000 / 400) / (1_000 / 400) < 0.10
    assert len(waits) == len(sizes)


def test_the_pace_holds_on_the_real_clock(workspace: Workspace, tmp_path: Path) -> None:
    ids = _batch(workspace, tmp_path, bad=set(), n=600)
    started = time.monotonic()
    s = dls.redrive(workspace, "pesanan@2", ids=ids, guard=RedriveGuard(pace=1_200))
    took = time.monotonic() - started
    assert s.succeeded == 600
    assert took >= 0.9 * 600 / 1_200  # never faster than asked (a busy machine may be slower)


def test_the_command_line_stops_and_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        _batch(ws, tmp_path, bad=set(range(2, 101, 2)), n=100)
        (batch,) = {d.batch_id for d in dls.list_dead_letters(ws, DeadLetterFilter())}
    base = ("--workspace", str(folder), "redrive", "--batch", batch, "--transform", "pesanan@2")
    out = cli(*base, "--canary", "--json")
    assert out.returncode == 1, out.stderr
    s = json.loads(out.stdout)
    assert s["attempted"] == 10 and s["stopped"].startswith("the canary failed: 5 of its 10")
    # Again, the rows still open: at most 80% may fail, and fewer do (7 of the canary's 10,
    # the five that failed before among them; half of the rest).
    text = cli(*base, "--canary", "10", "--max-failure-rate", "0.8")
    assert text.returncode == 0, text.stdout + text.stderr
    assert "stopped" not in text.stdout


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (("--max-failure-rate", "2"), "is not a share between 0 and 1"),
        (("--pace", "0"), "is not a number of rows a second"),
        (("--canary", "-3"), "--canary"),
    ],
)
def test_a_bad_guard_is_refused_in_one_line(
    tmp_path: Path, option: tuple[str, str], said: str
) -> None:
    out = cli(
        "--workspace",
        str(tmp_path / "ws"),
        "redrive",
        "--all-open",
        "--transform",
        "pesanan@2",
        *option,
    )
    assert out.returncode == 2 and said in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
