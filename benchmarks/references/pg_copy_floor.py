#!/usr/bin/env python3
"""A floor for a Python loader into PostgreSQL on this machine: orjson, the same checks as
the seed, every good row (the last of each key) ``COPY``-ed into a temporary staging table
and moved into the target by one ``INSERT ... SELECT ... ON CONFLICT DO UPDATE``, the bad
lines ``COPY``-ed into a dead-letter table, all in one transaction. It keeps no evidence
worth the name, no lineage, no audit, no ledger, no checkpoints, and holds the whole file in
memory: a practical lower bound, not a product. Only the benchmarks run it.

    python pg_copy_floor.py IN.jsonl CONNINFO SCHEMA

CONNINFO is a libpq connection string or URI (``postgresql://postgres@127.0.0.1/test``);
the tables are created in SCHEMA, which must exist and be empty.
"""

from __future__ import annotations

import sys

import orjson
import psycopg

SCHEMA = """
CREATE TABLE pesanan (pesanan_id BIGINT PRIMARY KEY, waktu TEXT, pelanggan TEXT,
  produk TEXT, qty BIGINT, harga BIGINT, total BIGINT);
CREATE TABLE dead_letter (dl_id BIGSERIAL PRIMARY KEY, baris BIGINT, payload BYTEA, galat TEXT);
CREATE TEMPORARY TABLE stage (LIKE pesanan) ON COMMIT DROP;
"""
COLUMNS = "pesanan_id, waktu, pelanggan, produk, qty, harga, total"


def main(src: str, conninfo: str, schema: str) -> None:
    good: dict[object, tuple[object, ...]] = {}  # the later line of a key wins
    bad: list[tuple[int, bytes, str]] = []
    with open(src, "rb") as f:
        for n, line in enumerate(f, 1):
            try:
                d = orjson.loads(line)
                qty = d["qty"]
                if not isinstance(qty, int) or qty <= 0:
                    raise ValueError(qty)
                total = qty * d["harga"] - (d.get("diskon") or 0)
                pid = d["pesanan_id"]
                good[pid] = (pid, d["waktu"], d["pelanggan"], d["produk"], qty, d["harga"], total)
            except Exception as exc:
                bad.append((n, line, repr(exc)))
    with psycopg.connect(conninfo) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        for stmt in SCHEMA.split(";"):
            if stmt.strip():
                conn.execute(stmt)
        with conn.cursor().copy(f"COPY stage ({COLUMNS}) FROM STDIN") as copy:
            for row in good.values():
                copy.write_row(row)
        updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS.split(", ")[1:])
        conn.execute(
            f"INSERT INTO pesanan ({COLUMNS}) SELECT {COLUMNS} FROM stage "
            f"ON CONFLICT (pesanan_id) DO UPDATE SET {updates}"
        )
        with conn.cursor().copy("COPY dead_letter (baris, payload, galat) FROM STDIN") as copy:
            for b in bad:
                copy.write_row(b)
        conn.commit()
    print(len(good), len(bad))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
