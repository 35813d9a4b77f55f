"""The source value: opened once, hashed through its descriptor, every reader checked against
that hash; pipes, directories and terminals refused without waiting; standard input spooled
and hashed as it streams; a format the transform does not read refused by name."""

from __future__ import annotations

import hashlib
import io
import os
import random
import threading
import zlib
from pathlib import Path

import pytest

from triage_app.core.batch.source import Source, check_input_format, check_source
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import (
    CHECK_EVERY,
    SourceChanged,
    check_stdin,
    open_file,
    spool_stdin,
)
from triage_app.core.transforms import default_registry


def blob(size: int, seed: int = 5) -> bytes:
    rnd = random.Random(seed)
    lines = []
    total = 0
    while total < size:
        line = f'{{"n": {rnd.randrange(10**9)}, "s": "{"x" * rnd.randrange(80)}"}}\n'.encode()
        lines.append(line)
        total += len(line)
    return b"".join(lines)[:size]


@pytest.mark.parametrize("size", [0, 10, CHECK_EVERY - 1, CHECK_EVERY, 2 * CHECK_EVERY + 7])
def test_the_opening_hash_is_the_files_sha256_with_a_crc_per_step(
    tmp_path: Path, size: int
) -> None:
    data = blob(size)
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    with open_file(path) as opened:
        fp = opened.fingerprint()
    assert fp.sha256 == hashlib.sha256(data).hexdigest() and fp.size == size
    steps = [data[i : i + CHECK_EVERY] for i in range(0, size, CHECK_EVERY)]
    assert fp.steps == tuple(zlib.crc32(s) for s in steps)


def read_all(source: Source) -> bytes:
    with source.open_reader() as f:
        return b"".join(iter(lambda: f.read(100_000), b""))


def test_readers_of_one_descriptor_keep_their_own_place(tmp_path: Path) -> None:
    data = blob(3 * (1 << 20))
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    with Source.open(path) as src:
        a, b = src.open_reader(), src.open_reader()
        assert a.read(10) == data[:10]
        assert b.readline() == data.split(b"\n")[0] + b"\n"
        assert a.read(5) == data[10:15]
        assert read_all(src) == data
        a.close()
        b.close()


@pytest.mark.parametrize("size", [200_000, CHECK_EVERY + 300_000])
def test_a_rewrite_that_keeps_size_and_mtime_is_caught_by_the_content_check(
    tmp_path: Path, size: int
) -> None:
    """Size and modification time cannot see this change; the CRC-32 of the bytes read
    against the opening hash does, at the end of the step it falls in."""
    data = blob(size)
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    with Source.open(path) as src:
        assert src.sha256 == hashlib.sha256(data).hexdigest()
        st = path.stat()
        with path.open("r+b") as f:
            f.seek(size - 1000)
            f.write(b"Z" * 10)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        src.check_unchanged()  # the stamp alone is fooled
        with src.open_reader() as f, pytest.raises(SourceChanged, match="bytes differ"):
            while f.read(1 << 20):
                pass


def test_a_shorter_or_longer_file_is_caught_by_the_reader(tmp_path: Path) -> None:
    data = blob(500_000)
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    with Source.open(path) as src:
        src.opened.fingerprint()
        os.truncate(path, 100_000)
        with pytest.raises(SourceChanged, match="size went from 500,000 to 100,000"):
            src.check_unchanged()
        with src.open_reader() as f, pytest.raises(SourceChanged, match="ends at byte 100,000"):
            f.read()
        path.write_bytes(data + b"more\n")
        with src.open_reader() as f, pytest.raises(SourceChanged, match="grew past"):
            f.read()


def test_a_file_changed_while_it_is_hashed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(blob(100_000))
    opened = open_file(path)
    with path.open("ab") as f:
        f.write(b"{}\n")
    with pytest.raises(SourceChanged, match=r"x\.jsonl changed while it was read"):
        opened.fingerprint()
    opened.close()


def test_pipes_directories_and_missing_files_are_refused_without_waiting(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "p.jsonl"
    os.mkfifo(fifo)
    done: list[str] = []

    def attempt() -> None:
        for check in (open_file, check_source_path_of):
            try:
                check(fifo)
            except TriageError as exc:
                done.append(str(exc))

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "opening a pipe waited for a writer"
    assert len(done) == 2 and all("is a pipe, not a file" in m for m in done)
    with pytest.raises(TriageError, match="is a directory"):
        open_file(tmp_path)
    with pytest.raises(TriageError, match="no such file"):
        open_file(tmp_path / "nope.jsonl")
    with pytest.raises(TriageError, match="not a regular file"):
        open_file(Path(os.devnull))


def check_source_path_of(path: Path) -> None:
    check_source(path, "jsonl", "pesanan@2")


class FakeTerminal(io.BytesIO):
    def isatty(self) -> bool:
        return True


def test_standard_input_is_spooled_and_hashed_as_it_streams(tmp_path: Path) -> None:
    data = blob(CHECK_EVERY + 12_345)
    with spool_stdin(tmp_path, io.BufferedReader(io.BytesIO(data))) as opened:  # type: ignore[arg-type]
        assert opened.sha256 == hashlib.sha256(data).hexdigest()
        assert opened.stamp.size == len(data) and opened.name == "<stdin>"
        src = Source(opened, "jsonl")
        assert read_all(src) == data  # checked against the hash while read back
    assert list(tmp_path.iterdir()) == []  # the spool leaves nothing behind
    with pytest.raises(TriageError, match="standard input is a terminal"):
        check_stdin(FakeTerminal())  # type: ignore[arg-type]
    with pytest.raises(TriageError, match="standard input is a terminal"):
        spool_stdin(tmp_path, FakeTerminal())  # type: ignore[arg-type]


def test_a_transform_is_refused_a_format_it_does_not_read() -> None:
    reg = default_registry()
    check_input_format(reg.get("orders@1"), "csv", reg)
    check_input_format(reg.get("pesanan@2"), "jsonl", reg)
    with pytest.raises(TriageError) as err:
        check_input_format(reg.get("orders@1"), "jsonl", reg)
    assert str(err.value).startswith(
        "orders@1 reads csv and the file is jsonl: use jurnal@1 or pesanan@1 or pesanan@2"
    )
    with pytest.raises(
        TriageError, match="pesanan@2 reads jsonl and the file is csv: use orders@1"
    ):
        check_input_format(reg.get("pesanan@2"), "csv", reg)
