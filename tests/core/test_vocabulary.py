"""The shared words: WAITING and CLOSED split the four statuses between them with none left
over and none in both; STATUS_FILTERS is every status plus "all", which no dead letter can
have; each payload kind maps to the kind it becomes when edited and to the kind of its
original bytes, and CSV stays CSV through an edit; every member is the very text the store
holds and ``--json`` prints; SUCCEEDED is the two outcomes that load (or would load) a row."""

from __future__ import annotations

import orjson
import pytest

from triage_app.core.vocabulary import (
    ALL,
    CLASSES,
    CLOSED,
    SOURCE_FORMATS,
    STATUS_FILTERS,
    SUCCEEDED,
    WAITING,
    AuditAction,
    BatchState,
    ErrorClass,
    PayloadKind,
    RedriveOutcome,
    Status,
    edited_kind,
    is_csv_kind,
    original_kind,
)


def test_waiting_and_closed_split_the_statuses() -> None:
    assert set(WAITING) | set(CLOSED) == set(Status)
    assert not set(WAITING) & set(CLOSED)
    assert len(WAITING) + len(CLOSED) == len(Status) == 4
    assert set(WAITING) == {Status.OPEN, Status.PARKED}
    assert set(CLOSED) == {Status.RESOLVED, Status.DISCARDED}


def test_status_filters_are_every_status_and_all() -> None:
    assert STATUS_FILTERS == ("open", "resolved", "parked", "discarded", "all")
    assert ALL == "all" and ALL not in {s.value for s in Status}
    assert len(set(STATUS_FILTERS)) == len(STATUS_FILTERS)


@pytest.mark.parametrize(
    ("kind", "edited", "original", "csv"),
    [
        (PayloadKind.JSONL, PayloadKind.JSON, PayloadKind.JSONL, False),
        (PayloadKind.JSON, PayloadKind.JSON, PayloadKind.JSONL, False),
        (PayloadKind.CSV, PayloadKind.JSON_CSV, PayloadKind.CSV, True),
        (PayloadKind.JSON_CSV, PayloadKind.JSON_CSV, PayloadKind.CSV, True),
    ],
)
def test_payload_kinds(
    kind: PayloadKind, edited: PayloadKind, original: PayloadKind, csv: bool
) -> None:
    for spelled in (kind, kind.value):  # the store gives plain text back
        assert edited_kind(spelled) is edited
        assert original_kind(spelled) is original
        assert is_csv_kind(spelled) is csv
    assert edited_kind(edited_kind(kind)) is edited  # editing again changes nothing


def test_every_payload_kind_is_covered() -> None:
    assert {k.value for k in PayloadKind} == {"jsonl", "csv", "json", "json-csv"}
    assert SOURCE_FORMATS == ("jsonl", "csv")
    assert {original_kind(k) for k in PayloadKind} == set(SOURCE_FORMATS)


@pytest.mark.parametrize(
    ("member", "stored"),
    [
        (Status.OPEN, "open"),
        (Status.DISCARDED, "discarded"),
        (ErrorClass.TRANSIENT, "transient"),
        (BatchState.COMPLETE, "complete"),
        (AuditAction.REDRIVE_FAILED, "redrive_failed"),
        (RedriveOutcome.WOULD_SUCCEED, "would_succeed"),
        (PayloadKind.JSON_CSV, "json-csv"),
    ],
)
def test_a_member_is_the_stored_text(member: str, stored: str) -> None:
    assert member == stored and stored == member
    assert str(member) == stored and f"{member}" == stored
    assert hash(member) == hash(stored)
    assert type(member)(stored) is member
    assert orjson.dumps({"status": member}) == orjson.dumps({"status": stored})


def test_classes_are_the_error_class_values() -> None:
    assert CLASSES == ("data", "code", "transient")


def test_succeeded_is_resolved_and_would_succeed() -> None:
    assert SUCCEEDED == (RedriveOutcome.RESOLVED, RedriveOutcome.WOULD_SUCCEED)
    assert "resolved" in SUCCEEDED and "would_succeed" in SUCCEEDED
    for failed in (RedriveOutcome.FAILED, RedriveOutcome.PARKED, RedriveOutcome.WOULD_FAIL):
        assert failed not in SUCCEEDED
    assert RedriveOutcome.SKIPPED not in SUCCEEDED
