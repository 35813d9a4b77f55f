"""A batch's source: one file, opened once, read only through that descriptor.

It holds what a batch needs to know of its input: the name it records, the format, the size
and modification time when it was opened, and the SHA-256 of the bytes read through that
descriptor, the batch's identity. Every reader it hands out (the chunk readers of both lanes,
the CSV header, the evidence of a row the warehouse refused) checks its bytes against that
hash as it reads, and a chunk is committed only while the file still has the size and
modification time it was opened with: a file truncated, extended or rewritten during a run
fails the batch in one line, and what was committed is what was hashed (invariant 8).

Standard input (``-``) is copied to a temporary file in the workspace as it is hashed, and
read from there like any file; a pipe named as a path is refused, never waited on.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from triage_app.core.batch.readers import Format, csv_header_names, detect_format, read_csv
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import (
    READ_BUFFER,
    STDIN,
    STDIN_NAME,
    Fingerprint,
    OpenedFile,
    SourceChanged,
    Stamp,
    check_source_path,
    check_stdin,
    open_file,
    spool_stdin,
)
from triage_app.core.messages import _
from triage_app.core.transforms import Registry, Transform, default_registry

__all__ = ["Source", "SourceChanged", "check_input_format", "check_source", "source_format"]


def is_stdin(path: str | Path) -> bool:
    return str(path) == STDIN


def source_format(path: str | Path, explicit: str | None = None) -> Format:
    """The format given, else the one the file's name says."""
    if is_stdin(path) and explicit is None:
        raise TriageError(_("cannot tell the format of standard input: pass --format jsonl or csv"))
    return detect_format(Path(path), explicit)


def check_input_format(transform: Transform, fmt: str, registry: Registry) -> None:
    """Refuse a file whose format the transform does not read, before anything is written:
    a JSONL file through a CSV transform would otherwise quarantine every row."""
    if transform.input_format == fmt:
        return
    fitting = [t.ref for t in registry.all() if t.input_format == fmt]
    if fitting:
        said = _(
            "{transform} reads {reads} and the file is {format}: use {fitting} (or give the "
            "right format, if the file's name misleads)"
        )
    else:
        said = _(
            "{transform} reads {reads} and the file is {format}: no installed transform reads "
            "it (or give the right format, if the file's name misleads)"
        )
    either = functools.reduce(_or, fitting) if fitting else ""
    raise TriageError(
        said.format(
            transform=transform.ref, reads=transform.input_format, format=fmt, fitting=either
        )
    )


def _or(first: str, second: str) -> str:
    """``a or b``: folded over a list, ``a or b or c``."""
    return _("{first} or {second}").format(first=first, second=second)


def check_source(
    path: str | Path, fmt: str | None, transform_ref: str, registry: Registry | None = None
) -> Format:
    """Everything that can be checked before a batch opens its file or its workspace: the
    transform, the format, whether the transform reads it, and that the path is a file (or
    standard input that is not a terminal). Returns the format."""
    reg = registry or default_registry()
    fmt_ = source_format(path, fmt)
    check_input_format(reg.get(transform_ref), fmt_, reg)
    if is_stdin(path):
        check_stdin()
    else:
        check_source_path(Path(path))
    return fmt_


class Source:
    """The input of one run of a batch; close it (or use ``with``) when the run ends."""

    def __init__(self, opened: OpenedFile, fmt: Format) -> None:
        self.opened = opened
        self.format: Format = fmt

    @classmethod
    def open(
        cls,
        path: str | Path,
        fmt: str | None = None,
        *,
        opened: OpenedFile | None = None,
        spool_dir: Path | None = None,
    ) -> Source:
        """Open ``path`` (``-``: standard input, spooled to ``spool_dir``), or take the file
        the caller opened already (the CLI does, and hashes it while the engine imports)."""
        try:
            fmt_ = source_format(path, fmt)
        except TriageError:
            if opened is not None:
                opened.close()
            raise
        if opened is None:
            opened = spool_stdin(spool_dir) if is_stdin(path) else open_file(Path(path))
        return cls(opened, fmt_)

    @property
    def name(self) -> str:
        """The file name only (``<stdin>`` for standard input), as the batch records it."""
        return self.opened.name

    @property
    def path(self) -> Path | None:
        """Where it can be opened again; None for standard input."""
        return self.opened.path

    @property
    def stamp(self) -> Stamp:
        return self.opened.stamp

    @property
    def size(self) -> int:
        return self.opened.stamp.size

    @property
    def mtime(self) -> float:
        """Seconds since the epoch, when it was opened."""
        return self.opened.stamp.mtime_ns / 1e9

    @property
    def sha256(self) -> str:
        """The SHA-256 of its bytes as read through this descriptor (read on first use)."""
        return self.opened.sha256

    @property
    def fd(self) -> int:
        return self.opened.fd

    def open_reader(self, *, checked: bool = True) -> io.BufferedReader:
        """A buffered reader of its own, from byte 0, checked against the hash as it reads
        (unless told not to: the second lane's chunk reader, which the parent's covers)."""
        return io.BufferedReader(self.opened.reader(checked=checked), buffer_size=READ_BUFFER)

    def check_unchanged(self) -> None:
        """Raise SourceChanged if its size or modification time moved since it was opened:
        asked before every chunk is committed."""
        self.opened.check_unchanged()

    def finish_reading(self, reader: io.BufferedReader) -> None:
        """At the end of a batch: ``reader`` read the file to its end and its bytes were the
        ones hashed (the reader checked that at the end of the file; a reader stopped short
        reads the rest now), and the file has not changed since. Raises SourceChanged."""
        while reader.read(READ_BUFFER):
            pass
        self.check_unchanged()

    def csv_header(self) -> bytes:
        """The CSV header line, checked: a bad one refuses the file before a batch exists."""
        with self.open_reader() as f:
            header, _records = read_csv(f)
        csv_header_names(header)
        return header

    def close(self) -> None:
        self.opened.close()

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def attach(
    fd: int | None, path: str, fmt: Format, stamp: Stamp, sha256: str, steps: list[int]
) -> Source:
    """The source as the second lane has it: the parent's descriptor where it came along
    (a fork, or passed to a fresh interpreter), else the path opened again; checked against
    the parent's stamp and hash, never a new one."""
    fingerprint = Fingerprint(sha256, stamp.size, tuple(steps))
    if fd is None:
        again = open_file(Path(path)).fd  # its own stamp is not the one to hold it to
        opened = OpenedFile(again, Path(path).name, Path(path), stamp, fingerprint=fingerprint)
    else:
        opened = OpenedFile(
            fd, Path(path).name or STDIN_NAME, None, stamp, fingerprint=fingerprint, owns_fd=False
        )
    source = Source(opened, fmt)
    source.check_unchanged()
    return source
