#!/usr/bin/env python3
"""A floor for a single-core Python loader on this machine: orjson, the same checks as the
seed, one ``executemany`` into SQLite in one transaction with the journal off. It keeps no
evidence worth the name, no lineage, no audit and no deduplication, and holds the whole
file in memory: a practical lower bound, not a product. Only the benchmarks run it.

    python orjson_floor.py IN.jsonl OUT.db
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import orjson

SCHEMA = """
CREATE TABLE pesanan (pesanan_id INTEGER PRIMARY KEY, waktu TEXT, pelanggan TEXT,
  produk TEXT, qty INTEGER, harga INTEGER, total INTEGER);
CREATE TABLE dead_letter (dl_id INTEGER PRIMARY KEY, baris INTEGER, payload BLOB, galat TEXT);
"""


def main(src: str, db: Path) -> None:
    db.unlink(missing_ok=True)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.executescript(SCHEMA)
    good: list[tuple[object, ...]] = []
    bad: list[tuple[int, bytes, str]] = []
    with open(src, "rb") as f:
        for n, line in enumerate(f, 1):
            try:
                d = orjson.loads(line)
                qty = d["qty"]
                if not isinstance(qty, int) or qty <= 0:
                    raise ValueError(qty)
                total = qty * d["harga"] - (d.get("diskon") or 0)
                good.append(
                    (
                        d["pesanan_id"],
                        d["waktu"],
                        d["pelanggan"],
                        d["produk"],
                        qty,
                        d["harga"],
                        total,
                    )
                )
            except Exception as exc:
                bad.append((n, line, repr(exc)))
    conn.executemany("INSERT OR REPLACE INTO pesanan VALUES (?, ?, ?, ?, ?, ?, ?)", good)
    conn.executemany("INSERT INTO dead_letter (baris, payload, galat) VALUES (?, ?, ?)", bad)
    conn.commit()
    print(len(good), len(bad))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
