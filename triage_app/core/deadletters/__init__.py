"""Dead letters: which ones (filters), reading them (queries, pages for the table, the
payload as a person edits it), changing them by hand (audited), re-driving them through a
transform version, and exporting them."""

from triage_app.core.deadletters.audit_trail import (
    ACTIONS,
    AuditFilter,
    AuditPage,
    AuditRecord,
    audit_page,
    audit_trail,
    count_audit_events,
    parse_action,
    parse_since,
)
from triage_app.core.deadletters.changes import (
    add_note,
    apply_change,
    edit_payload,
    reclassify,
    set_status,
)
from triage_app.core.deadletters.export import ExportSummary, export_dead_letters
from triage_app.core.deadletters.filters import (
    DeadLetterFilter,
    filter_clauses,
)
from triage_app.core.deadletters.paging import DeadLetterRow, fetch_rows
from triage_app.core.deadletters.payload_view import (
    DiffLine,
    EditablePayload,
    check_edit,
    editable_payload,
    error_position,
    payload_diff,
    reformat,
)
from triage_app.core.deadletters.purge import (
    PURGEABLE,
    PurgeSummary,
    RetentionPolicy,
    purge,
    retention_policy,
    set_retention_policy,
)

# ``purge`` is also the module's name, so ``from …deadletters import purge`` reads to
# import-linter as reaching into the module; code inside the package graph uses this one.
from triage_app.core.deadletters.purge import purge as purge_dead_letters
from triage_app.core.deadletters.queries import (
    AuditEntry,
    DeadLetterDetail,
    DeadLetterPage,
    DeadLetterView,
    count_dead_letters,
    get_dead_letter,
    list_dead_letters,
    page_of_dead_letters,
)
from triage_app.core.deadletters.redriving import (
    DEFAULT_MAX_ATTEMPTS,
    RedriveResult,
    RedriveSummary,
    redrive,
    try_payload,
)
from triage_app.core.deadletters.transitions import (
    ChangedMeanwhile,
    ChangeReport,
    Refused,
    RowChange,
    discard,
    note,
    park,
    reclassify_as,
    reopen,
)

__all__ = [
    "ACTIONS",
    "DEFAULT_MAX_ATTEMPTS",
    "PURGEABLE",
    "AuditEntry",
    "AuditFilter",
    "AuditPage",
    "AuditRecord",
    "ChangeReport",
    "ChangedMeanwhile",
    "DeadLetterDetail",
    "DeadLetterFilter",
    "DeadLetterPage",
    "DeadLetterRow",
    "DeadLetterView",
    "DiffLine",
    "EditablePayload",
    "ExportSummary",
    "PurgeSummary",
    "RedriveResult",
    "RedriveSummary",
    "Refused",
    "RetentionPolicy",
    "RowChange",
    "add_note",
    "apply_change",
    "audit_page",
    "audit_trail",
    "check_edit",
    "count_audit_events",
    "count_dead_letters",
    "discard",
    "edit_payload",
    "editable_payload",
    "error_position",
    "export_dead_letters",
    "fetch_rows",
    "filter_clauses",
    "get_dead_letter",
    "list_dead_letters",
    "note",
    "page_of_dead_letters",
    "park",
    "parse_action",
    "parse_since",
    "payload_diff",
    "purge",
    "purge_dead_letters",
    "reclassify",
    "reclassify_as",
    "redrive",
    "reformat",
    "reopen",
    "retention_policy",
    "set_retention_policy",
    "set_status",
    "try_payload",
]
