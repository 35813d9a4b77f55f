"""A source file's SHA-256, part of a batch's identity.

Outside ``triage_app.core`` on purpose: importing anything under ``core`` loads the whole
engine (SQLAlchemy included, about 0.35 s), and the CLI hashes the file on a thread while
that import runs.
"""

from __future__ import annotations

import hashlib
from typing import BinaryIO


def sha256_of(stream: BinaryIO) -> str:
    h = hashlib.sha256()
    while chunk := stream.read(1 << 20):
        h.update(chunk)  # hashlib lets go of the GIL for a chunk this size
    return h.hexdigest()
