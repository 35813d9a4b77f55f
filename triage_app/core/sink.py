"""Where a batch's healthy rows go: the warehouse, written inline or by a writer process.

A batch's own loop (read, parse, transform) keeps one core busy; the warehouse's inserts
are as much work again. The writer process does the inserts of chunk k on the second core
while the batch parses chunk k+1. Chunks travel as JSON frames over a pipe; the process
commits each chunk and answers how many rows changed and which it refused.

The process never outlives its batch by more than one chunk: it stops at end of input,
and a chunk cut off mid-frame (the batch was killed) is never written.
"""

from __future__ import annotations

import os
import sqlite3
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol

import orjson

from triage_app.core.errors import TransientError, TriageError, error_message
from triage_app.core.retry import RetryPolicy, is_transient
from triage_app.core.sqlite_pragmas import BUSY_TIMEOUT_MS, apply_pragmas
from triage_app.core.upsert import UpsertResult, upsert_rows

if TYPE_CHECKING:
    from triage_app.core.warehouse import WarehouseWriter

_LEN = struct.Struct("<I")
# Only the types a warehouse column holds travel to the writer; anything else (a datetime,
# bytes, an integer beyond 64 bits) is refused row by row, like the sink would refuse it.
_DUMP_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
# Below this size a batch is written inline: starting a process costs more than it saves.
PROCESS_THRESHOLD_BYTES = 8 * 1024 * 1024


class RowSink(Protocol):
    def submit(self, rows: list[tuple[Any, ...]]) -> None:
        """Start writing a chunk; at most one is in flight."""

    def result(self) -> UpsertResult:
        """Wait for the chunk submitted last; transient failures are retried here."""

    def close(self) -> None: ...


class InlineSink:
    """Writes in the calling thread."""

    def __init__(
        self,
        writer: WarehouseWriter,
        retry: RetryPolicy,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.writer = writer
        self.retry = retry
        self.sleep = sleep
        self._rows: list[tuple[Any, ...]] = []

    def submit(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows

    def result(self) -> UpsertResult:
        from triage_app.core.retry import with_retry

        rows, self._rows = self._rows, []
        return with_retry(lambda: self.writer.upsert(rows), self.retry, sleep=self.sleep)

    def close(self) -> None:
        pass


def _write_frame(stream: IO[bytes], payload: bytes) -> None:
    stream.write(_LEN.pack(len(payload)))
    stream.write(payload)
    stream.flush()


def _read_frame(stream: IO[bytes]) -> bytes | None:
    head = stream.read(_LEN.size)
    if len(head) < _LEN.size:
        return None
    (n,) = _LEN.unpack(head)
    body = stream.read(n)
    return body if len(body) == n else None


class ProcessSink:
    """Writes in a child process, one chunk in flight while the caller prepares the next."""

    def __init__(
        self,
        writer: WarehouseWriter,
        retry: RetryPolicy,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        engine = writer.engine
        self.retry = retry
        self.sleep = sleep
        self._header = orjson.dumps(
            {
                "dialect": engine.dialect.name,
                # The URL travels over the pipe, never on the command line (ps shows argv).
                "target": engine.url.database
                if engine.dialect.name == "sqlite"
                else engine.url.render_as_string(hide_password=False),
                "sql": writer.sql,
            }
        )
        self._proc: subprocess.Popen[bytes] | None = None
        self._sent: list[int] = []  # indexes of the rows that travelled
        self._refused: list[tuple[int, str]] = []
        self._payload = b""
        self._start()  # it imports and connects while the caller reads the first chunk

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "triage_app.core.sink"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            assert self._proc.stdin is not None
            _write_frame(self._proc.stdin, self._header)
        return self._proc

    def submit(self, rows: list[tuple[Any, ...]]) -> None:
        try:
            payload = orjson.dumps(rows, option=_DUMP_OPTIONS)
            self._sent = list(range(len(rows)))
            self._refused = []
        except TypeError:
            # Some row holds a value no column can: find it, refuse it alone.
            good, self._sent, self._refused = [], [], []
            for i, row in enumerate(rows):
                try:
                    orjson.dumps(row, option=_DUMP_OPTIONS)
                except TypeError as exc:
                    self._refused.append((i, error_message(_unstorable(row, exc))))
                else:
                    good.append(row)
                    self._sent.append(i)
            payload = orjson.dumps(good, option=_DUMP_OPTIONS)
        self._payload = payload
        self._send()

    def _send(self) -> None:
        try:
            proc = self._start()
            assert proc.stdin is not None
            _write_frame(proc.stdin, self._payload)
        except (BrokenPipeError, OSError):
            self._proc = None  # result() notices and restarts

    def _receive(self) -> UpsertResult:
        proc = self._proc
        reply = _read_frame(proc.stdout) if proc is not None and proc.stdout else None
        if reply is None:
            self._stop()
            raise TransientError("the warehouse writer process stopped")
        answer = orjson.loads(reply)
        if "transient" in answer:
            raise TransientError(answer["transient"])
        if "error" in answer:
            raise TriageError(f"the warehouse refused the chunk: {answer['error']}")
        failed = [(self._sent[i], msg) for i, msg in answer["failed"]]
        return UpsertResult(answer["changed"], sorted(self._refused + failed))

    def result(self) -> UpsertResult:
        failures = 0
        while True:
            try:
                out = self._receive()
                self._payload = b""
                return out
            except TransientError as exc:
                failures += 1
                if failures >= self.retry.attempts:
                    raise
                if not is_transient(exc):  # pragma: no cover - TransientError always is
                    raise
                self.sleep(self.retry.delay(failures))
                self._send()

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()

    def close(self) -> None:
        self._stop()


def _unstorable(row: Sequence[Any], exc: TypeError) -> Exception:
    for v in row:
        if type(v) is int and not -(2**63) <= v < 2**63:
            return OverflowError(f"integer too large for a warehouse column: {v}")
    return TypeError(f"a value no warehouse column can hold: {exc}")


def open_sink(
    writer: WarehouseWriter,
    retry: RetryPolicy,
    size_hint: int,
    sleep: Callable[[float], None] = time.sleep,
) -> RowSink:
    """The writer process for large batches, inline for small ones or a frozen app (which
    has no interpreter to start); ``TRIAGE_WRITER=inline|process`` forces either."""
    mode = os.environ.get("TRIAGE_WRITER", "auto")
    frozen = bool(getattr(sys, "frozen", False))
    if mode == "process" or (
        mode == "auto" and not frozen and size_hint >= PROCESS_THRESHOLD_BYTES
    ):
        return ProcessSink(writer, retry, sleep)
    return InlineSink(writer, retry, sleep)


def _connect(dialect: str, target: str) -> tuple[Any, Callable[[], None]]:
    if dialect == "sqlite":
        conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000)
        apply_pragmas(conn)
        return conn, conn.close
    from triage_app.core.workspace import make_engine

    engine = make_engine(target, "warehouse")
    raw = engine.raw_connection()

    def _close() -> None:
        raw.close()
        engine.dispose()

    return raw, _close


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The writer process: a header frame, then one reply per chunk frame, until EOF."""
    header = _read_frame(stdin)
    if header is None:
        return 0
    h = orjson.loads(header)
    is_sqlite = h["dialect"] == "sqlite"
    conn, close = _connect(h["dialect"], h["target"])
    try:
        while (frame := _read_frame(stdin)) is not None:
            rows = orjson.loads(frame)
            try:
                res = upsert_rows(conn, h["sql"], rows, is_sqlite) if rows else UpsertResult(0, [])
                answer: dict[str, Any] = {"changed": res.changed, "failed": res.failed}
            except Exception as exc:
                key = "transient" if is_transient(exc) else "error"
                answer = {key: error_message(exc)}
                try:
                    conn.rollback()
                except Exception:
                    close()
                    conn, close = _connect(h["dialect"], h["target"])
            _write_frame(stdout, orjson.dumps(answer))
    finally:
        close()
    return 0


if __name__ == "__main__":
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer))
