"""The store's masked copies (issue 27), on SQLite and PostgreSQL (its COPY path): written at
every insert and every change of the working payload (an edit, a change-set's fix and its
revert), never the mask saved as data; search by exact value only; a re-drive's failure
quoting a name stored masked; reveal audited and refused to nobody but by role."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, Workspace, open_workspace
from triage_app.core.deadletters import AuditFilter, DeadLetterFilter, Fix, Step
from triage_app.core.masking import BULLETS

ROWS = (
    b'{"pesanan_id": 1, "waktu": "w", "pelanggan": "Siti Aminah", "produk": "K", "qty": 1, '
    b'"harga": 10, "diskon": null}\n'
    b'{"pesanan_id": 2, "waktu": "w", "pelanggan": "Budi Santoso", "produk": "K", "qty": 1, '
    b'"harga": 10, "diskon": null}\n'
    b'{"pesanan_id": 3, "waktu": "w", "pelanggan": ["Siti Aminah"], "produk": "K", "qty": 1, '
    b'"harga": 10}\n'
)
CSV = b"order_id,pelanggan,status,total,updated_at\n7,Budi Santoso,paid,-5,2026-01-01\n"


@pytest.fixture(params=["sqlite", "postgresql"])
def ws(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspace]:
    if request.param == "sqlite":
        w = open_workspace(tmp_path / "ws")
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        w = open_workspace(warehouse_url=wh, dead_letter_url=dl)
    (tmp_path / "p.jsonl").write_bytes(ROWS)
    (tmp_path / "o.csv").write_bytes(CSV)
    run_batch(w, tmp_path / "p.jsonl", "pesanan@1")
    run_batch(w, tmp_path / "o.csv", "orders@1")
    yield w
    w.close()


def stored(ws: Workspace, dl_id: int) -> tuple[bytes, bytes | None, bytes | None, bytes | None]:
    dl = DeadLetter
    with ws.store.connect() as conn:
        r = conn.execute(
            select(dl.original_payload, dl.payload, dl.masked_original, dl.masked_payload).where(
                dl.id == dl_id
            )
        ).one()
    return tuple(None if v is None else bytes(v) for v in r)  # type: ignore[return-value]


def test_copies_follow_every_write_and_the_mask_is_never_data(ws: Workspace) -> None:
    original, payload, mo, mp = stored(ws, 1)
    assert payload is None and mp is None
    assert mo is not None and orjson.loads(mo)["pelanggan"] == "S" + BULLETS
    assert b"Siti" in original
    csv_mo = stored(ws, 4)[2]
    assert csv_mo == "7,B•••,paid,-5,2026-01-01".encode()
    # The error quoting the name is stored masked.
    assert "Siti" not in dls.get_dead_letter(ws, 3, reveal=True).error

    # A change-set's fix: the working copies and their masks written together.
    fix = Fix(steps=(Step("default", "diskon", 0),))
    preview = dls.preview_fix(ws, fix, [1, 2], transform=None)
    assert all("Siti" not in r.before + (r.after or "") for r in preview.shown)
    report = dls.apply_fix(ws, fix, preview.versions)
    for dl_id, name in ((1, "Siti Aminah"), (2, "Budi Santoso")):
        _o, payload, _mo, mp = stored(ws, dl_id)
        assert payload is not None and orjson.loads(payload)["pelanggan"] == name
        assert mp is not None and orjson.loads(mp) == {
            **orjson.loads(payload),
            "pelanggan": name[0] + BULLETS,
        }
    # Its revert: the working copy is the original again, its mask gone with it.
    dls.revert_change_set(ws, report.change_set_id)
    assert stored(ws, 1)[1] is None and stored(ws, 1)[3] is None

    # An edit of the masked text: the real name kept; the masked copy of the new payload.
    d = dls.get_dead_letter(ws, 1)
    assert "S•••" in d.payload and "Siti" not in d.payload
    after = dls.edit_payload(ws, 1, d.payload.replace('"diskon": null', '"diskon": 0'))
    _o, payload, _mo, mp = stored(ws, 1)
    assert payload is not None and orjson.loads(payload)["pelanggan"] == "Siti Aminah"
    assert mp is not None and orjson.loads(mp)["pelanggan"] == "S•••"
    assert "Siti" not in after.payload and "Siti" not in "".join(
        e.replaced_payload or "" for e in after.events
    )
    # A CSV row, edited as JSON through its mask.
    csv = dls.get_dead_letter(ws, 4)
    text = dls.editable_payload(csv.payload_bytes, csv.payload_kind, csv.csv_header).text
    dls.edit_payload(ws, 4, text.replace('"-5"', '"5"'))
    assert orjson.loads(stored(ws, 4)[1] or b"")["pelanggan"] == "Budi Santoso"


def test_search_by_exact_value_and_a_redrive_failure_masked(ws: Workspace) -> None:
    def found(text: str) -> list[int]:
        views = dls.list_dead_letters(ws, DeadLetterFilter(status="all", search=text))
        return sorted(v.id for v in views)

    assert found("Siti") == [] and found("Santoso") == [] and found("Aminah") == []
    assert found("Siti Aminah") == [1, 3]
    assert found("Budi Santoso") == [2, 4]
    assert found("S•••") == [1]
    assert dls.count_dead_letters(ws, DeadLetterFilter(status="all", search="Budi Santoso")) == 2
    # Re-driven, the list row fails again: its error and its event masked.
    summary = dls.redrive(ws, "pesanan@2", ids=[3])
    assert summary.failed == 1
    d = dls.get_dead_letter(ws, 3, reveal=True)
    assert "Siti" not in d.error and "Siti" not in d.events[-1].detail


def test_reveal_is_audited(ws: Workspace) -> None:
    d = dls.reveal_dead_letter(ws, 2, actor="ani@laptop")
    assert d.revealed and "Budi Santoso" in d.payload
    trail = dls.audit_trail(ws, AuditFilter(action="revealed"))
    assert [(e.dead_letter_id, e.actor, e.detail) for e in trail] == [
        (2, "ani@laptop", "shown unmasked: pelanggan")
    ]
    with pytest.raises(Exception, match="no dead letter with id 99"):
        dls.reveal_dead_letter(ws, 99)
