"""The two databases: the workspace that opens them, the dead-letter store's tables, the
warehouse's upserts, and the audit trail."""

from triage_app.core.db.audit import current_actor, event_insert, record_event
from triage_app.core.db.engines import check_reachable, make_engine
from triage_app.core.db.messages import redact_url, refusal_message, user_message
from triage_app.core.db.models import (
    AuditEvent,
    Batch,
    BatchChunk,
    DeadLetter,
    Purge,
    StatsCache,
    StoreSetting,
)
from triage_app.core.db.warehouse import (
    UpsertResult,
    WarehouseWriter,
    count_rows,
    table_sha256,
    target_table,
)
from triage_app.core.db.workspace import (
    Workspace,
    WorkspaceConfig,
    open_config,
    open_workspace,
    resolve_config,
)

__all__ = [
    "AuditEvent",
    "Batch",
    "BatchChunk",
    "DeadLetter",
    "Purge",
    "StatsCache",
    "StoreSetting",
    "UpsertResult",
    "WarehouseWriter",
    "Workspace",
    "WorkspaceConfig",
    "check_reachable",
    "count_rows",
    "current_actor",
    "event_insert",
    "make_engine",
    "open_config",
    "open_workspace",
    "record_event",
    "redact_url",
    "refusal_message",
    "resolve_config",
    "table_sha256",
    "target_table",
    "user_message",
]
