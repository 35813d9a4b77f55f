"""Dead letters: which ones (filters), reading them (queries, pages for the table, the
payload as a person edits it), changing them by hand (audited), re-driving them through a
transform version, and exporting them."""

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
from triage_app.core.deadletters.queries import (
    AuditEntry,
    DeadLetterDetail,
    DeadLetterView,
    count_dead_letters,
    get_dead_letter,
    list_dead_letters,
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
    "DEFAULT_MAX_ATTEMPTS",
    "AuditEntry",
    "ChangeReport",
    "ChangedMeanwhile",
    "DeadLetterDetail",
    "DeadLetterFilter",
    "DeadLetterRow",
    "DeadLetterView",
    "DiffLine",
    "EditablePayload",
    "ExportSummary",
    "RedriveResult",
    "RedriveSummary",
    "Refused",
    "RowChange",
    "add_note",
    "apply_change",
    "check_edit",
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
    "park",
    "payload_diff",
    "reclassify",
    "reclassify_as",
    "redrive",
    "reformat",
    "reopen",
    "set_status",
    "try_payload",
]
