"""Kept sources (issue 25): every batch's input kept by its SHA-256, compressed, in the
workspace's folder (SQLite) or the store's source_blobs (PostgreSQL); read back byte-exact and
checked; a batch's records cut as its run cut them; a source gone says so and is given again
only as the same bytes; retention forgets old ones but never a running or held batch's; two
processes keeping one source at once keep it once."""

from __future__ import annotations

import datetime as dt
import hashlib
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
import zstandard
from sqlalchemy import func, select, text, update

from tests.support import cli
from triage_app.core.batch import (
    NotKept,
    SourceDamaged,
    SourceGone,
    batch_records,
    forget_sources,
    give_source,
    is_kept,
    keep_source,
    list_kept,
    open_kept,
    run_batch,
    set_sources_retention,
    source_state,
    sources_retention,
)
from triage_app.core.db import Batch, DeadLetter, KeptSource, SourceBlob, Workspace, open_workspace
from triage_app.core.deadletters import purge
from triage_app.core.errors import TriageError

# A JSONL source with what the chunks must cut the same way: a byte-order mark, CRLF and LF
# endings, blank lines (no record), a line that is not JSON, invalid UTF-8, a record that
# fails the transform, a key written twice, and a last line with no terminator.
JSONL = (
    b"\xef\xbb\xbf" + b'{"pesanan_id": 1, "waktu": "2026-01-10T09:15:00", "pelanggan": "Budi", '
    b'"produk": "Kemeja", "qty": 1, "harga": 250000, "diskon": 0}\r\n'
    b"\r\n"
    b'{"pesanan_id": 2, "waktu": "2026-01-10T14:30:00", "pelanggan": "Siti", '
    b'"produk": "Kain", "qty": 2, "harga": 180000, "diskon": 20000}\n'
    b'{"pesanan_id": 3, "waktu": \n'
    b"   \n"
    b'{"pesanan_id": 4, "pelanggan": "R\xffna"}\r\n'
    b'{"pesanan_id": 5, "waktu": "2026-01-11T13:20:00", "pelanggan": "Budi", '
    b'"produk": "Rok", "qty": -1, "harga": 150000, "diskon": 0}\n'
    b'{"pesanan_id": 2, "waktu": "2026-01-12T07:40:00", "pelanggan": "Dewi", '
    b'"produk": "Kain", "qty": 2, "harga": 180000, "diskon": 10000}\r\n'
    b'{"pesanan_id": 6, "waktu": "2026-01-12T10:05:00", "pelanggan": "Budi", '
    b'"produk": "Blouse", "qty": 1, "harga": 120000, "diskon": 0}'
)

# A CSV source: a byte-order mark, CRLF endings, quoted fields across lines (one record
# each), a blank line, a bad row, a key updated twice.
CSV = (
    b"\xef\xbb\xbforder_id,pelanggan,status,total,updated_at\r\n"
    b"3001,Budi,Baru,250000,2026-01-09T08:00:00\r\n"
    b'3002,"Siti\r\nand Sons",Dibayar,340000,2026-01-09T08:30:00\r\n'
    b"\r\n"
    b"3001,Budi,Dikirim,250000,2026-01-09T12:00:00\r\n"
    b'3003,"Dewi ""D""\nline two",Baru,-5,2026-01-09T13:15:00\r\n'
    b"3004,Rina,Hilang,banyak,2026-01-09T14:40:00\r\n"
    b"3005,Tono,Baru,100,2026-01-09T15:00:00"
)


def unzstd(data: bytes) -> bytes:
    return zstandard.ZstdDecompressor().decompressobj().decompress(data)


def zstd(data: bytes) -> bytes:
    return zstandard.ZstdCompressor().compress(data)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_kept(ws: Workspace, digest: str) -> bytes:
    with open_kept(ws, digest) as f:
        return f.read()


def kept_file(ws: Workspace, digest: str) -> Path:
    (path,) = (ws.config.folder / "sources").rglob(f"{digest}.*")  # type: ignore[operator]
    return path


def _with_pg(pg_urls: tuple[str, str], tmp_path: Path) -> Workspace:
    wh, dl = pg_urls
    return open_workspace(tmp_path / "pgws", warehouse_url=wh, dead_letter_url=dl)


# -- keep, open, round trip ----------------------------------------------------------------


def test_keep_then_open_is_byte_exact_and_a_zstd_file(workspace: Workspace, tmp_path: Path) -> None:
    data = os.urandom(300_000) + JSONL * 500  # incompressible and compressible both
    src = tmp_path / "a.jsonl"
    src.write_bytes(data)
    assert keep_source(workspace, sha(data), "jsonl", src) is True
    assert keep_source(workspace, sha(data), "jsonl", src) is False  # kept already
    assert read_kept(workspace, sha(data)) == data
    path = kept_file(workspace, sha(data))
    assert path.name == f"{sha(data)}.jsonl.zst" and path.parent.name == sha(data)[:2]
    assert unzstd(path.read_bytes()) == data  # a person can zstdcat it
    (info,) = list_kept(workspace)
    assert (info.size, info.stored_size, info.codec, info.place) == (
        len(data),
        path.stat().st_size,
        "zstd",
        "folder",
    )
    assert not list(path.parent.glob("*.part"))  # no temporary copy left


def test_a_stream_is_kept_too_and_bytes_of_another_hash_are_refused(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "a.csv"
    src.write_bytes(CSV)
    with src.open("rb") as f:
        assert keep_source(workspace, sha(CSV), "csv", f) is True
    assert read_kept(workspace, sha(CSV)) == CSV
    other = tmp_path / "b.jsonl"
    other.write_bytes(JSONL)
    with pytest.raises(TriageError, match="not the source"):
        keep_source(workspace, sha(JSONL + b"x"), "jsonl", other)
    assert not is_kept(workspace, sha(JSONL + b"x"))
    assert not [p for p in (workspace.config.folder / "sources").rglob("*.part")]  # type: ignore[operator]


def test_an_empty_source_round_trips(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / "empty.jsonl"
    src.write_bytes(b"")
    assert keep_source(workspace, sha(b""), "jsonl", src)
    assert read_kept(workspace, sha(b"")) == b""


@pytest.mark.parametrize(
    "tamper",
    [
        "flipped",  # a byte of the compressed stream changed
        "cut",  # truncated
        "other",  # a valid zstd file of other bytes
        "appended",  # another frame after the first
    ],
)
def test_a_tampered_copy_is_never_read_as_the_source(
    workspace: Workspace, tmp_path: Path, tamper: str
) -> None:
    data = JSONL * 2000
    src = tmp_path / "a.jsonl"
    src.write_bytes(data)
    keep_source(workspace, sha(data), "jsonl", src)
    path = kept_file(workspace, sha(data))
    raw = bytearray(path.read_bytes())
    if tamper == "flipped":
        raw[len(raw) // 2] ^= 0xFF
    elif tamper == "cut":
        raw = raw[: len(raw) // 2]
    elif tamper == "other":
        raw = bytearray(zstd(data.replace(b"Budi", b"Bodi")))
    else:
        raw += zstd(b"more")
    path.write_bytes(bytes(raw))
    with pytest.raises(SourceDamaged, match="is damaged") as caught:
        read_kept(workspace, sha(data))
    assert "\n" not in str(caught.value) and sha(data)[:12] in str(caught.value)


def test_not_kept_says_so(workspace: Workspace) -> None:
    with pytest.raises(NotKept, match="is not kept"), open_kept(workspace, "ab" * 32):
        pass
    with pytest.raises(TriageError, match="not a SHA-256"), open_kept(workspace, "nope"):
        pass


def test_a_file_removed_by_hand_is_not_kept(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / "a.jsonl"
    src.write_bytes(JSONL)
    keep_source(workspace, sha(JSONL), "jsonl", src)
    kept_file(workspace, sha(JSONL)).unlink()
    assert not is_kept(workspace, sha(JSONL))
    with pytest.raises(NotKept, match="its file is gone"), open_kept(workspace, sha(JSONL)):
        pass
    assert keep_source(workspace, sha(JSONL), "jsonl", src) is True  # kept again
    assert read_kept(workspace, sha(JSONL)) == JSONL


# -- a batch's records, as its run cut them --------------------------------------------------


def _dead_letters(ws: Workspace, batch_id: str) -> dict[int, bytes]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(DeadLetter.line, DeadLetter.original_payload).where(
                DeadLetter.batch_id == batch_id
            )
        )
        return {int(line): bytes(p) for line, p in rows}


def _warehouse(ws: Workspace, table: str, key: str, batch_id: str) -> dict[int, Any]:
    with ws.warehouse.connect() as conn:
        rows = conn.execute(
            text(f"SELECT _line, {key} FROM {table} WHERE _batch_id = :b"), {"b": batch_id}
        )
        return {int(line): k for line, k in rows}


def _batch_row(ws: Workspace, batch_id: str) -> Any:
    with ws.store.connect() as conn:
        return conn.execute(select(Batch.__table__).where(Batch.batch_id == batch_id)).one()


def check_records_match_the_run(
    ws: Workspace, src: Path, transform: str, table: str, key: str, parse: Callable[[bytes], Any]
) -> None:
    s = run_batch(ws, src, transform, chunk_size=2)  # chunks of 2: every cut crosses one
    assert s.source_kept and s.quarantined >= 2
    records = dict(batch_records(ws, s.batch_id))
    assert len(records) == s.rows  # one per record the run counted, blank lines none
    dead = _dead_letters(ws, s.batch_id)
    assert len(dead) == s.quarantined
    for line, payload in dead.items():
        assert records[line] == payload  # the dead letter's original bytes, at its line
    loaded = _warehouse(ws, table, key, s.batch_id)
    assert loaded
    for line, k in loaded.items():
        assert str(parse(records[line])) == str(k)  # the warehouse row's line holds its key
    wanted = [*sorted(dead)[:2], 10_000]
    assert list(batch_records(ws, s.batch_id, wanted)) == [(n, records[n]) for n in wanted[:2]]
    assert list(batch_records(ws, s.batch_id[:6], [])) == []  # a unique prefix is enough


def test_jsonl_records_are_those_of_the_dead_letters_and_the_warehouse(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "orders.jsonl"
    src.write_bytes(JSONL)
    check_records_match_the_run(
        workspace,
        src,
        "pesanan@2",
        "pesanan",
        "pesanan_id",
        lambda raw: orjson.loads(raw)["pesanan_id"],
    )
    s = run_batch(workspace, src, "pesanan@2")
    records = dict(batch_records(workspace, s.batch_id))
    assert 2 not in records and 5 not in records  # blank lines: no records
    assert records[1].startswith(b'{"pesanan_id": 1')  # the mark skipped, CRLF stripped
    assert records[4] == b'{"pesanan_id": 3, "waktu": '  # a broken line as it was
    assert records[6] == b'{"pesanan_id": 4, "pelanggan": "R\xffna"}'


def test_csv_records_are_those_of_the_dead_letters_and_the_warehouse(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "orders.csv"
    src.write_bytes(CSV)
    check_records_match_the_run(
        workspace, src, "orders@1", "orders", "order_id", lambda raw: raw.split(b",", 1)[0].decode()
    )
    s = run_batch(workspace, src, "orders@1")
    records = dict(batch_records(workspace, s.batch_id))
    assert records[3] == b'3002,"Siti\r\nand Sons",Dibayar,340000,2026-01-09T08:30:00'
    assert records[7] == b'3003,"Dewi ""D""\nline two",Baru,-5,2026-01-09T13:15:00'
    assert sorted(records) == [2, 3, 6, 7, 9, 10]  # numbered by the line each starts on


def test_a_batch_whose_source_is_gone_says_so_and_is_given_it_again(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "orders.jsonl"
    src.write_bytes(JSONL)
    s = run_batch(workspace, src, "pesanan@2")
    before = list(batch_records(workspace, s.batch_id))
    kept_file(workspace, sha(JSONL)).unlink()
    assert source_state(workspace, [s.batch_id, "0" * 16]) == {s.batch_id: False, "0" * 16: False}
    with pytest.raises(SourceGone) as gone:
        batch_records(workspace, s.batch_id)
    said = str(gone.value)
    assert said == (
        f"the source of batch {s.batch_id} is not kept: give the file again with "
        f"triage-app give-source {s.batch_id} FILE"
    )
    assert isinstance(gone.value, TriageError) and gone.value.batch_id == s.batch_id

    wrong = tmp_path / "other.jsonl"
    wrong.write_bytes(JSONL + b"\n")
    with pytest.raises(TriageError) as refused:
        give_source(workspace, s.batch_id, wrong)
    line = str(refused.value)
    assert "\n" not in line and sha(JSONL + b"\n")[:12] in line and sha(JSONL)[:12] in line
    assert line.startswith(f"other.jsonl is not the source of batch {s.batch_id}")
    assert source_state(workspace, [s.batch_id]) == {s.batch_id: False}

    assert give_source(workspace, s.batch_id, src) is True
    assert source_state(workspace, [s.batch_id]) == {s.batch_id: True}
    assert list(batch_records(workspace, s.batch_id)) == before
    assert give_source(workspace, s.batch_id, src) is False  # the same file again: nothing new


def test_give_source_mends_a_damaged_copy(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / "orders.csv"
    src.write_bytes(CSV)
    s = run_batch(workspace, src, "orders@1")
    kept_file(workspace, sha(CSV)).write_bytes(zstd(CSV.replace(b"Budi", b"Bodi")))
    with pytest.raises(SourceDamaged):
        batch_records(workspace, s.batch_id)  # checked before the first record
    assert give_source(workspace, s.batch_id, src) is True
    assert read_kept(workspace, sha(CSV)) == CSV


def test_a_batch_found_complete_without_its_source_keeps_it(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "orders.jsonl"
    src.write_bytes(JSONL)
    s = run_batch(workspace, src, "pesanan@2")
    with workspace.store.begin() as conn:  # as a batch from before sources were kept
        conn.execute(KeptSource.__table__.delete())
    kept_file(workspace, sha(JSONL)).unlink()
    again = run_batch(workspace, src, "pesanan@2")
    assert again.already_loaded and again.source_kept
    assert source_state(workspace, [s.batch_id]) == {s.batch_id: True}
    assert read_kept(workspace, sha(JSONL)) == JSONL


def test_a_cancelled_batch_keeps_nothing_until_it_completes(
    workspace: Workspace, tmp_path: Path
) -> None:
    class CancelAtOnce:
        def update(self, *_a: Any) -> None:
            pass

        def cancelled(self) -> bool:
            return True

    src = tmp_path / "orders.jsonl"
    src.write_bytes(JSONL)
    s = run_batch(workspace, src, "pesanan@2", chunk_size=2, progress=CancelAtOnce())  # type: ignore[arg-type]
    assert s.cancelled and not s.source_kept
    assert not is_kept(workspace, sha(JSONL))
    assert not [p for p in (workspace.config.folder / "sources").rglob("*") if p.is_file()]  # type: ignore[operator]
    done = run_batch(workspace, src, "pesanan@2", chunk_size=2)
    assert done.source_kept and is_kept(workspace, sha(JSONL))


def test_a_source_that_cannot_be_kept_does_not_fail_its_batch(
    workspace: Workspace, tmp_path: Path
) -> None:
    (workspace.config.folder / "sources").write_bytes(b"not a folder")  # type: ignore[operator]
    src = tmp_path / "orders.jsonl"
    src.write_bytes(JSONL)
    s = run_batch(workspace, src, "pesanan@2")
    assert s.rows == 7 and not s.already_loaded  # loaded all the same
    assert not s.source_kept and "cannot keep the source" in s.source_problem
    assert s.describe().endswith(s.source_problem) and "\n" not in s.describe()
    assert source_state(workspace, [s.batch_id]) == {s.batch_id: False}


def check_killed_while_keeping(point: str, where: list[str], tmp_path: Path) -> None:
    """A run killed (SIGKILL) after its batch completed, before or while its source was
    recorded: the batch is complete and its source not kept; the same command again keeps
    it, whole."""
    data = (JSONL + b"\n") * 50
    src = tmp_path / "orders.jsonl"
    src.write_bytes(data)
    args = [*where, "run", str(src), "--transform", "pesanan@2"]
    env = {**os.environ, "TRIAGE_LANES": "1"}
    killed = cli(*args, env={**env, "TRIAGE_CRASH_AT": point})
    assert killed.returncode == -9, killed.stderr
    with _open(where) as ws:
        with ws.store.connect() as conn:
            (b,) = conn.execute(select(Batch.batch_id, Batch.state)).all()
        assert b.state == "complete" and not is_kept(ws, sha(data))
        with pytest.raises(SourceGone):
            batch_records(ws, b.batch_id)
    again = cli(*args, env=env)
    assert again.returncode == 0 and "already loaded" in again.stdout
    with _open(where) as ws:
        assert read_kept(ws, sha(data)) == data and len(list_kept(ws)) == 1


def _open(where: list[str]) -> Workspace:
    opts = dict(zip(where[::2], where[1::2], strict=True))
    return open_workspace(
        opts.get("--workspace"),
        warehouse_url=opts.get("--warehouse"),
        dead_letter_url=opts.get("--dead-letter"),
    )


@pytest.mark.parametrize("point", ["before-source-kept", "mid-source-keep"])
def test_killed_while_keeping_then_run_again(point: str, tmp_path: Path) -> None:
    check_killed_while_keeping(point, ["--workspace", str(tmp_path / "ws")], tmp_path)


def test_killed_while_keeping_on_postgresql(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    wh, dl = pg_urls
    check_killed_while_keeping(
        "mid-source-keep", ["--warehouse", wh, "--dead-letter", dl], tmp_path
    )


# -- retention ------------------------------------------------------------------------------


def _age(ws: Workspace, digest: str, days: int) -> None:
    with ws.store.begin() as conn:
        conn.execute(
            update(KeptSource)
            .where(KeptSource.sha256 == digest)
            .values(kept_at=dt.datetime(2026, 1, 1) - dt.timedelta(days=days))
        )


def _three_batches(ws: Workspace, tmp_path: Path) -> dict[str, str]:
    """Three complete batches of three sources; the store says one is running, one held."""
    ids = {}
    for name, data in (("done", JSONL), ("running", JSONL + b"\n"), ("held", JSONL + b"\n\n")):
        src = tmp_path / f"{name}.jsonl"
        src.write_bytes(data)
        ids[name] = run_batch(ws, src, "pesanan@2").batch_id
        _age(ws, sha(data), 100)
    with ws.store.begin() as conn:
        for state in ("running", "held"):
            conn.execute(update(Batch).where(Batch.batch_id == ids[state]).values(state=state))
    return ids


def check_retention(ws: Workspace, tmp_path: Path) -> None:
    ids = _three_batches(ws, tmp_path)
    now = dt.datetime(2026, 1, 1)
    assert sources_retention(ws) == 90  # the default
    assert forget_sources(ws, 200, now=now).sources == []  # none that old
    dry = forget_sources(ws, now=now, dry_run=True)
    assert (dry.sources, dry.spared) == ([sha(JSONL)], 2)
    assert all(source_state(ws, ids.values()).values())  # a dry run forgets nothing
    went = forget_sources(ws, now=now)
    assert went.sources == [sha(JSONL)] and went.spared == 2 and went.stored_size > 0
    assert "forgot 1 source kept more than 90 days ago" in went.describe()
    assert source_state(ws, ids.values()) == {
        ids["done"]: False,
        ids["running"]: True,
        ids["held"]: True,
    }
    with ws.store.connect() as conn:
        assert conn.execute(select(func.count()).select_from(SourceBlob.__table__)).scalar() == (
            0 if ws.store.dialect.name == "sqlite" else 2
        )
    set_sources_retention(ws, None)
    assert sources_retention(ws) is None
    assert forget_sources(ws, now=now + dt.timedelta(days=9999)).sources == []  # forever


def test_retention_forgets_old_sources_but_not_a_running_or_held_batchs(
    workspace: Workspace, tmp_path: Path
) -> None:
    check_retention(workspace, tmp_path)
    assert not [p for p in (workspace.config.folder / "sources").rglob(f"{sha(JSONL)}*")]  # type: ignore[operator]


def test_the_dead_letters_purge_forgets_sources_in_the_same_run(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _three_batches(workspace, tmp_path)
    s = purge(workspace, 30, ["resolved", "discarded"], now=dt.datetime(2026, 1, 1))
    assert s.sources is not None and s.sources.sources == [sha(JSONL)]
    assert s.to_json()["sources"]["sources"] == [sha(JSONL)]
    assert source_state(workspace, [ids["done"]]) == {ids["done"]: False}
    one = purge(workspace, 30, ["resolved"], batch=ids["running"], now=dt.datetime(2027, 1, 1))
    assert one.sources is None  # a purge of one batch forgets no sources


def test_a_temporary_copy_a_killed_run_left_is_swept_once_a_day_old(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "a.jsonl"
    src.write_bytes(JSONL)
    keep_source(workspace, sha(JSONL), "jsonl", src)
    folder = kept_file(workspace, sha(JSONL)).parent
    old, fresh = folder / f".{sha(JSONL)}.x1.part", folder / f".{sha(JSONL)}.x2.part"
    for part in (old, fresh):
        part.write_bytes(b"half a copy")
    two_days_ago = dt.datetime.now().timestamp() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))
    forget_sources(workspace, now=dt.datetime(2026, 1, 1))
    assert (old.exists(), fresh.exists()) == (False, True)
    assert is_kept(workspace, sha(JSONL))  # kept today: not forgotten by a 90-day policy


def test_a_bad_retention_value_is_one_line(workspace: Workspace) -> None:
    with pytest.raises(TriageError, match="whole number of days or forever"):
        set_sources_retention(workspace, -3)
    with pytest.raises(TriageError, match="whole number of days or forever"):
        forget_sources(workspace, "soon")  # type: ignore[arg-type]


# -- PostgreSQL: blobs -----------------------------------------------------------------------


def test_on_postgresql_sources_are_blobs(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    from triage_app.core.batch import kept_sources

    ws = _with_pg(pg_urls, tmp_path)
    try:
        data = os.urandom(9 << 20)  # three parts of 4 MiB (it does not compress)
        src = tmp_path / "big.jsonl"
        src.write_bytes(data)
        assert keep_source(ws, sha(data), "jsonl", src) is True
        assert keep_source(ws, sha(data), "jsonl", src) is False
        with ws.store.connect() as conn:
            parts = conn.execute(
                select(SourceBlob.part).where(SourceBlob.sha256 == sha(data)).order_by("part")
            ).scalars()
            assert list(parts) == [0, 1, 2]
        assert read_kept(ws, sha(data)) == data
        (info,) = list_kept(ws)
        assert info.place == "table" and info.size == len(data)
        assert not list(tmp_path.rglob("*.zst"))  # nothing in a folder
        with ws.store.begin() as conn:  # a part tampered with
            conn.execute(
                update(SourceBlob)
                .where(SourceBlob.sha256 == sha(data), SourceBlob.part == 1)
                .values(data=b"x" * kept_sources.PART)
            )
        with pytest.raises(SourceDamaged):
            read_kept(ws, sha(data))

        src2 = tmp_path / "orders.csv"
        src2.write_bytes(CSV)
        check_records_match_the_run(
            ws,
            src2,
            "orders@1",
            "orders",
            "order_id",
            lambda raw: raw.split(b",", 1)[0].decode(),
        )
        batch = run_batch(ws, src2, "orders@1").batch_id
        with ws.store.begin() as conn:
            conn.execute(SourceBlob.__table__.delete().where(SourceBlob.sha256 == sha(CSV)))
            conn.execute(KeptSource.__table__.delete().where(KeptSource.sha256 == sha(CSV)))
        with pytest.raises(SourceGone):
            batch_records(ws, batch)
        assert give_source(ws, batch, src2) is True
        assert dict(batch_records(ws, batch))[3].startswith(b'3002,"Siti\r\n')
    finally:
        ws.close()


def test_a_team_store_with_a_local_warehouse_spools_in_the_workspace(
    pg_urls: tuple[str, str], tmp_path: Path
) -> None:
    _wh, dl = pg_urls
    with open_workspace(tmp_path / "mixed", dead_letter_url=dl) as ws:
        src = tmp_path / "orders.csv"
        src.write_bytes(CSV)
        s = run_batch(ws, src, "orders@1")
        assert s.source_kept and list_kept(ws)[0].place == "table"
        assert dict(batch_records(ws, s.batch_id))[2].startswith(b"3001,Budi,Baru")
    spool = tmp_path / "mixed" / "sources" / "spool"
    assert spool.is_dir() and not list(spool.iterdir())  # the copy went into blobs


def test_retention_on_postgresql(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    ws = _with_pg(pg_urls, tmp_path)
    try:
        check_retention(ws, tmp_path)
    finally:
        ws.close()


# -- two processes keep one source at once -------------------------------------------------


def _keeper(
    where: dict[str, Any], digest: str, src: str, barrier: Any, out: Any, stage: str
) -> None:  # pragma: no cover (in a child process)
    from triage_app.core.batch import kept_sources

    ws = open_workspace(where.get("folder"), **where.get("urls", {}))
    try:
        is_kept(ws, digest)  # connected, and the engine warm, before the start
        if stage == "keep_source":
            barrier.wait(timeout=60)
            out.put(("ok", keep_source(ws, digest, "jsonl", src)))
        else:  # every copy made first: the commits themselves race
            pack = kept_sources._Pack(ws, digest, "jsonl")
            with open(src, "rb") as f:
                pack.fill(f)
            barrier.wait(timeout=60)
            out.put(("ok", pack.commit()))
    except BaseException as exc:
        out.put(("error", repr(exc)))
    finally:
        ws.close()


def race_to_keep(
    where: dict[str, Any], tmp_path: Path, stage: str, n: int = 3
) -> tuple[list[Any], bytes]:
    data = (JSONL + b"\n") * 40_000 + os.urandom(1 << 20)  # long enough to overlap
    src = tmp_path / "race.jsonl"
    src.write_bytes(data)
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(n)
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_keeper, args=(where, sha(data), str(src), barrier, out, stage))
        for _ in range(n)
    ]
    for p in procs:
        p.start()
    got = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return got, data


RACES = pytest.mark.parametrize("stage", ["keep_source", "commit"])


@pytest.mark.slow
@RACES
def test_processes_keeping_one_source_at_once_keep_it_once_on_sqlite(
    tmp_path: Path, stage: str
) -> None:
    folder = tmp_path / "ws"
    open_workspace(folder).close()
    got, data = race_to_keep({"folder": str(folder)}, tmp_path, stage)
    assert sorted(got) == [("ok", False), ("ok", False), ("ok", True)], got
    with open_workspace(folder) as ws:
        assert read_kept(ws, sha(data)) == data
        assert len(list_kept(ws)) == 1
    files = [p.name for p in (folder / "sources").rglob("*") if p.is_file()]
    assert files == [f"{sha(data)}.jsonl.zst"]  # no temporary copy left behind


@pytest.mark.slow
@RACES
def test_processes_keeping_one_source_at_once_keep_it_once_on_postgresql(
    pg_urls: tuple[str, str], tmp_path: Path, stage: str
) -> None:
    wh, dl = pg_urls
    open_workspace(tmp_path / "pgws", warehouse_url=wh, dead_letter_url=dl).close()
    urls = {"warehouse_url": wh, "dead_letter_url": dl}
    got, data = race_to_keep({"folder": str(tmp_path / "pgws"), "urls": urls}, tmp_path, stage)
    assert sorted(got) == [("ok", False), ("ok", False), ("ok", True)], got
    with open_workspace(tmp_path / "pgws", **urls) as ws:
        assert read_kept(ws, sha(data)) == data
        assert len(list_kept(ws)) == 1
        with ws.store.connect() as conn:
            parts = conn.execute(select(func.count()).select_from(SourceBlob.__table__)).scalar()
        stored = list_kept(ws)[0].stored_size
        assert parts == -(-stored // (4 << 20))  # one set of parts, not two
