"""How payloads are shown, checked, reformatted and diffed for a person."""

from __future__ import annotations

import json

import pytest

from triage_app.core.deadletters import (
    check_edit,
    editable_payload,
    error_position,
    payload_diff,
    reformat,
    without_position,
)
from triage_app.core.errors import TriageError

HEADER = "order_id,pelanggan,status,total,updated_at"


def test_jsonl_is_edited_as_its_own_text():
    p = editable_payload(b'{"a": 1', "jsonl", None)
    assert p.text == '{"a": 1' and p.edit_kind == "json" and p.note is None


def test_undecodable_bytes_are_replaced_with_a_note():
    p = editable_payload(b'{"a": "\xff"}', "jsonl", None)
    assert p.text == '{"a": "\ufffd"}' and p.note


def test_csv_row_is_edited_as_an_object_of_header_to_value():
    p = editable_payload(b'3001,"Budi, Jr.",Baru,-5,2026-01-09', "csv", HEADER)
    assert json.loads(p.text) == {
        "order_id": "3001",
        "pelanggan": "Budi, Jr.",
        "status": "Baru",
        "total": "-5",
        "updated_at": "2026-01-09",
    }
    assert p.edit_kind == "json-csv" and p.note is None


def test_csv_row_with_missing_and_extra_fields_is_best_effort_with_a_note():
    short = editable_payload(b"3001,Budi", "csv", HEADER)
    assert json.loads(short.text)["status"] is None and short.note
    long = editable_payload(b"1,2,3,4,5,6", "csv", HEADER)
    assert json.loads(long.text)["_extra_1"] == "6" and long.note


def test_check_edit_and_error_position():
    assert check_edit('{"a": 1}', "jsonl") is None
    problem = check_edit('{"a": 1,\n}', "jsonl")
    assert (problem is not None and error_position(problem) == (2, 1)) or error_position(problem)
    assert check_edit("[1, 2]", "csv") is not None  # a CSV row must stay an object
    assert error_position("no position here") is None


def test_reformat_and_compact():
    assert reformat('{"a":[1,2]}') == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert reformat('{\n "a": 1\n}', compact=True) == '{"a":1}'
    with pytest.raises(TriageError):
        reformat("{")


def test_diff_names_the_changed_key_of_a_one_line_record():
    lines = payload_diff('{"qty": 1, "harga": 5}', '{"qty": 2, "harga": 5}')
    changed = [(ln.op, ln.text.strip()) for ln in lines if ln.op in "+-"]
    assert changed == [("-", '"qty": 1,'), ("+", '"qty": 2,')]
    assert payload_diff('{"a":1}', '{ "a": 1 }') == []  # same JSON: no diff


def test_diff_of_invalid_json_is_by_line():
    lines = payload_diff('{"a": 1', '{"a": 1}')
    assert [(ln.op, ln.text) for ln in lines if ln.op in "+-"] == [
        ("-", '{"a": 1'),
        ("+", '{"a": 1}'),
    ]


def test_the_position_is_taken_out_of_a_json_error_to_be_said_once():
    problem = check_edit('{"pesanan_id": 8,\n  "qty": 2,\n}', "jsonl")
    assert problem is not None and error_position(problem) == (2, 11)
    assert without_position(problem) == "not valid JSON: trailing comma is not allowed"
    assert without_position("a CSV row is edited as a JSON object") == (
        "a CSV row is edited as a JSON object"
    )
