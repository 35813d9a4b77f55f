"""Synthetic order batches in the seed's JSONL shape, for demos, tests and benchmarks.

Each line is one order (``pesanan_id``, ``waktu``, ``pelanggan``, ``produk``, ``qty``,
``harga``, ``diskon``). A chosen share of lines is defective, the defects taking turns:
JSON cut off mid-line, a missing ``qty``, a negative ``qty``, a ``null`` discount (valid
data that ``pesanan@1`` mishandles) and an order re-sent with its previous line's content.
The same arguments always write the same bytes, so a test can compare with an oracle and a
benchmark with an earlier run. ``write_orders_csv`` writes seed 001's CSV shape (order
versions, newest ``updated_at`` wins) the same way; its defects are described beside it.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

PRODUCTS = ("Kemeja Batik", "Kain Songket", "Blouse Katun", "Seluar Linen", "Rok Tenun")
CUSTOMERS = ("Budi", "Siti", "Dewi", "Rina", "Agus", "Wati")
PRICES = (120000, 150000, 180000, 210000, 250000)
DISCOUNTS = (0, 0, 0, 10000, 20000)
DEFECTS = ("truncated", "missing_qty", "negative_qty", "null_diskon", "duplicate")


def order(n: int, rnd: random.Random) -> dict[str, Any]:
    """Order ``n``: its time follows from ``n``, the rest is drawn from ``rnd``."""
    return {
        "pesanan_id": n,
        "waktu": f"2026-01-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00",
        "pelanggan": rnd.choice(CUSTOMERS),
        "produk": rnd.choice(PRODUCTS),
        "qty": rnd.randint(1, 5),
        "harga": rnd.choice(PRICES),
        "diskon": rnd.choice(DISCOUNTS),
    }


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(", ", ": "))


def write_orders(path: str | Path, rows: int, bad: float = 0.001, seed: int = 43) -> Path:
    """Write ``rows`` orders to ``path``, about ``bad`` of them defective; returns the path.

    A re-sent order adds a line: the previous order again, drawn afresh, written before
    the current one.
    """
    path = Path(path)
    rnd = random.Random(seed)
    defects = 0
    with path.open("w", encoding="ascii", newline="\n") as out:
        for n in range(1, rows + 1):
            record = order(n, rnd)
            line = _dumps(record)
            if rnd.random() < bad:
                defect = DEFECTS[defects % len(DEFECTS)]
                defects += 1
                if defect == "truncated":
                    line = line[: len(line) // 2]
                elif defect == "missing_qty":
                    del record["qty"]
                    line = _dumps(record)
                elif defect == "negative_qty":
                    record["qty"] = -1
                    line = _dumps(record)
                elif defect == "null_diskon":
                    record["diskon"] = None
                    line = _dumps(record)
                elif n > 1:  # a duplicate: the order before, re-sent
                    out.write(_dumps(order(n - 1, random.Random(n))) + "\n")
            out.write(line + "\n")
    return path


# The seed's CSV shape (document 001, ``orders@1``): one version of an order per row, newest
# ``updated_at`` wins. Most rows are plain; a few carry what a real export does (a quoted
# name with a comma, a quoted name across two lines), and a ``bad`` share is defective in
# turn: a negative total, a total that is no number, a missing status, a row with a field
# too many, and an order re-sent with an older ``updated_at`` (valid, and it must lose).
CSV_HEADER = "order_id,pelanggan,status,total,updated_at"
STATUSES = ("Baru", "Dibayar", "Dikirim", "Selesai", "Batal")
CSV_DEFECTS = ("negative_total", "not_a_number", "missing_status", "extra_field", "older")
CSV_QUOTED_SHARE = 0.002  # rows with a quoted (comma or newline) name, when ``bad`` > 0
_CSV_EPOCH = datetime(2026, 1, 1)


def _csv_row(oid: int, name: str, status: str, total: int | str, minute: int) -> str:
    at = _CSV_EPOCH + timedelta(minutes=minute)  # later rows are newer, as an export is
    return f"{oid},{name},{status},{total},{at.isoformat()}"


def write_orders_csv(path: str | Path, rows: int, bad: float = 0.001, seed: int = 43) -> Path:
    """Write ``rows`` order versions to ``path`` in the seed's CSV shape; returns the path.

    Order ids repeat (about three versions each, in time order), so newest-wins has work to
    do; the same arguments always write the same bytes."""
    path = Path(path)
    rnd = random.Random(seed)
    orders = max(1, rows // 3)
    defects = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(CSV_HEADER + "\n")
        for n in range(1, rows + 1):
            oid = 100000 + rnd.randrange(orders)
            name = rnd.choice(CUSTOMERS)
            status = rnd.choice(STATUSES)
            total = rnd.choice(PRICES) * rnd.randint(1, 5)
            minute = n
            r = rnd.random()
            if r < bad:
                defect = CSV_DEFECTS[defects % len(CSV_DEFECTS)]
                defects += 1
                if defect == "negative_total":
                    total = -total
                elif defect == "not_a_number":
                    out.write(_csv_row(oid, name, status, "12a", minute) + "\n")
                    continue
                elif defect == "missing_status":
                    status = ""
                elif defect == "extra_field":
                    out.write(_csv_row(oid, name, status, total, minute) + ",x\n")
                    continue
                else:  # an older version, arriving late: it must not win
                    minute = max(0, n - 5000)
            elif bad and r < bad + CSV_QUOTED_SHARE:
                name = f'"{name}, Jl. ""Mawar""\n{n}"' if n % 2 else f'"{name}, {n}"'
            out.write(_csv_row(oid, name, status, total, minute) + "\n")
    return path
