"""The engine-free ``stats`` path finds the store's SQLite file as the CLI would: a
``--dead-letter`` URL wins over ``TRIAGE_DEAD_LETTER_URL``, which wins over the workspace
folder (argument, then ``TRIAGE_WORKSPACE``, then the default); a URL that is not a plain
``sqlite:///`` file has no path, so the engine answers; the path agrees with the one the
workspace opens. ``cached_answer`` answers None, without creating anything, for a missing
file, a file that is no SQLite database, a database without the store's tables, and a
store with nothing cached yet. (That a cached answer agrees with the engine is proven in
tests/core/trends/test_stats_cache.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from triage_app.core.db import Workspace, resolve_config
from triage_app.core.places import default_workspace_dir
from triage_app.core.quick_stats import cached_answer, store_path


def test_a_url_argument_names_the_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'dl.db'}"
    assert store_path(None, url, env={}) == tmp_path / "dl.db"
    assert store_path("ignored-folder", url, env={}) == tmp_path / "dl.db"


def test_a_relative_sqlite_url_stays_relative() -> None:
    assert store_path(None, "sqlite:///stores/dl.db", env={}) == Path("stores/dl.db")


def test_the_url_argument_wins_over_the_url_variable(tmp_path: Path) -> None:
    env = {"TRIAGE_DEAD_LETTER_URL": f"sqlite:///{tmp_path / 'env.db'}"}
    assert store_path(None, None, env=env) == tmp_path / "env.db"
    assert store_path(None, f"sqlite:///{tmp_path / 'arg.db'}", env=env) == tmp_path / "arg.db"


def test_the_url_variable_wins_over_the_folder(tmp_path: Path) -> None:
    env = {
        "TRIAGE_DEAD_LETTER_URL": f"sqlite:///{tmp_path / 'env.db'}",
        "TRIAGE_WORKSPACE": str(tmp_path / "ws"),
    }
    assert store_path(str(tmp_path / "other"), None, env=env) == tmp_path / "env.db"


def test_the_folder_argument_wins_over_its_variable(tmp_path: Path) -> None:
    env = {"TRIAGE_WORKSPACE": str(tmp_path / "env-ws")}
    assert store_path(None, None, env=env) == tmp_path / "env-ws" / "dead_letter.db"
    assert store_path(str(tmp_path / "arg-ws"), None, env=env) == (
        tmp_path / "arg-ws" / "dead_letter.db"
    )


def test_the_default_folder_when_nothing_is_named() -> None:
    assert store_path(None, None, env={}) == default_workspace_dir() / "dead_letter.db"


def test_the_folder_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert store_path("~/ws", None, env={}) == tmp_path / "ws" / "dead_letter.db"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bob:pw@db.example/dl",
        "postgresql+psycopg://db.example/dl",
        "sqlite://",  # in memory
        "sqlite:////tmp/dl.db?mode=ro",  # options only the engine understands
    ],
)
def test_any_other_database_has_no_path(url: str) -> None:
    assert store_path(None, url, env={}) is None
    assert store_path(None, None, env={"TRIAGE_DEAD_LETTER_URL": url}) is None


@pytest.mark.parametrize(
    ("workspace", "url", "env"),
    [
        ("ws", None, {}),
        (None, None, {"TRIAGE_WORKSPACE": "env-ws"}),
        ("ws", "sqlite:///{tmp}/elsewhere/dl.db", {}),
        (None, None, {"TRIAGE_DEAD_LETTER_URL": "sqlite:///{tmp}/elsewhere/dl.db"}),
    ],
)
def test_the_path_is_the_file_the_workspace_opens(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    workspace: str | None,
    url: str | None,
    env: dict[str, str],
) -> None:
    monkeypatch.chdir(tmp_path)  # relative folders resolve under tmp_path
    url = url and url.format(tmp=tmp_path)
    env = {k: v.format(tmp=tmp_path) for k, v in env.items()}
    path = store_path(workspace, url, env=env)
    config = resolve_config(workspace, None, url, env=env)
    assert path is not None and config.dead_letter_url.startswith("sqlite:///")
    assert path.resolve() == Path(str(make_url(config.dead_letter_url).database))


def test_no_answer_for_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "dead_letter.db"
    assert cached_answer(missing) is None
    assert not missing.exists() and not missing.parent.exists()


def test_no_answer_for_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "dead_letter.db"
    junk.write_bytes(b"this is not a SQLite database\n" * 100)
    assert cached_answer(junk) is None
    assert junk.read_bytes() == b"this is not a SQLite database\n" * 100


def test_no_answer_for_a_database_without_the_store(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "dead_letter.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE pesanan (id_pesanan INTEGER PRIMARY KEY)")  # a warehouse
    conn.commit()
    conn.close()
    assert cached_answer(db) is None


def test_no_answer_for_a_store_with_nothing_cached(workspace: Workspace) -> None:
    assert workspace.config.folder is not None
    db = workspace.config.folder / "dead_letter.db"
    assert db.is_file()
    assert cached_answer(db) is None
    before = sorted(p.name for p in workspace.config.folder.iterdir())
    assert cached_answer(db) is None
    assert sorted(p.name for p in workspace.config.folder.iterdir()) == before


def test_no_answer_for_a_store_at_another_schema_revision(workspace: Workspace) -> None:
    """A cached answer, but the store says it was made by a newer release: the engine is
    left to refuse it, the cache never answers for it."""
    import sqlite3

    from triage_app.core.trends import stats_json, warm_stats_cache

    warm_stats_cache(workspace)
    assert workspace.config.folder is not None
    db = workspace.config.folder / "dead_letter.db"
    assert cached_answer(db) is not None and stats_json(workspace)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 9999")
    conn.commit()
    conn.close()
    assert cached_answer(db) is None
