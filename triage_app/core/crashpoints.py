"""Named points where a test can have the process killed, or held, to prove what happens
there.

``TRIAGE_CRASH_AT=name`` (or ``name:k``, the k-th time the point is reached) makes the
process send itself SIGKILL there: no cleanup, no flush, no atexit, as when the power
goes or a user kills it.

``TRIAGE_PAUSE_AT=name`` (or ``name:k``) with ``TRIAGE_PAUSE_FILE=path`` holds the process
there instead: it creates ``path.reached`` (holding its pid), then waits until ``path``
exists, and goes on. A test does something at a known moment in between, say changes the
source file after the first chunk is committed, with no sleep and no race. A process holds
at most PAUSE_LIMIT seconds, so a test that dies never leaves one waiting for good.

Unarmed, each point costs one set lookup.

Points: ``mid-parse`` (a chunk read, nothing of it committed), ``before-chunk-commit``,
``mid-upsert`` (warehouse rows written, not committed), ``atomic-mid-load`` (an atomic
batch's rows all written in its one warehouse transaction, not committed),
``atomic-after-load`` (that transaction committed, the store not yet told),
``after-warehouse-commit`` (the warehouse has the chunk, the store not yet),
``after-chunk-commit``,
``redrive-after-claim`` (a re-drive chunk's leases committed, nothing transformed or
loaded), ``redrive-after-warehouse`` (a re-drive's rows committed, its dead letters not
resolved), ``redrive-mid-settle`` (a chunk's outcomes and events written, not committed),
``redrive-after-resolutions`` (a slice of a chunk's rows resolved and their ``resolutions``
lines written, with the re-drive's ``redrive_runs`` row if it is the first, not committed),
``mid-edit`` (an edit written, not committed), ``fix-before-apply`` (a fix previewed,
nothing of it written), ``mid-change-set`` (a chunk of a change-set's rows written, not
committed), ``purge-mid-chunk`` (a purge chunk's rows deleted and recorded, not committed),
``purge-after-chunk`` (a purge chunk committed, the next not begun), ``mid-revert`` (a chunk
of a revert's restored rows written, not committed), ``migrate-mid-backup`` (a step of the
copy an SQLite upgrade keeps of the store written, the copy not finished),
``migrate-mid-upgrade`` (a revision applied inside the upgrade's transaction, not committed;
the k-th time: after k revisions), ``mid-counts`` (the summary's cells written for a change
to the rows, in its transaction, not committed: the k-th time, the k-th such write),
``reprocess-after-plan`` (a reprocess run's input kept and the run recorded, nothing
applied), ``reprocess-after-warehouse`` (a reprocess chunk's rows updated in the warehouse,
the store not told), ``reprocess-after-chunk`` (a reprocess chunk committed in both),
``before-source-kept`` (a batch marked complete, its source's copy made, not recorded),
``mid-source-keep`` (a kept source's copy in place and its row written, not committed),
``redrive-after-delivery`` (a re-drive chunk's parcels confirmed by its sink, the dead
letters not resolved), ``import-after-commit`` (an import chunk's dead letters committed, the
source's messages not yet acknowledged).
"""

from __future__ import annotations

import os
import signal
import time

ENV = "TRIAGE_CRASH_AT"
PAUSE_ENV = "TRIAGE_PAUSE_AT"
PAUSE_FILE_ENV = "TRIAGE_PAUSE_FILE"
PAUSE_LIMIT = 120.0  # seconds
POINTS = (
    "mid-parse",
    "before-chunk-commit",
    "mid-upsert",
    "atomic-mid-load",
    "atomic-after-load",
    "after-warehouse-commit",
    "after-chunk-commit",
    "redrive-after-claim",
    "redrive-after-warehouse",
    "redrive-after-delivery",
    "import-after-commit",
    "redrive-mid-settle",
    "redrive-after-resolutions",
    "mid-edit",
    "fix-before-apply",
    "mid-change-set",
    "purge-mid-chunk",
    "purge-after-chunk",
    "mid-revert",
    "migrate-mid-backup",
    "migrate-mid-upgrade",
    "mid-counts",
    "reprocess-after-plan",
    "reprocess-after-warehouse",
    "reprocess-after-chunk",
    "before-source-kept",
    "mid-source-keep",
)
_armed: dict[str, int] | None = None  # crash points: the hit that kills
_pauses: dict[str, int] = {}  # pause points: the hit that holds
_watched: frozenset[str] = frozenset()
_hits: dict[str, int] = {}


def _parse(spec: str, env: str = ENV) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, k = part.partition(":")
        if name not in POINTS:
            raise ValueError(f"{env}: unknown crash point {name!r}; known: {', '.join(POINTS)}")
        out[name] = int(k) if k else 1
    return out


def _arm() -> None:
    global _armed, _pauses, _watched
    crashes = _parse(os.environ.get(ENV, ""))
    pauses = _parse(os.environ.get(PAUSE_ENV, ""), PAUSE_ENV)
    if pauses and not os.environ.get(PAUSE_FILE_ENV):
        raise ValueError(f"{PAUSE_ENV} needs {PAUSE_FILE_ENV}: the file whose creation ends it")
    _armed, _pauses = crashes, pauses
    _watched = frozenset(crashes) | frozenset(pauses)


def crash_point(name: str) -> None:
    if _armed is None:
        _arm()
    if name not in _watched:
        return
    _hits[name] = _hits.get(name, 0) + 1
    assert _armed is not None
    if _hits[name] == _armed.get(name):
        os.kill(os.getpid(), signal.SIGKILL)
    if _hits[name] == _pauses.get(name):
        _hold(name)


def _hold(name: str) -> None:
    release = os.environ[PAUSE_FILE_ENV]
    # Written aside and renamed: a waiting test sees no file or the whole line, never an
    # empty file between open and write (that race failed CI once).
    reached = release + ".reached"
    with open(f"{reached}.{os.getpid()}", "w") as f:
        f.write(f"{name} {os.getpid()}\n")
    os.replace(f"{reached}.{os.getpid()}", reached)
    deadline = time.monotonic() + PAUSE_LIMIT
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.01)
