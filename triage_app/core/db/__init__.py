"""The two databases: the workspace that opens them, the dead-letter store's tables, the
warehouse's upserts, and the audit trail."""

# The summary of the dead letters by cell (``counts.py``), as a namespace: summary.apply, ...
from triage_app.core.db import counts as summary
from triage_app.core.db.audit import actor_for, current_actor, event_insert, record_event
from triage_app.core.db.engines import check_reachable, make_engine
from triage_app.core.db.instants import INSTANT, for_driver
from triage_app.core.db.lock_waits import LockWaitTimeout, is_lock_wait
from triage_app.core.db.lock_waits import explain as explain_lock_wait
from triage_app.core.db.lock_waits import holding as holding_lock
from triage_app.core.db.messages import (
    read_only_message,
    redact_url,
    refusal_message,
    user_message,
)
from triage_app.core.db.models import (
    AuditEvent,
    Batch,
    BatchChunk,
    ChangeSet,
    ChangeSetRow,
    DeadLetter,
    DeadLetterCount,
    ErrorGroupNotes,
    Purge,
    RedriveRun,
    Resolution,
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
from triage_app.core.db.schema import (
    HEAD_REVISION,
    SchemaChange,
    apply_every_migration,
    store_revision,
)
from triage_app.core.db.secrets import (
    NO_KEYRING,
    complete_url,
    forget_password,
    has_hidden_password,
    join_password,
    keyring_unavailable,
    recall_password,
    remember_password,
    split_password,
)
from triage_app.core.db.signatures import keep_signatures, signature_ids, signature_texts
from triage_app.core.db.taking_back import Loaded, rows_before, take_back
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
    NoWorkspace,
    Workspace,
    WorkspaceConfig,
    migrate_workspace,
    missing_workspace,
    open_config,
    open_workspace,
    resolve_config,
)

__all__ = [
    "HEAD_REVISION",
    "INSTANT",
    "NO_KEYRING",
    "AuditEvent",
    "Batch",
    "BatchChunk",
    "ChangeSet",
    "ChangeSetRow",
    "DeadLetter",
    "DeadLetterCount",
    "ErrorGroupNotes",
    "Loaded",
    "LockWaitTimeout",
    "NoWorkspace",
    "Purge",
    "RedriveRun",
    "Resolution",
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
    "complete_url",
    "count_rows",
    "current_actor",
    "event_insert",
    "explain_lock_wait",
    "for_driver",
    "forget_password",
    "has_hidden_password",
    "holding_lock",
    "is_lock_wait",
    "join_password",
    "keep_signatures",
    "keep_tracebacks",
    "keyring_unavailable",
    "make_engine",
    "migrate_workspace",
    "missing_workspace",
    "notify_change",
    "open_config",
    "open_workspace",
    "read_only_message",
    "recall_password",
    "record_event",
    "redact_url",
    "refusal_message",
    "remember_password",
    "resolve_config",
    "rows_before",
    "shown_error",
    "signature_id_of",
    "signature_ids",
    "signature_text",
    "signature_texts",
    "split_password",
    "store_revision",
    "stored_error",
    "summary",
    "table_sha256",
    "take_back",
    "target_table",
    "user_message",
    "watch_store",
    "working_payload",
]
