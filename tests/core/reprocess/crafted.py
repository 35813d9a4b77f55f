"""A crafted ``pesanan@1`` with the bug issue 25 names: it loads wrong totals for rows with a
discount (it ignores ``diskon``), and takes a discount no fixed version accepts ("10%").
``registry()`` holds it beside the real ``pesanan@2``."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from triage_app.core.transforms import Registry, Transform
from triage_app.core.transforms.orders import TRANSFORMS as ORDERS
from triage_app.core.transforms.orders import orders_v1
from triage_app.core.transforms.pesanan import COLUMNS, TRANSFORMS, _fields


def buggy_v1(record: Any) -> tuple[Any, ...]:
    pid, waktu, pelanggan, produk, qty, harga = _fields(record)
    return (pid, waktu, pelanggan, produk, qty, harga, qty * harga)  # diskon forgotten


BUGGY = Transform("pesanan", 1, "pesanan", "pesanan_id", COLUMNS, buggy_v1)
FIXED = TRANSFORMS[1]
assert FIXED.ref == "pesanan@2"


def registry() -> Registry:
    reg = Registry()
    reg.register(BUGGY)
    reg.register(FIXED)
    return reg


def write_night(path: Path, n: int, *, seed: int = 7, first: int = 1) -> list[dict[str, Any]]:
    """``n`` orders, keys from ``first``: a discount of 0, none, a positive one, or "10%"."""
    rnd = random.Random(seed)
    records = []
    for i in range(first, first + n):
        diskon: Any = rnd.choice([0, None, 5_000, 12_500, 0, 1_000, "10%"])
        records.append(
            {
                "pesanan_id": i,
                "waktu": f"2026-11-30T{i % 24:02d}:00:00",
                "pelanggan": f"Pelanggan {i}",
                "produk": rnd.choice(["Batik Tulis", "Tas Rotan", "Kopi Gayo"]),
                "qty": rnd.randint(1, 5),
                "harga": rnd.choice([99_000, 150_000, 255_000]),
                "diskon": diskon,
            }
        )
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return records


def right_total(r: dict[str, Any]) -> int:
    """The total computed apart from every transform."""
    return int(r["qty"] * r["harga"] - (r["diskon"] or 0))


def _orders_keeping_case(record: Any) -> tuple[Any, ...]:
    oid, pelanggan, _status, total, updated_at = orders_v1(record)
    return (oid, pelanggan, record["status"].strip(), total, updated_at)  # case kept: the bug


def csv_registry() -> Registry:
    """A CSV pair: ``orders@1`` that forgot to lower-case the status, ``orders@2`` the
    seed's own (``orders_v1`` of the built-ins), newest ``updated_at`` wins in both."""
    reg = Registry()
    real = ORDERS[0]
    reg.register(replace(real, fn=_orders_keeping_case, fast=None))
    reg.register(replace(real, version=2))
    return reg
