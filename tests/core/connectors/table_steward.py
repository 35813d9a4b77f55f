"""A steward re-driving imported dead letters into the pipeline's own table, in a process
of its own, racing another: ``python -m tests.core.connectors.table_steward GO FOLDER URL
SEED IDS...`` opens the workspace, waits until the file GO exists (so that both start
their re-drives together, not a module import apart), then re-drives the dead letters
named, a few at a time in an order of its own (``SEED``), through ``pesanan@2`` back to
their connector's table. It prints each dead letter's outcome as JSON."""

from __future__ import annotations

import os
import random
import sys
import time

import orjson

from triage_app.core.connectors import RoutedSink
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import redrive
from triage_app.core.transforms import default_registry

LIMIT = 120.0  # seconds: a test that died never leaves one waiting for good
PIECE = 4  # dead letters per re-drive: many re-drives, so that the two interleave


def main(go: str, folder: str, url: str, seed: int, ids: list[int]) -> dict[int, str]:
    transform = default_registry().get("pesanan@2")
    pieces = [ids[i : i + PIECE] for i in range(0, len(ids), PIECE)]
    random.Random(seed).shuffle(pieces)
    outcomes: dict[int, str] = {}
    with open_workspace(folder) as ws:
        sink = RoutedSink(ws, "original", transform, url=url)
        with open(f"{go}.ready.{os.getpid()}", "w"):
            pass
        deadline = time.monotonic() + LIMIT
        while not os.path.exists(go) and time.monotonic() < deadline:
            time.sleep(0.002)
        try:
            for piece in pieces:
                summary = redrive(ws, transform.ref, ids=piece, sink=sink, actor=f"s{seed}")
                for r in summary.results:
                    outcomes[r.id] = str(r.outcome)
        finally:
            sink.close()
    return outcomes


if __name__ == "__main__":
    go_file, workspace, address, seed_text, *rest = sys.argv[1:]
    done = main(go_file, workspace, address, int(seed_text), [int(i) for i in rest])
    sys.stdout.write(orjson.dumps({str(k): v for k, v in done.items()}).decode() + "\n")
