"""The two databases: the workspace that opens them, the dead-letter store's tables, the
warehouse's upserts, and the audit trail."""

from triage_app.core.db.audit import current_actor, event_insert, record_event
from triage_app.core.db.engines import BUSY_TIMEOUT_MS, apply_pragmas, check_reachable, make_engine
from triage_app.core.db.messages import redact_text, redact_url, refusal_message, user_message
from triage_app.core.db.models import AuditEvent, Base, Batch, BatchChunk, DeadLetter, StatsCache
from triage_app.core.db.warehouse import (
    LINEAGE,
    UpsertResult,
    WarehouseWriter,
    count_rows,
    table_sha256,
    target_table,
    upsert_rows,
    upsert_sql,
)
from triage_app.core.db.workspace import (
    Workspace,
    WorkspaceConfig,
    open_config,
    open_workspace,
    resolve_config,
)

__all__ = [
    "BUSY_TIMEOUT_MS",
    "LINEAGE",
    "AuditEvent",
    "Base",
    "Batch",
    "BatchChunk",
    "DeadLetter",
    "StatsCache",
    "UpsertResult",
    "WarehouseWriter",
    "Workspace",
    "WorkspaceConfig",
    "apply_pragmas",
    "check_reachable",
    "count_rows",
    "current_actor",
    "event_insert",
    "make_engine",
    "open_config",
    "open_workspace",
    "record_event",
    "redact_text",
    "redact_url",
    "refusal_message",
    "resolve_config",
    "table_sha256",
    "target_table",
    "upsert_rows",
    "upsert_sql",
    "user_message",
]
