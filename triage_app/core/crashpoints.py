"""Named points where a test can have the process killed, to prove crash safety.

``TRIAGE_CRASH_AT=name`` (or ``name:k``, the k-th time the point is reached) makes the
process send itself SIGKILL there: no cleanup, no flush, no atexit, as when the power
goes or a user kills it. Unarmed, each point costs one dictionary lookup.

Points: ``mid-parse`` (a chunk read, nothing of it committed), ``before-chunk-commit``,
``mid-upsert`` (warehouse rows written, not committed), ``after-warehouse-commit`` (the
warehouse has the chunk, the store not yet), ``after-chunk-commit``,
``redrive-after-warehouse`` (a re-drive's rows committed, its dead letters not resolved),
``mid-edit`` (an edit written, not committed).
"""

from __future__ import annotations

import os
import signal

ENV = "TRIAGE_CRASH_AT"
POINTS = (
    "mid-parse",
    "before-chunk-commit",
    "mid-upsert",
    "after-warehouse-commit",
    "after-chunk-commit",
    "redrive-after-warehouse",
    "mid-edit",
)
_armed: dict[str, int] | None = None
_hits: dict[str, int] = {}


def _parse(spec: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, k = part.partition(":")
        if name not in POINTS:
            raise ValueError(f"{ENV}: unknown crash point {name!r}; known: {', '.join(POINTS)}")
        out[name] = int(k) if k else 1
    return out


def crash_point(name: str) -> None:
    global _armed
    if _armed is None:
        _armed = _parse(os.environ.get(ENV, ""))
    if not _armed or name not in _armed:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] == _armed[name]:
        os.kill(os.getpid(), signal.SIGKILL)
