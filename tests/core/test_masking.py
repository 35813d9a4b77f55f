"""core/masking.py: personal fields masked in JSON, broken JSON and CSV rows, in error
messages, and given back from the working payload when an edit keeps the mask (issue 27)."""

from __future__ import annotations

import orjson
import pytest

from triage_app.core.errors import TriageError
from triage_app.core.masking import (
    BULLETS,
    mask_payload,
    mask_text,
    mask_value,
    personal_values,
    restore_masked,
)

F = ("pelanggan",)
HEADER = b"order_id,pelanggan,status,total,updated_at"


def test_mask_value() -> None:
    assert mask_value("Siti Aminah") == "S" + BULLETS
    assert mask_value(12345) == BULLETS
    assert mask_value(["Siti"]) == BULLETS
    assert mask_value("") == ""
    assert mask_value(None) is None


def test_json_keeps_its_layout_and_masks_at_any_depth() -> None:
    raw = b'{"pesanan_id": 1,  "pelanggan": "Siti Aminah", "qty": -1}'
    assert (
        mask_payload(raw, "jsonl", F)
        == '{"pesanan_id": 1,  "pelanggan": "S•••", "qty": -1}'.encode()
    )
    nested = b'{"a": [{"pelanggan": 5}], "pelanggan": null}'
    masked = mask_payload(nested, "json", F)
    assert masked is not None and orjson.loads(masked) == {
        "a": [{"pelanggan": BULLETS}],
        "pelanggan": None,
    }
    # A key spelt with an escape the pattern cannot see: the parsed value is masked.
    escaped = b'{"pel\\u0061nggan": "Siti Aminah"}'
    assert orjson.loads(mask_payload(escaped, "jsonl", F) or b"") == {"pelanggan": "S" + BULLETS}


def test_nothing_to_mask_is_none() -> None:
    assert mask_payload(b'{"pesanan_id": 1}', "jsonl", F) is None
    assert mask_payload(b'{"pelanggan": ""}', "jsonl", F) is None
    assert mask_payload(b'{"pelanggan": "Siti"}', "jsonl", ()) is None
    assert mask_payload(b"", "jsonl", F) is None


def test_broken_json_never_shows_the_name() -> None:
    cut = b'{"pesanan_id": 3, "pelanggan": "Budi Sant'
    assert mask_payload(cut, "jsonl", F) == '{"pesanan_id": 3, "pelanggan": "B•••'.encode()
    broken = b'{"pesanan_id": 3, "pelanggan": "Budi Santoso", "qty": 1,,}'
    out = mask_payload(broken, "jsonl", F)
    assert out is not None and b"Budi" not in out and "B•••".encode() in out
    assert personal_values(cut, "jsonl", F) == ["Budi Sant"]
    # Not UTF-8: the other bytes stay as they were.
    bad = b'{"pelanggan": "Siti", "x": "\xff"}'
    assert (
        mask_payload(bad, "jsonl", F)
        == b'{"pelanggan": "S\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2", "x": "\xff"}'
    )


def test_csv_rows_by_the_header() -> None:
    assert (
        mask_payload(b"7,Budi Santoso,paid,-5,2026", "csv", F, HEADER)
        == "7,B•••,paid,-5,2026".encode()
    )
    quoted = mask_payload(b'7,"Santoso, Budi",paid', "csv", F, HEADER)
    assert quoted == "7,S•••,paid".encode()
    assert mask_payload(b"7", "csv", F, HEADER) is None  # the column is not there
    assert mask_payload(b"7,Budi,paid", "csv", F, None) is None  # no header: nothing known
    assert personal_values(b"7,Budi Santoso,paid", "csv", F, HEADER) == ["Budi Santoso"]


def test_mask_text_masks_every_personal_value_in_a_message() -> None:
    msg = "DataError: pelanggan tidak valid: ['Siti Aminah'] (Siti Aminah)"
    out = mask_text(msg, [["Siti Aminah"]])
    assert "Siti" not in out
    assert (
        mask_text("DataError: qty tidak valid: -1", ["Siti Aminah"])
        == "DataError: qty tidak valid: -1"
    )
    assert mask_text("nomor 98765 ditolak", [98765]) == "nomor ••• ditolak"


def test_restore_gives_back_the_working_value_and_refuses_a_typed_mask() -> None:
    working = b'{"pesanan_id": 1, "pelanggan": "Siti Aminah", "qty": -1}'
    edited = '{"pesanan_id": 1, "pelanggan": "S•••", "qty": 2}'
    restored = restore_masked(edited, working, F, "jsonl")
    assert orjson.loads(restored) == {"pesanan_id": 1, "pelanggan": "Siti Aminah", "qty": 2}
    # A real value typed after Reveal is saved as typed.
    typed = '{"pelanggan": "Siti Rahma"}'
    assert restore_masked(typed, working, F, "jsonl") == typed
    with pytest.raises(TriageError, match="holds the mask 'X•••'"):
        restore_masked('{"pelanggan": "X•••"}', working, F, "jsonl")
    with pytest.raises(TriageError, match="personal field 'pelanggan'"):
        restore_masked('{"pelanggan": "Siti •••"}', working, F, "jsonl")
    # A CSV row, edited as JSON, gets its column's value back.
    csv_back = restore_masked(
        '{"order_id": "7", "pelanggan": "B•••"}', b"7,Budi Santoso,paid", F, "csv", HEADER
    )
    assert orjson.loads(csv_back)["pelanggan"] == "Budi Santoso"
    # A number masked as ••• comes back as the number.
    num = restore_masked('{"pelanggan": "•••"}', b'{"pelanggan": 12345}', F, "jsonl")
    assert orjson.loads(num) == {"pelanggan": 12345}
    # Copied back from the (masked) Original tab onto a working copy without the field.
    back = restore_masked(
        '{"pelanggan": "S•••"}', b'{"x": 1}', F, "json", original=(working, "jsonl")
    )
    assert orjson.loads(back) == {"pelanggan": "Siti Aminah"}


def test_a_payload_nested_a_thousand_deep_is_masked_without_a_recursion() -> None:
    """JSONTestSuite nests arrays past Python's recursion limit: masking walks it in a
    loop, finds the name at the bottom, and keeps the order of every value it finds."""
    depth = 1000
    data = (
        "[" * depth + '{"pelanggan": "Siti Aminah"}, {"pelanggan": "Budi"}' + "]" * depth
    ).encode()
    masked = mask_payload(data, "jsonl", ("pelanggan",), None)
    assert masked is not None and b"Siti" not in masked and b"Budi" not in masked
    assert "S•••".encode() in masked
    assert personal_values(data, "jsonl", ("pelanggan",)) == ["Siti Aminah", "Budi"]
    assert mask_text("no such 'Siti Aminah' here", [[[["Siti Aminah"]]]]) == "no such 'S•••' here"
