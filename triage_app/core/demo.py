"""The demo workspace: the seed's 10-row batch run through ``pesanan@1``."""

from __future__ import annotations

import shutil
from pathlib import Path

from triage_app.core.batch import BatchSummary, run_batch
from triage_app.core.resources import resources_dir
from triage_app.core.workspace import Workspace

DEMO_BATCH = "pesanan_2026-01-12.jsonl"
DEMO_TRANSFORM = "pesanan@1"


def make_demo(ws: Workspace) -> tuple[Path, BatchSummary]:
    """Copy the demo files into ``incoming/`` beside the databases and run the seed batch.

    Running it again changes nothing: the batch is identified by its content.
    """
    folder = ws.config.folder
    if folder is None:
        raise ValueError("the demo needs a workspace folder")
    incoming = folder / "incoming"
    incoming.mkdir(parents=True, exist_ok=True)
    for src in sorted((resources_dir() / "demo").iterdir()):
        if src.is_file():
            shutil.copyfile(src, incoming / src.name)
    summary = run_batch(ws, incoming / DEMO_BATCH, DEMO_TRANSFORM)
    return incoming, summary
