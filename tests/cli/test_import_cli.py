"""``import`` and ``redrive --to original`` from the command line, on seed 000's own
pipeline (its dead_letter and pesanan tables in a SQLite file): what a steward types, in a
real process; the broker's side is tests/core/connectors/test_amqp.py's."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.connectors.pipeline_db import create_seed_tables, rows_of, run_seed_loader
from tests.support import cli


def _json(*args: str) -> object:
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_import_fix_and_redrive_into_the_pipelines_own_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pipeline.db'}"
    create_seed_tables(url)
    run_seed_loader(url)
    assert [r[1] for r in rows_of(url, "dead_letter", "baris")] == [3, 4, 6, 8]  # as the seed
    ws = ["--workspace", str(tmp_path / "ws")]
    got = _json(
        *ws,
        "--json",
        "import",
        url,
        "--table",
        "dead_letter",
        "--map",
        "seed-000",
        "--sink-table",
        "pesanan",
        "--after-load",
        "delete",
    )
    assert (
        got["imported"] == 4 and got["already"] == 0 and got["by_class"] == {"data": 3, "code": 1}
    )
    again = _json(*ws, "--json", "import", "dead_letter")  # the kept connector, by name
    assert (again["imported"], again["already"]) == (0, 4)
    listed = _json(*ws, "--json", "connectors")
    assert [(c["name"], c["kind"]) for c in listed] == [("dead_letter", "table")]
    rows = _json(*ws, "--json", "list", "--source", "dead_letter")
    assert len(rows) == 4
    # Line 4 (qty missing) fixed by hand; 8 passes through pesanan@2 as it is (diskon null).
    ids = sorted(r["id"] for r in rows)
    fixed = (
        '{"pesanan_id": 4, "waktu": "2026-01-11T08:05:00", "pelanggan": "Rina", '
        '"produk": "Seluar Linen", "qty": 1, "harga": 210000, "diskon": 0}'
    )
    four = next(r["id"] for r in rows if "kolom wajib hilang: qty" in r["error"])
    r = cli(*ws, "edit", str(four), "--payload", fixed)
    assert r.returncode == 0, r.stderr
    out = _json(
        *ws,
        "--json",
        "redrive",
        "--source",
        "dead_letter",
        "--with",
        "pesanan@2",
        "--to",
        "original",
    )
    assert out["succeeded"] == 2 and out["failed"] == 2, out
    assert out["destination"] == "where each came from"
    pesanan = rows_of(url, "pesanan", "pesanan_id")
    assert [(p[0], p[-1]) for p in pesanan if p[0] in (4, 8)] == [(4, 210000), (8, 120000)]
    left = [row[1] for row in rows_of(url, "dead_letter", "baris")]
    assert left == [3, 6]  # deleted once loaded, as the seed's retry_dead_letter does
    assert ids  # every row was listed by its source


def test_import_refuses_in_one_line(tmp_path: Path) -> None:
    ws = ["--workspace", str(tmp_path / "ws")]
    r = cli(*ws, "import", "amqp://guest:sekret@127.0.0.1:5672/%2F")
    assert r.returncode == 2 and "--queue" in r.stderr and r.stderr.count("\n") == 1
    r = cli(*ws, "import", f"sqlite:///{tmp_path / 'none.db'}", "--table", "dead_letter")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = cli(*ws, "import", "no-such-connector")
    assert r.returncode == 2 and "no connector" in r.stderr
    r = cli(*ws, "import", "sqlite:///x.db", "--table", "t", "--map", "id=dl_id,oops")
    assert r.returncode == 2 and "--map" in r.stderr and "sekret" not in r.stderr
