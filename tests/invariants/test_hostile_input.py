"""Hostile input: every file of the corpus ends in a completed batch with every line
accounted for, or in a clear one-line refusal; never a traceback or a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support import HOSTILE, cli
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, get_dead_letter, list_dead_letters
from triage_app.core.verify import reconcile

CORPUS = HOSTILE
EXPECTED: dict[str, dict[str, object]] = json.loads((CORPUS / "expected.json").read_text())


def test_corpus_is_complete() -> None:
    files = sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".jsonl", ".csv"))
    assert files == sorted(EXPECTED) and len(files) >= 30


def run(ws_dir: Path, src: Path, transform: str) -> tuple[int, str, str]:
    out = cli(
        "--workspace",
        str(ws_dir),
        "run",
        str(src),
        "--transform",
        transform,
        "--json",
        env={**os.environ, "TRIAGE_LANES": "1"},
        timeout=120,
    )
    return out.returncode, out.stdout, out.stderr


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file(name: str, tmp_path: Path) -> None:
    want = EXPECTED[name]
    src = CORPUS / name
    code, out, err = run(tmp_path / "ws", src, str(want["transform"]))
    assert "Traceback" not in err
    if "refused" in want:
        assert code == 2
        assert err.count("\n") == 1 and err.startswith("triage-app: ")
        assert str(want["refused"]) in err
        return
    assert code == 0, err
    got = json.loads(out)
    assert {k: got[k] for k in ("rows", "loaded", "superseded", "quarantined")} == {
        k: want[k] for k in ("rows", "loaded", "superseded", "quarantined")
    }
    with open_workspace(tmp_path / "ws") as ws:
        r = reconcile(ws, got["batch_id"])
        assert r.ok, r.to_json()
        raw = src.read_bytes()
        for d in list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None):
            evidence = get_dead_letter(ws, d.id, reveal=True).original_bytes
            assert evidence and evidence in raw  # byte-exact, and from this file
            assert "\n" not in d.error and len(d.error) <= 600


def test_twenty_megabyte_lines(tmp_path: Path) -> None:
    """A 20 MB valid line loads; a 20 MB broken one is kept whole as evidence, with a
    bounded error message."""
    base = {
        "pesanan_id": 1,
        "waktu": "w",
        "pelanggan": "p",
        "produk": "x",
        "qty": 1,
        "harga": 5,
        "diskon": 0,
    }
    good = json.dumps({**base, "catatan": "x" * 20_000_000}).encode()
    bad = b'{"pesanan_id": 2, "catatan": "' + b"y" * 20_000_000  # never closed
    src = tmp_path / "huge.jsonl"
    src.write_bytes(good + b"\n" + bad + b"\n")
    code, out, err = run(tmp_path / "ws", src, "pesanan@2")
    assert code == 0, err
    got = json.loads(out)
    assert (got["rows"], got["loaded"], got["quarantined"]) == (2, 1, 1)
    with open_workspace(tmp_path / "ws") as ws:
        (dl,) = list_dead_letters(ws)
        assert len(dl.error) < 600
        assert get_dead_letter(ws, dl.id, reveal=True).original_bytes == bad
