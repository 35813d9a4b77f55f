"""Journal postings in the seed's shape (``jurnal@1``): journals of two to four lines that
balance, and on request some that do not, or lines that fail on their own. The demo's held
batch, the atomic tests and ``benchmarks/bench_atomic.py`` are made here."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

ACCOUNTS = ("1100", "1200", "2100", "3100", "4100", "5100", "5200")
DEMO_JOURNAL = "jurnal_2026-01-31.jsonl"


def journal_lines(
    rows: int,
    *,
    seed: int = 25,
    unbalanced: Iterable[str] = (),
    missing_akun: Iterable[str] = (),
    day: str = "2026-01-31",
) -> list[dict[str, Any]]:
    """About ``rows`` lines (exactly, unless the last journal would have one line): journals
    ``J-1``, ``J-2``, ... of two to four lines whose debits equal their credits. A journal
    named in ``unbalanced`` has its last line's amount 10% short; one in ``missing_akun``
    its first line without an account."""
    rng = random.Random(seed)
    short, no_akun = set(unbalanced), set(missing_akun)
    out: list[dict[str, Any]] = []
    j = 0
    while len(out) < rows:
        j += 1
        name = f"J-{j}"
        n = min(rng.randint(2, 4), rows - len(out))
        if n < 2:
            n = 2
        debits = [rng.randint(1, 5_000) * 1_000 for _ in range(n - 1)]
        total = sum(debits)
        lines: list[dict[str, Any]] = [
            {
                "jurnal_id": name,
                "baris": i,
                "tanggal": day,
                "akun": rng.choice(ACCOUNTS),
                "debit": d,
            }
            for i, d in enumerate(debits, 1)
        ]
        kredit = total - total // 10 if name in short else total
        lines.append(
            {
                "jurnal_id": name,
                "baris": n,
                "tanggal": day,
                "akun": rng.choice(ACCOUNTS),
                "kredit": kredit,
            }
        )
        if name in no_akun:
            del lines[0]["akun"]
        out += lines
    return out


def write_journals(path: Path, lines: Iterable[dict[str, Any]]) -> Path:
    """One JSON object a line, as a partner's ledger would send them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        for line in lines:
            f.write(orjson.dumps(line) + b"\n")
    return path


def demo_journal(folder: Path) -> Path:
    """The demo's journal batch: 40 lines, one journal unbalanced (``J-7``) and one line
    without its account (``J-12``): through ``jurnal@1`` it is held, nothing loaded."""
    lines = journal_lines(40, unbalanced=["J-7"], missing_akun=["J-12"])
    return write_journals(folder / DEMO_JOURNAL, lines)
