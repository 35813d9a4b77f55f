"""Batches: a source file read in chunks, each record through a transform, healthy rows
upserted into the warehouse and failures quarantined with their evidence, committed chunk
by chunk (in one or two lanes) so that a killed run resumes where it stopped, and complete
only for the bytes its source's hash was taken of. A batch through an atomic transform is
all or nothing: its rows are held until every one passes, then load in one transaction
(``atomic.py``)."""

from triage_app.core.batch.atomic import (
    HeldLine,
    atomic_batches,
    mark_loaded,
    newest_per_key,
    quarantine_held,
    read_held,
    unhold,
    waiting_dead_letters,
    whole_check,
)
from triage_app.core.batch.atomic import load as load_whole_batch
from triage_app.core.batch.commit import batch_advance, ledger_row
from triage_app.core.batch.incoming import batch_files, next_batch_file
from triage_app.core.batch.kept_sources import (
    DEFAULT_KEEP_DAYS,
    KeptSourceInfo,
    NotKept,
    SourceDamaged,
    SourceGone,
    SourcesForgotten,
    batch_records,
    check_keep_days,
    describe_retention,
    forget_sources,
    give_source,
    human_size,
    is_kept,
    keep_source,
    list_kept,
    open_kept,
    set_sources_retention,
    source_state,
    sources_retention,
)
from triage_app.core.batch.loading_lock import BatchBeingLoaded, hold_batch
from triage_app.core.batch.quarantine import (
    Failure,
    failure_from,
    failure_from_message,
    ladder_in_force,
    masked_failures,
    workspace_ladder,
)
from triage_app.core.batch.quarantine import quarantine as quarantine_failures
from triage_app.core.batch.readers import (
    csv_header_names,
    decode_csv,
    decode_payload,
    detect_format,
)
from triage_app.core.batch.run import (
    DEFAULT_CHUNK,
    BatchInfo,
    BatchSummary,
    batch_begun,
    describe_classes,
    list_batches,
    run_batch,
)
from triage_app.core.batch.source import SourceChanged, check_source

__all__ = [
    "DEFAULT_CHUNK",
    "DEFAULT_KEEP_DAYS",
    "BatchBeingLoaded",
    "BatchInfo",
    "BatchSummary",
    "Failure",
    "HeldLine",
    "KeptSourceInfo",
    "NotKept",
    "SourceChanged",
    "SourceDamaged",
    "SourceGone",
    "SourcesForgotten",
    "atomic_batches",
    "batch_advance",
    "batch_begun",
    "batch_files",
    "batch_records",
    "check_keep_days",
    "check_source",
    "csv_header_names",
    "decode_csv",
    "decode_payload",
    "describe_classes",
    "describe_retention",
    "detect_format",
    "failure_from",
    "failure_from_message",
    "forget_sources",
    "give_source",
    "hold_batch",
    "human_size",
    "is_kept",
    "keep_source",
    "ladder_in_force",
    "ledger_row",
    "list_batches",
    "list_kept",
    "load_whole_batch",
    "mark_loaded",
    "masked_failures",
    "newest_per_key",
    "next_batch_file",
    "open_kept",
    "quarantine_failures",
    "quarantine_held",
    "read_held",
    "run_batch",
    "set_sources_retention",
    "source_state",
    "sources_retention",
    "unhold",
    "waiting_dead_letters",
    "whole_check",
    "workspace_ladder",
]
