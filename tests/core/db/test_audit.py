"""The audit trail: ``record_event`` appends one event (dead letter, time, actor, action as its
stored text, detail) inside the caller's transaction, on its Connection, so it commits with
the change it records and vanishes when that change is rolled back; an event for a dead
letter that does not exist is refused. The default actor is ``actor_for(bind)``:
``current_actor()`` (the OS user and host, ``user@host``), plus the database user on
PostgreSQL, asked once per engine."""

from __future__ import annotations

import datetime as dt
import os
import pwd
import socket
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from triage_app.core.clock import utcnow
from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    Workspace,
    actor_for,
    current_actor,
    event_insert,
    keep_signatures,
    open_workspace,
    record_event,
)
from triage_app.core.vocabulary import AuditAction


def add_dead_letter(ws: Workspace) -> int:
    now = utcnow()
    with ws.store.begin() as conn:
        conn.execute(
            insert(Batch),
            {
                "batch_id": "0123456789abcdef",
                "source_name": "pesanan.jsonl",
                "source_sha256": "0" * 64,
                "transform": "pesanan@1",
                "format": "jsonl",
            },
        )
        return int(
            conn.execute(
                insert(DeadLetter).returning(DeadLetter.id),
                {
                    "batch_id": "0123456789abcdef",
                    "line": 3,
                    "original_payload": b'{"qty": -1}',
                    "payload": b'{"qty": -1}',
                    "payload_kind": "jsonl",
                    "error": "DataError: qty tidak valid: -1",
                    "error_class": "data",
                    "signature_id": keep_signatures(conn, ["DataError: qty tidak valid: <n>"])[
                        "DataError: qty tidak valid: <n>"
                    ],
                    "transform": "pesanan@1",
                    "first_failed_at": now,
                    "last_failed_at": now,
                },
            ).scalar_one()
        )


def events(ws: Workspace) -> list[tuple[Any, ...]]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(
                AuditEvent.dead_letter_id,
                AuditEvent.at,
                AuditEvent.actor,
                AuditEvent.action,
                AuditEvent.detail,
            ).order_by(AuditEvent.id)
        )
        return [tuple(r) for r in rows]


def test_an_event_is_appended_with_everything_it_was_given(workspace: Workspace) -> None:
    dl = add_dead_letter(workspace)
    at = dt.datetime(2026, 3, 1, 10, 0, 0)
    with workspace.store.begin() as conn:
        record_event(conn, dl, AuditAction.EDITED, "payload 12 -> 11 bytes", "ani", at)
        record_event(conn, dl, AuditAction.NOTE, "asked the shop", "budi", at)
    assert events(workspace) == [
        (dl, at, "ani", "edited", "payload 12 -> 11 bytes"),
        (dl, at, "budi", "note", "asked the shop"),
    ]


def test_the_defaults_are_now_and_the_current_actor(workspace: Workspace) -> None:
    dl = add_dead_letter(workspace)
    before = utcnow().replace(microsecond=0)
    with workspace.store.begin() as conn:
        record_event(conn, dl, AuditAction.PARKED, "by hand")
    after = utcnow()
    [(dl_id, at, actor, action, detail)] = events(workspace)
    assert (dl_id, actor, action, detail) == (dl, current_actor(), "parked", "by hand")
    assert before <= at <= after and at.tzinfo is None


def test_the_actor_is_the_os_account_of_the_real_user_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: LOGNAME and USER are the caller's to set; the user id is not."""
    monkeypatch.setenv("LOGNAME", "ceo")
    monkeypatch.setenv("USER", "ceo")
    account = pwd.getpwuid(os.getuid()).pw_name
    assert current_actor() == f"{account}@{socket.gethostname()}"


def test_a_user_id_without_an_account_is_named_by_its_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_entry(uid: int) -> Any:
        raise KeyError(uid)

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    monkeypatch.setenv("LOGNAME", "ceo")
    assert current_actor() == f"uid {os.getuid()}@{socket.gethostname()}"


def as_account(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """This process's user id named ``name`` by the password database."""
    entry = pwd.getpwuid(os.getuid())
    named = pwd.struct_passwd((name, *entry[1:]))
    monkeypatch.setattr(pwd, "getpwuid", lambda _uid: named)


def test_a_user_name_that_is_not_utf8_is_kept_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    as_account(monkeypatch, "ani\udcff")  # the byte 0xff, as Python keeps it
    assert current_actor().startswith("ani\\xff@")
    current_actor().encode("utf-8")  # storable: no lone surrogate left


def test_on_sqlite_the_actor_is_user_at_host(workspace: Workspace) -> None:
    assert actor_for(workspace.store) == current_actor()


def test_the_actor_is_asked_once_per_engine(
    tmp_path: Path, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = actor_for(workspace.store)
    as_account(monkeypatch, "someone-else")
    assert actor_for(workspace.store) == before  # the same engine: the answer it had
    with open_workspace(tmp_path / "other") as ws2:
        assert actor_for(ws2.store) == f"someone-else@{socket.gethostname()}"


def test_the_default_actor_is_the_binds(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    dl = add_dead_letter(workspace)
    as_account(monkeypatch, "steward-ani")
    with workspace.store.begin() as conn:
        record_event(conn, dl, AuditAction.NOTE, "asked")
    assert events(workspace)[0][2] == actor_for(workspace.store)


def test_on_postgresql_the_database_user_is_added(
    pg_urls: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    as_account(monkeypatch, "steward-ani")
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        with ws.store.connect() as conn:
            db_user = conn.exec_driver_sql("SELECT session_user").scalar_one()
        expected = f"steward-ani@{socket.gethostname()} (db: {db_user})"
        dl_id = add_dead_letter(ws)
        # Asked first inside a transaction, on that transaction's own connection.
        with ws.store.begin() as conn:
            record_event(conn, dl_id, AuditAction.NOTE, "asked")
        assert actor_for(ws.store) == expected
        assert events(ws)[0][2] == expected


def test_current_actor_is_a_non_empty_string() -> None:
    actor = current_actor()
    assert isinstance(actor, str) and actor.strip() == actor and actor
    user, _, host = actor.partition("@")
    assert user and host


def test_a_rolled_back_connection_takes_its_event_with_it(workspace: Workspace) -> None:
    dl = add_dead_letter(workspace)
    with pytest.raises(RuntimeError, match="the change failed"), workspace.store.begin() as conn:
        record_event(conn, dl, AuditAction.DISCARDED, "junk", "ani")
        raise RuntimeError("the change failed")
    assert events(workspace) == []
    with workspace.store.begin() as conn:
        record_event(conn, dl, AuditAction.REOPENED, "", "ani")
    assert [e[3] for e in events(workspace)] == ["reopened"]


def test_a_connection_commits_or_rolls_back_its_event(workspace: Workspace) -> None:
    """Commit as you go: the event is the connection's until it commits."""
    dl = add_dead_letter(workspace)
    with workspace.store.connect() as conn:
        record_event(conn, dl, AuditAction.RECLASSIFIED, "data -> code", "ani")
        conn.rollback()
        assert events(workspace) == []
        record_event(conn, dl, AuditAction.RECLASSIFIED, "data -> code", "ani")
        conn.commit()
    assert [(e[2], e[3], e[4]) for e in events(workspace)] == [
        ("ani", "reclassified", "data -> code")
    ]


def test_events_are_only_added(workspace: Workspace) -> None:
    dl = add_dead_letter(workspace)
    for action in AuditAction:
        with workspace.store.begin() as conn:
            record_event(conn, dl, action, action.value, "ani")
    assert [e[3] for e in events(workspace)] == [a.value for a in AuditAction]


def test_an_event_for_a_missing_dead_letter_is_refused(workspace: Workspace) -> None:
    with pytest.raises(IntegrityError), workspace.store.begin() as conn:
        record_event(conn, 424242, AuditAction.NOTE, "nobody", "ani")
    with workspace.store.connect() as conn:
        assert conn.execute(select(func.count()).select_from(AuditEvent)).scalar_one() == 0


def test_the_insert_is_built_once() -> None:
    assert event_insert() is event_insert()
    assert event_insert().table.name == "audit_events"
