"""Readers: a source file as a stream of records, each with its raw bytes and line number.

Records are read in binary so that the raw payload is kept byte-exact, invalid UTF-8 and
NUL included. Memory stays constant: one record at a time.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Literal

import orjson

from triage_app.core.errors import DataError, TriageError
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
            raise TriageError(f"unknown format {explicit!r}: use jsonl or csv")
        return "csv" if explicit == "csv" else "jsonl"
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    raise TriageError(f"cannot tell the format of {path.name}: pass --format jsonl or csv")


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
    """CSV records as (start line, raw bytes); ``end_line`` is the last line read so far."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        self.end_line = 1  # the header was line 1

    def after(self, resume_after: int) -> Iterator[tuple[int, bytes]]:
        """Records that end after line ``resume_after`` (0: all of them)."""
        n = 1
        parts: list[bytes] = []
        start = quotes = size = 0
        for line in self._f:
            n += 1
            if not parts:
                start = n
                if not line.strip(BLANK):
                    continue
            parts.append(line)
            size += len(line)
            # Balanced quotes mean the record is complete: an escaped quote ("") adds two.
            quotes += line.count(b'"')
            if quotes % 2 == 0 or size > MAX_CSV_RECORD:
                self.end_line = n
                record = strip_eol(b"".join(parts))
                parts, quotes, size = [], 0, 0
                if n > resume_after:
                    yield start, record
        if parts:
            self.end_line = n
            if n > resume_after:
                yield start, strip_eol(b"".join(parts))


def csv_header_names(header: bytes) -> list[str]:
    try:
        text = header.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TriageError(f"the CSV header is not UTF-8 ({exc.reason})") from None
    names = next(csv.reader([text]), [])
    names = [h.strip() for h in names]
    if not names or not any(names):
        raise TriageError("the CSV file has no header line")
    if len(names) == 1:
        for sep in (";", "\t", "|"):
            if sep in names[0]:
                raise TriageError(
                    f"the CSV header is one column with {sep!r} in it: only ',' separates "
                    "columns here; convert the file to comma-separated"
                )
    dupes = sorted({h for h in names if names.count(h) > 1})
    if dupes:
        raise TriageError(f"the CSV header repeats column(s): {', '.join(dupes)}")
    return names


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
