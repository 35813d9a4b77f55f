#!/usr/bin/env python3
"""The reference to beat: the loader of seed document 000, as the seed wrote it.

Standard-library ``json``, the seed's checks, one ``INSERT OR REPLACE`` per row, failures
into a ``dead_letter`` table (payload, error, class, attempts), one commit at the end. No
lineage, no audit, no resume: the work any loader must do, done the plain way. Only the
benchmarks run it.

    python seed_loader.py IN.jsonl OUT.db [VERSION]   # VERSION 1 or 2 (default 2)
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

REQUIRED = ("pesanan_id", "waktu", "pelanggan", "produk", "qty", "harga")
SCHEMA = """
CREATE TABLE pesanan (pesanan_id INTEGER PRIMARY KEY, waktu TEXT NOT NULL,
  pelanggan TEXT NOT NULL, produk TEXT NOT NULL, qty INTEGER NOT NULL,
  harga INTEGER NOT NULL, total INTEGER NOT NULL);
CREATE TABLE dead_letter (dl_id INTEGER PRIMARY KEY AUTOINCREMENT, baris INTEGER NOT NULL,
  payload TEXT NOT NULL, galat TEXT NOT NULL, kelas TEXT NOT NULL,
  percobaan INTEGER NOT NULL DEFAULT 1);
"""


def transform(payload: str, version: int) -> tuple[object, ...]:
    d = json.loads(payload)
    for name in REQUIRED:
        if name not in d:
            raise ValueError(f"kolom wajib hilang: {name}")
    if not isinstance(d["qty"], int) or d["qty"] <= 0:
        raise ValueError(f"qty tidak valid: {d['qty']!r}")
    diskon = d["diskon"] if version == 1 else (d.get("diskon") or 0)
    total = d["qty"] * d["harga"] - diskon
    return (d["pesanan_id"], d["waktu"], d["pelanggan"], d["produk"], d["qty"], d["harga"], total)


def error_class(exc: Exception) -> str:
    return "data" if isinstance(exc, json.JSONDecodeError | ValueError | KeyError) else "kode"


def main(src: str, db: Path, version: int) -> None:
    db.unlink(missing_ok=True)
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA)
    loaded = 0
    with open(src, encoding="utf-8") as f:
        for line, payload in enumerate(f, start=1):
            payload = payload.rstrip("\n")
            try:
                row = transform(payload, version)
                conn.execute("INSERT OR REPLACE INTO pesanan VALUES (?, ?, ?, ?, ?, ?, ?)", row)
                loaded += 1
            except Exception as exc:
                conn.execute(
                    "INSERT INTO dead_letter (baris, payload, galat, kelas, percobaan) "
                    "VALUES (?, ?, ?, ?, 1)",
                    (line, payload, f"{type(exc).__name__}: {exc}", error_class(exc)),
                )
    conn.commit()
    print(loaded, conn.execute("SELECT COUNT(*) FROM dead_letter").fetchone()[0])


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 2)
