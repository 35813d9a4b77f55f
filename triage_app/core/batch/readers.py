"""Readers: a source file as a stream of records, each with its raw bytes and line number.

Records are read in binary so that the raw payload is kept byte-exact, invalid UTF-8 and
NUL included. Memory stays constant: one record at a time.
"""

from __future__ import annotations

import csv
import io
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate, islice, repeat
from pathlib import Path
from typing import Any, BinaryIO, Literal

import orjson

from triage_app.core.errors import DataError, TriageError
from triage_app.core.messages import _, ngettext
from triage_app.core.vocabulary import SOURCE_FORMATS, PayloadKind

Format = Literal["jsonl", "csv"]  # one of SOURCE_FORMATS
BOM = b"\xef\xbb\xbf"
# A line of only these is blank, not a record; anything else (a form feed, a NUL) is a
# record, and a bad one is quarantined rather than dropped.
BLANK = b" \t\r\n"
# A CSV record whose quotes never close would swallow the rest of the file; past this many
# bytes it is cut off and quarantined as one record instead.
MAX_CSV_RECORD = 16 * 1024 * 1024
# The csv module refuses fields over 128 KiB by default; a long field is data, not an attack,
# up to the size at which a record is cut off anyway.
csv.field_size_limit(MAX_CSV_RECORD)


def detect_format(path: Path, explicit: str | None = None) -> Format:
    if explicit is not None:
        if explicit not in SOURCE_FORMATS:
            raise TriageError(unknown_format(explicit))
        return "csv" if explicit == "csv" else "jsonl"
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    said = _("cannot tell the format of {file}: pass --format jsonl or csv")
    raise TriageError(said.format(file=path.name))


def unknown_format(given: object) -> str:
    """The one line for a format that is neither JSONL nor CSV."""
    return _("unknown format {format}: use jsonl or csv").format(format=repr(given))


def skip_bom(f: io.BufferedReader) -> None:
    """Step over a UTF-8 byte-order mark at the start of a JSONL file: an encoding mark,
    not part of line 1's record."""
    if f.peek(3)[:3] == BOM:
        f.read(3)


def strip_eol(line: bytes) -> bytes:
    """The line without its terminator (LF or CRLF): the record's raw bytes."""
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


def read_csv(f: BinaryIO) -> tuple[bytes, CsvRecords]:
    """The header line and the records after it; a quoted field may span lines."""
    header = b""
    for line in f:
        header = strip_eol(line.removeprefix(BOM))
        break
    return header, CsvRecords(f)


class CsvRecords:
    """CSV records as (start line, raw bytes), a chunk at a time. ``end_line`` is the line
    the last record taken ended on (a blank line after it is not counted yet).

    A record ends at the first line where its quotes balance (an escaped quote, ``""``,
    adds two), or once it passes ``MAX_CSV_RECORD`` bytes; a blank line outside a record is
    no record. Most lines are a record of their own with no quote in them: runs of those go
    through in one join and one split, and only the lines around a quote one at a time.
    tests/core/batch/test_csv_records.py holds the line-at-a-time algorithm as its oracle."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        self.end_line = 1  # the header was line 1
        self._n = 1  # the last line read
        self._parts: list[bytes] = []  # the lines of a record not complete yet
        self._start = self._quotes = self._size = 0
        self._done = False

    def after(self, resume_after: int) -> Iterator[tuple[int, bytes]]:
        """Records that end after line ``resume_after`` (0: all of them). ``end_line`` may
        run ahead of the record last yielded, by up to a batch."""
        while batch := self.take(4096, resume_after):
            yield from batch

    def take(self, k: int, resume_after: int = 0) -> list[tuple[int, bytes]]:
        """The next ``k`` records that end after line ``resume_after``; fewer only at the
        end of the file. Each line completes at most one record, so reading as many lines
        as records are missing never reads past the last record taken."""
        out: list[tuple[int, bytes]] = []
        while len(out) < k and not self._done:
            lines = list(islice(self._f, k - len(out)))
            if not lines:
                self._done = True
                if self._parts:  # quotes that never close: the rest is one record
                    self._complete(self._n, out, resume_after)
                break
            quoted = _quoted_lines(lines)
            quoted.append(len(lines))
            i = 0
            for q in quoted:
                if i < q and not self._parts:
                    self._plain(lines[i:q], out, resume_after)
                    i = q
                for line in lines[i : q + 1]:  # inside a record, or the quoted line
                    self._line(line, out, resume_after)
                i = q + 1
        return out

    def _plain(self, lines: list[bytes], out: list[tuple[int, bytes]], after: int) -> None:
        """Lines without a quote, outside a record: each a record, or blank."""
        n = self._n
        last = n + len(lines)
        self._n = last
        if last <= after:  # all before the resume point: only where they end matters
            if any(map(bytes.strip, lines, repeat(BLANK))):
                self.end_line = max(n + 1 + i for i, line in enumerate(lines) if line.strip(BLANK))
            return
        joined = b"".join(lines)
        if b"\r" not in joined and all(map(bytes.strip, lines, repeat(BLANK))):
            # No blank line and no CR: the records are the lines without their LF.
            records = joined.split(b"\n")
            skip = max(0, after - n)
            out.extend(zip(range(n + 1 + skip, last + 1), records[skip : len(lines)], strict=True))
            self.end_line = last
            return
        for i, line in enumerate(lines, n + 1):
            if line.strip(BLANK):
                self.end_line = i
                if i > after:
                    out.append((i, strip_eol(line)))

    def _line(self, line: bytes, out: list[tuple[int, bytes]], after: int) -> None:
        """One line, the general way: it starts, continues or ends a quoted record."""
        self._n += 1
        if not self._parts:
            self._start = self._n
            if not line.strip(BLANK):
                return
        self._parts.append(line)
        self._size += len(line)
        self._quotes += line.count(b'"')
        if self._quotes % 2 == 0 or self._size > MAX_CSV_RECORD:
            self._complete(self._n, out, after)

    def _complete(self, n: int, out: list[tuple[int, bytes]], after: int) -> None:
        self.end_line = n
        record = strip_eol(b"".join(self._parts))
        self._parts, self._quotes, self._size = [], 0, 0
        if n > after:
            out.append((self._start, record))


def _quoted_lines(lines: list[bytes]) -> list[int]:
    """The indexes of the lines with a quote in them, found in one joined copy: quotes are
    rare, and a search in C is cheaper than a test per line in Python."""
    joined = b"".join(lines)
    pos = joined.find(b'"')
    if pos < 0:
        return []
    ends = list(accumulate(map(len, lines)))  # where each line ends in ``joined``
    found = []
    while pos >= 0:
        i = bisect_right(ends, pos)
        found.append(i)
        pos = joined.find(b'"', ends[i])
    return found


def csv_header_names(header: bytes) -> list[str]:
    try:
        text = header.decode("utf-8")
    except UnicodeDecodeError as exc:
        said = _("the CSV header is not UTF-8 ({reason})")
        raise TriageError(said.format(reason=exc.reason)) from None
    names = next(csv.reader([text]), [])
    names = [h.strip() for h in names]
    if not names or not any(names):
        raise TriageError(_("the CSV file has no header line"))
    if len(names) == 1:
        for sep in (";", "\t", "|"):
            if sep in names[0]:
                said = _(
                    "the CSV header is one column with {separator} in it: only ',' separates "
                    "columns here; convert the file to comma-separated"
                )
                raise TriageError(said.format(separator=repr(sep)))
    dupes = sorted({h for h in names if names.count(h) > 1})
    if dupes:
        said = ngettext(
            "the CSV header repeats column: {columns}",
            "the CSV header repeats columns: {columns}",
            len(dupes),
        )
        raise TriageError(said.format(columns=", ".join(dupes)))
    return names


class CsvDecoder:
    """``decode_csv`` for one file's header: what the chunk parser calls for each record
    its fast path declines, and where it learns the header."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def __call__(self, raw: bytes) -> dict[str, str]:
        return decode_csv(raw, self.names)


def decode_csv(raw: bytes, names: list[str]) -> dict[str, str]:
    text = raw.decode("utf-8")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as exc:
        raise DataError(f"baris CSV rusak: {exc}") from None
    if len(rows) != 1:
        raise DataError(f"baris CSV rusak: {len(rows)} baris dalam satu record")
    fields = rows[0]
    if len(fields) != len(names):
        raise DataError(f"jumlah kolom {len(fields)}, header punya {len(names)}")
    return dict(zip(names, fields, strict=True))


def decode_payload(payload: bytes, kind: str, csv_names: list[str] | None) -> Any:
    """Parse a dead letter's working payload: its original format, or JSON once edited
    (``json`` for a JSONL record, ``json-csv`` for a CSV row edited as an object)."""
    if kind == PayloadKind.CSV:
        return decode_csv(payload, csv_names or [])
    return orjson.loads(payload)
