#!/usr/bin/env python3
"""A floor for a single-core Python CSV loader on this machine: the ``csv`` module reads the
whole file, the seed's checks (document 001, ``orders@1``) build the rows, and one
``executemany`` upserts them into SQLite where the newest ``updated_at`` wins, in one
transaction with the journal off. It keeps no evidence worth the name (a refused row is its
re-joined fields, not its bytes), no lineage and no audit, and holds every row in memory: a
practical lower bound, not a product. Only the benchmarks run it.

    python csv_floor.py IN.csv OUT.db
"""

from __future__ import annotations

import csv
import sqlite3
import sys
from pathlib import Path

SCHEMA = """
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, pelanggan TEXT, status TEXT,
  total INTEGER, updated_at TEXT);
CREATE TABLE dead_letter (dl_id INTEGER PRIMARY KEY, baris INTEGER, payload TEXT, galat TEXT);
"""
UPSERT = """
INSERT INTO orders VALUES (?, ?, ?, ?, ?)
ON CONFLICT (order_id) DO UPDATE SET pelanggan = excluded.pelanggan,
  status = excluded.status, total = excluded.total, updated_at = excluded.updated_at
WHERE excluded.updated_at >= orders.updated_at
"""


def main(src: str, db: Path) -> None:
    db.unlink(missing_ok=True)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.executescript(SCHEMA)
    good: list[tuple[object, ...]] = []
    bad: list[tuple[int, str, str]] = []
    with open(src, encoding="utf-8", newline="") as f:
        reader = csv.reader(f, strict=True)
        names = [h.strip() for h in next(reader)]
        for n, fields in enumerate(reader, 2):
            try:
                if len(fields) != len(names):
                    raise ValueError(f"jumlah kolom {len(fields)}")
                d = dict(zip(names, fields, strict=True))
                for name in ("order_id", "pelanggan", "status", "total", "updated_at"):
                    if not d[name]:
                        raise ValueError(f"kolom wajib hilang: {name}")
                total = int(d["total"])
                if total < 0:
                    raise ValueError(f"total negatif: {total}")
                good.append(
                    (
                        int(d["order_id"]),
                        d["pelanggan"],
                        d["status"].strip().lower(),
                        total,
                        d["updated_at"],
                    )
                )
            except Exception as exc:
                bad.append((n, ",".join(fields), repr(exc)))
    conn.executemany(UPSERT, good)
    conn.executemany("INSERT INTO dead_letter (baris, payload, galat) VALUES (?, ?, ?)", bad)
    conn.commit()
    print(len(good), len(bad))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
