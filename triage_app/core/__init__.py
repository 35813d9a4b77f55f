"""The engine: batches, dead letters, re-drive. No Qt here, ever (a test enforces it).

The GUI and the CLI use these public functions only.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Imported on first use: the writer process and the CLI's quick commands start faster
# when they do not load SQLAlchemy for names they never touch.
_WHERE = {
    "AuditEntry": "triage_app.core.deadletters",
    "BatchInfo": "triage_app.core.batch",
    "BatchSummary": "triage_app.core.batch",
    "Column": "triage_app.core.transforms",
    "DataError": "triage_app.core.errors",
    "DeadLetterDetail": "triage_app.core.deadletters",
    "DeadLetterFilter": "triage_app.core.deadletters",
    "DeadLetterView": "triage_app.core.deadletters",
    "ErrorClass": "triage_app.core.errors",
    "NoProgress": "triage_app.core.progress",
    "Progress": "triage_app.core.progress",
    "RedriveResult": "triage_app.core.redrive",
    "RedriveSummary": "triage_app.core.redrive",
    "RetryPolicy": "triage_app.core.retry",
    "Stats": "triage_app.core.stats",
    "Status": "triage_app.core.store",
    "Transform": "triage_app.core.transforms",
    "TransientError": "triage_app.core.errors",
    "TriageError": "triage_app.core.errors",
    "Workspace": "triage_app.core.workspace",
    "WorkspaceConfig": "triage_app.core.workspace",
    "add_note": "triage_app.core.deadletters",
    "compute_stats": "triage_app.core.stats",
    "count_dead_letters": "triage_app.core.deadletters",
    "default_registry": "triage_app.core.transforms",
    "edit_payload": "triage_app.core.deadletters",
    "get_dead_letter": "triage_app.core.deadletters",
    "list_batches": "triage_app.core.batch",
    "list_dead_letters": "triage_app.core.deadletters",
    "open_workspace": "triage_app.core.workspace",
    "reclassify": "triage_app.core.deadletters",
    "redrive": "triage_app.core.redrive",
    "resolve_config": "triage_app.core.workspace",
    "run_batch": "triage_app.core.batch",
    "set_status": "triage_app.core.deadletters",
    "try_payload": "triage_app.core.redrive",
    "validate_payload": "triage_app.core.deadletters",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from triage_app.core.batch import BatchInfo, BatchSummary, list_batches, run_batch
    from triage_app.core.deadletters import (
        AuditEntry,
        DeadLetterDetail,
        DeadLetterFilter,
        DeadLetterView,
        add_note,
        count_dead_letters,
        edit_payload,
        get_dead_letter,
        list_dead_letters,
        reclassify,
        set_status,
        validate_payload,
    )
    from triage_app.core.errors import DataError, ErrorClass, TransientError, TriageError
    from triage_app.core.progress import NoProgress, Progress
    from triage_app.core.redrive import RedriveResult, RedriveSummary, redrive, try_payload
    from triage_app.core.retry import RetryPolicy
    from triage_app.core.stats import Stats, compute_stats
    from triage_app.core.store import Status
    from triage_app.core.transforms import Column, Transform, default_registry
    from triage_app.core.workspace import Workspace, WorkspaceConfig, open_workspace, resolve_config
