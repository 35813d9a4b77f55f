"""Lineage (issue 25): every warehouse row records the batch, line and transform version that
last wrote it; a re-drive records its own version; a warehouse from before the version
column gains it, filled from each batch's transform, once, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import DeadLetterFilter, redrive
from triage_app.core.demo.orders import write_orders
from triage_app.core.vocabulary import ErrorClass


def _lineage(engine: Engine) -> list[tuple[int, str, int, str | None]]:
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT pesanan_id, _batch_id, _line, _transform FROM pesanan ORDER BY 1")
        )
        return [tuple(r) for r in rows]  # type: ignore[misc]


def _cycle(ws: Workspace, folder: Path) -> None:
    first = write_orders(folder / "night_1.jsonl", 200, bad=0.05, seed=1)
    b1 = run_batch(ws, first, "pesanan@1").batch_id
    rows = _lineage(ws.warehouse)
    assert len(rows) > 150
    assert {(b, t) for _k, b, _l, t in rows} == {(b1, "pesanan@1")}
    assert all(isinstance(line, int) and line > 0 for _k, _b, line, _t in rows)

    # A re-drive through pesanan@2 writes the rows it loads as pesanan@2's.
    done = redrive(ws, "pesanan@2", where=DeadLetterFilter(error_class=ErrorClass.CODE))
    assert done.succeeded > 0
    by_version = {t for _k, _b, _l, t in _lineage(ws.warehouse)}
    assert by_version == {"pesanan@1", "pesanan@2"}
    redriven = [r for r in _lineage(ws.warehouse) if r[3] == "pesanan@2"]
    assert len(redriven) == done.succeeded and {b for _k, b, _l, _t in redriven} == {b1}

    # A warehouse from before the version: the column dropped, as an old one never had it.
    with ws.warehouse.begin() as conn:
        conn.execute(text("ALTER TABLE pesanan DROP COLUMN _transform"))
    second = write_orders(folder / "night_2.jsonl", 100, bad=0.0, seed=2)
    b2 = run_batch(ws, second, "pesanan@2").batch_id
    after = _lineage(ws.warehouse)
    # Every row again has a version: its batch's own, or the second batch's.
    for _k, batch, _line, version in after:
        assert version == ("pesanan@2" if batch == b2 else "pesanan@1")


def test_lineage_on_sqlite(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        _cycle(ws, tmp_path)


def test_lineage_on_postgresql(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        _cycle(ws, tmp_path)


def test_a_transform_name_that_is_no_sql_literal_is_refused() -> None:
    from triage_app.core.db.warehouse import version_literal
    from triage_app.core.errors import TriageError
    from triage_app.core.transforms import default_registry

    t = default_registry().get("pesanan@1")
    assert version_literal(t) == "'pesanan@1'"
    bad = type(t)(**{**t.__dict__, "name": "x'; DROP TABLE pesanan; --"})
    with pytest.raises(TriageError, match="letters, digits"):
        version_literal(bad)
