"""Where a workspace's two databases live and how it opens them: an argument wins over its
``TRIAGE_*`` environment variable, which wins over the default folder; a workspace named by
two URLs has no folder; the description shown in titles never shows a password; opening a
folder creates it with both SQLite files and the store's tables; a resolved config opens the
same two databases again; an unreachable database refuses in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from triage_app.core.db import (
    WorkspaceConfig,
    missing_workspace,
    open_config,
    open_workspace,
    resolve_config,
)
from triage_app.core.errors import TriageError
from triage_app.core.places import default_workspace_dir

STORE_TABLES = {"batches", "batch_chunks", "dead_letters", "audit_events", "stats_cache"}
PG_WITH_PASSWORD = "postgresql://bob:s3cr3t-pw@db.example:5432/{}"


def db_file(url: str) -> Path:
    """The file a SQLite URL names."""
    parsed = make_url(url)
    assert parsed.get_backend_name() == "sqlite" and parsed.database
    return Path(parsed.database)


def test_the_default_folder_when_nothing_is_named() -> None:
    config = resolve_config(env={})
    folder = default_workspace_dir().resolve()
    assert config.folder == folder
    assert db_file(config.warehouse_url) == folder / "warehouse.db"
    assert db_file(config.dead_letter_url) == folder / "dead_letter.db"


def test_the_environment_names_the_folder(tmp_path: Path) -> None:
    config = resolve_config(env={"TRIAGE_WORKSPACE": str(tmp_path / "from-env")})
    assert config.folder == tmp_path.resolve() / "from-env"
    assert db_file(config.dead_letter_url) == tmp_path.resolve() / "from-env" / "dead_letter.db"


def test_the_argument_wins_over_the_environment(tmp_path: Path) -> None:
    env = {"TRIAGE_WORKSPACE": str(tmp_path / "from-env")}
    config = resolve_config(tmp_path / "from-arg", env=env)
    assert config.folder == tmp_path.resolve() / "from-arg"
    assert db_file(config.warehouse_url) == tmp_path.resolve() / "from-arg" / "warehouse.db"


def test_a_relative_or_home_folder_becomes_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert resolve_config("rel", env={}).folder == tmp_path.resolve() / "rel"
    home = resolve_config("~/ws", env={})
    assert home.folder == (tmp_path / "home").resolve() / "ws"
    assert db_file(home.warehouse_url) == (tmp_path / "home").resolve() / "ws" / "warehouse.db"


def test_url_arguments_win_over_url_variables_which_win_over_the_folder(tmp_path: Path) -> None:
    env = {
        "TRIAGE_WORKSPACE": str(tmp_path / "ws"),
        "TRIAGE_WAREHOUSE_URL": "postgresql://env-host/wh",
        "TRIAGE_DEAD_LETTER_URL": "postgresql://env-host/dl",
    }
    from_env = resolve_config(env=env)
    assert (from_env.warehouse_url, from_env.dead_letter_url) == (
        "postgresql://env-host/wh",
        "postgresql://env-host/dl",
    )
    from_args = resolve_config(
        warehouse_url="postgresql://arg-host/wh",
        dead_letter_url="postgresql://arg-host/dl",
        env=env,
    )
    assert (from_args.warehouse_url, from_args.dead_letter_url) == (
        "postgresql://arg-host/wh",
        "postgresql://arg-host/dl",
    )


@pytest.mark.parametrize("which", ["warehouse", "dead_letter"])
def test_one_url_keeps_the_folder_for_the_other_database(tmp_path: Path, which: str) -> None:
    url = "postgresql://host/db"
    if which == "warehouse":
        config = resolve_config(tmp_path, warehouse_url=url, env={})
        assert config.warehouse_url == url
        assert db_file(config.dead_letter_url) == tmp_path.resolve() / "dead_letter.db"
    else:
        env = {"TRIAGE_DEAD_LETTER_URL": url}
        config = resolve_config(tmp_path, env=env)
        assert config.dead_letter_url == url
        assert db_file(config.warehouse_url) == tmp_path.resolve() / "warehouse.db"
    assert config.folder == tmp_path.resolve()


def test_two_urls_mean_no_folder(tmp_path: Path) -> None:
    by_args = resolve_config(
        tmp_path, warehouse_url="postgresql://h/wh", dead_letter_url="postgresql://h/dl", env={}
    )
    by_env = resolve_config(
        env={
            "TRIAGE_WORKSPACE": str(tmp_path),
            "TRIAGE_WAREHOUSE_URL": "postgresql://h/wh",
            "TRIAGE_DEAD_LETTER_URL": "postgresql://h/dl",
        }
    )
    assert by_args.folder is None and by_env.folder is None


def test_the_description_names_the_folder(tmp_path: Path) -> None:
    config = resolve_config(tmp_path / "ws", env={})
    assert config.description == str(tmp_path.resolve() / "ws")


def test_the_description_hides_a_password(tmp_path: Path) -> None:
    both = resolve_config(
        warehouse_url=PG_WITH_PASSWORD.format("wh"),
        dead_letter_url=PG_WITH_PASSWORD.format("dl"),
        env={},
    )
    assert "s3cr3t-pw" not in both.description
    assert "bob:***@db.example:5432/wh" in both.description
    assert "bob:***@db.example:5432/dl" in both.description
    mixed = resolve_config(tmp_path, warehouse_url=PG_WITH_PASSWORD.format("wh"), env={})
    assert "s3cr3t-pw" not in mixed.description
    assert mixed.description.startswith(str(tmp_path.resolve()))
    assert "bob:***@db.example:5432/wh" in mixed.description
    assert "sqlite" not in mixed.description


def test_opening_creates_the_folder_and_both_sqlite_files(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "yet" / "there"
    with open_workspace(folder) as ws:
        assert ws.config.folder == folder.resolve()
        assert (folder / "warehouse.db").is_file()
        assert (folder / "dead_letter.db").is_file()
        assert set(inspect(ws.store).get_table_names()) >= STORE_TABLES
        # Two databases, not one: the warehouse holds none of the store's tables.
        assert not STORE_TABLES & set(inspect(ws.warehouse).get_table_names())


def test_a_resolved_config_opens_the_same_databases_again(tmp_path: Path) -> None:
    config = resolve_config(tmp_path / "ws", env={})
    with open_config(config) as ws, ws.warehouse.begin() as conn:
        conn.execute(text("CREATE TABLE probe (v TEXT)"))
        conn.execute(text("INSERT INTO probe VALUES ('written the first time')"))
    with open_config(config) as again, again.warehouse.connect() as conn:
        # The whole config, folder included: a worker's workspace is the window's.
        assert again.config == config and again.config.folder == (tmp_path / "ws").resolve()
        assert conn.execute(text("SELECT v FROM probe")).scalar() == "written the first time"


def test_a_config_of_two_urls_round_trips_whole(tmp_path: Path) -> None:
    config = WorkspaceConfig(
        folder=None,
        warehouse_url=f"sqlite:///{tmp_path / 'a' / 'wh.db'}",
        dead_letter_url=f"sqlite:///{tmp_path / 'b' / 'dl.db'}",
    )
    with open_config(config) as ws:
        assert ws.config == config
        assert set(inspect(ws.store).get_table_names()) >= STORE_TABLES
    assert (tmp_path / "a" / "wh.db").is_file() and (tmp_path / "b" / "dl.db").is_file()


def test_an_unreachable_warehouse_refuses_in_one_line_without_the_password(
    tmp_path: Path,
) -> None:
    with pytest.raises(TriageError) as err:
        open_workspace(tmp_path / "ws", warehouse_url="postgresql://bob:s3cr3t-pw@127.0.0.1:1/wh")
    message = str(err.value)
    assert message.startswith("cannot reach the warehouse at ")
    assert "\n" not in message and "s3cr3t-pw" not in message and "bob:***@" in message


def test_a_workspace_on_postgresql_has_no_folder(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws:
        assert ws.config.folder is None
        assert ws.store.dialect.name == "postgresql"
        assert set(inspect(ws.store).get_table_names()) >= STORE_TABLES
        assert "sqlite" not in ws.config.description


def test_a_missing_workspace_is_named_and_nothing_is_made(tmp_path: Path) -> None:
    """What the window asks about before opening: a folder that is gone, a folder without
    a store (an unmounted share's empty mount point), and nothing made by looking."""
    gone = tmp_path / "share" / "ws"
    assert missing_workspace(resolve_config(gone, env={})) == f"the folder {gone} is not there"
    empty = tmp_path / "mnt"
    empty.mkdir()
    assert missing_workspace(resolve_config(empty, env={})) == (
        f"no workspace in {empty} (it has no dead_letter.db)"
    )
    assert not gone.parent.exists() and list(empty.iterdir()) == []
    with open_workspace(empty):
        pass
    assert missing_workspace(resolve_config(empty, env={})) is None
    team = resolve_config(None, "postgresql://h/wh", "postgresql://h/dl", env={})
    assert missing_workspace(team) is None  # a server's store is not looked for on disk


def test_store_revision_reads_what_the_store_records(tmp_path: Path) -> None:
    from sqlalchemy import create_engine

    from triage_app.core.db import HEAD_REVISION, store_revision

    with open_workspace(tmp_path / "ws") as ws:
        assert store_revision(ws.store) == HEAD_REVISION
    empty = create_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    try:
        assert store_revision(empty) is None
    finally:
        empty.dispose()
