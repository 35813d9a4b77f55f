"""The engines a workspace opens: every SQLite connection, not only the first, runs in WAL
mode with the busy timeout, synchronous=NORMAL and enforced foreign keys (read back with
PRAGMAs from a real file); a dialect other than SQLite or PostgreSQL, a URL that does not
parse and a driver that does not exist are each refused with a one-line TriageError that
shows no password; a plain ``postgresql://`` URL gets the psycopg driver; and a PostgreSQL
server that does not answer is reported in one line with the password hidden."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import IntegrityError

from tests.support import REPO
from triage_app.core.db import check_reachable, make_engine
from triage_app.core.db.lock_waits import BUSY_TIMEOUT_MS
from triage_app.core.errors import TriageError

SECRET = "s3cr3t-pw"


@pytest.fixture
def sqlite_engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'tuned.db'}", "warehouse")
    yield engine
    engine.dispose()


def pragma(conn: Connection, name: str) -> object:
    return conn.exec_driver_sql(f"PRAGMA {name}").scalar()


def test_every_sqlite_connection_is_tuned(sqlite_engine: Engine) -> None:
    # Two connections open at once are two DB-API connections: each must be tuned.
    with sqlite_engine.connect() as first, sqlite_engine.connect() as second:
        assert first.connection.dbapi_connection is not second.connection.dbapi_connection
        for conn in (first, second):
            assert pragma(conn, "journal_mode") == "wal"
            assert pragma(conn, "busy_timeout") == BUSY_TIMEOUT_MS
            assert pragma(conn, "synchronous") == 1  # NORMAL
            assert pragma(conn, "foreign_keys") == 1


@pytest.mark.parametrize(("setting", "want"), [(None, "15000"), ("1234", "1234")])
def test_the_busy_timeout_is_fifteen_seconds_unless_its_variable_says(
    tmp_path: Path, setting: str | None, want: str
) -> None:
    """Read once, when the module loads: so a fresh interpreter for each setting."""
    code = (
        "import sys\n"
        "from triage_app.core.db import make_engine\n"
        "e = make_engine('sqlite:///' + sys.argv[1], 'warehouse')\n"
        "with e.connect() as c:\n"
        "    print(c.exec_driver_sql('PRAGMA busy_timeout').scalar())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_BUSY_TIMEOUT_MS"}
    if setting is not None:
        env["TRIAGE_BUSY_TIMEOUT_MS"] = setting
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "t.db")],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == want


def test_wal_mode_stays_with_the_file(sqlite_engine: Engine, tmp_path: Path) -> None:
    import sqlite3

    with sqlite_engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    raw = sqlite3.connect(tmp_path / "tuned.db")
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()


def test_foreign_keys_are_enforced(sqlite_engine: Engine) -> None:
    with sqlite_engine.begin() as conn:
        conn.execute(text("CREATE TABLE parent (id INTEGER PRIMARY KEY)"))
        conn.execute(text("CREATE TABLE child (id INTEGER, pid INTEGER REFERENCES parent(id))"))
        conn.execute(text("INSERT INTO parent VALUES (1)"))
        conn.execute(text("INSERT INTO child VALUES (1, 1)"))
    with pytest.raises(IntegrityError, match="FOREIGN KEY"), sqlite_engine.begin() as conn:
        conn.execute(text("INSERT INTO child VALUES (2, 99)"))


def test_a_missing_sqlite_folder_is_created(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'deep' / 'er' / 'x.db'}", "dead-letter store")
    try:
        assert (tmp_path / "deep" / "er").is_dir()
        check_reachable(engine, "dead-letter store")
        assert (tmp_path / "deep" / "er" / "x.db").is_file()
    finally:
        engine.dispose()


def test_a_sqlite_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_bytes(b"")
    with pytest.raises(TriageError) as err:
        make_engine(f"sqlite:///{tmp_path / 'a-file' / 'sub' / 'x.db'}", "warehouse")
    message = str(err.value)
    assert message.startswith("warehouse: cannot create the database folder")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("url", "dialect"),
    [
        (f"mysql://bob:{SECRET}@db.example/wh", "mysql"),
        (f"mssql+pyodbc://bob:{SECRET}@db.example/wh", "mssql"),
        (f"oracle://bob:{SECRET}@db.example/wh", "oracle"),
    ],
)
def test_an_unsupported_dialect_is_one_line(url: str, dialect: str) -> None:
    with pytest.raises(TriageError) as err:
        make_engine(url, "warehouse")
    message = str(err.value)
    assert message == f"warehouse: {dialect} is not supported; use sqlite or postgresql"
    assert SECRET not in message


@pytest.mark.parametrize(
    "url",
    ["not a url", f"post gres://bob:{SECRET}@db.example/wh"],
)
def test_a_bad_url_is_one_line_without_the_password(url: str) -> None:
    with pytest.raises(TriageError) as err:
        make_engine(url, "dead-letter store")
    message = str(err.value)
    assert message.startswith("bad dead-letter store URL: ")
    assert "\n" not in message and SECRET not in message


def test_an_unknown_driver_is_one_line() -> None:
    with pytest.raises(TriageError) as err:
        make_engine("sqlite+nosuchdriver:///x.db", "warehouse")
    assert str(err.value) == "warehouse: no driver for sqlite+nosuchdriver"


def test_plain_postgresql_gets_psycopg() -> None:
    engine = make_engine(f"postgresql://bob:{SECRET}@db.example:5432/wh", "warehouse")
    try:
        assert engine.url.drivername == "postgresql+psycopg"
        assert engine.url.password == SECRET  # the driver changes, the credentials do not
        assert (engine.url.host, engine.url.port, engine.url.database) == (
            "db.example",
            5432,
            "wh",
        )
    finally:
        engine.dispose()


def test_an_explicit_postgresql_driver_is_kept() -> None:
    engine = make_engine("postgresql+psycopg://db.example/wh", "warehouse")
    try:
        assert engine.url.drivername == "postgresql+psycopg"
    finally:
        engine.dispose()


def test_an_unreachable_server_is_one_line_with_the_password_hidden() -> None:
    engine = make_engine(f"postgresql://bob:{SECRET}@127.0.0.1:1/wh", "warehouse")
    try:
        with pytest.raises(TriageError) as err:
            check_reachable(engine, "warehouse")
    finally:
        engine.dispose()
    message = str(err.value)
    assert message.startswith("cannot reach the warehouse at postgresql+psycopg://bob:***@")
    assert "127.0.0.1:1/wh" in message
    assert "\n" not in message and SECRET not in message


def test_a_plain_postgresql_url_reaches_the_test_server(pg_urls: tuple[str, str]) -> None:
    wh, _ = pg_urls
    plain = wh.replace("postgresql+psycopg://", "postgresql://", 1)
    assert plain.startswith("postgresql://")
    engine = make_engine(plain, "warehouse")
    try:
        check_reachable(engine, "warehouse")
        assert engine.dialect.driver == "psycopg"
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql+psycopg2://u:s3cret@h/db", "no driver for postgresql+psycopg2"),
        ("postgresql://u:s3cret@h:abc/db", "bad warehouse URL"),
    ],
)
def test_a_url_the_engine_cannot_use_is_one_line(url: str, says: str) -> None:
    with pytest.raises(TriageError) as refused:
        make_engine(url, "warehouse")
    message = str(refused.value)
    assert says in message and "s3cret" not in message and "\n" not in message


def test_a_postgresql_store_connection_waits_boundedly_and_compiles_nothing(
    pg_urls: tuple[str, str],
) -> None:
    """Each new connection: a bounded lock wait (lock_waits.py) and no JIT, whose compile
    cost 100 ms of Trends' 0.35 s at ten million rows (engines._without_jit)."""
    _, dl = pg_urls
    engine = make_engine(dl, "dead-letter store")
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SHOW jit")).scalar() == "off"
            assert conn.execute(text("SHOW lock_timeout")).scalar() not in ("0", None)
    finally:
        engine.dispose()
