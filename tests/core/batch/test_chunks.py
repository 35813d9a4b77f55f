"""Chunks: a source read chunk by chunk from a resume point, and the hot loop that turns one
chunk into the newest row per key plus the failures, with their evidence."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from triage_app.core.batch.chunks import Chunk, ChunkParser, ChunkSource
from triage_app.core.batch.readers import Format
from triage_app.core.batch.source import Source
from triage_app.core.errors import DataError, TransientError, error_message
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Column, Transform, default_registry
from triage_app.core.vocabulary import ErrorClass

PESANAN_2 = default_registry().get("pesanan@2")
ORDERS_1 = default_registry().get("orders@1")
ORDER = (
    '{"pesanan_id": %d, "waktu": "2026-01-10T09:15:00", "pelanggan": "%s", "produk": "Rok", '
    '"qty": %d, "harga": 100, "diskon": 0}'
)
CSV_HEADER = b"order_id,pelanggan,status,total,updated_at\n"


def order(pid: int, pelanggan: str = "Budi", qty: int = 1) -> bytes:
    return (ORDER % (pid, pelanggan, qty)).encode()


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.fixture
def open_source() -> Iterator[Callable[..., ChunkSource]]:
    opened: list[ChunkSource] = []

    def _open(path: Path, fmt: Format, resume_after: int = 0, chunk_size: int = 100) -> ChunkSource:
        src = ChunkSource(Source.open(path, fmt), resume_after, chunk_size)
        opened.append(src)
        return src

    yield _open
    for src in opened:
        src.close()
        src.source.close()


def parse_all(parser: ChunkParser, src: ChunkSource) -> list[Chunk]:
    chunks = []
    while (chunk := parser.parse(src)).lines:
        chunks.append(chunk)
    return chunks


def parser_for(
    transform: Transform,
    src: ChunkSource,
    retry: RetryPolicy | None = None,
    sleeps: list[float] | None = None,
) -> ChunkParser:
    waits = sleeps if sleeps is not None else []
    return ChunkParser(transform, src.decode, retry or RetryPolicy(), waits.append, src.fmt)


# ChunkSource: JSONL


def test_jsonl_take_numbers_physical_lines_and_moves_the_resume_point(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    lines = [b"a\n", b"b\r\n", b"\n", b"d\n", b"e"]
    src = open_source(write(tmp_path, "x.jsonl", b"".join(lines)), "jsonl", chunk_size=2)
    assert list(src.take()) == [(1, b"a\n"), (2, b"b\r\n")]
    assert (src.first_line, src.line, src.taken) == (1, 2, 2)
    assert src.position() == len(b"a\nb\r\n")
    assert list(src.take()) == [(3, b"\n"), (4, b"d\n")]  # a blank line is still a line
    assert (src.first_line, src.line, src.taken) == (3, 4, 2)
    assert list(src.take()) == [(5, b"e")]
    assert (src.first_line, src.line, src.taken) == (5, 5, 1)
    assert src.position() == sum(map(len, lines))
    assert list(src.take()) == []
    assert (src.taken, src.line) == (0, 5)


def test_jsonl_resume_after_skips_committed_lines(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    path = write(tmp_path, "x.jsonl", b"".join(b"%d\n" % i for i in range(1, 8)))
    src = open_source(path, "jsonl", resume_after=5, chunk_size=10)
    assert src.line == 5
    assert list(src.take()) == [(6, b"6\n"), (7, b"7\n")]
    assert (src.first_line, src.line) == (6, 7)


def test_jsonl_bom_is_not_part_of_line_one(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    path = write(tmp_path, "x.jsonl", b"\xef\xbb\xbf" + order(1) + b"\n" + order(2) + b"\n")
    src = open_source(path, "jsonl")
    items = list(src.take())
    assert items == [(1, order(1) + b"\n"), (2, order(2) + b"\n")]
    # Resuming counts lines the same way with the mark there.
    again = open_source(path, "jsonl", resume_after=1)
    assert list(again.take()) == [(2, order(2) + b"\n")]


def test_jsonl_skip_passes_a_chunk_and_keeps_the_numbering(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    path = write(tmp_path, "x.jsonl", b"".join(b"%d\n" % i for i in range(1, 8)))
    src = open_source(path, "jsonl", chunk_size=3)
    assert src.skip() == 3
    assert list(src.take()) == [(4, b"4\n"), (5, b"5\n"), (6, b"6\n")]
    assert src.skip() == 1  # the last line
    assert src.line == 7
    assert src.skip() == 0
    assert list(src.take()) == []


# ChunkSource: CSV


def test_csv_take_numbers_records_by_their_first_line(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    data = (
        b"\xef\xbb\xbf" + CSV_HEADER + b'1,"Budi\nSantoso",Baru,10,2026-01-01\n'
        b"\n"  # blank: no record, but a line
        b"2,Siti,Baru,20,2026-01-02\r\n"
        b'3,Dewi,"a ""quoted""\nstatus",30,2026-01-03\n'
        b"4,Rina,Baru,40,2026-01-04"
    )
    src = open_source(write(tmp_path, "o.csv", data), "csv", chunk_size=2)
    assert src.header == CSV_HEADER.strip()  # the BOM is no part of the header
    first = list(src.take())
    assert first == [
        (2, b'1,"Budi\nSantoso",Baru,10,2026-01-01'),
        (5, b"2,Siti,Baru,20,2026-01-02"),
    ]
    assert (src.first_line, src.line, src.taken) == (2, 5, 2)
    second = list(src.take())
    assert [n for n, _ in second] == [6, 8]
    assert (src.first_line, src.line) == (6, 8)
    assert src.position() == len(data)
    assert list(src.take()) == [] and src.taken == 0
    # The decoder knows the header's names.
    assert src.decode(first[0][1]) == {
        "order_id": "1",
        "pelanggan": "Budi\nSantoso",
        "status": "Baru",
        "total": "10",
        "updated_at": "2026-01-01",
    }


def test_csv_resume_after_skips_records_ending_at_or_before_the_checkpoint(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    data = CSV_HEADER + b'1,"a\nb",x,1,t\n2,c,x,2,t\n3,d,x,3,t\n'
    path = write(tmp_path, "o.csv", data)
    src = open_source(path, "csv", resume_after=3)  # record 1 is lines 2-3
    assert [n for n, _ in src.take()] == [4, 5]
    assert src.first_line == 4
    fresh = open_source(path, "csv")
    assert fresh.line == 1  # the header
    assert [n for n, _ in fresh.take()] == [2, 4, 5]
    assert fresh.first_line == 2


def test_csv_skip_counts_records_not_lines(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    data = CSV_HEADER + b'1,"a\nb\nc",x,1,t\n2,c,x,2,t\n3,d,x,3,t\n'
    src = open_source(write(tmp_path, "o.csv", data), "csv", chunk_size=2)
    assert src.skip() == 2
    assert src.line == 5
    assert list(src.take()) == [(6, b"3,d,x,3,t")]
    assert src.skip() == 0


# ChunkParser


@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "reference-path"])
def test_rows_carry_their_line_last_and_the_later_version_wins(
    tmp_path: Path, open_source: Callable[..., ChunkSource], fast: bool
) -> None:
    transform = PESANAN_2 if fast else dataclasses.replace(PESANAN_2, fast=None)
    data = b"\n".join(
        [order(1, "Budi"), order(2, "Siti"), order(1, "Dewi"), order(3), order(1, "Rina")]
    )
    src = open_source(write(tmp_path, "x.jsonl", data + b"\n"), "jsonl")
    chunk = parser_for(transform, src).parse(src)
    by_key = {r[0]: r for r in chunk.rows}
    assert sorted(by_key) == [1, 2, 3]
    assert by_key[1] == (1, "2026-01-10T09:15:00", "Rina", "Rok", 1, 100, 100, 5)
    assert by_key[2][-1] == 2 and by_key[3][-1] == 4
    assert all(len(r) == len(transform.columns) + 1 for r in chunk.rows)
    assert (chunk.records, chunk.superseded, chunk.failures) == (5, 2, [])
    assert (chunk.lines, chunk.first_line, chunk.last_line) == (5, 1, 5)


def test_a_stretch_the_fast_path_declines_goes_to_the_reference_path_alone(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    """A bad day: after 64 declines in a row the fast path is not asked for the next 4,096
    records (a decode each for nothing), then asked again; the chunk is what the
    reference path alone makes of it, good rows and failures alike."""
    asked: list[int] = []

    def fast(raw: bytes) -> tuple[Any, ...]:
        asked.append(orjson.loads(raw)["pesanan_id"])
        assert PESANAN_2.fast is not None
        return PESANAN_2.fast(raw)

    # 4,200 failing records (qty 0), then good ones, in one chunk.
    lines = [order(i, qty=0) for i in range(1, 4201)] + [order(i) for i in range(4201, 5201)]
    src = open_source(write(tmp_path, "x.jsonl", b"\n".join(lines) + b"\n"), "jsonl", 0, 6000)
    chunk = parser_for(dataclasses.replace(PESANAN_2, fast=fast), src).parse(src)
    # Asked for the first 64, then not for 4,096, then again from record 4,161 on.
    assert asked == [*range(1, 65), *range(4161, 5201)]
    src2 = open_source(write(tmp_path, "y.jsonl", b"\n".join(lines) + b"\n"), "jsonl", 0, 6000)
    reference = parser_for(dataclasses.replace(PESANAN_2, fast=None), src2).parse(src2)
    assert chunk.rows == reference.rows and len(chunk.rows) == 1000
    assert chunk.failures == reference.failures and len(chunk.failures) == 4200
    assert (chunk.records, chunk.superseded) == (reference.records, reference.superseded)


@pytest.mark.parametrize("order_of_lines", list(itertools.permutations(range(3))))
def test_with_an_ordering_column_the_larger_value_wins_in_any_order(
    tmp_path: Path, open_source: Callable[..., ChunkSource], order_of_lines: tuple[int, ...]
) -> None:
    versions = [
        b"7,Budi,Baru,10,2026-01-01T08:00:00",
        b"7,Budi,Selesai,10,2026-01-03T08:00:00",  # the newest
        b"7,Budi,Dikirim,10,2026-01-02T08:00:00",
    ]
    lines = [versions[i] for i in order_of_lines]
    data = CSV_HEADER + b"8,Siti,Baru,5,2026-01-01T00:00:00\n" + b"\n".join(lines) + b"\n"
    src = open_source(write(tmp_path, "o.csv", data), "csv")
    chunk = parser_for(ORDERS_1, src).parse(src)
    newest_line = 3 + order_of_lines.index(1)
    by_key = {r[0]: r for r in chunk.rows}
    assert by_key[7] == (7, "Budi", "selesai", 10, "2026-01-03T08:00:00", newest_line)
    assert by_key[8][-1] == 2
    assert (chunk.records, chunk.superseded, len(chunk.failures)) == (4, 2, 0)
    assert chunk.records == len(chunk.rows) + chunk.superseded


def test_newest_wins_only_within_a_chunk(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    data = CSV_HEADER + b"7,B,Selesai,1,2026-01-03\n7,B,Baru,1,2026-01-01\n"
    src = open_source(write(tmp_path, "o.csv", data), "csv", chunk_size=1)
    parser = parser_for(ORDERS_1, src)
    chunks = parse_all(parser, src)
    # Each chunk has its own version: the warehouse upsert decides between chunks.
    assert [c.rows for c in chunks] == [
        [(7, "B", "selesai", 1, "2026-01-03", 2)],
        [(7, "B", "baru", 1, "2026-01-01", 3)],
    ]
    assert [c.superseded for c in chunks] == [0, 0]


def test_blank_lines_leave_no_trace(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    data = b"\n  \r\n" + order(1) + b"\n\t\n\r\n" + order(2) + b"\n \n"
    src = open_source(write(tmp_path, "x.jsonl", data), "jsonl")
    chunk = parser_for(PESANAN_2, src).parse(src)
    assert [r[-1] for r in chunk.rows] == [3, 6]
    assert chunk.failures == []
    assert (chunk.lines, chunk.records, chunk.superseded) == (7, 2, 0)


def test_a_line_that_only_looks_blank_is_a_record(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    data = b"\x0c\n\x00\n"  # a form feed and a NUL are not blank
    src = open_source(write(tmp_path, "x.jsonl", data), "jsonl")
    chunk = parser_for(PESANAN_2, src).parse(src)
    assert [(f.line, f.raw) for f in chunk.failures] == [(1, b"\x0c"), (2, b"\x00")]
    assert chunk.records == 2


def test_a_failing_record_keeps_its_raw_bytes_and_a_one_line_error(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    cut = order(2)[:40]
    negative = order(3, qty=-1)
    latin1 = b'{"pesanan_id": 4, "pelanggan": "caf\xe9"}'
    data = order(1) + b"\n" + cut + b"\r\n" + negative + b"\n" + latin1 + b"\n"
    src = open_source(write(tmp_path, "x.jsonl", data), "jsonl")
    chunk = parser_for(PESANAN_2, src).parse(src)
    assert [r[-1] for r in chunk.rows] == [1]
    by_line = {f.line: f for f in chunk.failures}
    assert sorted(by_line) == [2, 3, 4]
    assert by_line[2].raw == cut  # no line terminator, no other change
    assert by_line[3].raw == negative
    assert by_line[4].raw == latin1
    # A JSON error is reported for the record as stored, not with its line terminator.
    with pytest.raises(orjson.JSONDecodeError) as exact:
        orjson.loads(cut)
    assert by_line[2].error == error_message(exact.value)
    assert by_line[3].error == "DataError: qty tidak valid: -1"
    assert by_line[3].signature == "DataError: qty tidak valid: <n>"
    assert all(f.error_class is ErrorClass.DATA and f.traceback is None for f in chunk.failures)
    assert all("\n" not in f.error for f in chunk.failures)
    assert chunk.records == 4 and chunk.superseded == 0


def test_a_code_failure_keeps_a_traceback(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    null_discount = order(5).replace(b'"diskon": 0', b'"diskon": null')
    src = open_source(write(tmp_path, "x.jsonl", null_discount + b"\n"), "jsonl")
    chunk = parser_for(default_registry().get("pesanan@1"), src).parse(src)
    (failure,) = chunk.failures
    assert failure.error_class is ErrorClass.CODE
    assert failure.error.startswith("TypeError: unsupported operand")
    assert failure.traceback is not None and "pesanan.py" in failure.traceback


def test_a_multi_line_message_is_stored_on_one_line(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    def fn(record: Any) -> tuple[Any, ...]:
        raise DataError("first line\n  second\tline " + "x" * 600)

    t = Transform("t", 1, "t", "id", (Column("id", "int"),), fn)
    src = open_source(write(tmp_path, "x.jsonl", b'{"id": 1}\n'), "jsonl")
    (failure,) = parser_for(t, src).parse(src).failures
    assert failure.error.startswith("DataError: first line second line xxx")
    assert "\n" not in failure.error and len(failure.error) <= len("DataError: ") + 501


# Transient failures


class Flaky:
    """A transform function that fails transiently for some ids, a set number of times each,
    and records every call."""

    def __init__(self, failures: dict[int, int]) -> None:
        self.left = dict(failures)
        self.calls: list[int] = []

    def __call__(self, record: Any) -> tuple[Any, ...]:
        self.calls.append(record["line"])
        if self.left.get(record["line"], 0) > 0:
            self.left[record["line"]] -= 1
            raise TransientError(f"lock on line {record['line']}")
        return (record["id"], record["v"])


def flaky_transform(fn: Flaky, ordering: bool = False) -> Transform:
    columns = (Column("id", "int"), Column("v", "text"))
    return Transform("flaky", 1, "flaky", "id", columns, fn, ordering="v" if ordering else None)


def records_file(tmp_path: Path, *items: tuple[int, str]) -> Path:
    lines = [orjson.dumps({"id": key, "v": v, "line": n}) for n, (key, v) in enumerate(items, 1)]
    return write(tmp_path, "r.jsonl", b"\n".join(lines) + b"\n")


def slow_policy(attempts: int) -> RetryPolicy:
    # Long delays: every retry must wait, and the no-op sleep records that it would have.
    return RetryPolicy(attempts=attempts, base_delay=30.0, max_delay=60.0, rng=random.Random(7))


def test_transient_failures_are_retried_at_the_back_of_the_queue(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    fn = Flaky({1: 2, 2: 1})
    path = records_file(tmp_path, (1, "a"), (2, "b"), (3, "c"))
    src = open_source(path, "jsonl")
    sleeps: list[float] = []
    chunk = parser_for(flaky_transform(fn), src, slow_policy(5), sleeps).parse(src)
    # Line 3 did not wait for 1 and 2; line 1, failing again, went behind line 2.
    assert fn.calls == [1, 2, 3, 1, 2, 1]
    assert sorted(chunk.rows) == [(1, "a", 1), (2, "b", 2), (3, "c", 3)]
    assert chunk.failures == []
    assert (chunk.records, chunk.superseded) == (3, 0)
    # A first retry comes round once the rest of the chunk is done, without a wait of its
    # own; a record that fails again waits its backoff: only line 1's third try waited.
    assert len(sleeps) == 1 and 0 < sleeps[0] <= 60.0


def test_transient_failures_past_the_retries_are_quarantined_as_transient(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    fn = Flaky({2: 99})
    path = records_file(tmp_path, (1, "a"), (2, "b"), (3, "c"))
    src = open_source(path, "jsonl")
    sleeps: list[float] = []
    chunk = parser_for(flaky_transform(fn), src, slow_policy(3), sleeps).parse(src)
    assert fn.calls.count(2) == 3  # the first try and two retries: three in all
    assert fn.calls[:3] == [1, 2, 3]
    assert len(sleeps) == 1  # before the third try (the second comes round at once)
    (failure,) = chunk.failures
    assert failure.line == 2
    assert failure.raw == orjson.dumps({"id": 2, "v": "b", "line": 2})
    assert failure.error_class is ErrorClass.TRANSIENT
    assert failure.error == "TransientError: lock on line 2"
    assert failure.traceback is None
    assert sorted(r[-1] for r in chunk.rows) == [1, 3]
    assert chunk.records == 3 == len(chunk.rows) + len(chunk.failures) + chunk.superseded


def test_a_retry_that_then_fails_for_data_is_quarantined_as_data(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    calls: list[int] = []

    def fn(record: Any) -> tuple[Any, ...]:
        calls.append(record["id"])
        if len(calls) == 1:
            raise TimeoutError("slow")
        raise DataError("bad value")

    t = Transform("t", 1, "t", "id", (Column("id", "int"),), fn)
    src = open_source(write(tmp_path, "x.jsonl", b'{"id": 1}\n'), "jsonl")
    chunk = parser_for(t, src, slow_policy(5)).parse(src)
    assert calls == [1, 1]
    (failure,) = chunk.failures
    assert failure.error_class is ErrorClass.DATA and failure.error == "DataError: bad value"


def test_a_retried_version_counts_as_superseded_like_any_other(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    fn = Flaky({2: 1})
    path = records_file(tmp_path, (1, "2026-01-01"), (1, "2026-01-03"), (1, "2026-01-02"))
    src = open_source(path, "jsonl")
    chunk = parser_for(flaky_transform(fn, ordering=True), src, slow_policy(5)).parse(src)
    assert chunk.rows == [(1, "2026-01-03", 2)]  # the newest, though it came last
    assert (chunk.records, chunk.superseded, chunk.failures) == (3, 2, [])


def test_a_retried_older_version_does_not_replace_a_later_one(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    fn = Flaky({1: 1})  # the older version fails once, transiently
    path = records_file(tmp_path, (1, "old"), (1, "new"))
    src = open_source(path, "jsonl")
    chunk = parser_for(flaky_transform(fn), src, slow_policy(5)).parse(src)
    assert (chunk.records, chunk.superseded) == (2, 1)
    # Without the transient failure line 2 wins; a retry must not change the outcome.
    assert chunk.rows == [(1, "new", 2)]


def test_the_end_of_the_file_is_a_chunk_of_no_lines(
    tmp_path: Path, open_source: Callable[..., ChunkSource]
) -> None:
    src = open_source(write(tmp_path, "x.jsonl", order(1) + b"\n"), "jsonl")
    parser = parser_for(PESANAN_2, src)
    assert parser.parse(src).records == 1
    end = parser.parse(src)
    assert (end.lines, end.records, end.rows, end.failures) == (0, 0, [], [])
    assert end.last_line == 1
