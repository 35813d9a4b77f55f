"""Lanes: the batch's work split between two processes that take turns at the databases.

Reading, parsing and transforming a chunk is as much work as writing it. With two lanes,
the parent parses the even chunks and a child process the odd ones; each commits its own
chunk (``commit.py``) when its turn comes, so one lane writes while the other parses. Turns
pass strictly in chunk order, so the warehouse sees exactly the writes a single lane would
make, and the checkpoint only ever moves forward over committed chunks.

This module is the plumbing around the commit: how many lanes, starting the second one (a
fork, or a fresh interpreter), and the turns passed between them over a pipe.
"""

from __future__ import annotations

import contextlib
import os
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import orjson

from triage_app.core import language, messages
from triage_app.core.batch.chunks import ChunkParser, ChunkSource
from triage_app.core.batch.commit import ChunkCommitter
from triage_app.core.batch.readers import Format
from triage_app.core.batch.source import Source, attach
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.errors import TriageError, error_message
from triage_app.core.fingerprint import Stamp
from triage_app.core.messages import N_, _
from triage_app.core.progress import Progress
from triage_app.core.retry import RetryPolicy, is_transient
from triage_app.core.transforms import Transform, default_registry

# Below this size a batch runs in one lane: starting a process costs more than it saves.
TWO_LANES_FROM_BYTES = 8 * 1024 * 1024
_LEN = struct.Struct("<I")


@dataclass(frozen=True)
class LaneTask:
    """Everything a lane needs to know about the batch; travels to the second lane.

    The source travels as its descriptor (``fd``: inherited by a fork, passed to a fresh
    interpreter; None where it cannot be, and the lane opens ``path`` again), with the stamp
    and the hash the parent opened it with: the second lane checks its bytes against those,
    never against a file it looked at later."""

    path: str  # "" for standard input
    fd: int | None
    size: int
    mtime_ns: int
    sha256: str
    steps: list[int]  # the CRC-32 of each step of the file, taken with its hash
    fmt: Format
    transform: str
    batch_id: str
    resume_after: int
    chunk_size: int
    actor: str
    retry_attempts: int
    retry_base: float
    retry_max: float

    def source(self) -> Source:
        """The batch's source as this lane reads it: the same file, held to the same stamp
        and hash."""
        stamp = Stamp(self.size, self.mtime_ns)
        return attach(self.fd, self.path, self.fmt, stamp, self.sha256, self.steps)

    def committer(
        self,
        ws: Workspace,
        transform: Transform,
        source: Source,
        retry: RetryPolicy,
        sleep: Callable[[float], None],
        *,
        two_lanes: bool,
    ) -> ChunkCommitter:
        """This lane's committer for the batch."""
        return ChunkCommitter(
            ws,
            transform,
            batch_id=self.batch_id,
            source=source,
            fmt=self.fmt,
            actor=self.actor,
            retry=retry,
            sleep=sleep,
            two_lanes=two_lanes,
        )


def lanes_for(size: int, custom_registry: bool) -> int:
    """Two lanes for a large file, unless forced (``TRIAGE_LANES=1|2``) or impossible: a
    custom registry cannot cross a process. A frozen app starts its second lane as
    ``APP -m ...``, which packaging/launcher.py runs as Python would; on Windows, where the
    window's program has no console and the lane's pipes through it are untested, it keeps
    to one."""
    forced = os.environ.get("TRIAGE_LANES")
    if custom_registry or (getattr(sys, "frozen", False) and os.name == "nt"):
        return 1
    if forced in ("1", "2"):
        return int(forced)
    return 2 if size >= TWO_LANES_FROM_BYTES else 1


def _write_frame(stream: IO[bytes], message: dict[str, Any]) -> None:
    payload = orjson.dumps(message)
    stream.write(_LEN.pack(len(payload)) + payload)
    stream.flush()


def _read_frame(stream: IO[bytes]) -> dict[str, Any] | None:
    head = stream.read(_LEN.size)
    if len(head) < _LEN.size:
        return None
    (n,) = _LEN.unpack(head)
    body = stream.read(n)
    if len(body) < n:
        return None
    message: dict[str, Any] = orjson.loads(body)
    return message


def _single_threaded() -> bool:
    """True only where a fork is safe: one OS thread in the whole process. Python's own
    count misses threads Qt or a driver started, so ask the kernel; where it cannot be
    asked (not Linux), do not fork."""
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class Partner:
    """The parent's handle on the second lane.

    Where this process runs a single thread (the CLI), the lane is a fork: it starts with
    every module already imported. Where other threads run (the GUI), forking could copy a
    lock some other thread holds, so the lane is a fresh interpreter instead, started early
    so that it imports while the parent hashes the file; the source's descriptor ``fd`` is
    passed to it (a fork has it anyway).
    """

    def __init__(self, ws: Workspace, fd: int | None = None) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None
        if _single_threaded():
            # No database connection may cross a fork: SQLite keeps per-process lock state
            # that a child would inherit and trust. The pools reconnect on next use.
            ws.warehouse.dispose()
            ws.store.dispose()
            to_child_r, to_child_w = os.pipe()
            to_parent_r, to_parent_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the lane
                os.close(to_child_w)
                os.close(to_parent_r)
                code = 1
                try:
                    with open(to_child_r, "rb") as rin, open(to_parent_w, "wb") as wout:
                        code = serve(rin, wout)
                finally:
                    os._exit(code)  # no atexit handlers, no flushing the parent's buffers
            os.close(to_child_r)
            os.close(to_parent_w)
            self.pid = pid
            self.stdin: IO[bytes] = open(to_child_w, "wb")  # noqa: SIM115
            self.stdout: IO[bytes] = open(to_parent_r, "rb")  # noqa: SIM115
        else:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "triage_app.core.batch.lane_entry"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                pass_fds=(fd,) if fd is not None and os.name == "posix" else (),
            )
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        self.closed = False

    def start(self, ws: Workspace, task: LaneTask) -> None:
        # Database URLs may hold passwords: they travel over the pipe, never in argv.
        self.send(
            {
                "warehouse": ws.warehouse.url.render_as_string(hide_password=False),
                "store": ws.store.url.render_as_string(hide_password=False),
                "task": task.__dict__,
                # A fresh interpreter (not a fork) speaks the parent's language too: its
                # refusals are the lines the parent raises.
                "language": language.current(),
            }
        )

    def send(self, message: dict[str, Any]) -> None:
        # A lane that is gone is reported by receive(); sending to it is not an error.
        with contextlib.suppress(OSError):
            _write_frame(self.stdin, message)

    def receive(self) -> dict[str, Any]:
        msg = _read_frame(self.stdout)
        if msg is None:
            said = _("the batch's second lane stopped unexpectedly; {resume}")
            raise TriageError(said.format(resume=_(_RESUME)))
        if "error" in msg:
            if msg.get("transient"):
                raise _unavailable(msg["error"])
            raise TriageError(msg["error"])
        return msg

    def close(self) -> None:
        """Wait for the lane to end: no lane writes after this returns."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.stdin.close()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        elif self.pid is not None:
            os.waitpid(self.pid, 0)
        self.stdout.close()


def run_lanes(
    ws: Workspace,
    task: LaneTask,
    transform: Transform,
    src: Source,
    partner: Partner | None,
    progress: Progress,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
) -> bool:
    """Run the batch's chunks in this process and, with a partner, in a second lane too;
    True when the user cancelled (at a chunk boundary, everything before it committed).
    When it returns False the whole source was read, and it was what was hashed: a source
    that changed raises SourceChanged instead. The caller closes the partner."""
    source = ChunkSource(src, task.resume_after, task.chunk_size)
    total = src.size
    try:
        parser = ChunkParser(transform, source.decode, retry, sleep, task.fmt)
        committer = task.committer(ws, transform, src, retry, sleep, two_lanes=partner is not None)
        if partner is not None:
            partner.start(ws, task)
        rows_done = 0
        try:
            if partner is None:
                while (chunk := parser.parse(source)).lines:
                    committer.commit(chunk)
                    rows_done += chunk.records
                    progress.update(source.position(), total, rows_done)
                    if progress.cancelled():
                        return True
                source.finish()
                progress.update(total, total, rows_done)
                return False
            # Two lanes and two turns, each passed in chunk order: the warehouse turn ("w"),
            # and the store turn ("s") for a chunk's dead letters and checkpoint. One lane
            # stores its chunk while the other writes the next one to the warehouse.
            first = True
            while True:
                chunk = parser.parse(source)
                committer.stage(chunk)  # while the partner may have the warehouse turn
                if not first and "end" in partner.receive():  # it wrote its chunk, or ended
                    source.finish()
                    return False
                if chunk.lines == 0:
                    if not first:
                        rows_done = _stored(partner.receive(), rows_done, progress, total)
                    partner.send({"end": True})
                    source.finish()
                    progress.update(total, total, rows_done)
                    return False
                written = committer.write(chunk)
                partner.send({"w": True})
                committer.checkpoint()
                if not first:
                    rows_done = _stored(partner.receive(), rows_done, progress, total)
                committer.store(chunk, written)
                rows_done += chunk.records
                progress.update(source.position(), total, rows_done)
                first = False
                if progress.cancelled():
                    # It may have written its next chunk; unstored, that is replayed on resume.
                    partner.send({"stop": True})
                    return True
                partner.send({"s": True})
                source.skip()  # the partner's chunk
        finally:
            committer.close()
            if partner is not None:
                partner.close()  # waits for it: no lane writes after this returns
    except Exception as exc:
        if is_transient(exc):
            raise _unavailable(error_message(exc)) from None
        raise
    finally:
        source.close()


_RESUME = N_("the batch stopped at its last committed chunk: run the same command again to resume")


def _unavailable(reason: str) -> TriageError:
    said = _("the databases stayed unavailable ({reason}); {resume}")
    return TriageError(said.format(reason=reason, resume=_(_RESUME)))


def _stored(msg: dict[str, Any], rows_done: int, progress: Progress, total: int) -> int:
    """The partner stored its chunk: count it and report."""
    rows_done += msg["records"]
    progress.update(msg["position"], total, rows_done)
    return rows_done


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The second lane: the odd chunks, each written when the parent passes the warehouse
    turn and stored when it passes the store turn. A failure (a database, a source that
    changed) is sent to the parent as one line, which it raises."""
    header = _read_frame(stdin)
    if header is None:
        return 0
    task = LaneTask(**header["task"])
    if header.get("language", language.current()) != language.current():
        messages.use_language(header["language"])
    try:
        ws = open_workspace(
            None, warehouse_url=header["warehouse"], dead_letter_url=header["store"]
        )
    except Exception as exc:
        _report(stdout, exc)
        return 1
    retry = RetryPolicy(task.retry_attempts, task.retry_base, task.retry_max)
    transform = default_registry().get(task.transform)
    committer: ChunkCommitter | None = None
    source: ChunkSource | None = None
    try:
        src = task.source()
        # Unchecked: the parent reads and checks every byte too, and ends the batch only if
        # they were the ones hashed; this lane commits a chunk only while the file keeps the
        # size and modification time it was opened with (ChunkCommitter.write).
        source = ChunkSource(src, task.resume_after, task.chunk_size, checked=False)
        parser = ChunkParser(transform, source.decode, retry, time.sleep, task.fmt)
        committer = task.committer(ws, transform, src, retry, time.sleep, two_lanes=True)
        source.skip()  # the parent's first chunk
        while True:
            chunk = parser.parse(source)
            committer.stage(chunk)  # while the parent may have the warehouse turn
            msg = _read_frame(stdin)
            if msg is None or "w" not in msg:
                return 0  # stop, end, or the parent is gone: write nothing more
            if chunk.lines == 0:
                _write_frame(stdout, {"end": True})
                return 0
            written = committer.write(chunk)
            _write_frame(stdout, {"wrote": True})
            committer.checkpoint()
            msg = _read_frame(stdin)
            if msg is None or "s" not in msg:
                return 0  # written, not stored: the chunk is replayed on resume
            committer.store(chunk, written)
            _write_frame(
                stdout, {"stored": True, "records": chunk.records, "position": source.position()}
            )
            source.skip()  # the parent's next chunk
    except Exception as exc:
        _report(stdout, exc)
        return 1
    finally:
        if committer is not None:
            committer.close()
        if source is not None:
            source.close()
        ws.close()


def _report(stdout: IO[bytes], exc: Exception) -> None:
    """Tell the parent why this lane stops: a refusal's own line, else ``Type: message``."""
    message = str(exc) if isinstance(exc, TriageError) else error_message(exc)
    with contextlib.suppress(OSError):  # the parent is gone: no one to tell
        _write_frame(stdout, {"error": message, "transient": is_transient(exc)})
