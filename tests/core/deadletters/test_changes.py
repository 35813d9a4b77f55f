"""Changes by hand: an edit keeps the original and is audited, CSV rows are edited as JSON
objects, resolved rows refuse every change but a note, discarded ones every change but a
note and a reopen, and each status change or reclassification is one event."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support import SEED_ORDERS
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    apply_change,
    discard,
    edit_payload,
    get_dead_letter,
    note,
    park,
    reclassify_as,
    redrive,
    reopen,
)
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import ErrorClass, Status

# The seed batch through pesanan@1 quarantines lines 3, 4, 6 and 8, as ids 1 to 4.
TRUNCATED, NO_QTY, NEGATIVE, NULL_DISKON = 1, 2, 3, 4
BAD_ORDER = b"3005,Agus,Baru,-5,2026-01-09T15:00:00"
FIXED_ORDER = (
    '{"order_id": "3005", "pelanggan": "Agus", "status": "Baru", "total": "5", '
    '"updated_at": "2026-01-09T15:00:00"}'
)


@pytest.fixture
def ws(workspace: Workspace, seed_batch: Path) -> Workspace:
    run_batch(workspace, seed_batch, "pesanan@1")
    return workspace


def actions(ws: Workspace, dl_id: int) -> list[str]:
    return [e.action for e in get_dead_letter(ws, dl_id, reveal=True).events]


def refusal(fn: Callable[..., Any], *args: Any, **kw: Any) -> str:
    """The one line ``fn(*args, **kw)`` is refused with."""
    with pytest.raises(TriageError) as exc:
        fn(*args, **kw)
    assert "\n" not in str(exc.value)
    return str(exc.value)


def test_edit_keeps_the_original_and_records_an_event(ws: Workspace) -> None:
    before = get_dead_letter(ws, TRUNCATED, reveal=True)
    text = '{"pesanan_id": 3, "qty": 1}'
    d = edit_payload(ws, TRUNCATED, text, actor="steward", revealed=True)
    assert d.payload == text and d.payload_bytes == text.encode()
    assert d.original_bytes == before.original_bytes == before.payload_bytes
    assert d.payload_kind == "json"  # a JSONL record, once edited
    assert d.status == "open" and d.attempts == 1  # an edit changes nothing else
    assert [e.action for e in d.events] == ["quarantined", "edited"]
    edited = d.events[-1]
    assert edited.actor == "steward"
    assert edited.detail == f"payload {len(before.payload_bytes)} -> {len(text)} bytes"
    # A second edit replaces the working copy only; the original is still the bytes read.
    again = edit_payload(ws, TRUNCATED, '{"pesanan_id": 3, "qty": 2}', revealed=True)
    assert again.original_bytes == before.original_bytes
    assert actions(ws, TRUNCATED) == ["quarantined", "edited", "edited"]


def test_edit_keeps_text_beyond_ascii_as_utf8(ws: Workspace) -> None:
    d = edit_payload(ws, NO_QTY, '{"pelanggan": "Müller ✓"}', revealed=True)
    assert d.payload_bytes == '{"pelanggan": "Müller ✓"}'.encode()


def test_edit_of_a_csv_row_becomes_json_csv_and_must_stay_an_object(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / SEED_ORDERS.name
    src.write_bytes(SEED_ORDERS.read_bytes() + BAD_ORDER + b"\n")
    run_batch(workspace, src, "orders@1")
    assert get_dead_letter(workspace, 1, reveal=True).payload_kind == "csv"
    for not_an_object in ("[1, 2]", '"3005,Agus"', "3005", "null"):
        assert refusal(edit_payload, workspace, 1, not_an_object) == (
            "a CSV row is edited as a JSON object of column -> value"
        )
    assert actions(workspace, 1) == ["quarantined"]
    d = edit_payload(workspace, 1, FIXED_ORDER, revealed=True)
    assert d.payload_kind == "json-csv"
    assert d.original_bytes == BAD_ORDER and d.payload == FIXED_ORDER
    assert d.csv_header == "order_id,pelanggan,status,total,updated_at"
    # Once edited it is still a CSV row: an array is still refused.
    assert "JSON object" in refusal(lambda: edit_payload(workspace, 1, '["3005"]'))
    assert get_dead_letter(workspace, 1, reveal=True).payload_kind == "json-csv"


def test_a_jsonl_row_may_become_any_json_value(ws: Workspace) -> None:
    assert edit_payload(ws, NEGATIVE, "[1, 2]").payload == "[1, 2]"


def test_an_unchanged_payload_is_refused(ws: Workspace) -> None:
    original = get_dead_letter(ws, NO_QTY, reveal=True).payload  # valid JSON, missing qty
    assert refusal(lambda: edit_payload(ws, NO_QTY, original)) == (
        f"dead letter {NO_QTY}: the payload is unchanged"
    )
    edit_payload(ws, NO_QTY, '{"qty": 1}')
    assert refusal(lambda: edit_payload(ws, NO_QTY, '{"qty": 1}')).endswith("unchanged")
    assert actions(ws, NO_QTY) == ["quarantined", "edited"]


def test_invalid_json_is_refused_in_one_line(ws: Workspace) -> None:
    before = get_dead_letter(ws, TRUNCATED, reveal=True)
    for text in ('{"pesanan_id": 3', '{\n  "a": 1,\n}', "", "not json"):
        assert refusal(edit_payload, ws, TRUNCATED, text).startswith("not valid JSON: ")
    multi = refusal(lambda: edit_payload(ws, TRUNCATED, '{\n  "a": 1,\n}'))
    assert "line 2 column 9" in multi  # where the mistake is, for the editor
    after = get_dead_letter(ws, TRUNCATED, reveal=True)
    assert after.payload_bytes == before.payload_bytes and after.events == before.events


def test_a_missing_dead_letter_refuses_every_change(ws: Workspace) -> None:
    for change in (
        lambda: edit_payload(ws, 99, "{}"),
        lambda: apply_change(ws, [99], park()),
        lambda: apply_change(ws, [99], reclassify_as(ErrorClass.CODE)),
        lambda: apply_change(ws, [99], note("hello")),
    ):
        assert refusal(change) == "no dead letter with id 99"


@pytest.mark.parametrize("final", [Status.RESOLVED, Status.DISCARDED])
def test_resolved_and_discarded_rows_refuse_every_change_but_a_note(
    ws: Workspace, final: Status
) -> None:
    """A discarded row may still be reopened (the next test), and a discard of it is no
    change ("already discarded", issue 20); everything else is refused."""
    if final is Status.RESOLVED:
        assert redrive(ws, "pesanan@2", ids=[NULL_DISKON]).succeeded == 1
    else:
        assert len(apply_change(ws, [NULL_DISKON], discard("junk")).changed) == 1
    before = get_dead_letter(ws, NULL_DISKON, reveal=True)
    assert before.status == final
    reopening = (lambda: apply_change(ws, [NULL_DISKON], reopen()), "reopened")
    discarding = (
        lambda: len(apply_change(ws, [NULL_DISKON], discard("x")).changed),
        "discarded",
    )
    for change, verb in (
        (lambda: edit_payload(ws, NULL_DISKON, '{"pesanan_id": 8}'), "edited"),
        *([reopening] if final is Status.RESOLVED else []),
        (lambda: apply_change(ws, [NULL_DISKON], park()), "parked"),
        *([discarding] if final is Status.RESOLVED else []),
        (lambda: apply_change(ws, [NULL_DISKON], reclassify_as(ErrorClass.DATA)), "reclassified"),
    ):
        assert refusal(change) == f"dead letter {NULL_DISKON} is {final}; it cannot be {verb}"
    if final is Status.DISCARDED:  # already there: nothing changes, nothing is refused
        assert discarding[0]() == 0
    after = get_dead_letter(ws, NULL_DISKON, reveal=True)
    assert (after.status, after.error_class, after.payload_bytes, after.events) == (
        before.status,
        before.error_class,
        before.payload_bytes,
        before.events,
    )
    assert len(apply_change(ws, [NULL_DISKON], note("kept for the audit")).changed) == 1
    assert actions(ws, NULL_DISKON)[-1] == "note"


def test_a_discarded_row_can_be_reopened_guarded_and_audited(ws: Workspace) -> None:
    """The way back from a discard (issue 20): audited as ``reopened``, guarded by the version
    seen and by a re-drive's lease like every transition; then open, editable, re-drivable."""
    from sqlalchemy import update

    from triage_app.core.clock import utcnow
    from triage_app.core.db import DeadLetter
    from triage_app.core.deadletters import ChangedMeanwhile, apply_change, leases, reopen

    assert len(apply_change(ws, [NULL_DISKON], discard("junk"), actor="ani").changed) == 1
    seen = get_dead_letter(ws, NULL_DISKON, reveal=True).version
    assert len(apply_change(ws, [NULL_DISKON], note("wait: that is a real order")).changed) == 1
    with pytest.raises(ChangedMeanwhile, match=f"changed since version {seen}"):
        apply_change(ws, [NULL_DISKON], reopen(), expected={NULL_DISKON: seen})
    assert get_dead_letter(ws, NULL_DISKON, reveal=True).status == "discarded"
    # Held by a re-drive (no re-drive claims a discarded row, but the guard is the same one
    # for every transition): refused as any status change is.
    held = {"claimed_by": leases.new_token("bob@laptop"), "claim_until": utcnow()}
    held["claim_until"] += leases.lease()
    with ws.store.begin() as conn:
        conn.execute(update(DeadLetter).where(DeadLetter.id == NULL_DISKON).values(**held))
    assert "is held by a re-drive (bob@laptop)" in refusal(
        lambda: apply_change(ws, [NULL_DISKON], reopen())
    )
    with ws.store.begin() as conn:
        free = {"claimed_by": None, "claim_until": None}
        conn.execute(update(DeadLetter).where(DeadLetter.id == NULL_DISKON).values(**free))
    assert len(apply_change(ws, [NULL_DISKON], reopen("a real order"), actor="ani").changed) == 1
    d = get_dead_letter(ws, NULL_DISKON, reveal=True)
    assert d.status == "open"
    assert [(e.action, e.detail) for e in d.events][-3:] == [
        ("discarded", "junk"),
        ("note", "wait: that is a real order"),
        ("reopened", "a real order"),
    ]
    assert redrive(ws, "pesanan@2", ids=[NULL_DISKON]).succeeded == 1
    assert refusal(lambda: apply_change(ws, [NULL_DISKON], reopen())) == (
        f"dead letter {NULL_DISKON} is resolved; it cannot be reopened"
    )


def test_discard_needs_a_reason(ws: Workspace) -> None:
    for reason in ("", "   \t"):
        assert refusal(discard, reason) == "discarding needs a reason"
    assert get_dead_letter(ws, TRUNCATED, reveal=True).status == "open"
    assert len(apply_change(ws, [TRUNCATED], discard("cut off: junk")).changed) == 1
    d = get_dead_letter(ws, TRUNCATED, reveal=True)
    assert d.status == "discarded"
    assert (d.events[-1].action, d.events[-1].detail) == ("discarded", "cut off: junk")


def test_resolved_cannot_be_set_by_hand(ws: Workspace) -> None:
    """Only a re-drive resolves a row: no change by hand sets that status."""
    for change in (park(), discard("junk"), reopen(), reclassify_as(ErrorClass.CODE), note("n")):
        assert change.status is not Status.RESOLVED
        apply_change(ws, [TRUNCATED], change)
        assert get_dead_letter(ws, TRUNCATED, reveal=True).status != "resolved"


def test_each_status_change_is_one_event_and_no_change_is_none(ws: Workspace) -> None:
    assert len(apply_change(ws, [TRUNCATED, NO_QTY], reopen()).changed) == 0  # open already
    assert actions(ws, TRUNCATED) == ["quarantined"] == actions(ws, NO_QTY)
    assert len(apply_change(ws, [TRUNCATED, NO_QTY], park("later"), actor="ana").changed) == 2
    for dl_id in (TRUNCATED, NO_QTY):
        d = get_dead_letter(ws, dl_id, reveal=True)
        assert d.status == "parked"
        assert [(e.action, e.actor, e.detail) for e in d.events[1:]] == [("parked", "ana", "later")]
    # Parked again changes nothing; a parked row can be reopened (and is then open).
    assert len(apply_change(ws, [TRUNCATED, NO_QTY, NEGATIVE], park()).changed) == 1
    assert len(apply_change(ws, [TRUNCATED], reopen("fixed upstream")).changed) == 1
    assert get_dead_letter(ws, TRUNCATED, reveal=True).status == "open"
    assert actions(ws, TRUNCATED) == ["quarantined", "parked", "reopened"]
    assert actions(ws, NO_QTY) == ["quarantined", "parked"]


def test_a_refused_status_change_changes_no_row(ws: Workspace) -> None:
    apply_change(ws, [NULL_DISKON], discard("junk"))
    with pytest.raises(TriageError, match="is discarded"):
        apply_change(ws, [TRUNCATED, NULL_DISKON], park())
    assert get_dead_letter(ws, TRUNCATED, reveal=True).status == "open"  # all or nothing
    assert actions(ws, TRUNCATED) == ["quarantined"]


def test_reclassify_skips_rows_already_of_that_class(ws: Workspace) -> None:
    assert get_dead_letter(ws, NULL_DISKON, reveal=True).error_class == "code"
    to_code = reclassify_as(ErrorClass.CODE)
    assert len(apply_change(ws, [NEGATIVE, NULL_DISKON], to_code, actor="lead").changed) == 1
    d = get_dead_letter(ws, NEGATIVE, reveal=True)
    assert d.error_class == "code"
    assert [(e.action, e.actor, e.detail) for e in d.events[1:]] == [
        ("reclassified", "lead", "data -> code")
    ]
    assert actions(ws, NULL_DISKON) == ["quarantined"]
    assert len(apply_change(ws, [NEGATIVE, NULL_DISKON], to_code).changed) == 0
    assert len(apply_change(ws, [NULL_DISKON], reclassify_as(ErrorClass.TRANSIENT)).changed) == 1
    assert get_dead_letter(ws, NULL_DISKON, reveal=True).error_class == "transient"
    assert get_dead_letter(ws, NULL_DISKON, reveal=True).events[-1].detail == "code -> transient"


def test_a_note_needs_text_and_existing_ids(ws: Workspace) -> None:
    for empty in ("", "  \n "):
        assert refusal(note, empty) == "a note cannot be empty"
    assert refusal(lambda: apply_change(ws, [TRUNCATED, 99], note("checked"))) == (
        "no dead letter with id 99"
    )
    assert actions(ws, TRUNCATED) == ["quarantined"]  # nothing written for the good id
    asked = note("  asked the shop  ")
    assert len(apply_change(ws, [TRUNCATED, NO_QTY], asked, actor="ana").changed) == 2
    for dl_id in (TRUNCATED, NO_QTY):
        d = get_dead_letter(ws, dl_id, reveal=True)
        assert (d.events[-1].action, d.events[-1].actor, d.events[-1].detail) == (
            "note",
            "ana",
            "asked the shop",
        )
        assert d.status == "open"  # a note changes nothing else
