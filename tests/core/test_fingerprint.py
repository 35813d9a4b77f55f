"""A source file's SHA-256: ``sha256_of`` gives what hashlib gives for empty input, a small
input, inputs at and around its 8 MiB read buffer, and a real 9 MiB file read through a
buffered and an unbuffered stream (where a read may return fewer bytes than asked)."""

from __future__ import annotations

import hashlib
import io
import random
from pathlib import Path

import pytest

from triage_app.core.fingerprint import sha256_of

BUFFER = 8 << 20


def data(size: int, seed: int = 7) -> bytes:
    return random.Random(seed).randbytes(size)


def test_empty_input() -> None:
    assert sha256_of(io.BytesIO(b"")) == hashlib.sha256(b"").hexdigest()
    assert sha256_of(io.BytesIO(b"")) == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


def test_small_input() -> None:
    line = b'{"id_pesanan": 1, "qty": 2}\n'
    assert sha256_of(io.BytesIO(line)) == hashlib.sha256(line).hexdigest()


@pytest.mark.parametrize("size", [BUFFER - 1, BUFFER, BUFFER + 1])
def test_around_the_buffer_size(size: int) -> None:
    blob = data(size)
    assert sha256_of(io.BytesIO(blob)) == hashlib.sha256(blob).hexdigest()


@pytest.mark.parametrize("buffering", [-1, 0])
def test_a_file_larger_than_the_buffer(tmp_path: Path, buffering: int) -> None:
    blob = data(9 << 20, seed=11)
    path = tmp_path / "big.jsonl"
    path.write_bytes(blob)
    with path.open("rb", buffering=buffering) as stream:
        got = sha256_of(stream)
    assert got == hashlib.sha256(blob).hexdigest()
    assert got != hashlib.sha256(blob[:BUFFER]).hexdigest()  # the tail was hashed too


def test_the_hash_starts_where_the_stream_stands() -> None:
    stream = io.BytesIO(b"header\nbody\n")
    stream.seek(7)
    assert sha256_of(stream) == hashlib.sha256(b"body\n").hexdigest()
