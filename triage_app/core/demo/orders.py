"""Synthetic order batches in the seed's JSONL shape, for demos, tests and benchmarks.

Each line is one order (``pesanan_id``, ``waktu``, ``pelanggan``, ``produk``, ``qty``,
``harga``, ``diskon``). A chosen share of lines is defective, the defects taking turns:
JSON cut off mid-line, a missing ``qty``, a negative ``qty``, a ``null`` discount (valid
data that ``pesanan@1`` mishandles) and an order re-sent with its previous line's content.
The same arguments always write the same bytes, so a test can compare with an oracle and a
benchmark with an earlier run.
"""

from __future__ import annotations

import json
import random
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
