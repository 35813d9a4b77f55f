"""The same cycle with both databases on PostgreSQL (the team setup)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.seeds.test_seed_000 import run_seed_cycle
from tests.support import HOSTILE, SEED_ORDERS, gen_batch
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace, table_sha256
from triage_app.core.deadletters import DeadLetterFilter, get_dead_letter, list_dead_letters
from triage_app.core.transforms.orders import TRANSFORMS as ORDERS
from triage_app.core.transforms.pesanan import TRANSFORMS as PESANAN

pytestmark = pytest.mark.postgres


def test_seed_000_cycle_on_postgres(pg_urls: tuple[str, str], seed_batch: Path) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        assert ws.warehouse.dialect.name == ws.store.dialect.name == "postgresql"
        assert ws.config.folder is None
        run_seed_cycle(ws, seed_batch)


def test_seed_001_hash_on_postgres(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    src = tmp_path / SEED_ORDERS.name
    shutil.copyfile(SEED_ORDERS, src)
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        run_batch(ws, src, "orders@1")
        h1 = table_sha256(ws.warehouse, ORDERS[0])
        assert run_batch(ws, src, "orders@1").already_loaded
        assert table_sha256(ws.warehouse, ORDERS[0]) == h1
    sqlite = open_workspace(tmp_path / "ws")
    run_batch(sqlite, src, "orders@1")
    # The same content on either dialect.
    assert table_sha256(sqlite.warehouse, ORDERS[0]) == h1
    sqlite.close()


@pytest.mark.parametrize("lanes", ["1", "2"])
def test_batch_and_sink_refusal_on_postgres(
    pg_urls: tuple[str, str], tmp_path: Path, lanes: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIAGE_LANES", lanes)
    src = gen_batch(tmp_path / "orders.jsonl", 5_000, bad=0.02)
    with src.open("a") as f:  # beyond BIGINT: PostgreSQL refuses it, alone
        f.write(
            '{"pesanan_id": 9223372036854775808, "waktu": "w", "pelanggan": "p", '
            '"produk": "x", "qty": 1, "harga": 1, "diskon": 0}\n'
        )
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        s = run_batch(ws, src, "pesanan@2", chunk_size=700)
        assert s.rows == s.loaded + s.superseded + s.quarantined
        last = list_dead_letters(ws, DeadLetterFilter(search="9223372036854775808"))
        assert len(last) == 1 and last[0].error_class == "data"
        pg_hash = table_sha256(ws.warehouse, PESANAN[1])
        pg_dead = sorted((d.line, d.error_class) for d in list_dead_letters(ws, limit=None))
    local = open_workspace(tmp_path / "ws")
    run_batch(local, src, "pesanan@2")
    assert table_sha256(local.warehouse, PESANAN[1]) == pg_hash
    # The same lines fail; only the driver's wording of the refusal differs.
    assert sorted((d.line, d.error_class) for d in list_dead_letters(local, limit=None)) == pg_dead
    local.close()


def test_search_is_literal_on_postgres(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    src = tmp_path / "odd.jsonl"
    src.write_text('{"note": "100% off_sale"}\n{"note": "100 off"}\n{"n": "it\'s"}\n')
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        run_batch(ws, src, "pesanan@2")
        found = lambda q: [d.line for d in list_dead_letters(ws, DeadLetterFilter(search=q))]  # noqa: E731
        assert found("100%") == [1]
        assert found("f_s") == [1]
        assert found("it's") == [3]
        assert found("kolom wajib") == [1, 2, 3]  # the error text, case-insensitively
        assert found("KOLOM") == [1, 2, 3]


def test_escaped_nul_is_refused_by_postgres_alone(pg_urls: tuple[str, str]) -> None:
    """PostgreSQL text cannot hold U+0000 (SQLite can): the row fails at the sink and is
    quarantined by itself, as data."""
    src = HOSTILE / "escaped_nul.jsonl"
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        s = run_batch(ws, src, "pesanan@2")
        assert (s.rows, s.loaded, s.quarantined) == (1, 0, 1)
        (d,) = list_dead_letters(ws)
        assert d.error_class == "data"
        # The NUL is in the customer's name, which a list shows masked (issue 27).
        assert "\\u0000" in get_dead_letter(ws, d.id, reveal=True).payload
