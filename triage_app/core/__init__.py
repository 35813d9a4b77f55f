"""The engine: batches, dead letters, re-drive. No Qt here, ever (a test enforces it).

The GUI and the CLI use these public functions only.
"""

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

__all__ = [
    "AuditEntry",
    "BatchInfo",
    "BatchSummary",
    "Column",
    "DataError",
    "DeadLetterDetail",
    "DeadLetterFilter",
    "DeadLetterView",
    "ErrorClass",
    "NoProgress",
    "Progress",
    "RedriveResult",
    "RedriveSummary",
    "RetryPolicy",
    "Stats",
    "Status",
    "Transform",
    "TransientError",
    "TriageError",
    "Workspace",
    "WorkspaceConfig",
    "add_note",
    "compute_stats",
    "count_dead_letters",
    "default_registry",
    "edit_payload",
    "get_dead_letter",
    "list_batches",
    "list_dead_letters",
    "open_workspace",
    "reclassify",
    "redrive",
    "resolve_config",
    "run_batch",
    "set_status",
    "try_payload",
    "validate_payload",
]
