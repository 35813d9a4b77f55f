"""The demo workspace: the seed's 10-row batch run through ``pesanan@1``, or a generated
batch of any size."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sqlalchemy import select

from triage_app.core.batch import BatchSummary, run_batch
from triage_app.core.db import Batch, Workspace
from triage_app.core.demo.journals import DEMO_JOURNAL, demo_journal
from triage_app.core.demo.orders import write_orders
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.places import resources_dir

DEMO_BATCH = "pesanan_2026-01-12.jsonl"
DEMO_TRANSFORM = "pesanan@1"
JOURNAL_TRANSFORM = "jurnal@1"
GENERATED_BAD_SHARE = 0.01
_GENERATED = re.compile(r"pesanan_generated_\d+\.jsonl")


def make_demo(
    ws: Workspace,
    rows: int | None = None,
    *,
    bad: float = GENERATED_BAD_SHARE,
    seed: int = 43,
    journal: bool = False,
) -> tuple[Path, BatchSummary]:
    """Copy the demo files into ``incoming/`` beside the databases and run the seed batch,
    or, with ``rows``, a generated batch of that many orders (``bad`` of them defective).
    ``journal``: then also the demo's journal posting through the all-or-nothing
    ``jurnal@1``, which is held (one journal does not balance, one line lacks its account).

    Running it again changes nothing: the batch is identified by its content. The summary
    is the orders batch's.
    """
    folder = ws.config.folder
    if folder is None:  # both databases named by URL: nowhere to put the demo's files
        raise TriageError(
            _(
                "the demo copies its source files into a workspace folder, and with both "
                "--warehouse and --dead-letter given there is none: give --workspace DIR and "
                "at most one of them"
            )
        )
    incoming = folder / "incoming"
    incoming.mkdir(parents=True, exist_ok=True)
    for src in sorted((resources_dir() / "demo").iterdir()):
        if src.is_file():
            shutil.copyfile(src, incoming / src.name)
    batch = incoming / DEMO_BATCH
    if rows is not None:
        batch = write_orders(incoming / f"pesanan_generated_{rows}.jsonl", rows, bad, seed)
    summary = run_batch(ws, batch, DEMO_TRANSFORM)
    if journal:
        run_batch(ws, demo_journal(incoming), JOURNAL_TRANSFORM)
    return incoming, summary


def batches_not_the_demos(ws: Workspace) -> list[str]:
    """The source names of the batches in ``ws`` that no demo ran: a workspace holding any
    is someone's own, and the demo's made-up orders must not go into its warehouse."""
    with ws.store.connect() as conn:
        names = conn.execute(select(Batch.source_name).distinct()).scalars().all()
    demos = (DEMO_BATCH, DEMO_JOURNAL)
    return sorted(n for n in names if n not in demos and not _GENERATED.fullmatch(n))
