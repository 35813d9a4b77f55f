"""The store's schema: ``ensure_schema`` creates every table and index and stamps a SQLite
store's ``PRAGMA user_version`` with ``schema_stamp()``; while the stamp matches, a later
call does no work at all (a dropped index stays dropped); once the stamp does not match,
the missing index or table comes back. The stamp is a stable positive 31-bit number that
changes when the store's metadata gains a table or an index, and is back when it loses it.
On PostgreSQL, which has no stamp, every call checks and repairs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Column, Engine, Index, Integer, Table, inspect
from sqlalchemy.engine import make_url

from triage_app.core.db import DeadLetter, make_engine
from triage_app.core.db.models import Base
from triage_app.core.db.schema import ensure_schema, schema_stamp

STORE_TABLES = {"batches", "batch_chunks", "dead_letters", "audit_events", "stats_cache"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'dead_letter.db'}", "dead-letter store")
    yield engine
    engine.dispose()


def user_version(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def set_user_version(engine: Engine, value: int) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql(f"PRAGMA user_version = {value}")


def dl_indexes(engine: Engine) -> set[str]:
    return {str(i["name"]) for i in inspect(engine).get_indexes("dead_letters")}


def drop(engine: Engine, what: str) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql(f"DROP {what}")


def model_indexes() -> set[str]:
    return {str(i.name) for i in DeadLetter.__table__.indexes}


def test_a_new_store_gets_every_table_and_index_and_the_stamp(store: Engine) -> None:
    assert user_version(store) == 0
    ensure_schema(store)
    assert set(inspect(store).get_table_names()) >= STORE_TABLES
    assert model_indexes() <= dl_indexes(store)
    assert user_version(store) == schema_stamp()


def test_a_current_store_is_not_checked_again(store: Engine) -> None:
    ensure_schema(store)
    drop(store, "INDEX ix_dl_resolved")
    ensure_schema(store)  # the stamp matches: nothing is looked at, so nothing is repaired
    assert "ix_dl_resolved" not in dl_indexes(store)
    assert user_version(store) == schema_stamp()


def test_a_store_that_lost_an_index_gets_it_back(store: Engine) -> None:
    ensure_schema(store)
    drop(store, "INDEX ix_dl_cube")
    set_user_version(store, 0)
    ensure_schema(store)
    assert "ix_dl_cube" in dl_indexes(store)
    assert model_indexes() <= dl_indexes(store)
    assert user_version(store) == schema_stamp()


def test_a_store_stamped_by_another_version_is_checked(store: Engine) -> None:
    ensure_schema(store)
    drop(store, "TABLE stats_cache")
    drop(store, "INDEX ix_event_action_at")
    set_user_version(store, schema_stamp() ^ 1)  # as an older release would have left it
    ensure_schema(store)
    assert "stats_cache" in inspect(store).get_table_names()
    assert "ix_event_action_at" in {
        str(i["name"]) for i in inspect(store).get_indexes("audit_events")
    }
    assert user_version(store) == schema_stamp()


def test_the_stamp_is_a_stable_positive_31_bit_number() -> None:
    stamp = schema_stamp()
    assert isinstance(stamp, int)
    assert 0 < stamp < 2**31  # PRAGMA user_version is a signed 32-bit integer
    assert schema_stamp() == stamp


def test_the_stamp_follows_a_new_table() -> None:
    before = schema_stamp()
    extra = Table("zz_probe_table", Base.metadata, Column("id", Integer, primary_key=True))
    try:
        with_table = schema_stamp()
    finally:
        Base.metadata.remove(extra)
    assert with_table != before
    assert schema_stamp() == before


def test_the_stamp_follows_a_new_index() -> None:
    before = schema_stamp()
    table = DeadLetter.__table__
    extra = Index("ix_zz_probe", table.c.line)  # attaches itself to the table
    try:
        with_index = schema_stamp()
    finally:
        table.indexes.discard(extra)
    assert with_index != before
    assert schema_stamp() == before


def test_postgresql_checks_and_repairs_every_time(pg_urls: tuple[str, str]) -> None:
    _, dl = pg_urls
    engine = make_engine(dl, "dead-letter store")
    schema = make_url(dl).query["options"]
    assert isinstance(schema, str) and schema.startswith("-csearch_path=")
    try:
        ensure_schema(engine)
        assert set(inspect(engine).get_table_names()) >= STORE_TABLES
        drop(engine, "INDEX ix_dl_resolved")
        ensure_schema(engine)
        assert "ix_dl_resolved" in dl_indexes(engine)
        assert model_indexes() <= dl_indexes(engine)
    finally:
        engine.dispose()
