"""Roles on a team store, enforced by PostgreSQL itself (issue 27): each person connects as
their own login and tries every kind of write straight through SQL (psycopg), beside the
desk's own paths; what the role allows succeeds, the rest is refused by the database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import cli
from tests.support.team import Team, admin, team_store
from triage_app.core.db import (
    Act,
    Role,
    group_roles,
    masked_schema,
    may,
    open_workspace,
    refusal_message,
    role_of,
    why_not,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def team(pg_urls: tuple[str, str]) -> Iterator[Team]:
    yield from team_store(pg_urls)


def _try(team: Team, who: str, sql: str, params: Any = None, *, keep: bool = False) -> Any:
    """Run ``sql`` as ``who`` in a transaction (rolled back unless ``keep``): its rows, or
    the psycopg error the server answered with."""
    import psycopg

    with psycopg.connect(**team.conninfo(who)) as conn:
        try:
            cur = conn.execute(sql, params)
            rows = cur.fetchall() if cur.description else cur.rowcount
        except psycopg.Error as exc:
            conn.rollback()
            return exc
        if keep:
            conn.commit()
        else:
            conn.rollback()
        return rows


def _refused(result: Any) -> bool:
    import psycopg

    return isinstance(result, psycopg.errors.InsufficientPrivilege)


def _allowed(result: Any) -> bool:
    import psycopg

    return not isinstance(result, psycopg.Error)


def test_names_are_per_database_and_schema_and_fit() -> None:
    assert group_roles("shop")[Role.LEAD] == "triage_shop_lead"
    assert group_roles("shop", "team_a")[Role.VIEWER] == "triage_shop_team_a_viewer"
    assert masked_schema("public") == "triage_masked"
    long = group_roles("d" * 60, "s" * 60)
    other = group_roles("d" * 60, "s" * 59 + "t")
    assert all(len(n.encode()) <= 63 for n in (*long.values(), *other.values()))
    assert long[Role.LEAD] != other[Role.LEAD]  # cut, but told apart by a hash
    assert len(masked_schema("x" * 63).encode()) <= 63
    # The rule the window and the CLI grey out and refuse by.
    assert may(Role.STEWARD, Act.REDRIVE) and not may(Role.STEWARD, Act.PURGE)
    assert why_not(Role.VIEWER, Act.EDIT) == (
        "a viewer may not edit dead letters on this store: that needs the steward role "
        "(a lead grants it: triage-app roles grant USER steward)"
    )


def test_each_role_as_the_database_sees_it(team: Team) -> None:
    for who, role in (
        ("viewer", Role.VIEWER),
        ("steward", Role.STEWARD),
        ("lead", Role.LEAD),
        ("nobody", Role.VIEWER),
        ("owner", Role.LEAD),
    ):
        wh, dl = team.urls(who)
        if who == "nobody":
            continue  # may not even read: below
        with open_workspace(warehouse_url=wh, dead_letter_url=dl, create=False) as ws:
            assert role_of(ws.store) is role, who
    # A login in no role of the store may not read it at all.
    got = _try(team, "nobody", f'SELECT count(*) FROM "{team.store_schema}".batches')
    assert _refused(got)


def test_a_viewer_reads_masked_bytes_and_never_the_raw_ones(team: Team) -> None:
    with admin(team) as conn:
        conn.execute(
            f'UPDATE "{team.store_schema}".dead_letters SET masked_original = %s,'
            " payload = %s, masked_payload = %s WHERE id = 2",
            (
                b'{"pelanggan": "S\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2"}',
                b'{"pelanggan": "Sari", "qty": 1}',
                b'{"pelanggan": "S\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2", "qty": 1}',
            ),
        )
    raw = (
        "SELECT original_payload FROM dead_letters",
        "SELECT payload FROM dead_letters",
        "SELECT replaced_payload FROM audit_events",
        "SELECT payload_before FROM change_set_rows",
        "SELECT payload_reverted FROM change_set_rows",
        "SELECT row FROM held_rows",
        "SELECT data FROM source_blobs",
        "SELECT evidence FROM dead_letter_origins",
    )
    for sql in raw:
        assert _refused(_try(team, "viewer", sql)), sql
        assert _allowed(_try(team, "steward", sql)), sql
    # What a viewer may read beside them: counts, ledgers, signatures, held lines.
    for sql in (
        "SELECT count(*) FROM batches",
        "SELECT count(*) FROM dead_letter_counts",
        "SELECT batch_id, line FROM held_rows",
        "SELECT sha256, part FROM source_blobs",
        "SELECT version_num FROM alembic_version",
    ):
        assert _allowed(_try(team, "viewer", sql)), sql
    m = team.masked
    masked = _try(
        team,
        "viewer",
        f'SELECT original_payload, payload FROM "{m}".dead_letters WHERE id = 2',
    )
    assert masked == [
        (
            b'{"pelanggan": "S\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2"}',
            b'{"pelanggan": "S\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2", "qty": 1}',
        )
    ]
    assert _try(team, "viewer", f'SELECT replaced_payload FROM "{m}".audit_events') == [
        (None,)
    ] * len(_try(team, "owner", "SELECT 1 FROM audit_events"))
    # The desk's own queries, unchanged, read the views: the search_path puts them first.
    wh, dl = team.urls("viewer")
    from triage_app.core.deadletters import get_dead_letter

    _try(team, "owner", "DELETE FROM stats_cache", keep=True)  # stats will recompute

    with open_workspace(warehouse_url=wh, dead_letter_url=dl, create=False) as ws:
        d = get_dead_letter(ws, 2)
        assert b"Sari" not in d.payload_bytes and "S•••".encode() in d.payload_bytes
        assert d.original_bytes == '{"pelanggan": "S•••"}'.encode()
        other = get_dead_letter(ws, 1)  # nothing masked: shown as it is
        assert other.original_bytes.startswith(b'{"pesanan_id": 3')
        # Everything a viewer's window reads works, writing nothing: the table's pages,
        # Trends, stats (no cache written), the audit trail, a search.
        from triage_app.core.deadletters import (
            AuditFilter,
            DeadLetterFilter,
            audit_trail,
            list_dead_letters,
        )
        from triage_app.core.trends import compute_trends, stats_json

        assert len(list_dead_letters(ws, DeadLetterFilter(status="all"))) == 4
        # Row 2 masked by hand above; row 3 (Siti) by the desk as it was quarantined.
        assert [d.id for d in list_dead_letters(ws, DeadLetterFilter(search="S•••"))] == [2, 3]
        assert list_dead_letters(ws, DeadLetterFilter(search="Sari")) == []
        trends = compute_trends(ws)
        assert sum(sum(v.values()) for v in trends.by_class_status.values()) == 4
        assert stats_json(ws)["total"] == 4
        assert audit_trail(ws, AuditFilter())
    # The viewer's stats were computed, and not kept: a viewer writes nothing, even there.
    assert _try(team, "owner", "SELECT count(*) FROM stats_cache") == [(0,)]


def test_a_viewer_sees_others_changes_live(team: Team) -> None:
    from triage_app.core.db import watch_store

    wh, dl = team.urls("viewer")
    with open_workspace(warehouse_url=wh, dead_letter_url=dl, create=False) as ws:
        watch = watch_store(ws.store)
        try:
            assert not watch.changed()
            done = cli(*team.args("steward"), "park", "1", "--reason", "later")
            assert done.returncode == 0, done.stderr
            assert watch.changed(timeout=3.0)  # the steward's schema is the viewer's store
        finally:
            watch.close()


def test_masked_views_made_again_after_an_upgrade_dropped_them(team: Team) -> None:
    from triage_app.core.db.role_setup import drop_masked_views, remake_masked_views

    wh, dl = team.urls("owner")
    with open_workspace(warehouse_url=wh, dead_letter_url=dl, create=False) as ws:
        with ws.store.begin() as conn:
            assert drop_masked_views(conn)
        sql = f'SELECT count(*) FROM "{team.masked}".dead_letters'
        assert not _allowed(_try(team, "viewer", sql))  # gone: a revision may change columns
        with ws.store.begin() as conn:
            remake_masked_views(conn)
    assert _try(team, "viewer", sql) == [(4,)]


def test_viewer_writes_nothing(team: Team) -> None:
    for sql in (
        "UPDATE dead_letters SET status = 'parked' WHERE id = 1",
        "INSERT INTO audit_events (dead_letter_id, at, actor, action, detail)"
        " VALUES (1, now(), 'x', 'note', 'x')",
        "INSERT INTO stats_cache (key, version, payload, computed_at) VALUES ('v', 'v', '', now())",
        "UPDATE error_groups SET note = 'x'",
        "INSERT INTO store_settings (key, value) VALUES ('x', 'y')",
        "DELETE FROM dead_letters",
    ):
        assert _refused(_try(team, "viewer", sql)), sql
    m = team.masked
    assert _refused(_try(team, "viewer", f'UPDATE "{m}".dead_letters SET attempts = 9'))


def test_steward_writes_what_the_work_needs_and_no_more(team: Team) -> None:
    allowed = (
        "UPDATE dead_letters SET attempts = attempts WHERE id = 1",
        "INSERT INTO audit_events (dead_letter_id, at, actor, action, detail)"
        " VALUES (1, now(), 'x', 'note', 'x')",
        "INSERT INTO store_settings (key, value) VALUES ('some_cache_key', 'y')",
        "DELETE FROM stats_cache",
        "DELETE FROM dead_letter_counts WHERE n < 0",
        "INSERT INTO redrive_runs (at, actor, transform, given) VALUES (now(), 'x', 't', '')",
    )
    for sql in allowed:
        assert _allowed(_try(team, "steward", sql)), sql
    refused = (
        "DELETE FROM dead_letters WHERE id = 1",  # purge is a lead's
        "DELETE FROM audit_events",  # the trail is only ever added to
        "UPDATE audit_events SET detail = 'x'",
        "DELETE FROM change_sets",
        "INSERT INTO purges (at, actor, statuses, cutoff, rows, by_day)"
        " VALUES (now(), 'x', 'resolved', now(), 0, '{}')",
        # The policies, by a trigger: row by row, whatever the statement.
        "INSERT INTO store_settings (key, value) VALUES ('retention', '{\"days\": 1}')",
        "INSERT INTO store_settings (key, value) VALUES ('retry_ladder', '[1]')",
        "INSERT INTO store_settings (key, value) VALUES ('keep_sources_days', '1')",
    )
    for sql in refused:
        assert _refused(_try(team, "steward", sql)), sql
    # An existing policy row cannot be changed or removed by a steward either.
    _try(
        team, "lead", "INSERT INTO store_settings (key, value) VALUES ('retention', 'x')", keep=True
    )
    assert _refused(_try(team, "steward", "UPDATE store_settings SET value = 'y'"))
    assert _refused(_try(team, "steward", "DELETE FROM store_settings WHERE key = 'retention'"))
    assert _refused(_try(team, "steward", "UPDATE store_settings SET key = 'r2'"))
    assert _allowed(_try(team, "lead", "UPDATE store_settings SET value = 'y'"))
    # Roles: the grant function is a lead's alone.
    s = team.store_schema
    call = f'SELECT "{s}".triage_roles_grant(%s, %s, %s)'
    assert _refused(_try(team, "steward", call, (team.logins["steward"], "lead", "me")))
    assert _refused(_try(team, "viewer", call, (team.logins["viewer"], "lead", "me")))


def _change_set_by(team: Team, who: str) -> int:
    wh, dl = team.urls(who)
    done = cli(
        "--warehouse", wh, "--dead-letter", dl, "fix", "2", "3", "--default", "qty=1", "--json"
    )
    assert done.returncode == 0, done.stderr
    import orjson

    return int(orjson.loads(done.stdout)["applied"]["change_set"])


def test_change_sets_know_who_applied_them_and_only_they_or_a_lead_revert(team: Team) -> None:
    cs = _change_set_by(team, "steward")
    # db_user is the session's, whatever the client sends.
    owner = _try(team, "owner", "SELECT db_user FROM change_sets WHERE id = %s", (cs,))
    assert owner == [(team.logins["steward"],)]
    forged = _try(
        team,
        "steward2",
        "INSERT INTO change_sets (at, actor, description, patch, rows, db_user)"
        " VALUES (now(), 'x', 'x', '[]', 0, %s) RETURNING db_user",
        (team.logins["lead"],),
    )
    assert forged == [(team.logins["steward2"],)]
    assert _try(
        team,
        "steward2",
        "UPDATE change_sets SET db_user = %s WHERE id = %s RETURNING db_user",
        (team.logins["steward2"], cs),
    ) == [(team.logins["steward"],)]
    revert_run = "INSERT INTO change_set_reverts (change_set_id, at, actor) VALUES (%s, now(), 'x')"
    mark = "UPDATE change_sets SET reverted_at = now(), reverted_by = 'x' WHERE id = %s"
    line = "UPDATE change_set_rows SET payload_reverted = 'x' WHERE change_set_id = %s"
    for sql in (revert_run, mark, line):
        got = _try(team, "steward2", sql, (cs,))
        assert _refused(got), sql
        assert "only a lead reverts another person's change-set" in str(got)
        assert _allowed(_try(team, "steward", sql, (cs,))), sql  # one's own
        assert _allowed(_try(team, "lead", sql, (cs,))), sql  # a lead's: anyone's
    # Through the desk: the other steward is refused before anything is written; the one
    # who applied it reverts it.
    wh2, dl2 = team.urls("steward2")
    done = cli("--warehouse", wh2, "--dead-letter", dl2, "revert", str(cs))
    assert done.returncode == 2
    assert "may not revert another person's change-set" in done.stderr
    wh, dl = team.urls("steward")
    done = cli("--warehouse", wh, "--dead-letter", dl, "revert", str(cs))
    assert done.returncode == 0, done.stderr


def test_the_database_refusal_is_one_line(team: Team) -> None:
    from triage_app.core.deadletters import RetentionPolicy, set_retention_policy

    wh, dl = team.urls("steward")
    with (
        open_workspace(warehouse_url=wh, dead_letter_url=dl, create=False) as ws,
        pytest.raises(Exception) as caught,
    ):
        set_retention_policy(ws, RetentionPolicy.of(30, ["resolved"]))
    said = refusal_message(caught.value)
    assert said is not None and "\n" not in said
    assert said.startswith("the database refused: only a lead may change the store's retention")


def test_the_warehouse_takes_a_re_drive_from_stewards_only(team: Team) -> None:
    import psycopg

    def on_wh(who: str, sql: str) -> Any:
        info = team.conninfo(who) | {"options": f"-csearch_path={team.wh_schema}"}
        with psycopg.connect(**info) as conn:
            try:
                conn.execute(sql)
            except psycopg.Error as exc:
                return exc
            finally:
                conn.rollback()
        return None

    write = "UPDATE pesanan SET _line = _line"
    assert on_wh("steward", write) is None
    assert on_wh("lead", write) is None
    # Not even the schema: the warehouse's rows are not masked.
    wh = team.wh_schema
    assert _refused(on_wh("viewer", f'SELECT * FROM "{wh}".pesanan'))
    assert _refused(on_wh("viewer", f'UPDATE "{wh}".pesanan SET _line = _line'))


def test_setup_again_is_idempotent_and_refused_to_others(team: Team) -> None:
    wh, dl = team.urls("owner")
    for _ in range(2):
        done = cli("--warehouse", wh, "--dead-letter", dl, "roles", "setup", "--json")
        assert done.returncode == 0, done.stderr
    for who in ("lead", "steward"):
        done = cli(*team.args(who), "roles", "setup")
        assert done.returncode == 2
        assert done.stderr.startswith("triage-app: roles setup must be run by the store")
    # The grants are as before: the viewer still reads masked only.
    assert _refused(_try(team, "viewer", "SELECT original_payload FROM dead_letters"))
    assert _allowed(_try(team, "viewer", f'SELECT payload FROM "{team.masked}".dead_letters'))


def test_grant_and_revoke_are_audited_and_move_the_login(team: Team) -> None:
    import orjson

    login = team.logins["nobody"]
    lead = team.args("lead")
    done = cli(*lead, "roles", "grant", login, "steward")
    assert done.returncode == 0, done.stderr
    done = cli(*lead, "roles", "grant", login, "viewer", "--json")
    assert orjson.loads(done.stdout)["group"] == team.groups["viewer"]
    members = orjson.loads(cli(*lead, "roles", "--json").stdout)["members"]
    assert login in members["viewer"] and login not in members["steward"]
    done = cli(*lead, "roles", "revoke", login)
    assert done.returncode == 0, done.stderr
    done = cli(*lead, "roles", "revoke", login)
    assert done.returncode == 2 and "holds no role on this store" in done.stderr
    events = _try(
        team,
        "owner",
        "SELECT action, detail, actor FROM audit_events WHERE dead_letter_id IS NULL"
        " AND action LIKE 'role_%%' ORDER BY id",
    )
    mine = [e for e in events if login in e[1]]
    assert [e[0] for e in mine] == ["role_granted", "role_granted", "role_revoked"]
    assert all(f"(db: {team.logins['lead']})" in e[2] for e in mine)


def test_a_store_owner_who_is_no_superuser_sets_up_the_team(pg_available: None) -> None:
    """The README's way, without a superuser after the first step: an owner with CREATEROLE
    and its own schemas (not the database's owner) sets up, grants the first lead, who
    grants a steward; what each may do holds, and the owner is a lead of its store."""
    import uuid

    import psycopg
    from sqlalchemy.engine import make_url

    from tests.conftest import PG_BASE
    from tests.support import SEED_BATCH

    tag = uuid.uuid4().hex[:8]
    owner, lead, steward = (f"td_{k}_{tag}" for k in ("owner", "lead", "steward"))
    store, wh = f"td_store_{tag}", f"td_wh_{tag}"
    base = make_url(PG_BASE)
    admin_info = dict(
        host=base.host,
        port=base.port or 5432,
        dbname=base.database,
        user=base.username,
        autocommit=True,
    )
    database = base.database or ""
    groups = list(group_roles(database, store).values())
    with psycopg.connect(**admin_info) as conn:
        conn.execute(f'CREATE ROLE "{owner}" LOGIN CREATEROLE')
        for login in (lead, steward):
            conn.execute(f'CREATE ROLE "{login}" LOGIN')
        conn.execute(f'GRANT CREATE ON DATABASE "{database}" TO "{owner}"')
        for schema in (store, wh):
            conn.execute(f'CREATE SCHEMA "{schema}" AUTHORIZATION "{owner}"')

    def args(user: str) -> list[str]:
        return [
            x
            for schema, flag in ((wh, "--warehouse"), (store, "--dead-letter"))
            for x in (
                flag,
                base.set(username=user)
                .update_query_dict({"options": f"-csearch_path={schema}"})
                .render_as_string(hide_password=False),
            )
        ]

    try:
        done = cli(*args(owner), "run", str(SEED_BATCH), "--transform", "pesanan@1")
        assert done.returncode == 0, done.stderr
        for who in (lead, steward):  # not the store's owner
            done = cli(*args(who), "roles", "setup")
            assert done.returncode == 2, done.stderr  # its schema is closed to them yet
            assert "holds no role on this store" in done.stderr, done.stderr
        done = cli(*args(owner), "roles", "setup")
        assert done.returncode == 0, done.stderr
        assert "stewards and leads write pesanan" in done.stdout
        assert "you are lead" in cli(*args(owner), "roles", "me").stdout
        assert cli(*args(owner), "roles", "grant", lead, "lead").returncode == 0
        done = cli(*args(lead), "roles", "grant", steward, "steward")
        assert done.returncode == 0, done.stderr
        assert cli(*args(steward), "redrive", "4", "--transform", "pesanan@2").returncode == 0
        done = cli(*args(steward), "purge", "--older-than", "0", "--status", "resolved")
        assert done.returncode == 2 and "a steward may not purge" in done.stderr
        done = cli(*args(lead), "purge", "--older-than", "0", "--status", "resolved")
        assert done.returncode == 0, done.stderr
    finally:
        with psycopg.connect(**admin_info) as conn:
            for schema in (store, wh, masked_schema(store)):
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            for name in (*groups, lead, steward, owner):
                if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone():
                    conn.execute(f'DROP OWNED BY "{name}" CASCADE')
                    conn.execute(f'DROP ROLE "{name}"')
