"""CSV records read with a fast path for one-line records must be the records the general
algorithm reads: the same start lines, bytes, end line and resume behaviour."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import HOSTILE
from triage_app.core.batch.readers import BLANK, MAX_CSV_RECORD, CsvRecords, strip_eol


def general(data: bytes, resume_after: int) -> tuple[list[tuple[int, bytes]], list[int]]:
    """The algorithm before the fast path, one line at a time: the oracle. The records,
    and the line each one ends on."""
    out: list[tuple[int, bytes]] = []
    ends: list[int] = []
    n, end_line = 1, 1
    parts: list[bytes] = []
    start = quotes = size = 0
    for line in io.BytesIO(data):
        n += 1
        if not parts:
            start = n
            if not line.strip(BLANK):
                continue
        parts.append(line)
        size += len(line)
        quotes += line.count(b'"')
        if quotes % 2 == 0 or size > MAX_CSV_RECORD:
            end_line = n
            record = strip_eol(b"".join(parts))
            parts, quotes, size = [], 0, 0
            if n > resume_after:
                out.append((start, record))
                ends.append(end_line)
    if parts:
        end_line = n
        if n > resume_after:
            out.append((start, strip_eol(b"".join(parts))))
            ends.append(end_line)
    return out, ends


def check(data: bytes, resume_after: int = 0) -> None:
    want, ends = general(data, resume_after)
    assert list(CsvRecords(io.BytesIO(data)).after(resume_after)) == want
    for k in (1, 2, 3, 5, 100):
        # A chunk at a time: the same records, and end_line where the chunk's last ended.
        records = CsvRecords(io.BytesIO(data))
        got: list[tuple[int, bytes]] = []
        while batch := records.take(k, resume_after):
            assert len(batch) == k or len(got) + len(batch) == len(want)
            got += batch
            assert records.end_line == ends[len(got) - 1]
        assert got == want


LINES = [
    b"1,Budi,Baru,5,t\n", b"1,Budi,Baru,5,t\r\n", b"\n", b"\r\n", b"  \t\n", b'2,"a\n',
    b'b",Baru,5,t\n', b'"x""y",1,2,3,4\n', b"\r", b"a\rb\n", b'"\n', b"\x00,\x0c\n",
    b"\xff,\xfe\n", b"1,2", b'"', b",,,,\n",
]  # fmt: skip


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=12), st.integers(0, 14))
def test_any_mix_of_lines(lines: list[bytes], resume_after: int) -> None:
    check(b"".join(lines), resume_after)


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.csv")), ids=lambda p: p.name)
def test_hostile_files(path: Path) -> None:
    body = path.read_bytes()
    _header, _, rest = body.partition(b"\n")
    for resume in (0, 1, 2, 3):
        check(rest, resume)
