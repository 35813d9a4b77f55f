"""``jurnal@1``: the seed's journal posting (document 000), the sample atomic transform.

A journal (``jurnal``) is posted as lines (``baris``), each to one account (``akun``) with
either a debit or a credit (``kredit``). Its lines must balance (``seimbang``): the debits
of a journal equal its credits. Half a posting in the ledger is worse than none, so a batch
of journal lines is all or nothing (``atomic``): it loads only once every line passes, each
on its own (``jurnal_v1``) and every journal together (``balanced``).

A record: ``{"jurnal_id": "J-7", "baris": 1, "tanggal": "2026-01-31", "akun": "1100",
"debit": 1000000}``, with ``kredit`` instead of ``debit`` on the other side (the other
amount absent, null or 0). Amounts are whole rupiah: non-negative integers. The warehouse
row is keyed by ``posting_id``, ``"<jurnal_id>/<baris>"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triage_app.core.errors import DataError
from triage_app.core.messages import N_
from triage_app.core.transforms.transform import Column, Transform

REQUIRED = ("jurnal_id", "baris", "tanggal", "akun")
COLUMNS = (
    Column("posting_id", "text"),
    Column("jurnal_id", "text"),
    Column("baris", "int"),
    Column("tanggal", "text"),
    Column("akun", "text"),
    Column("debit", "int"),
    Column("kredit", "int"),
)
_JURNAL, _DEBIT, _KREDIT = 1, 5, 6  # indexes into a row
_MAX = 2**63 - 1  # the warehouse's BIGINT: a larger amount would be refused at load


def rupiah(n: int) -> str:
    """An amount in a message: plain digits, so that every unbalanced journal's message has
    one signature (``1.000.000`` masks as ``<n>.<n>``, ``5`` as ``<n>``: two groups)."""
    return str(n)


def _amount(d: dict[str, Any], name: str) -> int:
    value = d.get(name)
    if value is None:
        return 0
    # type() rather than isinstance: a bool is an int to Python but never an amount.
    if type(value) is not int or value < 0 or value > _MAX:
        raise DataError(f"{name} tidak valid: {value!r}")
    return value


def jurnal_v1(record: Any) -> tuple[Any, ...]:
    if type(record) is not dict:
        raise DataError(f"record bukan objek JSON: {type(record).__name__}")
    for name in REQUIRED:
        if record.get(name) is None:
            raise DataError(f"kolom wajib hilang: {name}")
    jurnal_id, baris = record["jurnal_id"], record["baris"]
    tanggal, akun = record["tanggal"], record["akun"]
    for name, value in (("jurnal_id", jurnal_id), ("tanggal", tanggal), ("akun", akun)):
        if type(value) is not str or not value.strip():
            raise DataError(f"{name} tidak valid: {value!r}")
    if type(baris) is not int or baris <= 0 or baris > _MAX:
        raise DataError(f"baris tidak valid: {baris!r}")
    debit, kredit = _amount(record, "debit"), _amount(record, "kredit")
    if (debit > 0) == (kredit > 0):
        raise DataError(
            f"baris harus tepat satu dari debit atau kredit: debit {rupiah(debit)}, "
            f"kredit {rupiah(kredit)}"
        )
    return (f"{jurnal_id}/{baris}", jurnal_id, baris, tanggal, akun, debit, kredit)


def balanced(rows: Sequence[tuple[int, tuple[Any, ...]]]) -> list[tuple[int, str]]:
    """Every line of a journal whose debits and credits differ, with the journal's sums:
    ``jurnal J-7 tidak seimbang: debit 1000000, kredit 900000``. A steward who fixes
    one line's amount and loads the batch again makes it balance."""
    sums: dict[str, list[int]] = {}
    lines: dict[str, list[int]] = {}
    for line, row in rows:
        j = row[_JURNAL]
        s = sums.get(j)
        if s is None:
            s = sums[j] = [0, 0]
            lines[j] = []
        s[0] += row[_DEBIT]
        s[1] += row[_KREDIT]
        lines[j].append(line)
    out: list[tuple[int, str]] = []
    for j, (debit, kredit) in sums.items():
        if debit != kredit:
            why = f"jurnal {j} tidak seimbang: debit {rupiah(debit)}, kredit {rupiah(kredit)}"
            out += [(line, why) for line in lines[j]]
    out.sort()
    return out


TRANSFORMS = (
    Transform(
        "jurnal",
        1,
        "jurnal",
        "posting_id",
        COLUMNS,
        jurnal_v1,
        description=N_("seed 000 journal postings; all or nothing, each journal must balance"),
        atomic=True,
        check_whole=balanced,
    ),
)
