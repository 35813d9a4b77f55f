"""A source file's SHA-256, part of a batch's identity.

Outside ``triage_app.core`` on purpose: importing anything under ``core`` loads the whole
engine (SQLAlchemy included, about 0.35 s), and the CLI hashes the file on a thread while
that import runs.
"""

from __future__ import annotations

import hashlib
from typing import BinaryIO


def sha256_of(stream: BinaryIO) -> str:
    # 8 MiB at a time into one buffer: reading and hashing let go of the GIL, and a thread
    # that hashes while another imports waits for the GIL once per read (up to 5 ms each);
    # with 1 MiB reads a 143 MB file took 0.31 s beside the import instead of 0.1 s alone.
    h = hashlib.sha256()
    buf = bytearray(8 << 20)
    view = memoryview(buf)
    while n := stream.readinto(buf):  # type: ignore[attr-defined]
        h.update(view[:n])
    return h.hexdigest()
