"""Fixtures shared by every test: real workspaces on disk, the JSONTestSuite corpus, and
PostgreSQL where reachable. No test reaches the user's own settings (``own_settings``)."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import SEED_BATCH, JsonTestSuite
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.places import SETTINGS_DIR_ENV

# The suite's expectations are English, whatever the machine's locale: every test and every
# process a test starts speaks English unless it asks for another language itself.
os.environ["TRIAGE_LANG"] = "en"

PG_BASE = os.environ.get("TRIAGE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session", autouse=True)
def own_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The window's settings, and the config folder Qt and others write to, in a folder of
    the session's: every window a test builds and every app a test starts as a process
    (they inherit the environment) remembers its places there, never in the user's own.
    tests/gui/conftest.py gives each GUI test a fresh folder on top of this."""
    folder = tmp_path_factory.mktemp("config")
    saved = {k: os.environ.get(k) for k in (SETTINGS_DIR_ENV, "XDG_CONFIG_HOME")}
    os.environ[SETTINGS_DIR_ENV] = str(folder / "triage-desk")
    os.environ["XDG_CONFIG_HOME"] = str(folder)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture
def indonesian() -> Iterator[str]:
    """The engine and the command line's words in Bahasa Indonesia for one test, English
    again after it (the window's own is ``install_language``, in its tests)."""
    from triage_app.core import messages

    assert messages.use_language("id") == "id"
    try:
        yield "id"
    finally:
        messages.use_language("en")


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    ws = open_workspace(tmp_path / "ws")
    yield ws
    ws.close()


@pytest.fixture
def seed_batch(tmp_path: Path) -> Path:
    dst = tmp_path / SEED_BATCH.name
    shutil.copyfile(SEED_BATCH, dst)
    return dst


@pytest.fixture(scope="session")
def json_test_suite() -> JsonTestSuite:
    """All 318 JSONTestSuite cases (vendored under tests/conformance); a missing case fails
    every test that asks for them, it never skips one."""
    return JsonTestSuite.load()


def _pg_reachable() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    from sqlalchemy.engine import make_url

    url = make_url(PG_BASE)
    try:
        with psycopg.connect(
            host=url.host,
            port=url.port or 5432,
            user=url.username,
            dbname=url.database,
            connect_timeout=3,
        ):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL at {url.host}:{url.port} is not reachable: {exc}".splitlines()[0]


@pytest.fixture(scope="session")
def pg_available() -> None:
    reason = _pg_reachable()
    if reason is not None:
        if os.environ.get("CI") and not os.environ.get("TRIAGE_ALLOW_PG_SKIP"):
            pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
        pytest.skip(reason)


@pytest.fixture
def pg_urls(pg_available: None) -> Iterator[tuple[str, str]]:
    """Warehouse and dead-letter URLs on the test server, each in a fresh schema of its own
    (search_path in the URL), dropped afterwards."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(PG_BASE)
    schemas = [f"triage_{kind}_{uuid.uuid4().hex[:10]}" for kind in ("wh", "dl")]
    conninfo = dict(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        dbname=url.database,
        autocommit=True,
    )
    with psycopg.connect(**conninfo) as conn:
        for s in schemas:
            conn.execute(f"CREATE SCHEMA {s}")
    yield tuple(  # type: ignore[misc]
        url.update_query_dict({"options": f"-csearch_path={s}"}).render_as_string(
            hide_password=False
        )
        for s in schemas
    )
    with psycopg.connect(**conninfo) as conn:
        for s in schemas:
            conn.execute(f"DROP SCHEMA {s} CASCADE")


# What a test marked slow costs: more than this, in its setup, call and teardown together.
SLOW_SECONDS = 5.0
_unmarked_slow: list[tuple[float, str]] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Times each test whole, so that the run can say which unmarked ones cost too much."""
    import time

    start = time.perf_counter()
    yield
    took = time.perf_counter() - start
    if took > SLOW_SECONDS and item.get_closest_marker("slow") is None:
        _unmarked_slow.append((took, item.nodeid))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Not a failure (the machine's speed varies), a list to act on: `make test-fast`
    relies on the marks being true."""
    if _unmarked_slow:
        terminalreporter.section(f"over {SLOW_SECONDS:g} s but not marked slow")
        for took, nodeid in sorted(_unmarked_slow, reverse=True):
            terminalreporter.write_line(f"{took:6.1f} s  {nodeid}")
