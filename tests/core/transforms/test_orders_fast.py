"""``orders@1``'s fast path must never disagree with the reference path.

The fast path takes a CSV record's raw bytes straight to a row, for a file whose header is
the transform's columns in order. Wherever it returns a row, the reference path (the
``csv`` module through ``decode_csv``, then ``orders_v1``) returns the same row, value for
value and type for type. It may decline anything; the reference then decides, so every
failure keeps its words and its evidence (the record's bytes, byte-exact)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from tests.support import HOSTILE, SEED_ORDERS
from triage_app.core.batch import run_batch
from triage_app.core.batch.readers import read_csv
from triage_app.core.db import open_workspace, table_sha256
from triage_app.core.demo.orders import write_orders_csv
from triage_app.core.transforms import Registry, Transform, default_registry

ORDERS = default_registry().get("orders@1")
NAMES = list(ORDERS.column_names)
GOOD = [b"3001", b"Budi", b"Baru", b"250000", b"2026-01-09T08:00:00"]


def typed(row: tuple[Any, ...]) -> list[tuple[type, Any]]:
    return [(type(v), v) for v in row]


def check(raw: bytes) -> bool:
    """True where the fast path took the record (and agreed)."""
    from triage_app.core.batch.readers import decode_csv

    assert ORDERS.fast is not None
    try:
        fast = ORDERS.fast(raw)
    except Exception:
        return False  # declined: the reference path decides, whatever it says
    reference = ORDERS.fn(decode_csv(raw, NAMES))
    assert typed(fast) == typed(reference), raw[:200]
    return True


def test_the_fast_path_takes_the_common_record() -> None:
    # Otherwise every other test here would pass by the fast path declining everything.
    assert check(b",".join(GOOD))
    assert ORDERS.fast is not None
    assert ORDERS.fast(b"7,Siti,  DiBayar ,0,x") == (7, "Siti", "dibayar", 0, "x")


def test_the_seeds_rows_all_take_the_fast_path() -> None:
    header, *lines = SEED_ORDERS.read_bytes().splitlines()
    assert header.decode().split(",") == NAMES
    assert lines and all(check(line) for line in lines)


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.csv")), ids=lambda p: p.name)
def test_hostile_records(path: Path) -> None:
    with path.open("rb") as f:
        _header, records = read_csv(f)
        for _n, raw in records.after(0):
            check(raw)
    for line in path.read_bytes().split(b"\n"):  # and each physical line on its own
        check(line)


# Spellings the csv module and a split on commas could read differently, and values the
# reference's checks take or refuse in their own ways.
NUMBERS = [
    "0", "00", "007", "-0", "-5", "--5", "+5", " 5", "5 ", "1_000", "1.0", "1e3", "",
    "\u0663", "\u00b2", "\uff15", "9" * 30, "0x1f", "5\x00", "\t5",
]  # fmt: skip
TEXTS = [
    "", " ", "Budi", "  Baru ", "BATAL", "\u0130", "\u00df", "a\x00b", "\x0c", "\u2028",
    "\x85", "a\x0bb", "\x1c", "é", "a'b", "a\\b", '"', '"a"', 'a"b', '"a,b"', "a\rb",
    "a\nb", "\r", "a\r\n", ",", " , ",
]  # fmt: skip
BYTES = [b"\xff", b"\xed\xa0\x80", b"\xc3", b"\xef\xbb\xbf"]


@st.composite
def records(draw: st.DrawFn) -> bytes:
    fields: list[bytes] = []
    for i, good in enumerate(GOOD):
        choice = draw(st.integers(0, 4))
        if choice:  # most fields valid: most records pass
            fields.append(good)
        else:
            pool = NUMBERS if i in (0, 3) else TEXTS
            fields.append(draw(st.sampled_from(pool)).encode())
    if draw(st.integers(0, 5)) == 0:
        fields.insert(draw(st.integers(0, 5)), draw(st.sampled_from([*BYTES, b""])))
    if draw(st.integers(0, 5)) == 0:
        del fields[draw(st.integers(0, len(fields) - 1))]
    return b",".join(fields)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(records())
def test_spelled_records(raw: bytes) -> None:
    check(raw)


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=60))
def test_any_bytes(raw: bytes) -> None:
    check(raw)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=0, max_size=7))
def test_any_text_fields(fields: list[str]) -> None:
    check(",".join(fields).encode("utf-8", "surrogatepass"))


def _outcome(
    ws_path: Path, src: Path, registry: Registry | None, chunk: int, lanes: int | None = None
) -> Any:
    ws = open_workspace(ws_path)
    s = run_batch(ws, src, "orders@1", registry=registry, chunk_size=chunk, lanes=lanes)
    with ws.store.connect() as conn:
        letters = conn.execute(
            text(
                "SELECT line, coalesce(payload, original_payload), coalesce(error, s.text), "
                "error_class, s.text FROM dead_letters "
                "JOIN signatures s ON s.id = signature_id ORDER BY line"
            )
        ).all()
    with ws.warehouse.connect() as conn:
        rows = conn.execute(text("SELECT * FROM orders ORDER BY order_id")).all()
    result = (
        table_sha256(ws.warehouse, ORDERS),
        (s.rows, s.loaded, s.superseded, s.quarantined, s.by_class),
        [tuple(r) for r in letters],
        [tuple(r) for r in rows],
    )
    ws.close()
    shutil.rmtree(ws_path)
    return result


def test_a_batch_lands_the_same_with_and_without_the_fast_path(tmp_path: Path) -> None:
    """Warehouse content, counts and every dead letter's evidence, on a generated CSV batch
    with 5% defects and quoted names, the hostile CSV records appended; and a refused
    record's payload is its bytes in the file."""
    src = write_orders_csv(tmp_path / "orders.csv", 6_000, bad=0.05)
    with src.open("ab") as out:
        for path in sorted(HOSTILE.glob("*.csv")):
            body = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
            lines = body.split(b"\n", 1)
            if len(lines) == 2 and lines[1].strip():
                out.write(lines[1].rstrip(b"\n") + b"\n")
    plain = Registry()
    plain.register(Transform(**{**ORDERS.__dict__, "fast": None}))
    fast = _outcome(tmp_path / "fast", src, None, 1_000)
    reference = _outcome(tmp_path / "reference", src, plain, 1_000)
    assert fast[1][3] > 200  # the defects were there to be compared (4 in 5 are refused)
    assert fast == reference
    # Two processes, each skipping the other's chunks with the batched reader: the same.
    assert _outcome(tmp_path / "lanes", src, None, 1_000, lanes=2) == fast
    body = src.read_bytes()
    lines = body.split(b"\n")
    for line, payload, *_ in fast[2]:
        assert isinstance(payload, bytes)
        # Byte-exact: the record from its first line, as many lines as it spans.
        span = payload.count(b"\n") + 1
        assert b"\n".join(lines[line - 1 : line - 1 + span]).rstrip(b"\r") == payload


def test_newest_wins_across_chunks_and_inside_one(tmp_path: Path) -> None:
    """The generated batch's late, older versions never win: the warehouse holds, for each
    order, its version with the largest updated_at among the rows that passed."""
    src = write_orders_csv(tmp_path / "orders.csv", 5_000, bad=0.05)
    newest: dict[int, str] = {}
    for raw in src.read_bytes().splitlines()[1:]:
        try:
            row = ORDERS.fast(raw) if ORDERS.fast else None
        except Exception:
            continue
        if row is not None and row[4] >= newest.get(row[0], ""):
            newest[row[0]] = row[4]
    for chunk in (7, 20_000):
        ws = open_workspace(tmp_path / f"ws{chunk}")
        run_batch(ws, src, "orders@1", chunk_size=chunk)
        with ws.warehouse.connect() as conn:
            got = dict(conn.execute(text("SELECT order_id, updated_at FROM orders")).all())
        ws.close()
        # Quoted names take the reference path and may hold the newest version: they are
        # in the warehouse too, so only the fast-path versions are compared from below.
        assert all(got[k] >= v for k, v in newest.items())
        assert sum(got[k] == v for k, v in newest.items()) > 0.95 * len(newest)


def test_another_header_order_takes_the_reference_path(tmp_path: Path) -> None:
    from triage_app.core.batch.chunks import ChunkParser, ChunkSource
    from triage_app.core.batch.source import Source
    from triage_app.core.retry import RetryPolicy

    swapped = tmp_path / "swapped.csv"
    swapped.write_bytes(b"pelanggan,order_id,status,total,updated_at\nBudi,1,Baru,5,t\n")
    straight = tmp_path / "straight.csv"
    straight.write_bytes(b"order_id,pelanggan,status,total,updated_at\n1,Budi,Baru,5,t\n")
    for path, has_fast in ((swapped, False), (straight, True)):
        source = ChunkSource(Source.open(path, "csv"), 0, 100)
        parser = ChunkParser(ORDERS, source.decode, RetryPolicy(), lambda _s: None, "csv")
        assert (parser.fast is not None) == has_fast
        chunk = parser.parse(source)
        assert [r[:5] for r in chunk.rows] == [(1, "Budi", "baru", 5, "t")]
        source.close()


def test_a_chunks_rows_go_out_in_key_order(tmp_path: Path) -> None:
    """Key order makes the warehouse's index faster; keys that do not compare stay as they
    came, rather than failing the chunk."""
    from triage_app.core.batch.chunks import ChunkParser, ChunkSource
    from triage_app.core.batch.source import Source
    from triage_app.core.retry import RetryPolicy
    from triage_app.core.transforms import Column

    src = tmp_path / "o.csv"
    src.write_bytes(
        b"order_id,pelanggan,status,total,updated_at\n9,a,b,1,t\n2,a,b,1,t\n5,a,b,1,t\n"
    )
    source = ChunkSource(Source.open(src, "csv"), 0, 100)
    parser = ChunkParser(ORDERS, source.decode, RetryPolicy(), lambda _s: None, "csv")
    assert [(r[0], r[-1]) for r in parser.parse(source).rows] == [(2, 3), (5, 4), (9, 2)]
    source.close()

    mixed = Transform(
        "mixed", 1, "mixed", "k", (Column("k", "text"),), lambda d: (d["k"],), input_format="jsonl"
    )
    src = tmp_path / "m.jsonl"
    src.write_bytes(b'{"k": 3}\n{"k": "a"}\n{"k": 1}\n')
    source = ChunkSource(Source.open(src, "jsonl"), 0, 100)
    parser = ChunkParser(mixed, source.decode, RetryPolicy(), lambda _s: None, "jsonl")
    assert sorted(r[-1] for r in parser.parse(source).rows) == [1, 2, 3]
    source.close()


def test_the_csv_generator_is_deterministic_and_in_the_seeds_shape(tmp_path: Path) -> None:
    a = write_orders_csv(tmp_path / "a.csv", 3_000, bad=0.02).read_bytes()
    assert write_orders_csv(tmp_path / "b.csv", 3_000, bad=0.02).read_bytes() == a
    header, *lines = a.split(b"\n")
    assert header == SEED_ORDERS.read_bytes().split(b"\n")[0]
    assert b'""Mawar""\n' in a and b",12a," in a and b",x\n" in a  # the unusual kinds are there
    assert ORDERS.fast is not None
    assert sum(check(line) for line in lines) > 0.95 * 3_000
