"""Nothing stored, printed or exported leaks an absolute path, a user:password@ URL or a
secret: the store's text columns and the CLI's output are scanned after real runs."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from tests.support import cli

SECRET = "s3cr3t-hunter2"


def _store_text(db: Path) -> str:
    out = []
    with sqlite3.connect(db) as c:
        for (table,) in c.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            cols = [r[1] for r in c.execute(f"PRAGMA table_info({table})")]
            for row in c.execute(f"SELECT * FROM {table}"):
                for col, v in zip(cols, row, strict=True):
                    if isinstance(v, str) and col not in ("payload", "original_payload"):
                        out.append(v)
    return "\n".join(out)


def test_no_paths_or_secrets_in_store_or_output(tmp_path: Path) -> None:
    # A path that names the user's folders, and a file whose bad rows hold a secret.
    home = tmp_path / "home" / "steward" / "incoming"
    home.mkdir(parents=True)
    src = home / "orders.jsonl"
    src.write_text(
        '{"pesanan_id": 1, "qty": -1}\n'
        '{"pesanan_id": 2, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1, '
        '"harga": 1, "diskon": null}\n'
        '{"token": "' + SECRET + '"\n'
    )
    ws = tmp_path / "ws"
    env = {**os.environ, "TRIAGE_WORKSPACE": str(ws)}
    outputs = []
    for args in (
        ["run", str(src), "--transform", "pesanan@1", "--json"],
        ["list", "--json"],
        ["stats", "--json"],
        ["show", "2", "--json"],
        ["redrive", "--all-open", "--transform", "pesanan@2", "--json"],
        ["run", str(tmp_path / "missing.jsonl"), "--transform", "pesanan@1"],
        ["--warehouse", f"postgresql://steward:{SECRET}@127.0.0.1:1/x", "list"],
        ["--dead-letter", f"postgresql://steward:{SECRET}@127.0.0.1:1/x", "stats"],
    ):
        out = cli(*args, env=env)
        outputs.append(out.stdout + out.stderr)
    text = _store_text(ws / "dead_letter.db") + "\n".join(outputs[:5])
    # The traceback kept for the code-class row names files, never where they are.
    show = json.loads(outputs[3])
    assert show["error_class"] == "code" and show["traceback"]
    for needle in (str(tmp_path), "/home/", "/root/", "/usr/", "site-packages", str(Path.home())):
        assert needle not in text, needle
    # Outside the payloads (which list and show print, being the evidence), no secret: not
    # in a summary, not in a refusal, never a password from a URL.
    assert [i for i in (0, 2, 4, 5, 6, 7) if SECRET in outputs[i]] == []
    assert "steward:***@" in outputs[6]
    # The payload itself is evidence and stays byte-exact, secret or not: that is the point
    # of a dead letter; it is shown to those who can open the store, and nowhere else.
    with sqlite3.connect(ws / "dead_letter.db") as c:
        payloads = b"".join(r[0] for r in c.execute("SELECT original_payload FROM dead_letters"))
    assert SECRET.encode() in payloads
