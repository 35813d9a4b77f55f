"""The quarantine history for Trends: exactly the dead letters and batches asked for, the two
releases that the spike rule flags (the newest one in the banner), and every status."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from triage_app.core.batch import list_batches, run_batch
from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    Workspace,
    open_workspace,
    signature_text,
)
from triage_app.core.deadletters import DeadLetterFilter, count_dead_letters
from triage_app.core.demo import fill_history
from triage_app.core.trends import Trends, compute_trends

DEAD_LETTERS, BATCHES = 20_000, 200
SPIKES = [int(BATCHES * 0.55), BATCHES - 1]  # 110 and 199
ALL = DeadLetterFilter(status="all")
ALL_STATUSES = ("open", "resolved", "parked", "discarded")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workspace, Trends]]:
    with open_workspace(tmp_path_factory.mktemp("history") / "ws") as ws:
        fill_history(ws, DEAD_LETTERS, BATCHES)
        yield ws, compute_trends(ws)


def test_exactly_the_dead_letters_and_batches_asked_for(
    history: tuple[Workspace, Trends],
) -> None:
    ws, t = history
    assert count_dead_letters(ws, ALL) == DEAD_LETTERS
    assert len(list_batches(ws)) == BATCHES == len(t.per_batch)
    with ws.store.connect() as conn:
        per_batch = dict(
            conn.execute(
                select(DeadLetter.batch_id, func.count()).group_by(DeadLetter.batch_id)
            ).all()
        )
        counters = {
            b.batch_id: (b.quarantined, b.q_data + b.q_code + b.q_transient, b.rows, b.loaded)
            for b in conn.execute(select(Batch))
        }
    # Each batch's counters say what it holds.
    assert sum(q for q, _, _, _ in counters.values()) == DEAD_LETTERS
    for bid, (quarantined, by_class, rows, loaded) in counters.items():
        assert per_batch.get(bid, 0) == quarantined == by_class, bid
        assert rows == loaded + quarantined and 80_000 <= rows < 120_000
    assert t.by_class_status.keys() == {"data", "code", "transient"}


def test_the_spike_rule_flags_both_releases_and_the_banner_names_the_last(
    history: tuple[Workspace, Trends],
) -> None:
    _, t = history
    assert [c.index for c in t.checks if c.is_spike] == SPIKES
    assert [t.per_batch[i].transform for i in SPIKES] == ["pesanan@2", "pesanan@2"]
    others = {p.transform for i, p in enumerate(t.per_batch) if i not in SPIKES}
    assert others == {"pesanan@1"}
    # A release's batch is mostly code errors; a quiet night is mostly data.
    for i in SPIKES:
        assert t.per_batch[i].by_class["code"] > t.per_batch[i].by_class["data"]
    assert t.per_batch[0].by_class["data"] > t.per_batch[0].by_class["code"]
    assert [(s.batch.batch_id, s.newest) for s in t.spikes] == [
        (t.per_batch[SPIKES[0]].batch_id, False),
        (t.per_batch[SPIKES[1]].batch_id, True),
    ]
    banner = t.banner_spike()
    assert banner is not None and banner.batch == t.per_batch[-1]
    assert "pesanan@2" in banner.message() and banner.ratio > 3.0


def test_some_dead_letters_are_in_each_status_and_the_newest_are_waiting(
    history: tuple[Workspace, Trends],
) -> None:
    ws, t = history
    by_status = {s: count_dead_letters(ws, ALL.with_(status=s)) for s in ALL_STATUSES}
    assert all(n > 0 for n in by_status.values()), by_status
    assert sum(by_status.values()) == DEAD_LETTERS
    assert by_status["resolved"] > by_status["open"]  # older ones mostly resolved
    newest = ALL.with_(batch_id=t.per_batch[-1].batch_id)
    assert count_dead_letters(ws, newest.with_(status="resolved")) == 0
    assert count_dead_letters(ws, newest.with_(status="open")) > 0
    # Parked rows ran out of attempts.
    assert count_dead_letters(ws, ALL.with_(status="parked", attempts=3)) == by_status["parked"]


def test_every_dead_letter_has_its_events(history: tuple[Workspace, Trends]) -> None:
    ws, _ = history
    with ws.store.connect() as conn:
        events = dict(
            conn.execute(select(AuditEvent.action, func.count()).group_by(AuditEvent.action)).all()
        )
    assert events == {
        "quarantined": DEAD_LETTERS,
        "resolved": count_dead_letters(ws, ALL.with_(status="resolved")),
        "discarded": count_dead_letters(ws, ALL.with_(status="discarded")),
    }


def test_the_history_is_deterministic_and_joins_a_store_with_batches(
    tmp_path: Path, seed_batch: Path
) -> None:
    def filled(ws: Workspace, other: str = "") -> list[tuple[object, ...]]:
        stmt = (
            select(
                DeadLetter.batch_id,
                DeadLetter.line,
                DeadLetter.status,
                DeadLetter.attempts,
                signature_text(),
                DeadLetter.first_failed_at,
                DeadLetter.resolved_at,
            )
            .where(DeadLetter.batch_id != other)
            .order_by(DeadLetter.batch_id, DeadLetter.line)
        )
        with ws.store.connect() as conn:
            return [tuple(r) for r in conn.execute(stmt)]

    with open_workspace(tmp_path / "a") as a, open_workspace(tmp_path / "b") as b:
        fill_history(a, 1_000, 10)
        seed = run_batch(b, seed_batch, "pesanan@1")  # four dead letters already there
        fill_history(b, 1_000, 10)
        assert count_dead_letters(b, ALL) == 1_004
        assert len(list_batches(b)) == 11
        assert count_dead_letters(b, ALL.with_(batch_id=seed.batch_id)) == 4
        history = filled(a)
        assert len(history) == 1_000
        assert filled(b, other=seed.batch_id) == history
