"""The seed's proof that retrying is safe, as a button-press: run the batch twice and
compare the target table's SHA-256.

Both runs go into scratch databases, never the user's: the first into an empty warehouse,
the second into the same warehouse with a fresh dead-letter store, so that the second run
does all its work again (upserting over its own rows) instead of recognising the batch.
"""

from __future__ import annotations

import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from triage_app.core.batch import run_batch
from triage_app.core.db import count_rows, open_workspace, table_sha256
from triage_app.core.deadletters import DeadLetterFilter, list_dead_letters
from triage_app.core.places import WAREHOUSE_FILE
from triage_app.core.progress import Progress
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import ALL


@dataclass(frozen=True)
class IdempotenceProof:
    transform: str
    rows: int
    warehouse_rows: int
    quarantined: int
    first_sha256: str
    second_sha256: str
    same_dead_letters: bool
    identical: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def verify_idempotent(
    path: str | Path,
    transform_ref: str,
    *,
    fmt: str | None = None,
    progress: Progress | None = None,
) -> IdempotenceProof:
    transform = default_registry().get(transform_ref)
    with tempfile.TemporaryDirectory(prefix="triage-verify-") as tmp:
        warehouse = f"sqlite:///{Path(tmp) / WAREHOUSE_FILE}"
        hashes: list[str] = []
        dead: list[list[tuple[int, str]]] = []
        summaries = []
        for run in ("first", "second"):
            with open_workspace(
                None, warehouse_url=warehouse, dead_letter_url=f"sqlite:///{Path(tmp) / run}.db"
            ) as ws:
                summaries.append(run_batch(ws, path, transform.ref, fmt=fmt, progress=progress))
                hashes.append(table_sha256(ws.warehouse, transform))
                dead.append(
                    sorted(
                        (d.line, d.signature)
                        for d in list_dead_letters(ws, DeadLetterFilter(status=ALL), limit=None)
                    )
                )
                n_rows = count_rows(ws.warehouse, transform)
    same_dead = dead[0] == dead[1]
    return IdempotenceProof(
        transform=transform.ref,
        rows=summaries[0].rows,
        warehouse_rows=n_rows,
        quarantined=summaries[0].quarantined,
        first_sha256=hashes[0],
        second_sha256=hashes[1],
        same_dead_letters=same_dead,
        identical=hashes[0] == hashes[1] and same_dead,
    )
