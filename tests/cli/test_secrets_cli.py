"""No password reaches a user's screen or logs, however it was spelled (issue 21): in a
URL's userinfo, in its query (``?password=``, ``sslpassword``), or in a libpq keyword
string, given as ``--warehouse``/``--dead-letter`` or through ``TRIAGE_*_URL``. Real CLI
processes against a port nothing listens on: every command refuses in one line, and that
line names the database with ``***`` where each password was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import SEED_BATCH, cli

SECRET = "Hunter2-kept-out"
SSL_SECRET = "Passphrase-kept-out"
# Every spelling of a password a user may give (port 1: refused at once, no network).
SPELLINGS = {
    "userinfo": f"postgresql://steward:{SECRET}@127.0.0.1:1/triage",
    "query": f"postgresql://steward@127.0.0.1:1/triage?password={SECRET}",
    "query, no user": f"postgresql://127.0.0.1:1/triage?sslmode=disable&password={SECRET}",
    "query, upper case": f"postgresql+psycopg://steward@127.0.0.1:1/triage?PASSWORD={SECRET}",
    "sslpassword": (
        f"postgresql://steward:{SECRET}@127.0.0.1:1/triage?sslpassword={SSL_SECRET}&sslmode=disable"
    ),
    "keyword string": f"host=127.0.0.1 port=1 dbname=triage user=steward password={SECRET}",
    "keyword string, quoted": (
        f"host=127.0.0.1 port=1 dbname=triage password='{SECRET} x' sslpassword={SSL_SECRET}"
    ),
    "keyword string, bad port": f"host=127.0.0.1 port=zz password={SECRET}",
    "not a URL at all": f"postgresql://steward:{SECRET}@127.0.0.1:notaport/triage",
}
COMMANDS = {
    "list": ["list"],
    "stats": ["stats"],
    "audit": ["audit"],
    "groups": ["groups"],
    "run": ["run", str(SEED_BATCH), "--transform", "pesanan@1"],
    "migrate": ["migrate"],
}


def _said(done: object) -> str:
    return f"{done.stdout}{done.stderr}"  # type: ignore[attr-defined]


def _no_secret(said: str) -> None:
    for secret in (SECRET, SSL_SECRET, SECRET.split("-")[0] + "-"):
        assert secret not in said, said


@pytest.mark.slow
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_no_password_in_any_refusal(tmp_path: Path, spelling: str) -> None:
    url = SPELLINGS[spelling]
    env = {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws")}
    as_argument = cli("--dead-letter", url, "list", env=env, timeout=60)
    through_env = cli("stats", env={**env, "TRIAGE_DEAD_LETTER_URL": url}, timeout=60)
    warehouse = cli("--warehouse", url, "list", env=env, timeout=60)
    for done in (as_argument, through_env, warehouse):
        assert done.returncode == 2, _said(done)
        assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        _no_secret(_said(done))
    if "password" in url.lower():
        assert "***" in as_argument.stderr, as_argument.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_hides_a_query_password(tmp_path: Path, command: str) -> None:
    env = {
        **os.environ,
        "TRIAGE_WORKSPACE": str(tmp_path / "ws"),
        "TRIAGE_DEAD_LETTER_URL": SPELLINGS["query"],
        "TRIAGE_WAREHOUSE_URL": SPELLINGS["keyword string"],
    }
    done = cli(*COMMANDS[command], env=env, timeout=60)
    assert done.returncode == 2, _said(done)
    _no_secret(_said(done))
    assert "password=***" in done.stderr or "steward:***@" in done.stderr, done.stderr


@pytest.mark.postgres
def test_a_keyword_string_connects_as_its_url(pg_urls: tuple[str, str]) -> None:
    """A libpq keyword string is no longer refused as a bad URL: it is read as the URL it
    means (so its password is hidden like any other's), and it connects. The test server
    trusts its users, so the password is accepted and never checked."""
    from sqlalchemy.engine import make_url

    dl = make_url(pg_urls[1])
    words = (
        f"host={dl.host} port={dl.port or 5432} dbname={dl.database} user={dl.username} "
        f"password='{SECRET} x' options={dl.query['options']}"
    )
    env = {**os.environ, "TRIAGE_WAREHOUSE_URL": pg_urls[0], "TRIAGE_DEAD_LETTER_URL": words}
    done = cli("run", str(SEED_BATCH), "--transform", "pesanan@1", env=env)
    assert done.returncode == 0, done.stderr
    listed = cli("list", env=env)
    assert listed.returncode == 0 and "DataError" in listed.stdout, listed.stderr
    _no_secret(_said(done) + _said(listed))
