"""Each long job's summary says itself in one sentence (``describe()``): the window shows it,
and it says at least what the command line prints for the job. One word per outcome across
jobs: a re-drive's loaded row is "resolved", a revert's row "restored" (issue 22)."""

from __future__ import annotations

import datetime as dt

from triage_app.core.batch import BatchSummary
from triage_app.core.deadletters import (
    ChangeReport,
    ChangeSetReport,
    PurgeSummary,
    RedriveResult,
    RedriveSummary,
)
from triage_app.core.vocabulary import RedriveOutcome


def _batch(**changes: object) -> BatchSummary:
    fields: dict[str, object] = {
        "batch_id": "1a2b3c4d5e6f7a8b",
        "source_name": "orders.jsonl",
        "transform": "pesanan@2",
        "format": "jsonl",
        "rows": 10,
        "loaded": 6,
        "superseded": 1,
        "quarantined": 3,
        "by_class": {"data": 2, "code": 1},
        "seconds": 0.123,
        "already_loaded": False,
    }
    fields.update(changes)
    return BatchSummary(**fields)  # type: ignore[arg-type]


def test_a_batch_names_its_whole_id_and_every_count() -> None:
    assert _batch().describe() == (
        "Batch 1a2b3c4d5e6f7a8b: 10 rows, 6 loaded, 1 superseded, 3 quarantined "
        "(2 data, 1 code) in 0.12 s."
    )
    assert _batch(already_loaded=True).describe() == (
        "Batch 1a2b3c4d5e6f7a8b was already loaded: nothing to do "
        "(10 rows: 6 loaded, 1 superseded, 3 quarantined)."
    )
    assert _batch(resumed=True).describe().startswith("Resumed batch 1a2b3c4d5e6f7a8b: ")
    cancelled = _batch(cancelled=True).describe()
    assert cancelled.startswith("Cancelled 1a2b3c4d5e6f7a8b: ")
    assert cancelled.endswith("Run the same file again to resume where it stopped.")


def test_a_redrive_says_resolved_and_names_what_it_did_not_reach() -> None:
    lapsed = RedriveResult(7, 14, RedriveOutcome.LAPSED, "resolved meanwhile by ani@laptop")
    s = RedriveSummary(
        "pesanan@2",
        False,
        4,
        2,
        2,
        1,
        (lapsed,),
        lapsed=2,
        not_attempted={"already resolved": (1, (3,))},
        stopped="the canary failed: 2 of 4",
    )
    assert s.describe() == (
        "Re-drove 4 dead letters with pesanan@2: 2 resolved, 2 failed (1 parked). "
        "Skipped 1 (already resolved): #3. "
        "#7 lapsed: resolved meanwhile by ani@laptop. 1 more lapsed. "
        "Stopped by itself: the canary failed: 2 of 4."
    )
    preview = RedriveSummary("pesanan@2", True, 3, 1, 2, 0, ())
    assert preview.describe() == (
        "Preview of 3 dead letters with pesanan@2: 1 would succeed, 2 would still fail. "
        "Nothing was written."
    )


def test_a_purge_names_its_statuses_cutoff_and_days() -> None:
    cutoff = dt.datetime(2026, 9, 1, 12, 0, tzinfo=dt.UTC)
    by_day = {f"2026-08-{d:02}": {"data": d} for d in range(1, 8)}
    s = PurgeSummary(cutoff, ("resolved", "discarded"), False, 28, {"resolved": 28}, by_day)
    text = s.describe()
    assert text.startswith(
        "Purged 28 dead letters (28 resolved), closed before 1 Sep 2026 12:00 UTC. "
        "Quarantined on 1 Aug 2026: 1 data; 2 Aug 2026: 2 data;"
    )
    assert text.endswith("5 Aug 2026: 5 data and 2 more days.")
    nothing = PurgeSummary(cutoff, ("discarded",), True, 0, {}, {})
    assert nothing.describe() == (
        "Nothing to purge now: no discarded dead letter closed before 1 Sep 2026 12:00 UTC."
    )
    # A purge by a policy says its days too (the CLI said "older than 30 days").
    policy = PurgeSummary(cutoff, ("resolved",), False, 1, {"resolved": 1}, {}, days=30)
    assert policy.describe() == (
        "Purged 1 dead letter (1 resolved), closed more than 30 days ago "
        "(before 1 Sep 2026 12:00 UTC)."
    )


def test_a_change_set_applied_and_reverted() -> None:
    applied = ChangeSetReport(3, "applied", changed=(1, 2), refused=((4, "edited by eve"),))
    assert applied.describe() == (
        "Change-set 3: 2 dead letters changed. 1 left out, changed since the preview or held "
        "by a re-drive: #4 (first: edited by eve). Revert change-set 3 to undo it."
    )
    at = dt.datetime(2026, 9, 1, tzinfo=dt.UTC)
    reverted = ChangeSetReport(3, "reverted", changed=(1,), already=(2,), reverted_at=at)
    assert reverted.describe() == (
        "Change-set 3 reverted: 1 dead letter restored. 1 already restored."
    )
    held = ChangeSetReport(3, "reverted", changed=(1,), refused=((4, "held by a re-drive"),))
    assert held.describe() == (
        "Change-set 3 partly reverted: 1 dead letter restored. It stays open (1 held by a "
        "re-drive (first: held by a re-drive)); revert again then."
    )


def test_a_discard_names_its_rows_and_the_way_back() -> None:
    r = ChangeReport("discarded", changed=(2, 3), refused=((4, "edited by eve"),))
    assert r.describe() == (
        "Discarded 2 dead letters: #2 and #3. Left out 1: #4 "
        "(first: edited by eve). Reopen brings them back until retention purges them."
    )
