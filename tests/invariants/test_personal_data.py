"""Personal data never leaves the store unmasked (issue 27, UU PDP). A store holds customers'
names in ``pelanggan``: in good JSON, in broken JSON (cut off inside the name), in CSV rows
and in an error message that quotes the name; it is edited, fixed as a change-set and
re-driven. Every command that prints runs as a real process, and its output is grepped for
the raw names: none appears (the masks do), except ``show --reveal``, which is audited.
Searching for part of a name finds nothing by it; the exact name finds its rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, open_workspace
from triage_app.core.deadletters import (
    DeadLetterFilter,
    export_dead_letters,
    get_dead_letter,
    list_dead_letters,
    refresh_masks,
)

NAMES = ("Siti Aminah", "Budi Santoso")
# Parts of the names a leak would show (a mask keeps only the first letter).
LEAKS = ("Siti", "Aminah", "Budi", "Santoso", "udi S", "iti A")
MASKS = ("S•••", "B•••")

JSONL = (
    # Good JSON, a bad quantity: the name sits in a valid record.
    b'{"pesanan_id": 1, "waktu": "2026-01-10T09:15:00", "pelanggan": "Siti Aminah", '
    b'"produk": "Kemeja", "qty": -1, "harga": 1000}\n'
    # Broken JSON, cut off inside the name.
    b'{"pesanan_id": 2, "waktu": "2026-01-10T09:15:00", "pelanggan": "Budi Sant\n'
    # The error quotes the name: pelanggan is a list, and the message shows it.
    b'{"pesanan_id": 3, "waktu": "2026-01-10T09:15:00", "pelanggan": ["Siti Aminah"], '
    b'"produk": "Kemeja", "qty": 1, "harga": 1000}\n'
    # A null diskon: a code error through pesanan@1, fixed as a change-set later.
    b'{"pesanan_id": 4, "waktu": "2026-01-10T09:15:00", "pelanggan": "Budi Santoso", '
    b'"produk": "Kemeja", "qty": 1, "harga": 1000, "diskon": null}\n'
    b'{"pesanan_id": 5, "waktu": "2026-01-10T09:15:00", "pelanggan": "Siti Aminah", '
    b'"produk": "Kemeja", "qty": 1, "harga": 1000, "diskon": null}\n'
)
CSV = (
    b"order_id,pelanggan,status,total,updated_at\n"
    b"7,Budi Santoso,paid,-5,2026-01-01T00:00:00\n"
    b'8,"Siti Aminah",paid,x,2026-01-01T00:00:00\n'
    b"9,Siti Aminah,paid\n"
)


def triage(ws: Path, *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "triage_app", "--workspace", str(ws), *args],
        capture_output=True,
        timeout=120,
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def no_names(said: str, where: str) -> None:
    for leak in LEAKS:
        assert leak not in said, f"{leak!r} in the output of {where}: {said[:2000]}"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("personal")
    ws_dir = tmp / "ws"
    (tmp / "p.jsonl").write_bytes(JSONL)
    (tmp / "o.csv").write_bytes(CSV)
    with open_workspace(ws_dir) as ws:
        run_batch(ws, tmp / "p.jsonl", "pesanan@1")
        run_batch(ws, tmp / "o.csv", "orders@1")
    return ws_dir


def _ids(ws_dir: Path) -> dict[str, int]:
    with open_workspace(ws_dir) as ws:
        views = list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
    return {f"{v.transform}:{v.line}": v.id for v in views}


@pytest.mark.slow
def test_every_output_masks_the_names(store: Path, tmp_path: Path) -> None:
    ids = _ids(store)
    assert len(ids) == 8, ids  # every row of both files fails
    ws = store
    # Changes that keep payloads beside them: an edit (its event keeps the payload it
    # replaced), a change-set (its lines keep theirs), a re-drive that fails again (its
    # error quotes the name), a note.
    first = ids["pesanan@1:1"]
    rc, out, err = triage(ws, "edit", str(first), "--payload", '{"pesanan_id": 1, "qty": -2}')
    assert rc == 0, err
    rc, out, err = triage(ws, "redrive", "--transform", "pesanan@1", str(ids["pesanan@1:3"]))
    assert rc == 0, err
    no_names(out + err, "redrive")
    fixed = [str(ids["pesanan@1:4"]), str(ids["pesanan@1:5"])]
    outputs: dict[str, str] = {}
    for args in (
        ("fix", "--default", "diskon=0", "--try", "pesanan@1", "--dry-run", "--verbose", *fixed),
        ("fix", "--default", "diskon=0", "--try", "pesanan@1", "--dry-run", "--json", *fixed),
        ("fix", "--default", "diskon=0", "--description", "diskon kosong", *fixed),
        ("redrive", "--transform", "pesanan@2", "--all-open", "--dry-run", "--verbose", "--json"),
        ("redrive", "--transform", "orders@1", "--all-open", "--dry-run", "--verbose"),
        ("list",),
        ("list", "--status", "all", "--json"),
        ("groups",),
        ("groups", "--json"),
        ("stats",),
        ("stats", "--json"),
        ("audit",),
        ("audit", "--json"),
        ("changesets",),
        ("changesets", "--json"),
        ("transforms",),
        ("sources",),
        ("report", "--out", str(tmp_path / "report")),
        *(("show", str(i)) for i in ids.values()),
        *(("show", str(i), "--json") for i in ids.values()),
    ):
        rc, out, err = triage(ws, *args)
        assert rc == 0, (args, err)
        outputs[" ".join(args)] = out + err
        no_names(out + err, " ".join(args))
    # The masks are there where the names were.
    shown = "".join(outputs[f"show {i} --json"] for i in ids.values())
    for mask in MASKS:
        assert mask in shown
    assert "S•••" in outputs[f"show {ids['orders@1:3']}"]  # a CSV row
    assert "B•••" in outputs[f"show {ids['pesanan@1:2']}"]  # broken JSON, cut in the name
    assert "[•••" in outputs[f"show {ids['pesanan@1:3']}"]  # the error quoting the name
    report = "".join(
        p.read_text("utf-8")
        for p in (tmp_path / "report").rglob("*")
        if p.is_file() and p.suffix in (".html", ".md", ".json", ".csv", ".txt")
    )
    assert report
    no_names(report, "report")
    # Exports, CSV and JSONL (the window's Export), of every row.
    with open_workspace(ws) as w:
        for fmt in ("csv", "jsonl"):
            path = tmp_path / f"export.{fmt}"
            export_dead_letters(w, DeadLetterFilter(status="all"), path, fmt)
            text = path.read_text("utf-8")
            no_names(text, f"export {fmt}")
            assert "S•••" in text and "B•••" in text
    # The store kept the names as data: the change-set and the edit saved no mask.
    with open_workspace(ws) as w, w.store.connect() as conn:
        from sqlalchemy import select

        for raw, payload in conn.execute(select(DeadLetter.original_payload, DeadLetter.payload)):
            assert "•••".encode() not in bytes(raw)
            assert payload is None or "•••".encode() not in bytes(payload)


def test_reveal_is_audited_and_shows_the_name(store: Path) -> None:
    dl = _ids(store)["orders@1:3"]
    rc, out, err = triage(store, "show", str(dl), "--reveal")
    assert rc == 0, err
    assert "Siti Aminah" in out and "revealed" in out
    rc, out, err = triage(store, "audit", "--action", "revealed", "--json")
    assert rc == 0, err
    events = json.loads(out)
    assert any(e["dead_letter_id"] == dl and "pelanggan" in e["detail"] for e in events)
    # Still masked for the next reader: the reveal showed it once.
    rc, out, _ = triage(store, "show", str(dl))
    assert "Siti" not in out


def test_search_finds_by_the_exact_value_only(store: Path) -> None:
    for part in ("Siti", "Aminah", "Budi", "Santoso", "iti Amin"):
        rc, out, err = triage(store, "list", "--status", "all", "--search", part, "--json")
        assert rc == 0, err
        assert json.loads(out) == [], part
    rc, out, err = triage(store, "list", "--status", "all", "--search", "Siti Aminah", "--json")
    assert rc == 0, err
    found = {(r["transform"], r["line"]) for r in json.loads(out)}
    # The JSON string token and the CSV field, quoted or not; never the list (its token
    # is the name too: found), nor a row without the name.
    assert ("orders@1", 3) in found and ("orders@1", 4) in found, found
    assert ("pesanan@1", 5) in found and ("orders@1", 2) not in found, found
    no_names(out, "list --search")
    # The masks are searchable as shown.
    rc, out, _ = triage(store, "list", "--status", "all", "--search", "B•••", "--json")
    assert {r["transform"] for r in json.loads(out)} >= {"orders@1", "pesanan@1"}


def test_an_edit_never_saves_the_mask(store: Path) -> None:
    dl = _ids(store)["orders@1:2"]  # a CSV row: edited as JSON, header -> value
    with open_workspace(store) as ws:
        d = get_dead_letter(ws, dl)
        assert "B•••" in d.payload and "Budi" not in d.payload
        from triage_app.core.deadletters import edit_payload, editable_payload

        text = editable_payload(d.payload_bytes, d.payload_kind, d.csv_header).text
        edited = text.replace('"-5"', '"5"')
        after = edit_payload(ws, dl, edited, if_version=d.version)
        assert "B•••" in after.payload
        with ws.store.connect() as conn:
            from sqlalchemy import select

            stored = conn.execute(
                select(DeadLetter.payload, DeadLetter.masked_payload).where(DeadLetter.id == dl)
            ).one()
        assert orjson.loads(stored.payload)["pelanggan"] == "Budi Santoso"
        assert orjson.loads(stored.masked_payload)["pelanggan"] == "B•••"
        # A mask typed over another value is refused in one line.
        rc, _out, err = triage(store, "edit", str(dl), "--payload", edited.replace("B•••", "X•••"))
        assert rc == 2 and "holds the mask" in err and len(err.strip().splitlines()) == 1


def test_refresh_fills_masks_of_rows_stored_before(store: Path) -> None:
    quoting = _ids(store)["pesanan@1:3"]
    with open_workspace(store) as ws:
        with ws.store.begin() as conn:
            from sqlalchemy import update

            conn.execute(update(DeadLetter).values(masked_original=None, masked_payload=None))
            # An error stored raw, as before 0013.
            conn.execute(
                update(DeadLetter)
                .where(DeadLetter.id == quoting)
                .values(error="DataError: pelanggan tidak valid: ['Siti Aminah']")
            )
        before = get_dead_letter(ws, _ids(store)["pesanan@1:5"])
        assert "Siti" not in before.payload  # masked on the way out even so
        assert refresh_masks(ws) >= 6
        assert refresh_masks(ws) == 0
        error = get_dead_letter(ws, quoting, reveal=True).error
        assert "Siti" not in error and "[•••" in error
    rc, out, err = triage(store, "masks", "refresh", "--json")
    assert rc == 0 and json.loads(out) == {"refreshed": 0}, err
    rc, out, _ = triage(store, "list", "--status", "all", "--search", "Siti", "--json")
    assert json.loads(out) == []
