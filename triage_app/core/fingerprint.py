"""A source file opened once: its descriptor, its stamp, and the SHA-256 of its bytes.

A batch's identity is the hash of its source, and a batch is complete only for the bytes it
hashed (invariant 8). So the file is opened once, here; the hash is taken through that
descriptor, and every later reader (both lanes, the CSV header, the evidence of a refused
row) reads the same descriptor at an offset of its own and checks what it reads against the
hash as it goes: a file truncated, extended or rewritten after it was opened is caught
instead of being recorded under the hash of bytes it no longer holds.

Only the standard library (and the engine's light error, message and number modules) at
import time, on purpose: importing anything under ``core`` but a few such modules loads the
whole engine (SQLAlchemy included, about 0.35 s), and the CLI opens and hashes the file on a
thread while that import runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import stat
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

STDIN = "-"  # the file name that means standard input
STDIN_NAME = "<stdin>"  # how a batch read from standard input names its source
# The file is checked in steps of CHECK_EVERY bytes: the opening hash also takes the CRC-32
# of each step, and every checked reader compares the CRC-32 of what it read there. 8 MiB,
# the size the opening hash reads at a time: a thread that hashes while another imports waits
# for the GIL once per read or update (up to 5 ms each); with 1 MiB steps a 143 MB file took
# 0.31 s beside the import instead of 0.1 s alone.
CHECK_EVERY = 8 << 20
# What a record reader asks of the disk at a time (its buffer).
READ_BUFFER = 1 << 20


def sha256_of(stream: BinaryIO) -> str:
    """The SHA-256 of what ``stream`` holds from where it stands."""
    h = hashlib.sha256()
    buf = bytearray(CHECK_EVERY)
    view = memoryview(buf)
    while n := stream.readinto(buf):  # type: ignore[attr-defined]
        h.update(view[:n])
    return h.hexdigest()


if hasattr(os, "preadv"):

    def _read_at(fd: int, into: WriteableBuffer, offset: int) -> int:
        return os.preadv(fd, [into], offset)

else:  # pragma: no cover - Windows has no positional read

    def _read_at(fd: int, into: WriteableBuffer, offset: int) -> int:
        # Seek, then read: the readers of one descriptor live in one thread there (no fork,
        # and a second lane opens the file by its path).
        view = memoryview(into).cast("B")
        os.lseek(fd, offset, os.SEEK_SET)
        data = os.read(fd, len(view))
        view[: len(data)] = data
        return len(data)


@dataclass(frozen=True)
class Stamp:
    """What the file was when it was opened: every write changes its size or its
    modification time (up to the clock's tick; the hash checks cover the rest)."""

    size: int
    mtime_ns: int

    @classmethod
    def of(cls, fd: int) -> Stamp:
        st = os.fstat(fd)
        return cls(st.st_size, st.st_mtime_ns)

    def change(self, now: Stamp) -> str | None:
        """How ``now`` differs from this stamp, in words; None when it does not."""
        if now.size != self.size:
            return _("its size went from {before} to {now} bytes").format(
                before=format_int(self.size), now=format_int(now.size)
            )
        if now.mtime_ns != self.mtime_ns:
            return _("its modification time moved: it was written to")
        return None


class SourceChanged(TriageError):
    """The source is not what was hashed when it was opened."""


@dataclass(frozen=True)
class Fingerprint:
    """The opening hash: the file's SHA-256 (the batch's identity), its size, and the CRC-32
    of each step of CHECK_EVERY bytes (the last one may be shorter).

    A reader checks what it reads against the steps' CRC-32, not against the SHA-256: to
    tell the bytes read from the bytes hashed a checksum is enough (a change goes unseen with
    odds of 1 in 2**32 per step), and it costs a reader half as much, 0.04 s against 0.09 s
    for a 143 MB file, on the batch's hot path."""

    sha256: str
    size: int
    steps: tuple[int, ...]


def _changed(name: str, what: str) -> SourceChanged:
    return SourceChanged(
        _(
            "{file} changed while it was read ({what}); the batch is not complete and keeps "
            "what it committed: run the intact file again to finish it"
        ).format(file=name, what=what)
    )


class CheckedReader(io.FileIO):
    """Reads an open file from an offset of its own (positional reads: readers of one
    descriptor, in one process or across a fork, never move each other's place).

    With a fingerprint, it checks what it reads at the end of every step and of the file:
    bytes that differ from the ones hashed, a file that ends early or goes on past its size
    raise SourceChanged. Forward only: a checking reader cannot seek.

    A FileIO, though it reads with its own calls: a buffered reader asks its raw file whether
    it is closed at every line, which a FileIO answers in C; a plain RawIOBase subclass made
    reading a 1,000,000-line file 0.03 s slower."""

    def __init__(self, fd: int, name: str, fingerprint: Fingerprint | None = None) -> None:
        super().__init__(fd, "rb", closefd=False)
        self._fd = fd
        self._name = name
        self._pos = 0
        self._fp = fingerprint
        self._crc = 0  # of the step in progress
        self.at_end = False

    def seekable(self) -> bool:
        return True  # for tell(); only a seek that goes nowhere is allowed when checking

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = offset if whence == io.SEEK_SET else self._pos + offset
        if whence == io.SEEK_END or (self._fp is not None and target != self._pos):
            raise io.UnsupportedOperation("a checking reader only reads forward")
        self._pos = target
        return target

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        n = _read_at(self._fd, view, self._pos)
        if n == 0 and len(view):
            self.at_end = True
        if self._fp is not None:
            self._check(view, n)
        self._pos += n
        return n

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        buf = bytearray(size)
        return bytes(buf[: self.readinto(buf)])

    def readall(self) -> bytes:
        parts = []
        while part := self.read(CHECK_EVERY):
            parts.append(part)
        return b"".join(parts)

    def _check(self, view: memoryview, n: int) -> None:
        fp, pos = self._fp, self._pos
        assert fp is not None
        if n == 0:
            if len(view) and pos != fp.size:
                raise _changed(
                    self._name,
                    _("it ends at byte {at}, not {size}").format(
                        at=format_int(pos), size=format_int(fp.size)
                    ),
                )
            if len(view) and pos % CHECK_EVERY and self._crc != fp.steps[-1]:
                raise _changed(
                    self._name,
                    _("its bytes differ after byte {at}").format(
                        at=format_int(pos // CHECK_EVERY * CHECK_EVERY)
                    ),
                )
            return
        if pos + n > fp.size:
            raise _changed(
                self._name, _("it grew past its {size} bytes").format(size=format_int(fp.size))
            )
        done = 0
        while done < n:
            # Up to the end of the step, then its check.
            step_end = (pos // CHECK_EVERY + 1) * CHECK_EVERY
            take = min(n - done, step_end - pos)
            self._crc = zlib.crc32(view[done : done + take], self._crc)
            done += take
            pos += take
            if pos == step_end:
                if self._crc != fp.steps[pos // CHECK_EVERY - 1]:
                    first = pos - CHECK_EVERY
                    raise _changed(
                        self._name,
                        _("its bytes differ between byte {first} and {last}").format(
                            first=format_int(first), last=format_int(pos)
                        ),
                    )
                self._crc = 0


class OpenedFile:
    """A regular file opened once (or standard input, spooled): its descriptor, its stamp
    at opening, and its fingerprint, taken through that descriptor when first asked for."""

    def __init__(
        self,
        fd: int,
        name: str,
        path: Path | None,
        stamp: Stamp,
        *,
        fingerprint: Fingerprint | None = None,
        owns_fd: bool = True,
    ) -> None:
        self.fd = fd
        self.name = name  # the file name only, as a batch records it
        self.path = path  # None: nowhere to open it again (spooled standard input)
        self.stamp = stamp
        self._fingerprint = fingerprint
        self._owns_fd = owns_fd
        self.closed = False

    def fingerprint(self) -> Fingerprint:
        """The opening hash; taken on first call (a full read of the file)."""
        if self._fingerprint is None:
            self._fingerprint = _fingerprint(self.fd, self.name, self.stamp)
        return self._fingerprint

    @property
    def sha256(self) -> str:
        return self.fingerprint().sha256

    def reader(self, *, checked: bool = True) -> io.FileIO:
        """A reader of its own from byte 0; checked against the opening hash unless told.

        Unchecked, on Linux, it is the same file opened again through /proc (a new offset,
        the same inode whatever has been renamed since): a plain FileIO, the fastest."""
        if not checked and sys.platform.startswith("linux"):
            with contextlib.suppress(OSError):
                return io.FileIO(f"/proc/self/fd/{self.fd}", "rb")
        return CheckedReader(self.fd, self.name, self.fingerprint() if checked else None)

    def change(self) -> str | None:
        """How the file differs from its stamp now (size, modification time); None if not."""
        return self.stamp.change(Stamp.of(self.fd))

    def check_unchanged(self) -> None:
        what = self.change()
        if what is not None:
            raise _changed(self.name, what)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self._owns_fd:
                os.close(self.fd)

    def __enter__(self) -> OpenedFile:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _fingerprint(fd: int, name: str, stamp: Stamp) -> Fingerprint:
    h = hashlib.sha256()
    steps: list[int] = []
    buf = bytearray(CHECK_EVERY)
    view = memoryview(buf)
    pos = 0
    crc = 0
    # One read, one update and one CRC-32 per step. A read never crosses a step (one can
    # come back short: a network file system).
    while n := _read_at(fd, view[: CHECK_EVERY - pos % CHECK_EVERY], pos):
        h.update(view[:n])
        crc = zlib.crc32(view[:n], crc)
        pos += n
        if pos % CHECK_EVERY == 0:
            steps.append(crc)
            crc = 0
    if pos % CHECK_EVERY:
        steps.append(crc)
    what = stamp.change(Stamp.of(fd)) or (
        _("{read} bytes read of {size}").format(read=format_int(pos), size=format_int(stamp.size))
        if pos != stamp.size
        else None
    )
    if what is not None:
        raise _changed(name, what)
    return Fingerprint(h.hexdigest(), pos, tuple(steps))


def source_kind_problem(mode: int, shown: str) -> str | None:
    """Why a file of this mode cannot be a batch's source; None when it can."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return _(
            "{path} is a pipe, not a file: a pipe can be read only once, so pass - as the "
            "file and send the data to standard input (… | triage-app run - --format …)"
        ).format(path=shown)
    if stat.S_ISDIR(mode):
        return _("is a directory, not a file: {path}").format(path=shown)
    return _(
        "{path} is not a regular file (a device or a socket): save the data to a file first"
    ).format(path=shown)


def check_source_path(path: Path) -> None:
    """Refuse, in one line and without opening it, a path that cannot be a batch's source:
    missing, a directory, a pipe or a device. Opening a pipe could wait for a writer."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise TriageError(_("no such file: {path}").format(path=path)) from None
    except OSError as exc:
        raise TriageError(_cannot_read(path, exc)) from None
    problem = source_kind_problem(st.st_mode, str(path))
    if problem is not None:
        raise TriageError(problem)


def open_file(path: Path) -> OpenedFile:
    """Open a regular file for a batch, once. Never waits: a pipe or a device is refused in
    one line (opened without blocking, so one swapped in after a check cannot hang it)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise TriageError(_("no such file: {path}").format(path=path)) from None
    except IsADirectoryError:
        raise TriageError(_("is a directory, not a file: {path}").format(path=path)) from None
    except OSError as exc:
        raise TriageError(_cannot_read(path, exc)) from None
    try:
        problem = source_kind_problem(os.fstat(fd).st_mode, str(path))
        if problem is not None:
            raise TriageError(problem)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return OpenedFile(fd, path.name, path, Stamp.of(fd))
    except BaseException:
        os.close(fd)
        raise


def _cannot_read(path: Path, exc: OSError) -> str:
    return _("cannot read {path}: {reason}").format(path=path, reason=exc.strerror)


def _cannot_spool(exc: OSError) -> str:
    return _("cannot spool standard input: {reason}").format(reason=exc.strerror)


def _stdin() -> BinaryIO:
    if sys.stdin is None:  # a windowed app started without a console
        raise TriageError(_("there is no standard input here: name the file"))
    return sys.stdin.buffer


def check_stdin(stream: BinaryIO | None = None) -> None:
    """Refuse a terminal as standard input: reading it would wait for someone to type."""
    stream = stream if stream is not None else _stdin()
    if stream.isatty():
        raise TriageError(
            _(
                "standard input is a terminal: send the file to it (… | triage-app run - …) "
                "or name the file"
            )
        )


def spool_stdin(folder: Path | None, stream: BinaryIO | None = None) -> OpenedFile:
    """Standard input, copied to an anonymous temporary file in ``folder`` (the workspace,
    where there is one) and hashed as it streams: a batch needs a file it can read again
    (the second lane, a resume), and its identity is its bytes. The copy is gone when it is
    closed, or when the process ends however it ends."""
    stream = stream if stream is not None else _stdin()
    check_stdin(stream)
    where = folder if folder is not None and folder.is_dir() else None
    try:
        spool = tempfile.TemporaryFile(dir=where, prefix=".stdin-")  # noqa: SIM115 (with below)
    except OSError as exc:
        raise TriageError(_cannot_spool(exc)) from None
    with spool:
        h = hashlib.sha256()
        steps: list[int] = []
        buf = bytearray(CHECK_EVERY)
        view = memoryview(buf)
        size = 0
        readinto = stream.readinto  # type: ignore[attr-defined]
        try:
            while True:
                # A whole step at a time, so that the digests fall at multiples of it.
                n = 0
                while n < CHECK_EVERY and (got := readinto(view[n:])):
                    n += got
                if not n:
                    break
                h.update(view[:n])
                steps.append(zlib.crc32(view[:n]))  # a whole step, or the last one
                spool.write(view[:n])
                size += n
            spool.flush()
        except OSError as exc:
            raise TriageError(_cannot_spool(exc)) from None
        fd = os.dup(spool.fileno())
    return OpenedFile(
        fd,
        STDIN_NAME,
        None,
        Stamp.of(fd),
        fingerprint=Fingerprint(h.hexdigest(), size, tuple(steps)),
    )
