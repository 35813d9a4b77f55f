"""The order generator: the same arguments write the same bytes, about ``bad`` of the orders
are defective with the defects taking turns, and a clean batch is the seed's shape."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.support import SEED_BATCH
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace
from triage_app.core.demo import write_orders
from triage_app.core.demo.orders import CUSTOMERS, DEFECTS, DISCOUNTS, PRICES, PRODUCTS

WAKTU = re.compile(r"2026-01-\d\dT\d\d:\d\d:00")


def defects_in(path: Path) -> list[tuple[str, dict[str, Any] | None]]:
    """Each line's kind ("ok" or one of DEFECTS), in file order, with its record."""
    seen: dict[int, dict[str, Any]] = {}
    out: list[tuple[str, dict[str, Any] | None]] = []
    for line in path.read_text(encoding="ascii").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            m = re.match(r'\{"pesanan_id": (\d+), ', line)
            assert m is not None, line
            seen[int(m[1])] = {}
            out.append(("truncated", None))
            continue
        pid = rec["pesanan_id"]
        if pid in seen:
            kind = "duplicate"
        elif "qty" not in rec:
            kind = "missing_qty"
        elif rec["qty"] < 0:
            kind = "negative_qty"
        elif rec["diskon"] is None:
            kind = "null_diskon"
        else:
            kind = "ok"
        seen.setdefault(pid, rec)
        out.append((kind, rec))
    return out


def test_same_arguments_same_bytes(tmp_path: Path) -> None:
    a = write_orders(tmp_path / "a.jsonl", 3_000, 0.05, seed=7)
    b = write_orders(tmp_path / "b.jsonl", 3_000, 0.05, seed=7)
    assert a == tmp_path / "a.jsonl"  # the path it wrote
    assert a.read_bytes() == b.read_bytes()
    other_seed = write_orders(tmp_path / "c.jsonl", 3_000, 0.05, seed=8)
    assert other_seed.read_bytes() != a.read_bytes()
    other_share = write_orders(tmp_path / "d.jsonl", 3_000, 0.2, seed=7)
    assert other_share.read_bytes() != a.read_bytes()
    # Defaults are fixed too: the helper the tests use writes what the generator writes.
    default = write_orders(str(tmp_path / "e.jsonl"), 500)
    assert default.read_bytes() == write_orders(tmp_path / "f.jsonl", 500, 0.001, 43).read_bytes()


def test_about_bad_of_the_rows_are_defective_and_the_defects_take_turns(tmp_path: Path) -> None:
    rows = 4_000
    path = write_orders(tmp_path / "o.jsonl", rows, bad=0.1)
    kinds = defects_in(path)
    defects = [k for k, _ in kinds if k != "ok"]
    assert 0.08 * rows < len(defects) < 0.12 * rows
    assert defects == [DEFECTS[i % len(DEFECTS)] for i in range(len(defects))]
    counts = {d: defects.count(d) for d in DEFECTS}
    assert max(counts.values()) - min(counts.values()) <= 1  # each in turn
    # A re-sent order adds a line; every other defect replaces its order's line.
    assert len(kinds) == rows + counts["duplicate"]
    ids = {rec["pesanan_id"] for _, rec in kinds if rec is not None}
    assert ids <= set(range(1, rows + 1))
    raw = path.read_bytes()
    assert raw.endswith(b"\n") and b"\r" not in raw and raw.isascii()


def test_each_defect_looks_as_described(tmp_path: Path) -> None:
    path = write_orders(tmp_path / "o.jsonl", 2_000, bad=0.1, seed=3)
    lines = path.read_text(encoding="ascii").splitlines()
    kinds = defects_in(path)
    assert {k for k, _ in kinds} == {"ok", *DEFECTS}
    first: dict[int, dict[str, Any]] = {}
    for (kind, rec), line in zip(kinds, lines, strict=True):
        if kind == "truncated":
            assert line.startswith('{"pesanan_id": ') and not line.endswith("}")
        elif kind == "missing_qty":
            assert rec is not None and set(rec) == {
                "pesanan_id",
                "waktu",
                "pelanggan",
                "produk",
                "harga",
                "diskon",
            }
        elif kind == "negative_qty":
            assert rec is not None and rec["qty"] == -1
        elif kind == "null_diskon":
            assert rec is not None and rec["diskon"] is None and rec["qty"] >= 1
        elif kind == "duplicate":
            assert rec is not None
            original = first[rec["pesanan_id"]]
            # The order before, re-sent just before the current one: the same order and time.
            assert original["pesanan_id"] == rec["pesanan_id"]
            assert original["waktu"] == rec["waktu"]
        if rec is not None:
            first.setdefault(rec["pesanan_id"], rec)


def test_defects_are_what_the_pipeline_quarantines(workspace: Workspace, tmp_path: Path) -> None:
    path = write_orders(tmp_path / "o.jsonl", 1_500, bad=0.1, seed=11)
    kinds = [k for k, _ in defects_in(path)]
    s = run_batch(workspace, path, "pesanan@1")
    assert s.rows == len(kinds)
    failing = sum(k in ("truncated", "missing_qty", "negative_qty", "null_diskon") for k in kinds)
    assert s.quarantined == failing
    assert s.by_class == {
        "data": failing - kinds.count("null_diskon"),
        "code": kinds.count("null_diskon"),
    }
    assert s.rows == s.loaded + s.superseded + s.quarantined


def test_without_bad_rows_every_line_is_an_order_of_the_seed_shape(
    workspace: Workspace, tmp_path: Path
) -> None:
    seed_keys = list(json.loads(SEED_BATCH.read_text().splitlines()[0]))
    path = write_orders(tmp_path / "clean.jsonl", 800, bad=0.0)
    lines = path.read_text(encoding="ascii").splitlines()
    assert len(lines) == 800
    for n, line in enumerate(lines, 1):
        rec = json.loads(line)
        assert list(rec) == seed_keys
        assert rec["pesanan_id"] == n
        assert WAKTU.fullmatch(rec["waktu"])
        assert rec["pelanggan"] in CUSTOMERS and rec["produk"] in PRODUCTS
        assert 1 <= rec["qty"] <= 5 and rec["harga"] in PRICES and rec["diskon"] in DISCOUNTS
    s = run_batch(workspace, path, "pesanan@1")
    assert (s.rows, s.loaded, s.quarantined) == (800, 800, 0)
