"""A team store on the test server for the roles' tests (issue 27): the seed's batch in a
store of its own schema, its roles set up, and a login per person (unique names: role
names are the whole server's), each dropped with its privileges afterwards."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from tests.support import SEED_BATCH, cli


@dataclass(frozen=True)
class Team:
    """The store's schemas, the URLs of each person, and their logins by role."""

    wh: str  # the owner's (postgres) URLs
    dl: str
    store_schema: str
    wh_schema: str
    logins: dict[str, str]  # viewer, steward, steward2, lead, nobody -> login
    groups: dict[str, str]  # viewer, steward, lead -> group role
    masked: str  # the viewer's views' schema

    def urls(self, who: str) -> tuple[str, str]:
        """The warehouse and store URLs for ``who`` (a key of ``logins``, or ``owner``)."""
        if who == "owner":
            return self.wh, self.dl
        login = self.logins[who]
        return tuple(  # type: ignore[return-value]
            make_url(u).set(username=login).render_as_string(hide_password=False)
            for u in (self.wh, self.dl)
        )

    def args(self, who: str) -> list[str]:
        wh, dl = self.urls(who)
        return ["--warehouse", wh, "--dead-letter", dl]

    def conninfo(self, who: str) -> dict[str, Any]:
        """psycopg's keywords for ``who`` on the store's schema (no masked views first)."""
        url = make_url(self.dl)
        return dict(
            host=url.host,
            port=url.port or 5432,
            dbname=url.database,
            user=url.username if who == "owner" else self.logins[who],
            options=f"-csearch_path={self.store_schema}",
            autocommit=False,
        )


def admin(team_or_url: Any) -> Any:
    import psycopg

    url = make_url(team_or_url.dl if isinstance(team_or_url, Team) else team_or_url)
    return psycopg.connect(
        host=url.host,
        port=url.port or 5432,
        dbname=url.database,
        user=url.username,
        autocommit=True,
    )


def team_store(pg_urls: tuple[str, str]) -> Iterator[Team]:
    """The seed's batch (4 dead letters) in a new store, roles set up by the owner, and five
    logins: a viewer, two stewards, a lead (each granted by a lead), and one with no role."""
    from triage_app.core.db import group_roles, masked_schema

    wh, dl = pg_urls
    tag = uuid.uuid4().hex[:8]
    logins = {k: f"td_{k}_{tag}" for k in ("viewer", "steward", "steward2", "lead", "nobody")}
    store_schema = make_url(dl).query["options"].split("=", 1)[1]
    wh_schema = make_url(wh).query["options"].split("=", 1)[1]
    database = make_url(dl).database or ""
    groups = {r.value: n for r, n in group_roles(database, store_schema).items()}
    team = Team(wh, dl, store_schema, wh_schema, logins, groups, masked_schema(store_schema))
    with admin(team) as conn:
        for login in logins.values():
            conn.execute(f'CREATE ROLE "{login}" LOGIN')
    try:
        owner = ["--warehouse", wh, "--dead-letter", dl]
        done = cli(*owner, "run", str(SEED_BATCH), "--transform", "pesanan@1")
        assert done.returncode == 0, done.stderr
        done = cli(*owner, "roles", "setup")
        assert done.returncode == 0, done.stderr
        done = cli(*owner, "roles", "grant", logins["lead"], "lead")
        assert done.returncode == 0, done.stderr
        for who in ("viewer", "steward", "steward2"):
            role = "steward" if who.startswith("steward") else who
            done = cli(*team.args("lead"), "roles", "grant", logins[who], role)
            assert done.returncode == 0, done.stderr
        yield team
    finally:
        with admin(team) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{team.masked}" CASCADE')
            for name in (*logins.values(), *groups.values()):
                if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone():
                    conn.execute(f'DROP OWNED BY "{name}" CASCADE')
                    conn.execute(f'DROP ROLE "{name}"')


@pytest.fixture
def team(pg_urls: tuple[str, str]) -> Iterator[Team]:
    yield from team_store(pg_urls)
