"""A change by hand previewed (issue 20): what ``discard``, ``park``, ``reopen`` or
``reclassify`` WOULD do, by the same rules as the change itself, nothing written; and
applying exactly what was previewed, leaving out rows that changed since."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    ChangePreview,
    DeadLetterFilter,
    apply_change,
    claims,
    discard,
    get_dead_letter,
    leases,
    note,
    park,
    preview_change,
    reclassify_as,
    redrive,
    reopen,
)
from triage_app.core.errors import TriageError

# The seed batch through pesanan@1 quarantines lines 3, 4, 6 and 8, as ids 1 to 4; 1-3 are
# data, 4 is code (and resolves with pesanan@2).
EVERY = DeadLetterFilter(status="all")


@pytest.fixture
def ws(workspace: Workspace, seed_batch: Path) -> Workspace:
    run_batch(workspace, seed_batch, "pesanan@1")
    return workspace


def store_state(ws: Workspace) -> list[tuple[int, str, str, int, int]]:
    """Every row's status, class, version and number of events."""
    out = []
    for i in (1, 2, 3, 4):
        d = get_dead_letter(ws, i, reveal=True)
        out.append((i, d.status, d.error_class, d.version, len(d.events)))
    return out


def test_a_preview_says_what_would_change_and_why_not_and_writes_nothing(
    ws: Workspace,
) -> None:
    assert len(apply_change(ws, [2], park("later")).changed) == 1
    assert redrive(ws, "pesanan@2", ids=[4]).succeeded == 1  # resolved: final
    before = store_state(ws)
    p = preview_change(ws, discard("test feed"), where=EVERY, sample=2)
    assert isinstance(p, ChangePreview)
    assert (p.action, p.verb, p.count) == ("discarded", "discarded", 3)
    assert p.versions == {1: 1, 2: 2, 3: 1}
    assert p.unchanged == ()
    assert p.refused == ((4, "dead letter 4 is resolved; it cannot be discarded"),)
    assert [(r.id, r.line, r.error_class, r.status) for r in p.sample] == [
        (1, 3, "data", "open"),
        (2, 4, "data", "parked"),
    ]
    assert store_state(ws) == before  # nothing written
    # Already in that state: unchanged, not refused.
    p = preview_change(ws, park(), ids=[1, 2, 99])
    assert (p.versions, p.unchanged) == ({1: 1}, (2,))
    assert p.refused == ((99, "no dead letter with id 99"),)


def test_the_json_form(ws: Workspace) -> None:
    p = preview_change(ws, reclassify_as("code"), ids=[1, 4])
    data = orjson.loads(orjson.dumps(p.to_json()))
    assert data == {
        "action": "reclassified",
        "verb": "reclassified",
        "would_change": 1,
        "versions": {"1": 1},
        "unchanged": [4],
        "refused": [],
        "sample": [
            {
                "id": 1,
                "batch_id": data["sample"][0]["batch_id"],
                "line": 3,
                "error_class": "data",
                "status": "open",
                "error": get_dead_letter(ws, 1, reveal=True).error,
                "version": 1,
            }
        ],
    }


def test_a_row_held_by_a_redrive_is_refused_in_the_preview(ws: Workspace) -> None:
    token = leases.new_token("bob@laptop")  # this process: alive, so it holds
    assert [r.id for r in claims.claim(ws.store, [3], token).rows] == [3]
    p = preview_change(ws, discard("junk"), ids=[1, 3])
    assert list(p.versions) == [1]
    assert p.refused[0][0] == 3 and "held by a re-drive (bob@laptop)" in p.refused[0][1]


def test_applying_the_preview_leaves_out_rows_changed_since(ws: Workspace) -> None:
    p = preview_change(ws, discard("test feed"), where=DeadLetterFilter(error_class="data"))
    assert p.versions == {1: 1, 2: 1, 3: 1}
    apply_change(ws, [2], note("someone looks at it"))  # 2 moved on since the preview
    report = apply_change(
        ws, list(p.versions), discard("test feed"), expected=p.versions, all_or_nothing=False
    )
    assert report.changed == (1, 3)
    assert [i for i, _ in report.refused] == [2]
    assert report.refused[0][1].startswith("dead letter 2 changed since version 1 (note by ")
    assert [get_dead_letter(ws, i, reveal=True).status for i in (1, 2, 3, 4)] == [
        "discarded",
        "open",
        "discarded",
        "open",
    ]


def test_a_reopen_of_discarded_rows_previews_too(ws: Workspace) -> None:
    assert len(apply_change(ws, [1, 2], discard("junk")).changed) == 2
    p = preview_change(ws, reopen(), where=DeadLetterFilter(status="discarded"))
    assert p.versions == {1: 2, 2: 2}


def test_a_preview_needs_ids_or_a_filter(ws: Workspace) -> None:
    with pytest.raises(TriageError, match="name dead letters"):
        preview_change(ws, park())


def test_a_discard_of_a_discarded_row_is_already_discarded_not_refused(ws: Workspace) -> None:
    """Issue 20: as a park of a parked row, in the preview and in the change alike; a
    resolved row is still refused."""
    assert len(apply_change(ws, [2], discard("junk")).changed) == 1
    assert redrive(ws, "pesanan@2", ids=[4]).succeeded == 1
    p = preview_change(ws, discard("again"), ids=[1, 2, 4])
    assert (p.versions, p.unchanged) == ({1: 1}, (2,))
    assert p.refused == ((4, "dead letter 4 is resolved; it cannot be discarded"),)
    p = preview_change(ws, discard("again"), where=DeadLetterFilter(status="discarded"))
    assert (p.count, p.unchanged, p.refused) == (0, (2,), ())
    before = store_state(ws)
    report = apply_change(ws, [2], discard("again"))  # by ids, all or none: no refusal
    assert (report.changed, report.unchanged, report.refused) == ((), (2,), ())
    assert report.describe() == "Discarded 0 dead letters. Already discarded: #2."
    assert store_state(ws) == before  # no event, no new version
    report = apply_change(ws, [1, 2], discard("again"))
    assert (report.changed, report.unchanged) == ((1,), (2,))
    assert (
        get_dead_letter(ws, 2, reveal=True).events[-1].detail == "junk"
    )  # the first reason stands
