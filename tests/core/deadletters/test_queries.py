"""Reading dead letters: lists by page and order, one dead letter in full with its original
bytes, its history and its CSV header, and the JSON and text forms that leave the engine."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from tests.support import SEED_BATCH, SEED_ORDERS
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    DeadLetterDetail,
    DeadLetterFilter,
    apply_change,
    count_dead_letters,
    edit_payload,
    get_dead_letter,
    list_dead_letters,
    note,
)
from triage_app.core.deadletters.queries import payload_text
from triage_app.core.demo import StoreFiller
from triage_app.core.errors import TriageError

BAD_ORDER = b"3005,Agus,Baru,-5,2026-01-09T15:00:00"


def test_list_sorts_pages_and_breaks_ties_by_id(workspace: Workspace) -> None:
    with StoreFiller(workspace) as filler:
        filler.batch("ab00000000000000")
        for i in range(1, 151):
            # lines in reverse order of ids; attempts 1, 2, 3, 1, ... : many ties
            filler.dead_letter("ab00000000000000", 1000 - i, error="E", attempts=1 + i % 3)
    every = list_dead_letters(workspace, limit=None)
    assert [r.id for r in every] == list(range(1, 151))
    assert len(list_dead_letters(workspace)) == 100  # the default page
    assert count_dead_letters(workspace) == 150
    page = list_dead_letters(workspace, limit=10, offset=20)
    assert [r.id for r in page] == list(range(21, 31))
    assert list_dead_letters(workspace, offset=150) == []
    by_line = list_dead_letters(workspace, limit=3, sort="line")
    assert [(r.line, r.id) for r in by_line] == [(850, 150), (851, 149), (852, 148)]
    newest = list_dead_letters(workspace, limit=3, sort="id", descending=True)
    assert [r.id for r in newest] == [150, 149, 148]
    by_attempts = list_dead_letters(workspace, limit=None, sort="attempts")
    assert [(r.attempts, r.id) for r in by_attempts] == sorted((r.attempts, r.id) for r in every)
    down = list_dead_letters(workspace, limit=None, sort="attempts", descending=True)
    assert [(r.attempts, r.id) for r in down] == sorted(
        ((r.attempts, r.id) for r in every), reverse=True
    )
    # Pages of a sort with ties add up to the whole sort, each row once.
    pages = [
        r.id
        for start in range(0, 150, 40)
        for r in list_dead_letters(workspace, limit=40, offset=start, sort="attempts")
    ]
    assert pages == [r.id for r in by_attempts]


def test_list_follows_the_filter(workspace: Workspace, seed_batch: Path) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    assert [r.line for r in list_dead_letters(workspace)] == [3, 4, 6, 8]
    code = list_dead_letters(workspace, DeadLetterFilter(error_class="code"))
    assert [(r.line, r.error_class, r.status) for r in code] == [(8, "code", "open")]
    down = list_dead_letters(workspace, sort="line", descending=True)
    assert [r.line for r in down] == [8, 6, 4, 3]


def test_a_missing_dead_letter_is_a_one_line_error(workspace: Workspace, seed_batch: Path) -> None:
    with pytest.raises(TriageError) as empty:
        get_dead_letter(workspace, 1, reveal=True)
    assert str(empty.value) == "no dead letter with id 1"
    run_batch(workspace, seed_batch, "pesanan@1")
    assert get_dead_letter(workspace, 1, reveal=True).line == 3
    with pytest.raises(TriageError) as missing:
        get_dead_letter(workspace, 404, reveal=True)
    assert str(missing.value) == "no dead letter with id 404"
    assert "\n" not in str(missing.value)


def test_detail_holds_the_original_bytes_and_the_events_in_order(
    workspace: Workspace, seed_batch: Path
) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    line3 = SEED_BATCH.read_bytes().split(b"\n")[2]  # cut off after "pelanggan": "Dewi",
    d = get_dead_letter(workspace, 1, reveal=True)
    assert isinstance(d, DeadLetterDetail)
    assert d.original_bytes == line3 == d.payload_bytes  # no line terminator
    assert d.original_payload == line3.decode() == d.payload
    assert d.csv_header is None  # a JSONL batch has none
    assert d.error.startswith("JSONDecodeError") and d.error_class == "data"
    assert d.traceback is None  # data failures keep none
    assert [e.action for e in d.events] == ["quarantined"]

    edit_payload(workspace, 1, '{"pesanan_id": 3}', actor="steward")
    apply_change(workspace, [1], note("asked the shop"), actor="lead")
    d = get_dead_letter(workspace, 1, reveal=True)
    assert d.original_bytes == line3  # kept
    assert d.payload_bytes == b'{"pesanan_id": 3}' and d.payload_kind == "json"
    assert [(e.action, e.actor) for e in d.events] == [
        ("quarantined", d.events[0].actor),
        ("edited", "steward"),
        ("note", "lead"),
    ]
    assert d.events[2].detail == "asked the shop"
    assert [e.at for e in d.events] == sorted(e.at for e in d.events)
    assert all(e.at.endswith("Z") for e in d.events)
    # A code failure keeps its traceback.
    code = list_dead_letters(workspace, DeadLetterFilter(error_class="code"))[0]
    tb = get_dead_letter(workspace, code.id, reveal=True).traceback
    assert tb is not None and "TypeError" in tb


def test_detail_of_a_csv_row_carries_its_batch_header(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / SEED_ORDERS.name
    src.write_bytes(SEED_ORDERS.read_bytes() + BAD_ORDER + b"\n")
    summary = run_batch(workspace, src, "orders@1")
    assert summary.quarantined == 1
    (row,) = list_dead_letters(workspace)
    d = get_dead_letter(workspace, row.id, reveal=True)
    assert d.csv_header == SEED_ORDERS.read_text().splitlines()[0]
    assert d.csv_header == "order_id,pelanggan,status,total,updated_at"
    assert d.payload_kind == "csv"
    assert (d.line, d.original_bytes) == (8, BAD_ORDER)
    assert d.error == "DataError: total negatif: -5"


def test_to_json_drops_the_byte_fields(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / SEED_ORDERS.name
    src.write_bytes(SEED_ORDERS.read_bytes() + BAD_ORDER + b"\n")
    run_batch(workspace, src, "orders@1")
    d = get_dead_letter(workspace, 1, reveal=True)
    j = d.to_json()
    assert not {"original_bytes", "payload_bytes", "csv_header", "payload_kind"} & set(j)
    assert not any(isinstance(v, bytes) for v in j.values())
    assert j["original_payload"] == BAD_ORDER.decode() == j["payload"]
    assert j["events"] == [
        {"at": e.at, "actor": e.actor, "action": e.action, "detail": e.detail, "version": 1}
        for e in d.events
    ]
    assert j["events"][0]["action"] == "quarantined"
    assert json.loads(json.dumps(j)) == j
    assert orjson.loads(orjson.dumps(j)) == j
    # The list's view drops its kind too, and keeps everything else.
    view = list_dead_letters(workspace)[0]
    assert set(view.to_json()) == {
        "id",
        "batch_id",
        "line",
        "payload",
        "error",
        "error_class",
        "signature",
        "attempts",
        "status",
        "transform",
        "first_failed_at",
        "last_failed_at",
        "version",
    }


def test_payload_text_escapes_invalid_utf8() -> None:
    assert payload_text(b'{"a": "\xff"}') == '{"a": "\\xff"}'
    assert payload_text(b"\xc3") == "\\xc3"  # a sequence cut short
    assert payload_text("Müller ✓".encode()) == "Müller ✓"  # valid UTF-8 as is
    assert payload_text(b"a\x00b") == "a\x00b"
    assert payload_text(b"") == ""


def test_views_show_undecodable_payloads_escaped_and_keep_the_bytes(
    workspace: Workspace,
) -> None:
    raw = b'{"produk": "\xffBudi\xfe", "qty": -1}'
    with StoreFiller(workspace) as filler:
        filler.batch("ab00000000000000")
        dl_id = filler.dead_letter("ab00000000000000", 1, error="E", payload=raw)
    (view,) = list_dead_letters(workspace)
    assert view.payload == '{"produk": "\\xffBudi\\xfe", "qty": -1}'
    d = get_dead_letter(workspace, dl_id, reveal=True)
    assert d.original_payload == view.payload == d.payload
    assert d.original_bytes == raw == d.payload_bytes
    assert d.to_json()["original_payload"] == view.payload
