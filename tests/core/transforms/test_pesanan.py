"""``pesanan@1`` and ``pesanan@2``: the seed's rules (v1 keeps the seed's null-discount bug
on purpose), and their fast path.

The fast path (msgspec, raw bytes to row) must never disagree with
the reference path (orjson.loads, then the transform's checks): wherever it returns a row,
the reference returns the same row, value for value and type for type. It may decline
anything; the reference then decides, so failures keep their evidence."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from tests.support import HOSTILE, JsonTestSuite, gen_batch
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace, table_sha256
from triage_app.core.errors import DataError
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.transforms.pesanan import pesanan_v1, pesanan_v2

RECORD = {
    "pesanan_id": 1,
    "waktu": "w",
    "pelanggan": "p",
    "produk": "x",
    "qty": 2,
    "harga": 100,
    "diskon": 30,
}
VERSIONS = [default_registry().get(f"pesanan@{v}") for v in (1, 2)]
FIELDS = ("pesanan_id", "waktu", "pelanggan", "produk", "qty", "harga", "diskon")
GOOD = {
    "pesanan_id": b"7",
    "waktu": b'"2026-01-12T08:00:00"',
    "pelanggan": b'"Budi"',
    "produk": b'"Kain Songket"',
    "qty": b"2",
    "harga": b"150000",
    "diskon": b"10000",
}


def test_pesanan_rules() -> None:
    assert pesanan_v2(RECORD)[-1] == 170
    assert pesanan_v2({**RECORD, "diskon": None})[-1] == 200
    assert pesanan_v2({k: v for k, v in RECORD.items() if k != "diskon"})[-1] == 200
    with pytest.raises(TypeError):
        pesanan_v1({**RECORD, "diskon": None})  # the seed's deliberate bug
    for bad, msg in [
        ({**RECORD, "qty": True}, "qty tidak valid: True"),
        ({**RECORD, "qty": 0}, "qty tidak valid: 0"),
        ({**RECORD, "qty": 1.5}, "qty tidak valid: 1.5"),
        ({k: v for k, v in RECORD.items() if k != "harga"}, "kolom wajib hilang"),
        ([1, 2], "bukan objek"),
        ({**RECORD, "pesanan_id": "7"}, "pesanan_id tidak valid"),
    ]:
        with pytest.raises(DataError, match=msg):
            pesanan_v2(bad)


def typed(row: tuple[Any, ...]) -> list[tuple[type, Any]]:
    return [(type(v), v) for v in row]


def check(raw: bytes) -> None:
    for t in VERSIONS:
        assert t.fast is not None
        try:
            fast = t.fast(raw)
        except Exception:
            continue  # declined: the reference path decides, whatever it says
        reference = t.fn(orjson.loads(raw))
        assert typed(fast) == typed(reference), (t.ref, raw[:200])


def record(fields: dict[str, bytes]) -> bytes:
    return b"{" + b",".join(b'"' + k.encode() + b'":' + v for k, v in fields.items()) + b"}"


def test_the_fast_path_takes_the_common_record() -> None:
    # Otherwise every other test here would pass by the fast path declining everything.
    for t in VERSIONS:
        assert t.fast is not None
        assert t.fast(record(GOOD)) == t.fn(orjson.loads(record(GOOD)))


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.jsonl")), ids=lambda p: p.name)
def test_hostile_records(path: Path) -> None:
    for line in path.read_bytes().split(b"\n"):
        check(line)


def test_conformance_values_in_every_field(json_test_suite: JsonTestSuite) -> None:
    """Each JSONTestSuite document as a whole record, and as the value of each field."""
    for case in json_test_suite.cases:
        body = case.read_bytes()
        try:
            check(body)
            for name in FIELDS:
                check(record({**GOOD, name: body}))
        except AssertionError as exc:
            raise AssertionError(f"{case.name}: {exc}") from exc


# Spellings the two decoders could read differently: number forms and limits, escapes,
# surrogates, control characters, duplicate and escaped keys, extra fields.
NUMBERS = [
    b"0", b"-0", b"1", b"-1", b"2", b"1.0", b"1e2", b"1E0", b"0.5", b"-5", b"01", b"1.",
    b"9223372036854775807", b"9223372036854775808", b"-9223372036854775808",
    b"-9223372036854775809", b"18446744073709551615", b"18446744073709551616",
    b"1" * 400, b"1e400", b"true", b"false", b"null", b'"5"', b"[]", b"{}", b"NaN",
]  # fmt: skip
STRINGS = [
    b'""', b'"a"', b'"\\u0000"', b'"\\ud83d\\ude00"', b'"\\ud800"', b'"\\udc00\\ud800"',
    b'"\\/"', b'"\\"', b'"\xff"', b'"\xed\xa0\x80"', b'"\xc3\xa9"', b'"\x01"', b'"\\t\\n"',
    b'"\\u00e9"', b'"\xef\xbf\xbf"', b'"a\\u0000b"', b"5", b"null", b"[]",
]  # fmt: skip
KEYS = [
    *FIELDS, "qt\\u0079", "QTY", "diskon ", "x", "pesanan_id\\u0000", "extra",
]  # fmt: skip
SPACES = [b"", b" ", b"\t", b"\r\n", b"\n", b"\x0c"]


@st.composite
def spelled_records(draw: st.DrawFn) -> bytes:
    keys = draw(st.lists(st.sampled_from(KEYS), max_size=10))
    if draw(st.booleans()):
        keys = list(FIELDS) + keys  # mostly complete records, with extras and repeats
    keys = draw(st.permutations(keys))
    parts = []
    for k in keys:
        text_field = k in ("waktu", "pelanggan", "produk")
        if k in GOOD and draw(st.integers(0, 3)):  # most fields valid: most records pass
            value = GOOD[k]
        else:
            value = draw(st.sampled_from(STRINGS if text_field else NUMBERS + STRINGS[:3]))
        parts.append(b'"' + k.encode() + b'":' + draw(st.sampled_from(SPACES)) + value)
    lead, trail = draw(st.sampled_from(SPACES)), draw(st.sampled_from(SPACES))
    return lead + b"{" + b",".join(parts) + b"}" + trail


@pytest.mark.parametrize("name", FIELDS)
def test_every_spelling_in_every_field(name: str) -> None:
    """The common record with one field spelled each way, or missing, or repeated."""
    for value in NUMBERS + STRINGS:
        check(record({**GOOD, name: value}))
        check(record(GOOD)[:-1] + b',"' + name.encode() + b'":' + value + b"}")
    check(record({k: v for k, v in GOOD.items() if k != name}))


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(spelled_records())
def test_spelled_records(raw: bytes) -> None:
    check(raw)


ANY_VALUE = st.one_of(st.integers(), st.text(), st.none(), st.booleans(), st.floats())


@settings(max_examples=500, deadline=None)
@given(st.fixed_dictionaries({name: ANY_VALUE for name in FIELDS}))
def test_any_values(values: dict[str, Any]) -> None:
    try:
        raw = orjson.dumps(values)
    except orjson.JSONEncodeError:  # an integer orjson cannot write
        assume(False)
    check(raw)


def test_a_batch_lands_the_same_with_and_without_the_fast_path(tmp_path: Path) -> None:
    """Warehouse content, counts and every dead letter's evidence, on a generated batch
    with 5% defects and the hostile corpus appended."""
    src = gen_batch(tmp_path / "batch.jsonl", 6_000, bad=0.05)
    with src.open("ab") as out:
        for path in sorted(HOSTILE.glob("*.jsonl")):
            out.write(path.read_bytes().rstrip(b"\n") + b"\n")
    plain = Registry()
    for t in VERSIONS:
        plain.register(Transform(**{**t.__dict__, "fast": None}))
    outcomes = []
    for name, registry in (("fast", None), ("reference", plain)):
        ws = open_workspace(tmp_path / name)
        s = run_batch(ws, src, "pesanan@2", registry=registry, chunk_size=1_000)
        with ws.store.connect() as conn:
            letters = conn.execute(
                text(
                    "SELECT line, payload, error, error_class, s.text FROM dead_letters "
                    "JOIN signatures s ON s.id = signature_id ORDER BY line"
                )
            ).all()
        outcomes.append(
            (
                table_sha256(ws.warehouse, VERSIONS[1]),
                (s.rows, s.loaded, s.superseded, s.quarantined, s.by_class),
                [tuple(r) for r in letters],
            )
        )
        ws.close()
        shutil.rmtree(tmp_path / name)
    assert outcomes[0][1][3] > 150  # the defects were there to be compared
    assert outcomes[0] == outcomes[1]
