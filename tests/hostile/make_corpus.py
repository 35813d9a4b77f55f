#!/usr/bin/env python3
"""Writes the hostile-input corpus beside this file, with expected.json: what each file
must end in. Deterministic; rerun it after changing a case. The 20 MB cases are made by
the test itself at run time rather than committed."""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
PESANAN = "pesanan@2"
ORDERS = "orders@1"


def row(i: int, **over: object) -> bytes:
    d: dict[str, object] = {
        "pesanan_id": i,
        "waktu": "2026-01-10T09:15:00",
        "pelanggan": "Budi",
        "produk": "Kemeja Batik",
        "qty": 1,
        "harga": 250000,
        "diskon": 0,
    }
    d.update(over)
    return json.dumps(d, ensure_ascii=False).encode()


def done(rows: int, loaded: int, quarantined: int, superseded: int = 0, t: str = PESANAN) -> dict:
    assert rows == loaded + superseded + quarantined
    return {
        "transform": t,
        "rows": rows,
        "loaded": loaded,
        "superseded": superseded,
        "quarantined": quarantined,
    }


def refused(message: str, t: str = PESANAN) -> dict:
    return {"transform": t, "refused": message}


CSV_HEAD = b"order_id,pelanggan,status,total,updated_at"
CASES: dict[str, tuple[bytes, dict]] = {
    "empty.jsonl": (b"", done(0, 0, 0)),
    "only_newlines.jsonl": (b"\n\n\r\n\n", done(0, 0, 0)),
    "whitespace_lines.jsonl": (b"  \n\t\n" + row(1) + b"\n   \n", done(1, 1, 0)),
    "bom.jsonl": (b"\xef\xbb\xbf" + row(1) + b"\n" + row(2) + b"\n", done(2, 2, 0)),
    "crlf.jsonl": (row(1) + b"\r\n" + row(2) + b"\r\n", done(2, 2, 0)),
    "invalid_utf8.jsonl": (
        row(1) + b"\n" + row(2).replace(b"Budi", b"Bu\xffdi") + b"\n",
        done(2, 1, 1),
    ),
    "raw_nul.jsonl": (
        row(1) + b"\n" + row(2).replace(b'"Budi"', b'"Bu\x00di"') + b"\n",
        done(2, 1, 1),
    ),
    "escaped_nul.jsonl": (
        row(1, pelanggan="Bu\u0000di").replace(b"\x00", b"\\u0000") + b"\n",
        done(1, 1, 0),
    ),
    "lone_surrogate.jsonl": (
        row(1).replace(b'"Budi"', b'"Bu\\ud800di"') + b"\n" + row(2) + b"\n",
        done(2, 1, 1),
    ),
    "u2028_in_string.jsonl": (row(1, pelanggan="Bu\u2028di\u2029") + b"\n", done(1, 1, 0)),
    "deep_nesting.jsonl": (b"[" * 100_000 + b"]" * 100_000 + b"\n" + row(1) + b"\n", done(2, 1, 1)),
    "digits_5000.jsonl": (
        row(1).replace(b'"qty": 1', b'"qty": 1' + b"7" * 4999) + b"\n",
        done(1, 0, 1),
    ),
    "int_beyond_64_bits.jsonl": (
        row(1).replace(b'"pesanan_id": 1', b'"pesanan_id": 18446744073709551616')
        + b"\n"
        + row(2).replace(b'"harga": 250000', b'"harga": 9223372036854775808')
        + b"\n"
        + row(3)
        + b"\n",
        done(3, 1, 2),
    ),
    "nan_infinity.jsonl": (
        b"NaN\nInfinity\n-Infinity\n" + row(1).replace(b'"harga": 250000', b'"harga": NaN') + b"\n",
        done(4, 0, 4),
    ),
    "exponent_1e400.jsonl": (
        row(1).replace(b'"harga": 250000', b'"harga": 1e400') + b"\n",
        done(1, 0, 1),
    ),
    "duplicate_keys.jsonl": (
        row(1).replace(b'"qty": 1', b'"qty": -5, "qty": 2')
        + b"\n"
        + row(2).replace(b'"qty": 1', b'"qty": 2, "qty": -5')
        + b"\n",
        done(2, 1, 1),
    ),
    "scalars.jsonl": (b'42\n"pesanan"\ntrue\nnull\n', done(4, 0, 4)),
    "arrays.jsonl": (b"[1, 2, 3]\n[]\n" + b"[" + row(1) + b"]\n", done(3, 0, 3)),
    "binary_garbage.jsonl": (
        bytes(random.Random(7).randrange(256) for _ in range(4096)).replace(b"\n", b"")
        + b"\n"
        + row(1)
        + b"\n",
        done(2, 1, 1),
    ),
    "truncated_last_line.jsonl": (row(1) + b"\n" + row(2) + b"\n" + row(3)[:40], done(3, 2, 1)),
    "no_final_newline.jsonl": (row(1) + b"\n" + row(2), done(2, 2, 0)),
    "trailing_garbage.jsonl": (row(1) + b" x\n" + row(2) + b"\n", done(2, 1, 1)),
    "form_feed_line.jsonl": (b"\x0c\n" + row(1) + b"\n", done(2, 1, 1)),
    "resent_duplicates.jsonl": (
        row(1) + b"\n" + row(1, qty=3) + b"\n" + row(1, qty=4) + b"\n",
        done(3, 1, 0, superseded=2),
    ),
    "wrong_types.jsonl": (
        row(1, qty="1")
        + b"\n"
        + row(2, qty=True)
        + b"\n"
        + row(3, pelanggan=None)
        + b"\n"
        + row(4, diskon="0")
        + b"\n",
        done(4, 0, 4),
    ),
    # CSV through orders@1
    "csv_embedded_newline_quotes.csv": (
        CSV_HEAD + b'\n3001,"Budi ""B""\nSantoso",Baru,100,2026-01-09T08:00:00\n'
        b'3002,"Siti, S.",Dibayar,50,2026-01-09T09:00:00\n',
        done(2, 2, 0, t=ORDERS),
    ),
    "csv_ragged_rows.csv": (
        CSV_HEAD + b"\n3001,Budi,Baru,100\n3002,Siti,Baru,50,2026-01-09,extra\n"
        b"3003,Dewi,Baru,70,2026-01-09\n",
        done(3, 1, 2, t=ORDERS),
    ),
    "csv_duplicate_headers.csv": (
        b"order_id,pelanggan,status,total,total\n1,a,b,1,1\n",
        refused("repeats column", ORDERS),
    ),
    "csv_semicolon.csv": (
        b"order_id;pelanggan;status;total;updated_at\n1;a;b;1;t\n",
        refused("';'", ORDERS),
    ),
    "csv_unbalanced_quote.csv": (
        CSV_HEAD + b'\n3001,Budi,Baru,100,2026-01-09\n3002,"Siti,Baru,50,2026-01-09\n'
        b"3003,Dewi,Baru,70,2026-01-09\n3004,Rina,Baru,10,2026-01-09\n",
        done(2, 1, 1, t=ORDERS),
    ),
    "csv_oversized_field.csv": (
        CSV_HEAD + b"\n3001," + b"B" * 1_000_000 + b",Baru,100,2026-01-09\n",
        done(1, 1, 0, t=ORDERS),
    ),
    "csv_invalid_utf8.csv": (
        CSV_HEAD + b"\n3001,Bu\xffdi,Baru,100,2026-01-09\n3002,Siti,Baru,5,2026-01-09\n",
        done(2, 1, 1, t=ORDERS),
    ),
    "csv_header_only.csv": (CSV_HEAD + b"\n", done(0, 0, 0, t=ORDERS)),
    "csv_empty.csv": (b"", refused("no header", ORDERS)),
    "csv_bom_crlf_no_final_newline.csv": (
        b"\xef\xbb\xbf" + CSV_HEAD + b"\r\n3001,Budi,Baru,100,2026-01-09\r\n"
        b"3002,Siti,Baru,5,2026-01-09",
        done(2, 2, 0, t=ORDERS),
    ),
    "csv_binary_header.csv": (b"\xff\xfe\x00\x01,\x02\n1,2\n", refused("not UTF-8", ORDERS)),
}


def main() -> None:
    expected = {}
    for name, (data, outcome) in CASES.items():
        (HERE / name).write_bytes(data)
        expected[name] = outcome
    (HERE / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")
    print(f"{len(CASES)} cases written")


if __name__ == "__main__":
    main()
