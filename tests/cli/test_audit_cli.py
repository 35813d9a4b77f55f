"""``triage-app audit``: the store's trail, newest first, as a table or as a JSON array of
``at, actor, action, dead_letter_id, detail`` (and ``version`` where recorded), filtered by
since, actor, action and dead letter, paged; bad dates and actions refused in one line."""

from __future__ import annotations

import json
import os
import pwd
import socket
from pathlib import Path

import pytest

from tests.support import SEED_BATCH, cli
from triage_app.core import deadletters as dls
from triage_app.core.db import current_actor, open_workspace

KEYS = {"at", "actor", "action", "dead_letter_id", "detail"}
ACCOUNT = pwd.getpwuid(os.getuid()).pw_name  # who this process is, whatever LOGNAME says


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The seed batch (four dead letters) by this process's OS account, then an edit and a
    note by "steward-ani" (another steward's process, here core called with its actor)."""
    env = {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws")}
    assert cli("run", str(SEED_BATCH), "--transform", "pesanan@1", env=env).returncode == 0
    ani = f"steward-ani@{socket.gethostname()}"
    with open_workspace(tmp_path / "ws") as ws:
        dls.edit_payload(ws, 1, '{"pesanan_id": 3}', actor=ani)
        dls.apply_change(ws, [2], dls.note("asked the shop"), actor=ani)
    return env


def audit(env: dict[str, str], *args: str) -> list[dict[str, object]]:
    out = cli("audit", "--json", *args, env=env)
    assert out.returncode == 0, out.stderr
    events = json.loads(out.stdout)
    assert isinstance(events, list)
    return events


def test_the_trail_as_json(env: dict[str, str]) -> None:
    events = audit(env)
    assert [e["action"] for e in events] == ["note", "edited"] + ["quarantined"] * 4
    host = socket.gethostname()
    assert events[0]["actor"] == f"steward-ani@{host}"
    assert events[-1]["actor"] == current_actor() == f"{ACCOUNT}@{host}"
    assert all(set(e) - {"version"} == KEYS for e in events)
    edited = events[1]
    assert edited["dead_letter_id"] == 1 and "bytes" in str(edited["detail"])
    assert edited.get("version") == 2  # the change recorded the version it made
    assert str(events[0]["at"]).endswith("Z")


def test_filters(env: dict[str, str]) -> None:
    assert [e["action"] for e in audit(env, "--actor", "ANI")] == ["note", "edited"]
    assert [e["dead_letter_id"] for e in audit(env, "--action", "quarantined")] == [4, 3, 2, 1]
    assert [e["action"] for e in audit(env, "--id", "1")] == ["edited", "quarantined"]
    assert audit(env, "--id", "1", "--action", "note") == []
    assert len(audit(env, "--since", "2000-01-01")) == 6
    assert audit(env, "--since", "2999-01-01T00:00") == []


def test_pages(env: dict[str, str]) -> None:
    first = cli("audit", "--json", "--limit", "4", env=env)
    assert len(json.loads(first.stdout)) == 4
    assert first.stderr == "triage-app: 2 more match: --offset 4 for the next page\n"
    rest = audit(env, "--limit", "4", "--offset", "4")
    assert [e["dead_letter_id"] for e in rest] == [2, 1]
    assert (
        cli("--json", "audit", "--limit", "1", env=env).stdout
        == cli("audit", "--json", "--limit", "1", env=env).stdout
    )


def test_the_table(env: dict[str, str]) -> None:
    out = cli("audit", "--limit", "3", env=env)
    assert out.returncode == 0, out.stderr
    header, *rows, note = out.stdout.splitlines()
    assert header.split() == ["at", "(UTC)", "actor", "action", "dead", "letter", "detail"]
    assert len(rows) == 3 and "steward-ani@" in rows[0] and " note " in rows[0]
    assert "asked the shop" in rows[0]
    assert note == "… and 3 more: --offset 3 for the next page"
    # The columns line up: each row's action starts where the header's does.
    at = header.index("action")
    assert all(r[at:].split()[0] in ("note", "edited", "quarantined") for r in rows)
    empty = cli("audit", "--action", "purged", env=env)
    assert empty.returncode == 0 and empty.stdout == "no audit events match\n"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--since", "yesterday"], "--since 'yesterday' is not a date or time"),
        (["--since", "2026-02-30"], "is not a date or time"),
        (["--action", "edit"], "unknown action 'edit': use one of quarantined, edited"),
        (["--limit", "0"], "argument --limit: must be at least 1, not 0"),
        (["--offset", "-1"], "argument --offset: must be at least 0, not -1"),
    ],
)
def test_bad_filters_are_one_line(env: dict[str, str], args: list[str], needle: str) -> None:
    out = cli("audit", *args, env=env)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert needle in out.stderr, out.stderr


def test_the_actor_is_the_account_of_the_user_id_not_logname(env: dict[str, str]) -> None:
    """Issue 21: ``LOGNAME=ceo triage-app park 1`` filed the change as ``ceo@host``."""
    spoofed = {**env, "LOGNAME": "ceo", "USER": "ceo", "USERNAME": "ceo"}
    done = cli("park", "3", "--reason", "checking", env=spoofed)
    assert done.returncode == 0, done.stderr
    (parked,) = audit(env, "--action", "parked")
    assert parked["actor"] == f"{ACCOUNT}@{socket.gethostname()}"
    assert audit(env, "--actor", "ceo") == []
