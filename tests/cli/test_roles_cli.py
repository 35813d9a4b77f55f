"""Roles through the command line (issue 27), in real processes: every command that changes
something, tried by a viewer, a steward and a lead on a team store; what the role may not do
is refused in one line (exit 2) before anything is written, the rest does its job. On a
SQLite workspace the OS user is the one steward-lead."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.support import SEED_BATCH, cli
from tests.support.team import Team, team_store

# Each changing command, the weakest role allowed it, and its arguments on the seed's store
# (dead letters 1-4: 1-3 data, 4 code). Run in this order by each role that may.
ACTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("note", "steward", ("note", "1", "--text", "asked the shop")),
    ("park", "steward", ("park", "1", "--reason", "later")),
    ("reopen", "steward", ("reopen", "1")),
    ("reclassify", "steward", ("reclassify", "1", "--class", "code")),
    ("edit", "steward", ("edit", "2", "--payload", '{"pesanan_id": 4, "qty": 1}')),
    ("group", "steward", ("group", "DataError: kolom wajib hilang: qty", "--owner", "ani")),
    ("fix", "steward", ("fix", "3", "--default", "diskon=0")),
    ("redrive", "steward", ("redrive", "4", "--transform", "pesanan@2")),
    ("discard", "steward", ("discard", "1", "--reason", "junk")),
    ("run", "steward", ("run", str(SEED_BATCH), "--transform", "pesanan@2")),
    ("reprocess", "steward", ("reprocess", "--produced-by", "pesanan@1", "--with", "pesanan@2")),
    ("purge", "lead", ("purge", "--older-than", "0", "--status", "discarded")),
    ("policy", "lead", ("purge", "--older-than", "30", "--save-policy", "--dry-run")),
    ("retry-due", "steward", ("retry-due",)),
    ("ladder", "lead", ("ladder", "set", "5m,30m,2h")),
)
RANK = {"viewer": 0, "steward": 1, "lead": 2}
READS = (
    ("list",),
    ("show", "2"),  # 1 is purged by a lead
    ("stats",),
    ("audit",),
    ("groups",),
    ("changesets",),
    ("roles",),
    ("roles", "me"),
    ("redrive", "4", "--transform", "pesanan@2", "--dry-run"),
    ("discard", "3", "--reason", "x", "--dry-run"),
)


@pytest.fixture
def team(pg_urls: tuple[str, str]) -> Iterator[Team]:
    yield from team_store(pg_urls)


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.parametrize("who", ["viewer", "steward", "lead"])
def test_every_action_by_each_role(team: Team, who: str, tmp_path: Path) -> None:
    from tests.core.connectors.pipeline_db import create_seed_tables, run_seed_loader

    args = team.args(who)
    pipeline = f"sqlite:///{tmp_path / 'pipeline.db'}"  # seed 000's own dead-letter table
    create_seed_tables(pipeline)
    run_seed_loader(pipeline)
    batch = orjson.loads(cli(*team.args("owner"), "list", "--json").stdout)[0]["batch_id"]
    more = (
        ("import", "steward", ("import", pipeline, "--table", "dead_letter", "--map", "seed-000")),
        ("give-source", "steward", ("give-source", batch, str(SEED_BATCH))),
    )
    for name, needs, command in (*ACTIONS, *more):
        done = cli(*args, *command)
        if RANK[who] >= RANK[needs]:
            assert done.returncode in (0, 1), (name, done.stderr)
            assert "may not" not in done.stderr and "refused" not in done.stderr, name
        else:
            assert done.returncode == 2, (name, done.stdout)
            assert done.stderr.startswith(f"triage-app: a {who} may not "), (name, done.stderr)
            assert done.stderr.count("\n") == 1, name
            assert "Traceback" not in done.stderr
    for command in READS:
        done = cli(*args, *command)
        assert done.returncode == 0, (command, done.stderr)
    # What the viewer tried left no trace: its actor appears in no event.
    events = orjson.loads(cli(*team.args("owner"), "audit", "--json").stdout)
    actors = {e["actor"] for e in events}
    assert not any(f"(db: {team.logins['viewer']})" in a for a in actors)
    if who != "viewer":
        assert any(f"(db: {team.logins[who]})" in a for a in actors)
    me = orjson.loads(cli(*args, "roles", "me", "--json").stdout)
    assert me["role"] == who
    assert ("purge" in me["may_not"]) == (who != "lead")


@pytest.mark.postgres
@pytest.mark.slow
def test_reverts_and_grants_by_role(team: Team) -> None:
    done = cli(*team.args("steward"), "fix", "2", "3", "--default", "qty=1", "--json")
    cs = str(orjson.loads(done.stdout)["applied"]["change_set"])
    for who, code in (("viewer", 2), ("steward2", 2)):
        done = cli(*team.args(who), "revert", cs)
        assert done.returncode == code, done.stderr
        assert "may not revert" in done.stderr
    assert cli(*team.args("lead"), "revert", cs).returncode == 0  # another's: a lead's
    for who in ("viewer", "steward"):
        done = cli(*team.args(who), "roles", "grant", team.logins["nobody"], "viewer")
        assert done.returncode == 2
        assert done.stderr.startswith(f"triage-app: a {who} may not grant or revoke roles")
        done = cli(*team.args(who), "roles", "revoke", team.logins["viewer"])
        assert done.returncode == 2
    done = cli(*team.args("lead"), "roles", "grant", team.logins["nobody"], "boss")
    assert done.returncode == 2 and "no role boss" in done.stderr
    done = cli(*team.args("lead"), "roles", "grant", "td_no_such_login_x", "viewer")
    assert done.returncode == 2
    assert done.stderr == (
        "triage-app: no login named td_no_such_login_x on this server: create it first "
        "(CREATE ROLE td_no_such_login_x LOGIN)\n"
    )


@pytest.mark.slow
def test_sqlite_the_os_user_is_the_one_steward_lead(tmp_path: Path) -> None:
    ws = ["--workspace", str(tmp_path / "ws")]
    assert cli(*ws, "demo").returncode == 0
    listed = orjson.loads(cli(*ws, "roles", "--json").stdout)
    assert listed["your_role"] == "lead" and listed["set_up"] is False
    assert listed["members"]["lead"] == [listed["you"]]
    assert "one steward-lead" in cli(*ws, "roles").stdout
    me = cli(*ws, "roles", "me")
    assert me.returncode == 0 and "may do everything" in me.stdout
    for command in (("setup",), ("grant", "bob", "viewer"), ("revoke", "bob")):
        done = cli(*ws, "roles", *command)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1
        assert "SQLite, where the OS user is the one steward-lead" in done.stderr
    done = cli(*ws, "roles", "grant", "bob")
    assert done.returncode == 2 and "roles grant USER ROLE" in done.stderr
    # Everything stays allowed: a purge, a policy.
    assert cli(*ws, "purge", "--older-than", "30", "--save-policy").returncode == 0


@pytest.mark.postgres
@pytest.mark.slow
def test_a_login_without_a_role_is_refused_in_one_line(team: Team) -> None:
    for command in (("list",), ("stats",), ("park", "1")):
        done = cli(*team.args("nobody"), *command)
        assert done.returncode == 2, done.stdout
        login = team.logins["nobody"]
        assert done.stderr == (
            f"triage-app: the database refused the schema {team.store_schema}: {login} holds "
            f"no role on this store; a lead grants one: triage-app roles grant {login} viewer\n"
        )


NAMES = ("Dewi", "Rina", "Siti", "Budi")  # the seed batch's customers (pelanggan)


@pytest.mark.postgres
@pytest.mark.slow
def test_a_viewer_never_reads_a_name_and_only_a_steward_reveals(team: Team, tmp_path: Path) -> None:
    """A viewer reads the store through the database's masked views: no command it may run
    prints a customer's name, and ``show --reveal`` is refused it in one line. A steward's
    reveal shows the name and the audit says who."""
    viewer = team.args("viewer")
    commands: list[tuple[str, ...]] = [
        ("list", "--status", "all"),
        ("list", "--json"),
        ("audit", "--json"),
        ("stats", "--json"),
        ("groups",),
        ("report", "--out", str(tmp_path / "report")),
    ]
    for i in range(1, 5):
        commands += [("show", str(i)), ("show", str(i), "--json")]
    said = []
    for command in commands:
        done = cli(*viewer, *command)
        assert done.returncode == 0, (command, done.stderr)
        said.append(done.stdout + done.stderr)
    said += [
        f.read_text("utf-8")
        for f in (tmp_path / "report").iterdir()
        if f.suffix in (".md", ".html", ".csv")
    ]
    for name in NAMES:
        assert not any(name in s for s in said), name
    assert any("D•••" in s for s in said)
    refused = cli(*viewer, "show", "1", "--reveal")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert refused.stderr.startswith("triage-app: a viewer may not reveal personal fields")
    shown = cli(*team.args("steward"), "show", "1", "--reveal")
    assert shown.returncode == 0, shown.stderr
    assert "Dewi" in shown.stdout
    events = orjson.loads(cli(*team.args("lead"), "audit", "--action", "revealed", "--json").stdout)
    assert [e["dead_letter_id"] for e in events] == [1]
    assert f"(db: {team.logins['steward']})" in events[0]["actor"]
