"""Dead letters: which ones (filters), reading them (queries, pages for the table, the
payload as a person edits it), changing them by hand (audited), re-driving them through a
transform version, retrying transient ones on their ladder (ladder, retrying), exporting
them, purging closed ones (retention) and the audit trail.

``_PARTS`` below is this package's interface, each name once; each part loads when one of
its names is first asked for. A batch's stats-cache warming needs the filters only, and
loading every part (re-drive, transitions, payload views, ...) cost ``triage-app run`` some
25 ms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triage_app.core.lazy_package import lazy_interface

# The interface: each part, and the names it defines that the package exports. Each name is
# listed here once; ``__all__`` and the loading of a part on first use derive from it.
_PARTS: dict[str, tuple[str, ...]] = {
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
        "apply_change",
        "edit_payload",
        "preview_change",
    ),
    "export": ("ExportSummary", "export_dead_letters"),
    "filters": ("FILES", "DeadLetterFilter", "cell_clauses", "filter_clauses"),
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
    "held_batches": (
        "HeldBatchDiscard",
        "HeldBatchLoad",
        "discard_held_batch",
        "is_whole_batch",
        "load_held_batch",
    ),
    "ladder": (
        "DEFAULT_LADDER",
        "END_OF_LADDER",
        "Ladder",
        "LadderBacklog",
        "LadderState",
        "LadderStep",
        "Ladders",
        "ladder_backlog",
        "ladder_state",
        "set_workspace_ladder",
        "transform_ladder",
        "why_no_retry_pass",
        "workspace_ladder_of",
    ),
    "mask_refresh": ("MASKS_SINCE", "refresh_after_upgrade", "refresh_masks"),
    "masks": ("MaskContext", "Revealed", "mask_contexts", "reveal"),
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
    "queries": (
        "AuditEntry",
        "DeadLetterDetail",
        "DeadLetterPage",
        "DeadLetterView",
        "count_dead_letters",
        "get_dead_letter",
        "list_dead_letters",
        "page_of_dead_letters",
        "reveal_dead_letter",
    ),
    "redriving": (
        "DEFAULT_MAX_ATTEMPTS",
        "RedriveGuard",
        "RedriveResult",
        "RedriveSummary",
        "redrive",
        "try_payload",
    ),
    "said": ("counted_word",),
    "retention": (
        "PurgeSummary",
        "RetentionPolicy",
        "purge",
        "retention_policy",
        "set_retention_policy",
    ),
    "retrying": ("RetryPass", "due_rows", "retry_due"),
    "seen_rows": ("SeenRows",),
    "sinks": ("Parcel", "Sink"),
    "trail": (
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
        "slices",
    ),
}
__all__, __getattr__, __dir__ = lazy_interface(__name__, _PARTS, globals())

# The same names as ``_PARTS``, imported for the checkers (mypy, import-linter) only; a test
# (tests/cli/test_startup_imports.py) holds the two equal.
if TYPE_CHECKING:
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
        apply_change,
        edit_payload,
        preview_change,
    )
    from triage_app.core.deadletters.export import ExportSummary, export_dead_letters
    from triage_app.core.deadletters.filters import (
        FILES,
        DeadLetterFilter,
        cell_clauses,
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
    from triage_app.core.deadletters.held_batches import (
        HeldBatchDiscard,
        HeldBatchLoad,
        discard_held_batch,
        is_whole_batch,
        load_held_batch,
    )
    from triage_app.core.deadletters.ladder import (
        DEFAULT_LADDER,
        END_OF_LADDER,
        Ladder,
        LadderBacklog,
        Ladders,
        LadderState,
        LadderStep,
        ladder_backlog,
        ladder_state,
        set_workspace_ladder,
        transform_ladder,
        why_no_retry_pass,
        workspace_ladder_of,
    )
    from triage_app.core.deadletters.mask_refresh import (
        MASKS_SINCE,
        refresh_after_upgrade,
        refresh_masks,
    )
    from triage_app.core.deadletters.masks import (
        MaskContext,
        Revealed,
        mask_contexts,
        reveal,
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
    from triage_app.core.deadletters.queries import (
        AuditEntry,
        DeadLetterDetail,
        DeadLetterPage,
        DeadLetterView,
        count_dead_letters,
        get_dead_letter,
        list_dead_letters,
        page_of_dead_letters,
        reveal_dead_letter,
    )
    from triage_app.core.deadletters.redriving import (
        DEFAULT_MAX_ATTEMPTS,
        RedriveGuard,
        RedriveResult,
        RedriveSummary,
        redrive,
        try_payload,
    )
    from triage_app.core.deadletters.retention import (
        PurgeSummary,
        RetentionPolicy,
        purge,
        retention_policy,
        set_retention_policy,
    )
    from triage_app.core.deadletters.retrying import RetryPass, due_rows, retry_due
    from triage_app.core.deadletters.said import counted_word
    from triage_app.core.deadletters.seen_rows import SeenRows
    from triage_app.core.deadletters.sinks import Parcel, Sink
    from triage_app.core.deadletters.trail import (
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
        slices,
    )
