"""Kept sources: the input of every batch, kept by the SHA-256 of its bytes (issue 25).

A batch's identity is the hash of its source (``run.batch_identity``), so the source is kept
under that hash: once, however many batches (transforms, formats) read it. It is compressed
with zstandard at level 1 (measured against the standard library's zlib at level 1: 2.5 times
faster and a third smaller on the load benchmark's files, docs/design.md), and kept where the
store is:

- a SQLite store (a workspace on a laptop): a file in the workspace's folder,
  ``sources/<sha[:2]>/<sha>.<format>.zst``, a plain zstd file a person can ``zstdcat``. It is
  written to a temporary name beside it and renamed once whole and fsynced, then recorded;
- a team store (PostgreSQL): ``source_blobs`` rows of 4 MiB each, written with the
  ``kept_sources`` row in one transaction, so every laptop of the team reads them.

``kept_sources`` (place ``folder`` or ``table``) says which are kept. Two processes keeping one
source at once keep it once: on SQLite the rename and the row go under the store's write
lock, and the second finds the first's; on PostgreSQL the row's insert waits for the other's
transaction and then does nothing.

Reading (``open_kept``) decompresses and checks the bytes against their SHA-256 as they are
read: a copy that was damaged or changed raises ``SourceDamaged`` at the latest at its end,
never passing for the source. ``batch_records`` checks the whole copy before it yields the
first record, then cuts and numbers them exactly as the batch did (``chunks.ChunkSource``).

A batch whose source is not kept (from before, or forgotten by retention) says so
(``SourceGone``); ``give_source`` takes the file again, only if its hash is the batch's.

Retention: the store setting ``keep_sources_days`` (default 90, or ``forever``);
``forget_sources`` deletes sources kept before the cutoff, never one a batch that is not
complete (running, held) reads. The dead letters' purge runs it (one policy run, both).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from sqlalchemy import Connection, Engine, and_, delete, exists, func, insert, select
from sqlalchemy.exc import DBAPIError

from triage_app.core.batch.readers import BLANK, read_csv, skip_bom, strip_eol, unknown_format
from triage_app.core.bilingual import Said, both
from triage_app.core.clock import iso, utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    Batch,
    KeptSource,
    SourceBlob,
    Workspace,
    batch_named,
    is_lock_wait,
    set_store_setting,
    store_setting,
    user_message,
)
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import READ_BUFFER, open_file
from triage_app.core.locale_format import format_int, format_number
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.places import printable
from triage_app.core.vocabulary import SOURCE_FORMATS, BatchState

__all__ = [
    "DEFAULT_KEEP_DAYS",
    "Keeping",
    "KeptSourceInfo",
    "NotKept",
    "SourceDamaged",
    "SourceGone",
    "SourcesForgotten",
    "batch_records",
    "check_keep_days",
    "describe_retention",
    "forget_sources",
    "give_source",
    "human_size",
    "is_kept",
    "keep_source",
    "list_kept",
    "open_kept",
    "set_sources_retention",
    "source_state",
    "sources_retention",
]

CODEC = "zstd"  # one zstandard frame at LEVEL: a kept file is a .zst file
SUFFIX = ".zst"
LEVEL = 1
STEP = 1 << 20  # bytes read, compressed or decompressed at a time
PART = 4 << 20  # bytes of compressed source per source_blobs row
SOURCES_DIR = "sources"
PLACE_FOLDER = "folder"
PLACE_TABLE = "table"
RETENTION_KEY = "keep_sources_days"  # the StoreSetting: whole days, or "forever"
FOREVER = "forever"
# A quarter: long enough to reprocess a batch after a release is found at fault weeks later
# (and as long as the dead letters' usual policy); a nightly 50 MB file keeps about 1 GB then.
DEFAULT_KEEP_DAYS = 90
# A temporary copy left by a killed run is swept by forget_sources once this old.
STALE_PART = dt.timedelta(days=1)
_SHA = re.compile(r"[0-9a-f]{64}")
GIVE_AGAIN = "triage-app give-source {batch} FILE"


class NotKept(TriageError):
    """No kept copy of this source (never kept, forgotten, or its file removed by hand).
    ``said``: its line in both languages (a reprocess's ``--json`` names it in English)."""

    def __init__(self, sha256: str, message: Said | None = None) -> None:
        if message is None:
            not_kept = N_(
                "the source {source}… is not kept: give a batch of it its file again ({command})"
            )
            message = both(not_kept, source=sha256[:12], command=GIVE_AGAIN.format(batch="BATCH"))
        super().__init__(str(message))
        self.said = message
        self.sha256 = sha256


class SourceGone(NotKept):
    """A batch's source is not kept: the one line says how to give it again."""

    def __init__(self, batch_id: str, sha256: str = "") -> None:
        gone = N_("the source of batch {batch} is not kept: give the file again with {command}")
        super().__init__(
            sha256, both(gone, batch=batch_id, command=GIVE_AGAIN.format(batch=batch_id))
        )
        self.batch_id = batch_id


class SourceDamaged(TriageError):
    """A kept copy that does not decompress to the bytes of its hash."""


# -- where ----------------------------------------------------------------------------------


def _in_table(ws: Workspace) -> bool:
    return ws.store.dialect.name != "sqlite"


def sources_folder(ws: Workspace) -> Path:
    """Where a SQLite store keeps sources: ``sources/`` in the workspace's folder (beside
    the store file when the store was named by URL)."""
    if ws.config.folder is not None:
        return ws.config.folder / SOURCES_DIR
    db = ws.store.url.database
    if not db or db == ":memory:":
        raise TriageError(_("a store in memory keeps no sources: open a workspace folder"))
    return Path(db).resolve().parent / SOURCES_DIR


def _file_of(ws: Workspace, sha256: str, fmt: str) -> Path:
    return sources_folder(ws) / sha256[:2] / f"{sha256}.{fmt}{SUFFIX}"


def _check_sha(sha256: str) -> str:
    if not isinstance(sha256, str) or not _SHA.fullmatch(sha256):
        said_ = _("not a SHA-256: {given}")
        raise TriageError(said_.format(given=repr(printable(str(sha256))[:80])))
    return sha256


def _check_format(fmt: str) -> str:
    if fmt not in SOURCE_FORMATS:
        raise TriageError(unknown_format(fmt))
    return fmt


@contextlib.contextmanager
def _write(engine: Engine) -> Iterator[Connection]:
    """A store transaction holding the write lock from its start (SQLite ``BEGIN
    IMMEDIATE``): the file's rename and its row, or a row and its file's removal, are one
    step for every other process that keeps or forgets sources."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        yield conn


def _row(conn: Connection, sha256: str) -> Any:
    return conn.execute(select(KeptSource.__table__).where(KeptSource.sha256 == sha256)).first()


def _present(ws: Workspace, row: Any) -> bool:
    """A row's copy is there: always for a blob (same transaction), a stat for a file."""
    return row.place != PLACE_FOLDER or _file_of(ws, row.sha256, row.format).is_file()


# -- keeping --------------------------------------------------------------------------------


class _Pack:
    """A compressed copy being made, in a temporary file: beside where it will live (a
    folder store: renamed into place) or in the workspace's folder (a team store: read into
    blobs, then removed)."""

    def __init__(self, ws: Workspace, sha256: str, fmt: str) -> None:
        self.ws = ws
        self.sha256 = sha256
        self.fmt = fmt
        self.in_table = _in_table(ws)
        where: Path | None
        if not self.in_table:
            where = _file_of(ws, sha256, fmt).parent
        elif ws.config.folder is not None and ws.config.folder.is_dir():
            where = ws.config.folder / SOURCES_DIR / "spool"  # swept like the others
        else:
            where = None  # a team store and no folder: the system's temporary folder
        if where is not None:
            try:
                where.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                cannot = _("cannot keep the source in {folder}: {reason}")
                raise TriageError(
                    cannot.format(folder=printable(where), reason=exc.strerror or exc)
                ) from None
        fd, name = tempfile.mkstemp(dir=where, prefix=f".{sha256}.", suffix=".part")
        self.path = Path(name)
        self._out = os.fdopen(fd, "wb")
        self.size = 0
        self.stored_size = 0
        self.digest: str | None = None

    def fill(self, reader: BinaryIO, *, hashing: bool = True) -> None:
        """Compress what ``reader`` holds from where it stands to its end; ``hashing`` takes
        its SHA-256 too (a reader checked against the batch's own hash needs none). The
        compressor and the reads let go of the GIL: on a thread it runs beside the lanes."""
        import zstandard

        h = hashlib.sha256() if hashing else None
        co = zstandard.ZstdCompressor(level=LEVEL).compressobj()
        out = self._out
        try:
            while data := reader.read(STEP):
                self.size += len(data)
                if h is not None:
                    h.update(data)
                z = co.compress(data)
                if z:
                    out.write(z)
                    self.stored_size += len(z)
            z = co.flush()
            out.write(z)
            self.stored_size += len(z)
            out.flush()
            os.fsync(out.fileno())
        except OSError as exc:
            cannot = _("cannot keep the source {source}…: {reason}")
            raise TriageError(
                cannot.format(source=self.sha256[:12], reason=exc.strerror or exc)
            ) from None
        finally:
            out.close()
        self.digest = h.hexdigest() if h is not None else self.sha256

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self._out.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def commit(self, *, replace: bool = False) -> bool:
        """Put the copy in place and record it; False when another process (or an earlier
        run) kept it already, and this copy is dropped. ``replace``: put this one in its
        place even so (a copy given again, to mend a damaged one)."""
        if self.digest != self.sha256:
            self.discard()
            other = _("the bytes given are not the source {source}…: their SHA-256 is {digest}…")
            raise TriageError(
                other.format(source=self.sha256[:12], digest=(self.digest or "?")[:12])
            )
        try:
            if self.in_table:
                return self._commit_blobs(replace)
            return self._commit_file(replace)
        finally:
            self.discard()  # renamed away, or read into blobs, or not needed

    def _values(self, place: str) -> dict[str, Any]:
        return {
            "sha256": self.sha256,
            "format": self.fmt,
            "size": self.size,
            "stored_size": self.stored_size,
            "codec": CODEC,
            "place": place,
            "kept_at": utcnow(),
        }

    def _commit_file(self, replace: bool) -> bool:
        final = _file_of(self.ws, self.sha256, self.fmt)
        with _write(self.ws.store) as conn:
            row = _row(conn, self.sha256)
            if row is not None and not replace and _present(self.ws, row):
                return False
            os.replace(self.path, final)
            _fsync_dir(final.parent)
            if row is not None:
                conn.execute(delete(KeptSource).where(KeptSource.sha256 == self.sha256))
                if row.format != self.fmt:  # kept before under another format's name
                    with contextlib.suppress(FileNotFoundError):
                        _file_of(self.ws, self.sha256, row.format).unlink()
            conn.execute(insert(KeptSource).values(self._values(PLACE_FOLDER)))
            crash_point("mid-source-keep")  # the file in place, its row not committed
        return True

    def _commit_blobs(self, replace: bool) -> bool:
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        def once() -> bool:
            with self.ws.store.begin() as conn:
                if replace:
                    conn.execute(delete(SourceBlob).where(SourceBlob.sha256 == self.sha256))
                    conn.execute(delete(KeptSource).where(KeptSource.sha256 == self.sha256))
                # Waits for another process inserting the same row, then does nothing.
                mine = conn.execute(
                    pg_insert(KeptSource)
                    .values(self._values(PLACE_TABLE))
                    .on_conflict_do_nothing(index_elements=["sha256"])
                    .returning(KeptSource.sha256)
                ).first()
                if mine is None:
                    return False
                with self.path.open("rb") as f:
                    for part, data in enumerate(iter(lambda: f.read(PART), b"")):
                        conn.execute(
                            insert(SourceBlob).values(sha256=self.sha256, part=part, data=data)
                        )
                crash_point("mid-source-keep")  # its row and blobs written, not committed
                return True

        # Another process writing a large source's blobs holds the row longer than a lock
        # wait lasts (lock_timeout): once it commits, this one finds it kept.
        for attempt in range(20):
            try:
                return once()
            except DBAPIError as exc:
                if not is_lock_wait(exc) or attempt == 19:
                    raise
        return False  # pragma: no cover (the loop returns or raises)


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def is_kept(ws: Workspace, sha256: str) -> bool:
    """One lookup (and, in a folder, a stat): whether the source of this hash is kept."""
    with ws.store.connect() as conn:
        row = _row(conn, sha256)
    return row is not None and _present(ws, row)


def keep_source(
    ws: Workspace, sha256: str, fmt: str, source: str | os.PathLike[str] | BinaryIO
) -> bool:
    """Keep ``source`` (a path, or a binary stream read from where it stands to its end) as
    the source of hash ``sha256`` and format ``fmt``; False when it was kept already. Its
    bytes are hashed as they are compressed: bytes of another hash are refused, never kept
    under this one."""
    _check_sha(sha256)
    _check_format(fmt)
    if is_kept(ws, sha256):
        return False
    pack = _Pack(ws, sha256, fmt)
    try:
        if isinstance(source, str | os.PathLike):
            with (
                open_file(Path(source)) as opened,
                io.BufferedReader(opened.reader(checked=False), READ_BUFFER) as f,
            ):
                pack.fill(f)
        else:
            pack.fill(source)
    except BaseException:
        pack.discard()
        raise
    return pack.commit()


class Keeping:
    """A running batch's source, compressed on a thread while its lanes run (zstandard and
    the reads let go of the GIL) into a temporary file; ``finish`` records it once the batch is
    complete, ``abandon`` drops it (cancelled, failed). ``reader`` is the batch's own checked
    reader of the source: what is kept is what was hashed (invariant 8)."""

    def __init__(
        self, ws: Workspace, sha256: str, fmt: str, reader: Callable[[], BinaryIO]
    ) -> None:
        self._pack: _Pack | None = None
        self.problem: str | None = None
        try:
            self._pack = _Pack(ws, sha256, fmt)
        except (TriageError, OSError) as exc:
            self.problem = str(exc)
            self._thread: threading.Thread | None = None
            return
        self._error: BaseException | None = None
        self._reader = reader
        self._thread = threading.Thread(target=self._work, name="keep-source", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        assert self._pack is not None
        try:
            with self._reader() as r:
                self._pack.fill(r, hashing=False)
        except BaseException as exc:  # reported by finish, never raised on the thread
            self._error = exc

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def finish(self) -> bool:
        """Record the copy; True when kept now. A failure is not the batch's: the batch is
        complete, and ``problem`` says why its source was not kept."""
        self._join()
        if self._pack is None:
            return False
        try:
            if self._error is not None:
                raise self._error
            return self._pack.commit()
        except Exception as exc:  # the batch is loaded whatever became of its copy
            self._pack.discard()
            self.problem = " ".join(user_message(exc).split())[:300]
            return False

    def abandon(self) -> None:
        self._join()
        if self._pack is not None:
            self._pack.discard()


# -- reading --------------------------------------------------------------------------------


class _Parts(io.RawIOBase):
    """Compressed bytes that come in parts (a team store's blobs) as one stream."""

    def __init__(self, parts: Iterator[bytes]) -> None:
        self._parts = parts
        self._left = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while not len(self._left):
            more = next(self._parts, None)
            if more is None:
                return 0
            self._left = memoryview(more)
        n = min(len(b), len(self._left))
        b[:n] = self._left[:n]
        self._left = self._left[n:]
        return n


class _Checked(io.RawIOBase):
    """The decompressed bytes of a kept copy, hashed as they are read; at the end they must
    be exactly ``size`` bytes of SHA-256 ``sha256``, else SourceDamaged. Frames appended
    after the first are read too (and so fail the check), never left unseen."""

    def __init__(self, compressed: BinaryIO, sha256: str, size: int, where: str) -> None:
        import zstandard

        self._sha256 = sha256
        self._size = size
        self._where = where
        self._h = hashlib.sha256()
        self._n = 0
        self._done = False
        self._errors: tuple[type[BaseException], ...] = (zstandard.ZstdError, ValueError)
        self._d = zstandard.ZstdDecompressor().stream_reader(
            compressed, read_size=STEP, read_across_frames=True, closefd=False
        )

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self._done:
            return 0
        try:
            out = self._d.read(min(len(b), STEP))
        except self._errors as exc:
            raise self._damaged(_("it does not decompress ({reason})").format(reason=exc)) from None
        if not out:
            self._finish()
            return 0
        self._h.update(out)
        self._n += len(out)
        if self._n > self._size:
            more = ngettext(
                "it holds more than its {n} byte", "it holds more than its {n} bytes", self._size
            )
            raise self._damaged(more.format(n=format_int(self._size)))
        n = len(out)
        b[:n] = out
        return n

    def _damaged(self, why: str) -> SourceDamaged:
        damaged = _(
            "the kept source {source}… ({where}) is damaged: {why}; give a batch of it its file "
            "again ({command})"
        )
        return SourceDamaged(
            damaged.format(
                source=self._sha256[:12],
                where=self._where,
                why=why,
                command=GIVE_AGAIN.format(batch="BATCH"),
            )
        )

    def _finish(self) -> None:
        got = self._h.hexdigest()
        if self._n != self._size or got != self._sha256:
            wrong = ngettext(
                "its bytes hash to {digest}… ({n} byte), not to its name",
                "its bytes hash to {digest}… ({n} bytes), not to its name",
                self._n,
            )
            raise self._damaged(wrong.format(digest=got[:12], n=format_int(self._n)))
        self._done = True


def _blob_parts(conn: Connection, sha256: str) -> Iterator[bytes]:
    part = 0
    while True:
        data = conn.execute(
            select(SourceBlob.data).where(SourceBlob.sha256 == sha256, SourceBlob.part == part)
        ).scalar()
        if data is None:
            return
        yield bytes(data)
        part += 1


@contextlib.contextmanager
def open_kept(ws: Workspace, sha256: str) -> Iterator[BinaryIO]:
    """The kept source's bytes, decompressed and checked against ``sha256`` as they are
    read (SourceDamaged, at the latest at the end, for a copy that is not the source).
    NotKept when it is not kept."""
    _check_sha(sha256)
    with ws.store.connect() as conn:
        if _in_table(ws):
            # One snapshot for every part: a copy forgotten meanwhile reads whole or not.
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        row = _row(conn, sha256)
        if row is None:
            raise NotKept(sha256)
        if row.codec != CODEC:
            codec = _(
                "the source {source}… was kept as {codec}, which this version of Triage Desk "
                "does not read"
            )
            raise TriageError(codec.format(source=sha256[:12], codec=row.codec))
        with contextlib.ExitStack() as stack:
            if row.place == PLACE_FOLDER:
                path = _file_of(ws, sha256, row.format)
                try:
                    f = stack.enter_context(path.open("rb"))
                except FileNotFoundError:
                    gone = N_(
                        "the source {source}… is recorded as kept but its file is gone from "
                        "{folder}: give a batch of it its file again ({command})"
                    )
                    message = both(
                        gone,
                        source=sha256[:12],
                        folder=printable(path.parent),
                        command=GIVE_AGAIN.format(batch="BATCH"),
                    )
                    raise NotKept(sha256, message) from None
                compressed: BinaryIO = f
                where = printable(path)
            else:
                compressed = io.BufferedReader(_Parts(_blob_parts(conn, sha256)), STEP)
                where = _("the store's source_blobs")
            raw = _Checked(compressed, sha256, int(row.size), where)
            reader = stack.enter_context(io.BufferedReader(raw, READ_BUFFER))
            yield reader


def _verify(ws: Workspace, sha256: str) -> None:
    """Read the whole kept copy once, checked: SourceDamaged, NotKept, or nothing."""
    with open_kept(ws, sha256) as f:
        while f.read(READ_BUFFER):
            pass


# -- a batch's source -----------------------------------------------------------------------


def _batch(ws: Workspace, batch_id: str) -> Any:
    """The batch of this id (or unique start of one): id, source hash, format."""
    with ws.store.connect() as conn:
        return batch_named(conn, batch_id)


def _records(f: io.BufferedReader, fmt: str) -> Iterator[tuple[int, bytes]]:
    """(line, raw bytes) as the batch's chunks cut them: JSONL by physical line after a
    byte-order mark, without the terminator, blank lines no record; CSV by record after the
    header line, a quoted field across lines one record (readers.CsvRecords)."""
    if fmt == "csv":
        _header, records = read_csv(f)
        yield from records.after(0)
        return
    skip_bom(f)
    for n, line in enumerate(f, 1):
        raw = strip_eol(line)
        if raw.strip(BLANK):
            yield n, raw


def batch_records(
    ws: Workspace, batch_id: str, lines: Collection[int] | None = None
) -> Iterator[tuple[int, bytes]]:
    """The records of the batch's kept source, ``(line, raw bytes)`` numbered and cut
    exactly as its run numbered and cut them; only the ``lines`` given, when given.

    Raises SourceGone at once when the source is not kept, and SourceDamaged before the
    first record when the kept copy is not the source (the whole copy is checked first)."""
    b = _batch(ws, batch_id)
    sha = str(b.source_sha256)
    try:
        _verify(ws, sha)
    except NotKept:
        raise SourceGone(b.batch_id, sha) from None
    wanted = None if lines is None else {int(n) for n in lines}
    return _walk(ws, b.batch_id, sha, str(b.format), wanted)


def _walk(
    ws: Workspace, batch_id: str, sha: str, fmt: str, wanted: set[int] | None
) -> Iterator[tuple[int, bytes]]:
    if wanted is not None and not wanted:
        return
    try:
        with open_kept(ws, sha) as f:
            for n, raw in _records(f, fmt):  # type: ignore[arg-type]
                if wanted is None:
                    yield n, raw
                elif n in wanted:
                    yield n, raw
                    wanted.discard(n)
                    if not wanted:
                        return
    except NotKept:
        raise SourceGone(batch_id, sha) from None  # forgotten since the check


def give_source(ws: Workspace, batch_id: str, path: str | os.PathLike[str]) -> bool:
    """Give a batch its source file again: hashed as it is compressed, kept only if its
    hash is the batch's (else refused in one line naming both). True when kept now, False
    when the batch's source was kept and whole already (the file is still checked). A kept
    copy that is damaged is replaced by this one."""
    b = _batch(ws, batch_id)
    want = str(b.source_sha256)
    damaged = False
    kept = is_kept(ws, want)
    if kept:
        try:
            _verify(ws, want)
        except (SourceDamaged, NotKept):
            damaged = True
    pack = _Pack(ws, want, str(b.format))
    try:
        with (
            open_file(Path(path)) as opened,
            io.BufferedReader(opened.reader(checked=False), READ_BUFFER) as f,
        ):
            pack.fill(f)
    except BaseException:
        pack.discard()
        raise
    if pack.digest != want:
        pack.discard()
        other = _(
            "{file} is not the source of batch {batch}: its SHA-256 is {digest}…, the batch's "
            "is {want}…"
        )
        raise TriageError(
            other.format(
                file=printable(Path(path).name),
                batch=b.batch_id,
                digest=(pack.digest or "")[:12],
                want=want[:12],
            )
        )
    if kept and not damaged:
        pack.discard()
        return False
    return pack.commit(replace=damaged)


def source_state(ws: Workspace, batch_ids: Iterable[str]) -> dict[str, bool]:
    """Whether each batch's source is kept (a batch the store does not hold: False)."""
    ids = list(dict.fromkeys(batch_ids))
    state = dict.fromkeys(ids, False)
    t = KeptSource.__table__
    with ws.store.connect() as conn:
        for start in range(0, len(ids), 500):
            rows = conn.execute(
                select(Batch.batch_id, t.c.sha256, t.c.format, t.c.place)
                .join(t, t.c.sha256 == Batch.source_sha256)
                .where(Batch.batch_id.in_(ids[start : start + 500]))
            )
            for r in rows:
                state[r.batch_id] = _present(ws, r)
    return state


@dataclass(frozen=True)
class KeptSourceInfo:
    """One kept source, for ``triage-app sources``."""

    sha256: str
    format: str
    size: int
    stored_size: int
    codec: str
    place: str
    kept_at: str
    batches: list[str]
    present: bool  # False: recorded, but its file is gone (removed by hand)

    def to_json(self) -> dict[str, Any]:
        return {
            "sha256": self.sha256,
            "format": self.format,
            "size": self.size,
            "stored_size": self.stored_size,
            "codec": self.codec,
            "place": self.place,
            "kept_at": self.kept_at,
            "batches": self.batches,
            "present": self.present,
        }


def list_kept(ws: Workspace) -> list[KeptSourceInfo]:
    """Every kept source, newest first, with the batches that read it."""
    t = KeptSource.__table__
    with ws.store.connect() as conn:
        rows = conn.execute(select(t).order_by(t.c.kept_at.desc(), t.c.sha256)).all()
        users: dict[str, list[str]] = {}
        for sha, batch_id in conn.execute(
            select(Batch.source_sha256, Batch.batch_id)
            .where(Batch.source_sha256.in_(select(t.c.sha256)))
            .order_by(Batch.started_at, Batch.batch_id)
        ):
            users.setdefault(sha, []).append(batch_id)
    return [
        KeptSourceInfo(
            r.sha256,
            r.format,
            int(r.size),
            int(r.stored_size),
            r.codec,
            r.place,
            iso(r.kept_at),
            users.get(r.sha256, []),
            _present(ws, r),
        )
        for r in rows
    ]


# -- retention ------------------------------------------------------------------------------


def check_keep_days(value: Any) -> int | None:
    """Whole days (zero or more) or ``forever`` (None); TriageError otherwise."""
    if value is None or (isinstance(value, str) and value.strip().lower() == FOREVER):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    said_ = _("keep sources for {value} days: give a whole number of days or forever")
    raise TriageError(said_.format(value=repr(value)))


def sources_retention(ws: Workspace) -> int | None:
    """Days a kept source stays (the store's ``keep_sources_days``; default
    DEFAULT_KEEP_DAYS); None: forever."""
    raw = store_setting(ws.store, RETENTION_KEY)
    if raw is None:
        return DEFAULT_KEEP_DAYS
    try:
        return check_keep_days(raw)
    except TriageError:
        said_ = _("the store's {setting} is not readable: {value}")
        raise TriageError(
            said_.format(setting=RETENTION_KEY, value=repr(printable(raw)[:60]))
        ) from None


def set_sources_retention(ws: Workspace, days: int | None) -> None:
    """Keep sources ``days`` days (None: forever), for the whole team."""
    set_store_setting(
        ws.store, RETENTION_KEY, FOREVER if check_keep_days(days) is None else str(days)
    )


def describe_retention(days: int | None) -> str:
    if days is None:
        return _("kept sources stay forever")
    return ngettext("kept sources stay {n} day", "kept sources stay {n} days", days).format(
        n=format_int(days)
    )


@dataclass(frozen=True)
class SourcesForgotten:
    """What ``forget_sources`` removed (or, in a dry run, would remove)."""

    days: int | None  # None: forever, nothing goes
    cutoff: dt.datetime | None
    dry_run: bool
    sources: list[str] = field(default_factory=list)  # their SHA-256
    size: int = 0  # of the sources as read
    stored_size: int = 0  # what their copies took
    spared: int = 0  # older, but read by a batch that is running or held

    def to_json(self) -> dict[str, Any]:
        return {
            "days": self.days,
            "cutoff": iso(self.cutoff) if self.cutoff is not None else None,
            "dry_run": self.dry_run,
            "sources": self.sources,
            "size": self.size,
            "stored_size": self.stored_size,
            "spared": self.spared,
        }

    def describe(self) -> str:
        if self.days is None or self.cutoff is None:
            return _("Kept sources: kept forever (keep_sources_days), none forgotten.")
        days = ngettext("{n} day", "{n} days", self.days).format(n=format_int(self.days))
        n = len(self.sources)
        size = human_size(self.stored_size)
        if not n:
            text = _("Kept sources: none kept more than {days} ago").format(days=days)
        elif self.dry_run:
            text = ngettext(
                "Kept sources: would forget {n} source kept more than {days} ago ({size} stored)",
                "Kept sources: would forget {n} sources kept more than {days} ago ({size} stored)",
                n,
            ).format(n=format_int(n), days=days, size=size)
        else:
            text = ngettext(
                "Kept sources: forgot {n} source kept more than {days} ago ({size} stored)",
                "Kept sources: forgot {n} sources kept more than {days} ago ({size} stored)",
                n,
            ).format(n=format_int(n), days=days, size=size)
        if self.spared:
            spared = ngettext(
                "{n} source of running or held batches stays",
                "{n} sources of running or held batches stay",
                self.spared,
            )
            text += "; " + spared.format(n=format_int(self.spared))
        return text + "."


def human_size(n: int) -> str:
    """``512 bytes``, ``1.5 MB`` (``1,5 MB`` in Indonesian): a size a person reads."""
    if n < 1000:
        return ngettext("{n} byte", "{n} bytes", n).format(n=format_int(n))
    size = float(n)
    for unit in ("KB", "MB"):
        size /= 1000
        if size < 1000:
            return f"{format_number(size, 1)} {unit}"
    return f"{format_number(size / 1000, 1)} GB"


def _unfinished(sha: Any) -> Any:
    """A batch that is not complete (running, held) reads this source."""
    return exists().where(Batch.source_sha256 == sha, Batch.state != BatchState.COMPLETE.value)


def forget_sources(
    ws: Workspace,
    older_than: int | None = None,
    *,
    now: dt.datetime | None = None,
    dry_run: bool = False,
) -> SourcesForgotten:
    """Delete the sources kept more than ``older_than`` days ago (None: the store's
    ``keep_sources_days``), copy and row, each in a transaction of its own; never one a
    batch that is not complete reads (running, held). Returns what went."""
    days = sources_retention(ws) if older_than is None else check_keep_days(older_than)
    if days is None:
        return SourcesForgotten(None, None, dry_run)
    now = now or utcnow()
    cutoff = now - dt.timedelta(days=days)
    t = KeptSource.__table__
    old = [t.c.kept_at < cutoff]
    with ws.store.connect() as conn:
        candidates = conn.execute(
            select(t.c.sha256, t.c.format, t.c.place, t.c.size, t.c.stored_size)
            .where(*old, ~_unfinished(t.c.sha256))
            .order_by(t.c.kept_at, t.c.sha256)
        ).all()
        spared = int(
            conn.execute(
                select(func.count()).select_from(t).where(*old, _unfinished(t.c.sha256))
            ).scalar_one()
        )
    if not dry_run and (ws.config.folder is not None or not _in_table(ws)):
        _sweep_parts(ws)
    if dry_run:
        return SourcesForgotten(
            days,
            cutoff,
            True,
            [c.sha256 for c in candidates],
            sum(int(c.size) for c in candidates),
            sum(int(c.stored_size) for c in candidates),
            spared,
        )
    gone = []
    for c in candidates:
        if _forget_one(ws, c, cutoff):
            gone.append(c)
    return SourcesForgotten(
        days,
        cutoff,
        False,
        [c.sha256 for c in gone],
        sum(int(c.size) for c in gone),
        sum(int(c.stored_size) for c in gone),
        spared + len(candidates) - len(gone),
    )


def _forget_one(ws: Workspace, c: Any, cutoff: dt.datetime) -> bool:
    """One source, if it still qualifies under the lock: its blobs, its row, its file."""
    t = KeptSource.__table__
    still = and_(t.c.sha256 == c.sha256, t.c.kept_at < cutoff, ~_unfinished(t.c.sha256))
    with _write(ws.store) as conn:
        if _in_table(ws):
            locked = conn.execute(select(t.c.sha256).where(still).with_for_update()).first()
            if locked is None:
                return False
            conn.execute(delete(SourceBlob).where(SourceBlob.sha256 == c.sha256))
            conn.execute(delete(KeptSource).where(KeptSource.sha256 == c.sha256))
            return True
        went = conn.execute(delete(KeptSource).where(still).returning(t.c.sha256)).first()
        if went is None:
            return False
        # Inside the write lock: no keep of the same source can rename a copy in between.
        with contextlib.suppress(FileNotFoundError):
            _file_of(ws, c.sha256, c.format).unlink()
        return True


def _sweep_parts(ws: Workspace) -> None:
    """Temporary copies a killed run left, a day old or more."""
    folder = sources_folder(ws)
    if not folder.is_dir():
        return
    limit = time.time() - STALE_PART.total_seconds()
    for part in folder.glob("*/.*.part"):
        with contextlib.suppress(OSError):
            if part.stat().st_mtime < limit:
                part.unlink()
