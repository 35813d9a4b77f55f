"""Quarantine: a failure becomes a dead letter with its evidence, once per (batch, line)
however often a chunk is replayed. It writes no event of its own: its batch is the set
record, and the trail reads one ``quarantined`` event per row from the two
(``expanded_events``), as quarantine used to store it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import Row, func, select, text

from triage_app.core.batch.quarantine import (
    Failure,
    failure_from,
    failure_from_message,
    quarantine,
)
from triage_app.core.db import AuditEvent, Batch, DeadLetter, Workspace, signature_text
from triage_app.core.db.models import Traceback
from triage_app.core.deadletters import expanded_events
from triage_app.core.demo import StoreFiller
from triage_app.core.errors import DataError, TransientError
from triage_app.core.vocabulary import BatchState, ErrorClass

BATCH = "0123456789abcdef"
OTHER = "fedcba9876543210"
NOW = dt.datetime(2026, 1, 12, 9, 30, 0)


def raised(exc: BaseException) -> BaseException:
    """``exc`` with a traceback, as the parser sees it."""
    try:
        raise exc
    except BaseException as caught:
        return caught


SECRET_RECORD = {"qty": 1, "diskon": None, "pelanggan": "Rahasia-Nasabah-77"}


def mishandle(record: Any) -> Any:
    return record["qty"] * 2 - record["diskon"]


def code_bug() -> BaseException:
    try:
        mishandle(SECRET_RECORD)
    except TypeError as exc:
        return exc
    raise AssertionError("unreachable")


# failure_from


def test_data_failures_keep_no_traceback() -> None:
    f = failure_from(4, b'{"qty": -1}', raised(DataError("qty tidak valid: -1")))
    assert f == Failure(
        4,
        b'{"qty": -1}',
        "DataError: qty tidak valid: -1",
        ErrorClass.DATA,
        "DataError: qty tidak valid: <n>",
        None,
    )


@pytest.mark.parametrize(
    ("exc", "cls"),
    [
        (ValueError("x"), ErrorClass.DATA),
        (KeyError("qty"), ErrorClass.DATA),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), ErrorClass.DATA),
        (TransientError("locked"), ErrorClass.TRANSIENT),
        (TimeoutError("slow"), ErrorClass.TRANSIENT),
        (AttributeError("x"), ErrorClass.CODE),
        (ZeroDivisionError("division by zero"), ErrorClass.CODE),
    ],
)
def test_the_class_follows_the_exception(exc: BaseException, cls: ErrorClass) -> None:
    f = failure_from(1, b"raw", raised(exc))
    assert f.error_class is cls
    assert (f.traceback is not None) == (cls is ErrorClass.CODE)


def test_a_key_error_keeps_its_key_in_the_signature() -> None:
    f = failure_from(1, b"{}", raised(KeyError("qty")))
    assert f.error == "KeyError: 'qty'"
    assert f.signature == "KeyError: 'qty'"


def test_code_failures_keep_a_redacted_traceback() -> None:
    f = failure_from(8, b'{"diskon": null}', code_bug())
    assert f.error_class is ErrorClass.CODE
    assert f.error.startswith("TypeError: unsupported operand type(s)")
    assert f.signature == f.error  # the type names are kept: they name the cause
    assert f.traceback is not None
    frames = f.traceback.splitlines()
    assert frames[-1].startswith("test_quarantine.py:")
    assert 'in mishandle: return record["qty"] * 2 - record["diskon"]' in frames[-1]
    assert "/" not in f.traceback and "\\" not in f.traceback  # no directories
    assert "Rahasia" not in f.traceback  # no locals, only the source lines


def test_an_explicit_class_overrides_the_heuristic() -> None:
    f = failure_from(2, b"raw", code_bug(), ErrorClass.DATA)
    assert f.error_class is ErrorClass.DATA and f.traceback is None
    g = failure_from(2, b"raw", raised(DataError("x")), ErrorClass.CODE)
    assert g.error_class is ErrorClass.CODE and g.traceback is not None


def test_a_long_multi_line_message_is_stored_on_one_bounded_line() -> None:
    f = failure_from(1, b"raw", raised(DataError("a\n\n b\t" + "c" * 2000)))
    assert f.error.startswith("DataError: a b ccc") and f.error.endswith("…")
    assert "\n" not in f.error and len(f.error) == len("DataError: ") + 501


def test_failure_from_message_keeps_the_text_and_no_traceback() -> None:
    msg = "OverflowError: Python int too large to convert to SQLite INTEGER (row 12)"
    f = failure_from_message(9, b"raw", msg, ErrorClass.DATA)
    assert f == Failure(
        9,
        b"raw",
        msg,
        ErrorClass.DATA,
        "OverflowError: Python int too large to convert to SQLite INTEGER (row <n>)",
        None,
    )


def test_one_cause_one_signature_whatever_the_size_of_the_value() -> None:
    small = failure_from(1, b"a", raised(DataError("qty tidak valid: -1")))
    large = failure_from(2, b"b", raised(DataError("qty tidak valid: -12345678")))
    assert small.signature == large.signature == "DataError: qty tidak valid: <n>"


# quarantine()


TRANSFORMS = {BATCH: "pesanan@2", OTHER: "pesanan@1"}


def batches(ws: Workspace, *ids: str) -> None:
    """Running batches, each named after who runs it, as run_batch records them."""
    with StoreFiller(ws) as filler:
        for batch_id in ids:
            filler.batch(batch_id, state=BatchState.RUNNING, transform=TRANSFORMS[batch_id])
    with ws.store.begin() as conn:
        conn.execute(Batch.__table__.update().values(actor="steward"))


def put(ws: Workspace, failures: list[Failure], batch_id: str = BATCH, **kw: Any) -> int:
    args: dict[str, Any] = dict(
        batch_id=batch_id,
        transform_ref="pesanan@2",
        payload_kind="jsonl",
        failures=failures,
        actor="steward",
        now=NOW,
    )
    args.update(kw)
    with ws.store.begin() as conn:
        return quarantine(conn, **args)


def stored(ws: Workspace) -> list[Row[Any]]:
    with ws.store.connect() as conn:
        stmt = select(DeadLetter.__table__, signature_text().label("signature")).order_by(
            DeadLetter.batch_id, DeadLetter.line
        )
        return list(conn.execute(stmt))


def traceback_text(ws: Workspace, traceback_id: int | None) -> str | None:
    with ws.store.connect() as conn:
        return conn.execute(
            select(Traceback.text).where(Traceback.id == traceback_id)
        ).scalar_one_or_none()


def test_a_traceback_is_stored_once_however_many_rows_share_it(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    bugs = [failure_from(n, b"{}", code_bug()) for n in range(1, 51)]
    assert len({f.traceback for f in bugs}) == 1
    assert put(workspace, bugs) == 50
    other = failure_from(60, b"{}", raised(ZeroDivisionError("division by zero")))
    assert put(workspace, [other]) == 1
    with workspace.store.connect() as conn:
        assert conn.execute(select(func.count()).select_from(Traceback)).scalar() == 2
    ids = {d.line: d.traceback_id for d in stored(workspace)}
    assert len({ids[n] for n in range(1, 51)}) == 1 and ids[60] != ids[1]
    assert traceback_text(workspace, ids[60]) == other.traceback


def events(ws: Workspace) -> list[tuple[int, str, str, dt.datetime, str]]:
    """The rows' ``quarantined`` events as every reader sees them, by row."""
    stmt = expanded_events.newest_first(expanded_events.branches(action="quarantined"), 1000)
    with ws.store.connect() as conn:
        rows = sorted(conn.execute(stmt), key=lambda r: r.dead_letter_id)
        return [(r.dead_letter_id, r.action, r.actor, r.at, r.detail) for r in rows]


def stored_events(ws: Workspace) -> int:
    with ws.store.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(AuditEvent)).scalar_one())


def test_quarantine_stores_the_evidence_and_one_event_each_through_its_batch(
    workspace: Workspace,
) -> None:
    batches(workspace, BATCH)
    data = failure_from(3, b'{"pesanan_id": 3, "qty": -1}\x00\xff', raised(DataError("qty -1")))
    code = failure_from(8, b'{"diskon": null}', code_bug())
    assert put(workspace, [data, code]) == 2

    dls = stored(workspace)
    assert [(d.batch_id, d.line) for d in dls] == [(BATCH, 3), (BATCH, 8)]
    d3, d8 = dls
    assert d3.original_payload == b'{"pesanan_id": 3, "qty": -1}\x00\xff'
    assert d3.payload is None  # the working copy is the original until an edit
    assert (d3.error, d3.error_class, d3.signature) == (
        "DataError: qty -1",
        "data",
        "DataError: qty <n>",
    )
    # A code bug's message masks nothing: the signature says it all and is kept alone.
    assert d8.signature == code.error and d8.error is None
    assert d3.traceback_id is None and traceback_text(workspace, d8.traceback_id) == code.traceback
    assert d8.error_class == "code"
    for d in dls:
        assert (d.payload_kind, d.attempts, d.status, d.transform) == (
            "jsonl",
            1,
            "open",
            "pesanan@2",
        )
        assert d.first_failed_at == d.last_failed_at == NOW and d.resolved_at is None

    assert events(workspace) == [
        (d3.id, "quarantined", "steward", NOW, "data via pesanan@2: DataError: qty -1"),
        (d8.id, "quarantined", "steward", NOW, f"code via pesanan@2: {code.error}"),
    ]
    assert stored_events(workspace) == 0  # the batch is their record


def test_no_failures_write_nothing(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    assert put(workspace, []) == 0
    assert stored(workspace) == [] and events(workspace) == []


def test_a_replayed_chunk_adds_no_dead_letter_and_no_event(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    chunk = [failure_from(n, b"line %d" % n, raised(DataError(f"bad {n}"))) for n in (2, 5, 9)]
    assert put(workspace, chunk) == 3
    before = [(d.id, d.line, d.error) for d in stored(workspace)]
    n_events = len(events(workspace))

    assert put(workspace, chunk, now=NOW + dt.timedelta(hours=1), actor="rerun") == 0
    assert [(d.id, d.line, d.error) for d in stored(workspace)] == before
    assert len(events(workspace)) == n_events == 3
    assert all(d.last_failed_at == NOW for d in stored(workspace))


def test_a_partly_replayed_chunk_adds_only_the_new_lines(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    put(workspace, [failure_from(5, b"five", raised(DataError("first")))])
    later = [
        failure_from(5, b"five again", raised(DataError("second"))),
        failure_from(7, b"seven", raised(DataError("seven"))),
    ]
    assert put(workspace, later) == 1
    by_line = {d.line: d for d in stored(workspace)}
    # The line stored first keeps its evidence: the insert skips it, never replaces it.
    assert by_line[5].original_payload == b"five" and by_line[5].signature == "DataError: first"
    assert by_line[7].original_payload == b"seven"
    assert [(e[0], e[1]) for e in events(workspace)] == [
        (by_line[5].id, "quarantined"),
        (by_line[7].id, "quarantined"),
    ]


def test_the_same_line_in_another_batch_is_another_dead_letter(workspace: Workspace) -> None:
    batches(workspace, BATCH, OTHER)
    f = failure_from(4, b"four", raised(DataError("x")))
    assert put(workspace, [f]) == 1
    assert put(workspace, [f], batch_id=OTHER, transform_ref="pesanan@1") == 1
    assert [(d.batch_id, d.line, d.transform) for d in stored(workspace)] == [
        (BATCH, 4, "pesanan@2"),
        (OTHER, 4, "pesanan@1"),
    ]
    assert len(events(workspace)) == 2


def test_one_line_twice_in_one_call_is_one_dead_letter(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    twice = [
        failure_from(6, b"six", raised(DataError("a"))),
        failure_from(6, b"six", raised(DataError("a"))),
    ]
    assert put(workspace, twice) == 1
    assert len(stored(workspace)) == 1 and len(events(workspace)) == 1


def test_quarantine_joins_the_callers_transaction(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    f = failure_from(1, b"one", raised(DataError("x")))
    with pytest.raises(RuntimeError), workspace.store.begin() as conn:
        assert (
            quarantine(
                conn,
                batch_id=BATCH,
                transform_ref="pesanan@2",
                payload_kind="jsonl",
                failures=[f],
                actor="steward",
                now=NOW,
            )
            == 1
        )
        raise RuntimeError("the rest of the chunk's commit failed")
    assert stored(workspace) == [] and events(workspace) == []
    with workspace.store.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM audit_events")).scalar_one() == 0


def test_a_csv_payload_kind_is_stored_as_given(workspace: Workspace) -> None:
    batches(workspace, BATCH)
    f = failure_from(2, b'1,"a\nb",x', raised(DataError("jumlah kolom 3, header punya 5")))
    put(workspace, [f], payload_kind="csv", transform_ref="orders@1")
    (d,) = stored(workspace)
    assert (d.payload_kind, d.transform, d.original_payload) == ("csv", "orders@1", b'1,"a\nb",x')
    assert d.signature == "DataError: jumlah kolom <n>, header punya <n>"
