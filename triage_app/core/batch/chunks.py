"""A source file as chunks of records, and the hot loop that turns a chunk into rows.

JSONL is chunked by physical lines and CSV by records, so that a lane can skip the chunks
another lane owns at the speed of reading, without parsing them.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter
from typing import Any

import orjson

from triage_app.core.batch.quarantine import Failure, failure_from
from triage_app.core.batch.readers import (
    BLANK,
    CsvDecoder,
    Format,
    csv_header_names,
    read_csv,
    skip_bom,
    strip_eol,
)
from triage_app.core.batch.source import Source
from triage_app.core.crashpoints import crash_point
from triage_app.core.retry import RetryPolicy, is_transient
from triage_app.core.transforms import Transform

# A transform's fast path declined this many records in a row: the next
# ``_REFERENCE_STRETCH`` records go straight to its reference path (chunks._latest).
_DECLINES_IN_A_ROW = 64
_REFERENCE_STRETCH = 4096


@dataclass
class Chunk:
    """One chunk's outcome before it is committed."""

    rows: list[tuple[Any, ...]]  # newest version per key, the line last (lineage)
    failures: list[Failure]
    lines: int  # physical lines (JSONL) or records (CSV) taken from the source
    records: int  # records among them, whatever became of them
    superseded: int  # older versions of a key met in the same chunk
    first_line: int  # the lines this chunk covers, for the batch's ledger
    last_line: int  # the resume point once this chunk is committed
    # An atomic transform's chunk: each row's record as read (by line), held with the row
    # so that a line a whole-batch check fails later becomes a dead letter with its bytes.
    raws: dict[int, bytes] | None = None


class ChunkSource:
    """Reads a source chunk by chunk, from a resume point. The lines before it are read
    too (and skipped), so that a checked reader checks every byte against the source's
    hash, from the first."""

    def __init__(
        self, source: Source, resume_after: int, chunk_size: int, *, checked: bool = True
    ) -> None:
        self.source = source
        self.fmt: Format = source.format
        fmt = self.fmt
        self.chunk_size = chunk_size
        self.f = source.open_reader(checked=checked)
        self.header: bytes | None = None
        self.first_line = 0
        self.taken = 0  # lines (JSONL) or records (CSV) in the last chunk taken
        self.decode: Callable[[bytes], Any]
        if fmt == "csv":
            self.header, reader = read_csv(self.f)
            names = csv_header_names(self.header)
            self._csv = reader
            self._resume_after = resume_after
            self.decode = CsvDecoder(names)
            self.line = max(resume_after, 1)
        else:
            skip_bom(self.f)
            for _ in islice(self.f, resume_after):
                pass
            self.decode = orjson.loads
            self.line = resume_after

    def take(self) -> Iterable[tuple[int, bytes]]:
        """The next chunk's (line, raw) items, ``taken`` of them: none at the end of the
        file. The chunk covers lines ``first_line`` to ``line`` afterwards."""
        self.first_line = self.line + 1
        if self.fmt == "csv":
            items = self._csv.take(self.chunk_size, self._resume_after)
            if items:
                self.line = self._csv.end_line
            self.taken = len(items)
            return items
        lines = list(islice(self.f, self.chunk_size))
        self.taken = len(lines)
        self.line += len(lines)
        return enumerate(lines, self.first_line)

    def skip(self) -> int:
        """Pass over a chunk another lane owns; how many items it held."""
        if self.fmt == "csv":
            n = len(self._csv.take(self.chunk_size, self._resume_after))
            if n:
                self.line = self._csv.end_line
            return n
        n = 0
        for n, _ in enumerate(islice(self.f, self.chunk_size), 1):  # noqa: B007 (a count)
            pass
        self.line += n
        return n

    def position(self) -> int:
        return self.f.tell()

    def finish(self) -> None:
        """The batch read the whole source: raise SourceChanged unless what was read is
        what was hashed and the file is as it was opened."""
        self.source.finish_reading(self.f)

    def close(self) -> None:
        self.f.close()


@dataclass
class _Retry:
    line: int
    raw: bytes
    failures: int = 1
    not_before: float = 0.0


class ChunkParser:
    """Runs a chunk's records through the transform: rows, or failures with evidence."""

    def __init__(
        self,
        transform: Transform,
        decode: Callable[[bytes], Any],
        retry: RetryPolicy,
        sleep: Callable[[float], None] = time.sleep,
        fmt: Format = "jsonl",
    ) -> None:
        self.fn = transform.fn
        self.decode = decode
        # The transform's own raw-bytes path, tried first; fn decides whatever it declines.
        # A CSV fast path knows one header, the transform's columns in order.
        self.fast = transform.fast
        if fmt == "csv" and not (
            isinstance(decode, CsvDecoder) and tuple(decode.names) == transform.column_names
        ):
            self.fast = None
        self.retry = retry
        self.sleep = sleep
        names = transform.column_names
        self.key_idx = names.index(transform.key)
        self.ord_idx = names.index(transform.ordering) if transform.ordering else None
        self.atomic = transform.atomic

    def parse(self, source: ChunkSource) -> Chunk:
        """The source's next chunk, parsed: ``lines`` is 0 at the end of the file."""
        items = source.take()
        if self.atomic:
            items = list(items)
        crash_point("mid-parse")
        pending: dict[Any, tuple[Any, ...]] = {}
        failures: list[Failure] = []
        retries: deque[_Retry] = deque()
        if self.ord_idx is None:
            ok = self._latest(items, pending, failures, retries)
            # The older versions of a key are the rows that did not add one.
            superseded = ok - len(pending)
        else:
            ok, superseded = self._newest(items, pending, failures, retries)
        records = ok + len(failures) + len(retries)
        if retries:
            superseded += self._drain_retries(retries, pending, failures)
        rows = list(pending.values())
        # In key order: SQLite's primary-key index takes a chunk about a third faster than
        # in arrival order (each page touched once, in turn). A chunk holds one row per key,
        # so the order changes nothing else. Keys that do not compare (mixed types) stay
        # as they are.
        with contextlib.suppress(TypeError):
            rows.sort(key=itemgetter(self.key_idx))
        raws = None
        if self.atomic:
            kept = {row[-1] for row in rows}
            raws = {n: strip_eol(raw) for n, raw in items if n in kept}
        return Chunk(
            rows,
            failures,
            source.taken,
            records,
            superseded,
            source.first_line,
            source.line,
            raws,
        )

    def _latest(
        self,
        items: Iterable[tuple[int, bytes]],
        pending: dict[Any, tuple[Any, ...]],
        failures: list[Failure],
        retries: deque[_Retry],
    ) -> int:
        """The later version of a key wins, with no comparison; how many rows were good.

        These loops are the hot path, one pass per input line: they keep to local names and
        leave the rare things (blank lines, failures, retries) to other methods."""
        if self.fast is None:
            return self._latest_by_reference(items, pending, failures, retries)
        fast, key_idx = self.fast, self.key_idx
        ok = declined = 0
        items = iter(items)
        while True:
            for n, raw in items:
                try:
                    row = fast(raw)
                    pending[row[key_idx]] = row + (n,)  # noqa: RUF005
                except Exception:  # declined: the reference path decides
                    declined += 1
                    if self._reference(n, raw, pending, failures, retries):
                        ok += 1
                    if declined == _DECLINES_IN_A_ROW:
                        break
                    continue
                declined = 0
                ok += 1
            else:
                return ok
            # A stretch of records the fast path declines (a release with a bug fails every
            # row): asking it first only adds a decode per record. The reference path alone
            # decides the same, so the next stretch goes to it, then the fast path is tried
            # again.
            declined = 0
            ok += self._latest_by_reference(
                islice(items, _REFERENCE_STRETCH), pending, failures, retries
            )

    def _latest_by_reference(
        self,
        items: Iterable[tuple[int, bytes]],
        pending: dict[Any, tuple[Any, ...]],
        failures: list[Failure],
        retries: deque[_Retry],
    ) -> int:
        """``_latest`` through fn alone."""
        fn, decode, key_idx = self.fn, self.decode, self.key_idx
        ok = 0
        for n, raw in items:
            try:
                row = fn(decode(raw))
                # Concatenation builds one tuple; (*row, n) builds a list first.
                pending[row[key_idx]] = row + (n,)  # noqa: RUF005
            except Exception as exc:  # every failure is evidence, none is fatal
                self._on_failure(n, raw, exc, failures, retries)
                continue
            ok += 1
        return ok

    def _reference(
        self,
        n: int,
        raw: bytes,
        pending: dict[Any, tuple[Any, ...]],
        failures: list[Failure],
        retries: deque[_Retry],
    ) -> bool:
        """A record the fast path declined, through fn; False when it failed."""
        try:
            row = self.fn(self.decode(raw))
            pending[row[self.key_idx]] = row + (n,)  # noqa: RUF005
        except Exception as exc:
            self._on_failure(n, raw, exc, failures, retries)
            return False
        return True

    def _newest(
        self,
        items: Iterable[tuple[int, bytes]],
        pending: dict[Any, tuple[Any, ...]],
        failures: list[Failure],
        retries: deque[_Retry],
    ) -> tuple[int, int]:
        """The version with the larger ordering value wins; how many rows were good, and
        how many of them were superseded."""
        fn, decode, fast = self.fn, self.decode, self.fast
        key_idx, ord_idx = self.key_idx, self.ord_idx
        assert ord_idx is not None
        ok = superseded = 0
        for n, raw in items:
            try:
                if fast is None:
                    row = fn(decode(raw))
                else:
                    try:
                        row = fast(raw)
                    except Exception:  # declined: the reference path decides
                        row = fn(decode(raw))
                key = row[key_idx]
                prev = pending.get(key)
            except Exception as exc:
                self._on_failure(n, raw, exc, failures, retries)
                continue
            ok += 1
            if prev is not None:
                superseded += 1
                if prev[ord_idx] > row[ord_idx]:
                    continue
            pending[key] = row + (n,)  # noqa: RUF005
        return ok, superseded

    def _on_failure(
        self, n: int, raw: bytes, exc: Exception, failures: list[Failure], retries: deque[_Retry]
    ) -> None:
        """Keep a failing record's evidence, or queue it for a retry; a blank line is no
        record at all and leaves no trace."""
        line = raw
        raw = strip_eol(raw)
        if not raw.strip(BLANK):
            return
        if raw is not line and isinstance(exc, orjson.JSONDecodeError):
            # Parsed with its line terminator for speed; report positions without it.
            try:
                orjson.loads(raw)
            except orjson.JSONDecodeError as exact:
                exc = exact
        if is_transient(exc):
            retries.append(_Retry(n, raw))
        else:
            failures.append(failure_from(n, raw, exc))

    def _drain_retries(
        self, queue: deque[_Retry], pending: dict[Any, tuple[Any, ...]], failures: list[Failure]
    ) -> int:
        """Retry records that failed for a transient cause, each waiting its backoff at the
        back of the queue so the others don't wait for it; those that run out of tries are
        quarantined as ``transient``. Returns how many were superseded."""
        superseded = 0
        while queue:
            item = queue.popleft()
            wait = item.not_before - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            try:
                row = self.fn(self.decode(item.raw))
                key = row[self.key_idx]
            except Exception as exc:
                item.failures += 1
                if is_transient(exc) and item.failures < self.retry.attempts:
                    item.not_before = time.monotonic() + self.retry.delay(item.failures)
                    queue.append(item)
                else:
                    failures.append(failure_from(item.line, item.raw, exc))
                continue
            prev = pending.get(key)
            if prev is not None:
                superseded += 1
                if self._keeps(prev, row, item.line):
                    continue
            pending[key] = (*row, item.line)
        return superseded

    def _keeps(self, pending: tuple[Any, ...], row: tuple[Any, ...], line: int) -> bool:
        """Whether the pending version of a key (its line last) wins over ``row`` of
        ``line``, a retried record that may come from an earlier line: the outcome is the
        one reading the lines in order gives, with or without the retry."""
        if self.ord_idx is not None and pending[self.ord_idx] != row[self.ord_idx]:
            return bool(pending[self.ord_idx] > row[self.ord_idx])
        return bool(pending[-1] > line)
