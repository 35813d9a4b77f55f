"""Dead letters: which ones (filters), reading them (queries, pages for the table, the
payload as a person edits it), changing them by hand (audited), re-driving them through a
transform version, and exporting them.

The names below are this package's interface; each part loads when one of its names is
first asked for. A batch's stats-cache warming needs the filters only, and loading every
part (re-drive, transitions, payload views, ...) cost ``triage-app run`` some 25 ms.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from triage_app.core.lazy_package import lazy_attributes

if TYPE_CHECKING:  # what the checkers (mypy, import-linter) see; at run time: __getattr__
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
    from triage_app.core.deadletters.change_sets import (
        ChangeSetInfo,
        ChangeSetReport,
        FixPreview,
        RowPreview,
        apply_fix,
        change_set,
        change_set_fix,
        chosen_ids,
        list_change_sets,
        preview_fix,
        revert_change_set,
    )
    from triage_app.core.deadletters.changes import (
        ChangePreview,
        add_note,
        apply_change,
        edit_payload,
        preview_change,
        reclassify,
        set_status,
    )
    from triage_app.core.deadletters.export import ExportSummary, export_dead_letters
    from triage_app.core.deadletters.filters import (
        DeadLetterFilter,
        filter_clauses,
    )
    from triage_app.core.deadletters.fixes import (
        FORM_STEPS,
        Fix,
        NotApplicable,
        Step,
        fix_from_spec,
        read_patch,
        step_from_text,
    )
    from triage_app.core.deadletters.groups import (
        SUGGESTED_TAGS,
        UNCHANGED,
        ErrorGroup,
        error_groups,
        set_group,
        sort_groups,
        team_labels,
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
        without_position,
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
        RedriveGuard,
        RedriveResult,
        RedriveSummary,
        redrive,
        try_payload,
    )
    from triage_app.core.deadletters.seen_rows import SeenRows
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

# The part that defines each name (the same as the imports above: a test holds them equal).
_PARTS: dict[str, tuple[str, ...]] = {
    "audit_trail": (
        "ACTIONS",
        "AuditFilter",
        "AuditPage",
        "AuditRecord",
        "audit_page",
        "audit_trail",
        "count_audit_events",
        "parse_action",
        "parse_since",
    ),
    "change_sets": (
        "ChangeSetInfo",
        "ChangeSetReport",
        "FixPreview",
        "RowPreview",
        "apply_fix",
        "change_set",
        "change_set_fix",
        "chosen_ids",
        "list_change_sets",
        "preview_fix",
        "revert_change_set",
    ),
    "changes": (
        "ChangePreview",
        "add_note",
        "apply_change",
        "edit_payload",
        "preview_change",
        "reclassify",
        "set_status",
    ),
    "export": ("ExportSummary", "export_dead_letters"),
    "filters": ("DeadLetterFilter", "filter_clauses"),
    "fixes": (
        "FORM_STEPS",
        "Fix",
        "NotApplicable",
        "Step",
        "fix_from_spec",
        "read_patch",
        "step_from_text",
    ),
    "groups": (
        "SUGGESTED_TAGS",
        "UNCHANGED",
        "ErrorGroup",
        "error_groups",
        "set_group",
        "sort_groups",
        "team_labels",
    ),
    "paging": ("DeadLetterRow", "fetch_rows"),
    "payload_view": (
        "DiffLine",
        "EditablePayload",
        "check_edit",
        "editable_payload",
        "error_position",
        "payload_diff",
        "reformat",
        "without_position",
    ),
    "purge": (
        "PURGEABLE",
        "PurgeSummary",
        "RetentionPolicy",
        "purge",
        "retention_policy",
        "set_retention_policy",
    ),
    "queries": (
        "AuditEntry",
        "DeadLetterDetail",
        "DeadLetterPage",
        "DeadLetterView",
        "count_dead_letters",
        "get_dead_letter",
        "list_dead_letters",
        "page_of_dead_letters",
    ),
    "redriving": (
        "DEFAULT_MAX_ATTEMPTS",
        "RedriveGuard",
        "RedriveResult",
        "RedriveSummary",
        "redrive",
        "try_payload",
    ),
    "seen_rows": ("SeenRows",),
    "transitions": (
        "ChangedMeanwhile",
        "ChangeReport",
        "Refused",
        "RowChange",
        "discard",
        "note",
        "park",
        "reclassify_as",
        "reopen",
    ),
}
# name -> (part, the name there)
_SOURCE: dict[str, tuple[str, str]] = {
    name: (part, name) for part, names in _PARTS.items() for name in names
}
_SOURCE["purge_dead_letters"] = ("purge", "purge")
# Functions named like the part that defines them: the package's attribute is the function.
_SHADOWED = frozenset(part for part, names in _PARTS.items() if part in names)


__getattr__, __dir__ = lazy_attributes(__name__, _SOURCE, globals())


class _Package(types.ModuleType):
    """Importing a part binds it to the package's attribute of its name; for ``purge`` and
    ``audit_trail`` that attribute is the function, whichever way the part was first loaded
    (as the eager imports left it: ``from …deadletters import purge`` is the function)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = [
    "ACTIONS",
    "DEFAULT_MAX_ATTEMPTS",
    "FORM_STEPS",
    "PURGEABLE",
    "SUGGESTED_TAGS",
    "UNCHANGED",
    "AuditEntry",
    "AuditFilter",
    "AuditPage",
    "AuditRecord",
    "ChangePreview",
    "ChangeReport",
    "ChangeSetInfo",
    "ChangeSetReport",
    "ChangedMeanwhile",
    "DeadLetterDetail",
    "DeadLetterFilter",
    "DeadLetterPage",
    "DeadLetterRow",
    "DeadLetterView",
    "DiffLine",
    "EditablePayload",
    "ErrorGroup",
    "ExportSummary",
    "Fix",
    "FixPreview",
    "NotApplicable",
    "PurgeSummary",
    "RedriveGuard",
    "RedriveResult",
    "RedriveSummary",
    "Refused",
    "RetentionPolicy",
    "RowChange",
    "RowPreview",
    "SeenRows",
    "Step",
    "add_note",
    "apply_change",
    "apply_fix",
    "audit_page",
    "audit_trail",
    "change_set",
    "change_set_fix",
    "check_edit",
    "chosen_ids",
    "count_audit_events",
    "count_dead_letters",
    "discard",
    "edit_payload",
    "editable_payload",
    "error_groups",
    "error_position",
    "export_dead_letters",
    "fetch_rows",
    "filter_clauses",
    "fix_from_spec",
    "get_dead_letter",
    "list_change_sets",
    "list_dead_letters",
    "note",
    "page_of_dead_letters",
    "park",
    "parse_action",
    "parse_since",
    "payload_diff",
    "preview_change",
    "preview_fix",
    "purge",
    "purge_dead_letters",
    "read_patch",
    "reclassify",
    "reclassify_as",
    "redrive",
    "reformat",
    "reopen",
    "retention_policy",
    "revert_change_set",
    "set_group",
    "set_retention_policy",
    "set_status",
    "sort_groups",
    "step_from_text",
    "team_labels",
    "try_payload",
    "without_position",
]
