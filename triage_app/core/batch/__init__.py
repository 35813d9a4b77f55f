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
from triage_app.core.batch.incoming import batch_files, next_batch_file
from triage_app.core.batch.loading_lock import BatchBeingLoaded, hold_batch
from triage_app.core.batch.quarantine import Failure, failure_from, failure_from_message
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
    list_batches,
    run_batch,
)
from triage_app.core.batch.source import SourceChanged, check_source

__all__ = [
    "DEFAULT_CHUNK",
    "BatchBeingLoaded",
    "BatchInfo",
    "BatchSummary",
    "Failure",
    "HeldLine",
    "SourceChanged",
    "atomic_batches",
    "batch_files",
    "check_source",
    "csv_header_names",
    "decode_csv",
    "decode_payload",
    "detect_format",
    "failure_from",
    "failure_from_message",
    "hold_batch",
    "list_batches",
    "load_whole_batch",
    "mark_loaded",
    "newest_per_key",
    "next_batch_file",
    "quarantine_held",
    "read_held",
    "run_batch",
    "unhold",
    "waiting_dead_letters",
    "whole_check",
]
