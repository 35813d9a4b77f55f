"""The two databases: the workspace that opens them, the dead-letter store's tables, the
warehouse's upserts, and the audit trail."""

from triage_app.core.db.audit import actor_for, current_actor, event_insert, record_event
from triage_app.core.db.engines import check_reachable, make_engine
from triage_app.core.db.messages import redact_url, refusal_message, user_message
from triage_app.core.db.models import (
    AuditEvent,
    Batch,
    BatchChunk,
    DeadLetter,
    Purge,
    Signature,
    StatsCache,
    StoreSetting,
    Traceback,
    shown_error,
    signature_id_of,
    signature_text,
    stored_error,
    working_payload,
)
from triage_app.core.db.schema import HEAD_REVISION, SchemaChange, apply_every_migration
from triage_app.core.db.secrets import (
    NO_KEYRING,
    forget_password,
    has_hidden_password,
    join_password,
    keyring_unavailable,
    recall_password,
    remember_password,
    split_password,
)
from triage_app.core.db.signatures import keep_signatures, signature_ids, signature_texts
from triage_app.core.db.tracebacks import keep_tracebacks
from triage_app.core.db.warehouse import (
    UpsertResult,
    WarehouseWriter,
    count_rows,
    table_sha256,
    target_table,
)
from triage_app.core.db.watch import StoreWatch, notify_change, watch_store
from triage_app.core.db.workspace import (
    Workspace,
    WorkspaceConfig,
    migrate_workspace,
    open_config,
    open_workspace,
    resolve_config,
)

__all__ = [
    "HEAD_REVISION",
    "NO_KEYRING",
    "AuditEvent",
    "Batch",
    "BatchChunk",
    "DeadLetter",
    "Purge",
    "SchemaChange",
    "Signature",
    "StatsCache",
    "StoreSetting",
    "StoreWatch",
    "Traceback",
    "UpsertResult",
    "WarehouseWriter",
    "Workspace",
    "WorkspaceConfig",
    "actor_for",
    "apply_every_migration",
    "check_reachable",
    "count_rows",
    "current_actor",
    "event_insert",
    "forget_password",
    "has_hidden_password",
    "join_password",
    "keep_signatures",
    "keep_tracebacks",
    "keyring_unavailable",
    "make_engine",
    "migrate_workspace",
    "notify_change",
    "open_config",
    "open_workspace",
    "recall_password",
    "record_event",
    "redact_url",
    "refusal_message",
    "remember_password",
    "resolve_config",
    "shown_error",
    "signature_id_of",
    "signature_ids",
    "signature_text",
    "signature_texts",
    "split_password",
    "stored_error",
    "table_sha256",
    "target_table",
    "user_message",
    "watch_store",
    "working_payload",
]
