"""A pipeline's own dead-letter table as a connector (issue 26), against seed 000's schema
in SQLite, MariaDB and PostgreSQL: import its rows (byte-exact, classed as it says, never
twice, marking nothing there), fix them, re-drive them through ``pesanan@2`` into its
``pesanan`` table, and do to the dead-letter rows what ``after_load`` says; two stewards
at once; and one line for every bad input."""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import create_engine, event, text

from tests.conftest import PG_BASE
from tests.core.connectors.conftest import open_place
from tests.core.connectors.pipeline_db import (
    BATCH_1,
    SEED_GALAT,
    create_seed_tables,
    execute,
    mariadb_database,
    mariadb_reachable,
    postgres_schema,
    rows_of,
    run_seed_loader,
)
from tests.support import REPO
from triage_app.core.connectors import (
    OriginInfo,
    RoutedSink,
    import_letters,
    keep_connector,
    open_source,
    origins_of,
)
from triage_app.core.connectors.tables import (
    NO_ROW,
    SEED_MAPPING,
    DeadLetterTableSource,
    TableSink,
)
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import (
    DeadLetterFilter,
    Parcel,
    edit_payload,
    get_dead_letter,
    list_dead_letters,
    redrive,
)
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry
from triage_app.core.vocabulary import RedriveOutcome, Status

ALL = [
    pytest.param("sqlite"),
    pytest.param("mariadb", marks=pytest.mark.mariadb),
    pytest.param("postgresql", marks=pytest.mark.postgres),
]
PESANAN_2 = default_registry().get("pesanan@2")
# The steward's fixes: line 4 gets the qty it lacked, line 6 a quantity that is one.
FIXES = {
    4: BATCH_1[3].replace('"harga": 210000', '"qty": 3, "harga": 210000'),
    6: BATCH_1[5].replace('"qty": -1', '"qty": 1'),
}


@pytest.fixture(scope="session")
def mariadb_available() -> None:
    reason = mariadb_reachable()
    if reason is not None:
        if os.environ.get("CI") and not os.environ.get("TRIAGE_ALLOW_MARIADB_SKIP"):
            pytest.fail(f"CI must run the MariaDB tests: {reason}")
        pytest.skip(reason)


@pytest.fixture(params=ALL)
def pipeline(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database of the pipeline's: a SQLite file, a MariaDB database
    or a PostgreSQL schema of this test's own."""
    if request.param == "sqlite":
        path = tmp_path / "toko.db"
        sqlite3.connect(path).close()
        yield f"sqlite:///{path}"
    elif request.param == "mariadb":
        request.getfixturevalue("mariadb_available")
        with mariadb_database() as url:
            yield url
    else:
        request.getfixturevalue("pg_available")
        with postgres_schema(PG_BASE) as url:
            yield url


def _options(after_load: str = "keep", **sink: Any) -> dict[str, Any]:
    return {**SEED_MAPPING, "sink": {"table": "pesanan", "after_load": after_load, **sink}}


def _import(ws: Workspace, url: str, options: dict[str, Any], chunk: int = 3) -> Any:
    c = keep_connector(ws, "table", url, options)
    source = open_source(c, url)
    try:
        return import_letters(ws, c, source, chunk=chunk)
    finally:
        source.close()


def _by_line(ws: Workspace) -> dict[int, int]:
    """The imported dead letters' ids by the seed's line (its ``baris``)."""
    views = list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)
    origins = origins_of(ws, [v.id for v in views])
    return {int(origins[v.id].evidence["baris"]): v.id for v in views}


def _expected_pesanan(fixed: dict[int, str]) -> list[tuple[Any, ...]]:
    """What pesanan must hold, worked out here from the records: each record that is whole
    JSON with a positive qty, its total qty * harga less the discount (none: 0)."""
    out = []
    for line, raw in enumerate(BATCH_1, start=1):
        raw = fixed.get(line, raw)
        try:
            d = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if not isinstance(d.get("qty"), int) or d["qty"] <= 0:
            continue
        out.append(_row_of(d))
    return sorted(out)


def _row_of(d: dict[str, Any]) -> tuple[Any, ...]:
    total = d["qty"] * d["harga"] - (d["diskon"] or 0)
    return (d["pesanan_id"], d["waktu"], d["pelanggan"], d["produk"], d["qty"], d["harga"], total)


def _redrive(ws: Workspace, url: str | None = None) -> Any:
    sink = RoutedSink(ws, "original", PESANAN_2, url=url)
    try:
        return redrive(ws, PESANAN_2.ref, where=DeadLetterFilter(), sink=sink)
    finally:
        sink.close()


def _fix(ws: Workspace, ids: dict[int, int]) -> None:
    for line, fixed in FIXES.items():
        edit_payload(ws, ids[line], fixed, actor="ani")


# -- import ------------------------------------------------------------------------------


def test_import_copies_each_row_once_and_marks_nothing(
    pipeline: str, place: dict[str, Any]
) -> None:
    create_seed_tables(pipeline)
    assert run_seed_loader(pipeline) == 6
    # Line 4 as the seed's retry leaves it after failing once more.
    execute(pipeline, "UPDATE dead_letter SET percobaan = 2 WHERE baris = 4")
    before = rows_of(pipeline, "dead_letter", "dl_id")
    assert {r[1]: r[3] for r in before} == SEED_GALAT  # the seed's own quarantine
    with open_place(place) as ws:
        s = _import(ws, pipeline, _options())  # chunks of 3: the second page by key
        assert (s.taken, s.imported, s.already) == (4, 4, 0)
        assert s.by_class == {"data": 3, "code": 1}
        ids = _by_line(ws)
        assert sorted(ids) == [3, 4, 6, 8]
        origins = origins_of(ws, list(ids.values()))
        dl_ids = {r[1]: r[0] for r in before}
        for line, dl_id in ids.items():
            d = get_dead_letter(ws, dl_id, reveal=True)
            assert d.original_bytes == BATCH_1[line - 1].encode()  # byte-exact
            assert d.error == SEED_GALAT[line]
            assert d.error_class == ("code" if line == 8 else "data")  # kelas says so
            assert d.attempts == (2 if line == 4 else 1)  # percobaan
            assert d.transform == "table:dead_letter"
            o = origins[dl_id]
            assert o.identity == f"dead_letter:{dl_ids[line]}"
            assert o.destination == "pesanan"
            assert o.evidence["baris"] == line
            assert o.evidence["kelas"] == ("kode" if line == 8 else "data")
            assert o.evidence["dead_letter_table"] == "dead_letter"
            assert "payload" not in o.evidence  # the payload is the dead letter's own
        # Again: every row found stored, none doubled.
        again = _import(ws, pipeline, _options())
        assert (again.taken, again.imported, again.already) == (4, 0, 4)
        assert len(list_dead_letters(ws, DeadLetterFilter(status="all"), limit=None)) == 4
    assert rows_of(pipeline, "dead_letter", "dl_id") == before  # marks nothing there


def test_the_cursor_walks_the_key_and_never_offsets(tmp_path: Path) -> None:
    path = tmp_path / "toko.db"
    url = f"sqlite:///{path}"
    sqlite3.connect(path).close()
    create_seed_tables(url)
    run_seed_loader(url)
    source = DeadLetterTableSource(url, SEED_MAPPING)
    selects: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if statement.startswith("SELECT"):
            selects.append((statement.upper(), params))

    event.listen(source._engine, "before_cursor_execute", seen)
    try:
        first = source.take(2)
        # A row before the cursor goes, and another after it: neither moves what is next.
        execute(url, "DELETE FROM dead_letter WHERE baris = 3")
        second = source.take(1)
        source.acknowledge(first)  # marks nothing, and moves nothing back
        rest = source.take(10)
        assert source.take(10) == []
    finally:
        source.close()
    lines = [x.evidence["baris"] for x in [*first, *second, *rest]]
    assert lines == [3, 4, 6, 8]  # each once, in key order, unacknowledged ones too
    # Each page after the first starts past the last key taken; SQLite's dialect writes an
    # OFFSET beside every LIMIT, and it is always 0.
    assert len(selects) == 4
    assert all("WHERE DEAD_LETTER.DL_ID > ?" in text for text, _ in selects[1:])
    assert all(params[-1] == 0 for text, params in selects if "OFFSET" in text)
    assert len(rows_of(url, "dead_letter", "dl_id")) == 3


def test_another_pipelines_table_its_time_text_key_and_bytes(tmp_path: Path) -> None:
    """Not the seed's: a text key, a BLOB payload that is not UTF-8, a time with its zone,
    an error named by a Java type and no class column; marked loaded by a flag that
    starts at 0, after which an import reads the row no more."""
    path = tmp_path / "jvm.db"
    url = f"sqlite:///{path}"
    sqlite3.connect(path).close()
    blob = b'{"pesanan_id": 11, "produk": "Kain \xff"}'
    execute(
        url,
        "CREATE TABLE dlq (msg_id TEXT PRIMARY KEY, body BLOB, err TEXT, at TEXT, "
        "done INTEGER NOT NULL DEFAULT 0)",
        "CREATE TABLE pesanan (pesanan_id INTEGER PRIMARY KEY, waktu TEXT, pelanggan TEXT, "
        "produk TEXT, qty INTEGER, harga INTEGER, total INTEGER)",
    )
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO dlq (msg_id, body, err, at) VALUES (:i, :b, :e, :t)"),
            [
                {"i": "b-2", "b": blob, "e": "java.lang.NumberFormatException: For input "
                 'string: "x"', "t": "2026-01-12T10:05:00+07:00"},
                {"i": "a-1", "b": b"{}", "e": None, "t": None},
            ],
        )  # fmt: skip
    engine.dispose()
    options = {
        "table": "dlq",
        "columns": {"id": "msg_id", "payload": "body", "error": "err", "time": "at"},
        "sink": {"after_load": "mark:done"},
    }
    source = DeadLetterTableSource(url, options)
    try:
        first, second = source.take(10)
    finally:
        source.close()
    assert (first.identity, second.identity) == ("dlq:a-1", "dlq:b-2")  # by key
    assert second.payload == blob
    assert second.error == 'NumberFormatException: For input string: "x"'
    assert second.error_class == "data" and second.attempts == 1
    assert second.failed_at == dt.datetime(2026, 1, 12, 3, 5)  # naive UTC
    assert second.evidence == {
        "msg_id": "b-2",
        "err": 'java.lang.NumberFormatException: For input string: "x"',
        "at": "2026-01-12T10:05:00+07:00",
        "done": 0,
        "dead_letter_table": "dlq",
    }
    assert (first.error, first.failed_at) == ("no error given", None)
    row = (11, "2026-01-13T08:00:00", "Ani", "Kain", 1, 180000, 180000)
    sink = TableSink(url, options, PESANAN_2)
    try:
        origin = OriginInfo(7, 1, "dlq:b-2", None, {})
        assert sink.deliver([Parcel(7, blob, "jsonl", row)], {7: origin}) == {}
    finally:
        sink.close()
    assert rows_of(url, "pesanan", "pesanan_id") == [row]
    assert rows_of(url, "dlq", "msg_id") == [
        ("a-1", b"{}", None, None, 0),
        ("b-2", blob, 'java.lang.NumberFormatException: For input string: "x"',
         "2026-01-12T10:05:00+07:00", 1),
    ]  # fmt: skip
    source = DeadLetterTableSource(url, options)
    try:
        assert [x.identity for x in source.take(10)] == ["dlq:a-1"]  # b-2 is loaded
    finally:
        source.close()


# -- fix and re-drive into pesanan ---------------------------------------------------------


def test_fix_and_redrive_into_pesanan_deleting_what_loaded(
    pipeline: str, place: dict[str, Any]
) -> None:
    """The seed's retry_dead_letter, by the desk: what loads is deleted from dead_letter."""
    create_seed_tables(pipeline)
    run_seed_loader(pipeline)
    before = rows_of(pipeline, "dead_letter", "dl_id")
    with open_place(place) as ws:
        _import(ws, pipeline, _options("delete"))
        ids = _by_line(ws)
        _fix(ws, ids)
        s = _redrive(ws)  # the connector's URL: no password, none from the keyring
        assert (s.succeeded, s.failed, s.undelivered) == (3, 1, 0)
        assert s.destination == "where each came from"
        status = {line: get_dead_letter(ws, i, reveal=True) for line, i in ids.items()}
        assert {line: d.status for line, d in status.items()} == {
            3: Status.OPEN,  # the broken JSON, not fixed: still fails
            4: Status.RESOLVED,
            6: Status.RESOLVED,
            8: Status.RESOLVED,  # the null diskon passes with @2
        }
        assert status[3].attempts == 2 and status[3].error.startswith("JSONDecodeError")
        # Imported again: the deleted rows are gone, line 3 is stored already.
        again = _import(ws, pipeline, _options("delete"))
        assert (again.taken, again.imported) == (1, 0)
    pesanan = rows_of(pipeline, "pesanan", "pesanan_id")
    assert pesanan == _expected_pesanan(FIXES)
    assert {r[0]: r[6] for r in pesanan if r[0] in (4, 6, 8)} == {
        4: 630000,
        6: 250000,
        8: 120000,
    }
    assert rows_of(pipeline, "dead_letter", "dl_id") == [r for r in before if r[1] == 3]


@pytest.mark.parametrize("after_load", ["keep", "mark"])
def test_after_load_keep_or_mark(pipeline: str, after_load: str, tmp_path: Path) -> None:
    mark = "dimuat" if after_load == "mark" else None
    create_seed_tables(pipeline, mark=mark)
    run_seed_loader(pipeline)
    before = rows_of(pipeline, "dead_letter", "dl_id")
    options = _options(f"mark:{mark}" if mark else "keep")
    with open_workspace(tmp_path / "ws") as ws:
        _import(ws, pipeline, options)
        _fix(ws, _by_line(ws))
        s = _redrive(ws, pipeline)
        assert (s.succeeded, s.failed) == (3, 1)
        again = _import(ws, pipeline, options)
        # A marked row is loaded: an import reads it no more. Kept ones are read, stored.
        assert (again.taken, again.imported) == ((1, 0) if mark else (4, 0))
    assert rows_of(pipeline, "pesanan", "pesanan_id") == _expected_pesanan(FIXES)
    after = rows_of(pipeline, "dead_letter", "dl_id")
    if not mark:
        assert after == before
        return
    assert [r[:6] for r in after] == [r[:6] for r in before]  # only the mark changed
    marked = {r[1]: r[6] for r in after}
    assert marked[3] is None
    for line in (4, 6, 8):
        assert marked[line] and marked[line].endswith("Z"), marked  # when it loaded


def test_a_refused_row_is_left_alone_and_the_rest_load(pipeline: str, tmp_path: Path) -> None:
    """The pipeline's table refuses one row (its CHECK): that dead letter stays open with
    the database's why, its dead-letter row stays; the others load and go."""
    create_seed_tables(pipeline, check_total=True)
    run_seed_loader(pipeline)
    with open_workspace(tmp_path / "ws") as ws:
        _import(ws, pipeline, _options("delete"))
        ids = _by_line(ws)
        _fix(ws, ids)
        edit_payload(ws, ids[6], FIXES[6].replace('"diskon": 0', '"diskon": 999999'))
        s = _redrive(ws, pipeline)
        assert (s.succeeded, s.failed, s.undelivered) == (2, 1, 1)
        why = next(r.error for r in s.results if r.id == ids[6])
        assert r"refused by table pesanan" in why and "\n" not in why
        assert get_dead_letter(ws, ids[6], reveal=True).status == Status.OPEN
        assert get_dead_letter(ws, ids[4], reveal=True).status == Status.RESOLVED
    assert [r[0] for r in rows_of(pipeline, "pesanan", "pesanan_id")] == [1, 2, 4, 5, 7, 8, 9, 10]
    assert sorted(r[1] for r in rows_of(pipeline, "dead_letter", "dl_id")) == [3, 6]


def test_a_sink_in_another_database(tmp_path: Path) -> None:
    """The rows go to another database (sink.url); the dead-letter rows are deleted in
    their own, right after."""
    toko, gudang = tmp_path / "toko.db", tmp_path / "gudang.db"
    for p in (toko, gudang):
        sqlite3.connect(p).close()
    url, other = f"sqlite:///{toko}", f"sqlite:///{gudang}"
    create_seed_tables(url)
    create_seed_tables(other)
    run_seed_loader(url)
    with open_workspace(tmp_path / "ws") as ws:
        _import(ws, url, _options("delete", url=other))
        _fix(ws, _by_line(ws))
        s = _redrive(ws, url)
        assert s.succeeded == 3 and s.destination == "where each came from"
    loaded = [r for r in _expected_pesanan(FIXES) if r[0] in (4, 6, 8)]
    assert rows_of(other, "pesanan", "pesanan_id") == loaded
    assert len(rows_of(url, "pesanan", "pesanan_id")) == 6  # the loader's, untouched
    assert [r[1] for r in rows_of(url, "dead_letter", "dl_id")] == [3]


def test_rows_not_made_by_a_transform_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "toko.db"
    sqlite3.connect(path).close()
    url = f"sqlite:///{path}"
    create_seed_tables(url)
    sink = TableSink(url, _options(), PESANAN_2)
    try:
        assert sink.name == f"table pesanan at {url}"
        out = sink.deliver([Parcel(1, b"{}", "jsonl", None)], {})
        assert out == {1: NO_ROW}
    finally:
        sink.close()
    # Through a re-drive with no transform chosen: each row stays open, saying why.
    run_seed_loader(url)
    with open_workspace(tmp_path / "ws") as ws:
        _import(ws, url, _options())
        sink2 = RoutedSink(ws, "original", None, url=url)
        try:
            s = redrive(ws, None, where=DeadLetterFilter(), sink=sink2)
        finally:
            sink2.close()
        assert s.undelivered == 4 and s.succeeded == 0
        assert all("choose the transform version" in (r.error or "") for r in s.results)


# -- two stewards at once -------------------------------------------------------------------

LOGS = {
    "sqlite": [
        "CREATE TABLE pesanan_log (pesanan_id INTEGER)",
        "CREATE TABLE dead_letter_log (dl_id INTEGER)",
        "CREATE TRIGGER pesanan_written AFTER INSERT ON pesanan "
        "BEGIN INSERT INTO pesanan_log VALUES (NEW.pesanan_id); END",
        "CREATE TRIGGER dead_letter_gone AFTER DELETE ON dead_letter "
        "BEGIN INSERT INTO dead_letter_log VALUES (OLD.dl_id); END",
    ],
    "mariadb": [
        "CREATE TABLE pesanan_log (pesanan_id INTEGER)",
        "CREATE TABLE dead_letter_log (dl_id INTEGER)",
        "CREATE TRIGGER pesanan_written AFTER INSERT ON pesanan FOR EACH ROW "
        "INSERT INTO pesanan_log VALUES (NEW.pesanan_id)",
        "CREATE TRIGGER dead_letter_gone AFTER DELETE ON dead_letter FOR EACH ROW "
        "INSERT INTO dead_letter_log VALUES (OLD.dl_id)",
    ],
}


def _more_orders(n: int) -> list[str]:
    """Orders with a null discount: each fails the loader's v1 (code class) and loads
    with @2."""
    return [
        orjson.dumps(
            {
                "pesanan_id": 100 + i,
                "waktu": "2026-01-13T08:00:00",
                "pelanggan": "Ani",
                "produk": "Kain Songket",
                "qty": 1 + i % 3,
                "harga": 180000,
                "diskon": None,
            }
        ).decode()
        for i in range(n)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("pipeline", [ALL[0], ALL[1]], indirect=True, ids=["sqlite", "mariadb"])
def test_two_stewards_redrive_the_same_letters_at_once(pipeline: str, tmp_path: Path) -> None:
    """Two processes re-drive the same imported dead letters at the same moment, each in
    its own order: every row is written to pesanan once, every dead letter resolved by
    one of them, every dead-letter row deleted once (the triggers count each write)."""
    create_seed_tables(pipeline)
    batch = BATCH_1 + _more_orders(40)
    run_seed_loader(pipeline, batch)
    execute(pipeline, *LOGS["sqlite" if pipeline.startswith("sqlite") else "mariadb"])
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        s = _import(ws, pipeline, _options("delete"), chunk=500)
        assert s.imported == 44
        ids = _by_line(ws)
        _fix(ws, ids)
    loadable = {line: i for line, i in ids.items() if line != 3}
    go = tmp_path / f"go-{uuid.uuid4().hex}"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.core.connectors.table_steward",
                str(go),
                str(folder),
                pipeline,
                str(seed),
                *map(str, sorted(ids.values())),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
        )
        for seed in (1, 2)
    ]
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob(go.name + ".ready.*"))) < len(procs):
            assert time.monotonic() < deadline, "the stewards never got ready"
            assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
            time.sleep(0.01)
        go.touch()
        ended = [p.communicate(timeout=300) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert all(p.returncode == 0 for p in procs), [e[1].decode()[-2000:] for e in ended]
    outcomes = [{int(k): v for k, v in orjson.loads(out).items()} for out, _ in ended]
    resolved = [{i for i, o in mine.items() if o == RedriveOutcome.RESOLVED} for mine in outcomes]
    assert resolved[0].isdisjoint(resolved[1])
    assert resolved[0] | resolved[1] == set(loadable.values())
    with open_workspace(folder) as ws:
        for line, i in ids.items():
            # Line 3 fails for each steward that tries it: open, or parked at three attempts.
            wanted_status = {Status.OPEN, Status.PARKED} if line == 3 else {Status.RESOLVED}
            assert get_dead_letter(ws, i, reveal=True).status in wanted_status
    keys = [r[0] for r in rows_of(pipeline, "pesanan_log", "pesanan_id")]
    wanted = sorted(json.loads(FIXES.get(line, batch[line - 1]))["pesanan_id"] for line in loadable)
    assert keys == wanted  # each written once
    assert rows_of(pipeline, "pesanan", "pesanan_id") == sorted(
        [*_expected_pesanan(FIXES), *(_row_of(json.loads(raw)) for raw in batch[10:])]
    )
    gone = [r[0] for r in rows_of(pipeline, "dead_letter_log", "dl_id")]
    assert len(gone) == len(set(gone)) == len(loadable)  # each deleted once
    assert [r[1] for r in rows_of(pipeline, "dead_letter", "dl_id")] == [3]


# -- bad input: one line each ----------------------------------------------------------------


def _one_line(exc: pytest.ExceptionInfo[TriageError], *words: str) -> str:
    text = str(exc.value)
    assert "\n" not in text and "sekret" not in text, text
    for w in words:
        assert w in text, text
    return text


def test_a_missing_table_or_column_is_named(pipeline: str) -> None:
    create_seed_tables(pipeline)
    with pytest.raises(TriageError) as e:
        DeadLetterTableSource(pipeline, {**SEED_MAPPING, "table": "surat_mati"})
    _one_line(e, "no table surat_mati")
    cols = {**SEED_MAPPING["columns"], "error": "pesan_galat"}
    with pytest.raises(TriageError) as e:
        DeadLetterTableSource(pipeline, {"table": "dead_letter", "columns": cols})
    _one_line(e, "dead_letter has no column pesan_galat (the error column)", "galat")
    with pytest.raises(TriageError) as e:
        DeadLetterTableSource(pipeline, _options("mark:dimuat"))
    _one_line(e, "no column dimuat (after_load's mark column)")
    # A sink table that is not what the transform writes.
    with pytest.raises(TriageError) as e:
        TableSink(pipeline, _options(table="dead_letter"), PESANAN_2)
    _one_line(e, "dead_letter has no column pesanan_id (which pesanan@2 writes)")
    with pytest.raises(TriageError) as e:
        TableSink(pipeline, _options("mark:dimuat"), PESANAN_2)
    _one_line(e, "no column dimuat")


@pytest.mark.parametrize(
    "options, words",
    [
        ({"columns": SEED_MAPPING["columns"]}, ["the dead-letter table's name"]),
        ({"table": "dead_letter"}, ["needs its columns"]),
        ({"table": "dead_letter", "columns": {"id": "dl_id"}}, ["which column holds the payload"]),
        ({**SEED_MAPPING, "columns": {"id": "dl_id", "payload": "p", "galat": "g"}}, ["galat"]),
        (_options("truncate"), ["after_load 'truncate'", "mark:COLUMN"]),
        (_options(url="postgresql://u:sekret@db/gudang"), ["carries a password", "u:***@"]),
    ],
)
def test_a_mapping_of_the_wrong_shape_is_refused(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(TriageError) as e:
        DeadLetterTableSource("sqlite:///nowhere.db", options)
    _one_line(e, *words)


@pytest.mark.parametrize(
    "url, words",
    [
        pytest.param(
            "mysql://root:sekret@127.0.0.1:1/test",
            ["cannot reach mysql://root:***@127.0.0.1:1/test"],
            id="mariadb",
        ),
        pytest.param(
            "postgresql://postgres:sekret@127.0.0.1:1/test",
            ["cannot reach postgresql://postgres:***@127.0.0.1:1/test", "Connection refused"],
            id="postgresql",
        ),
        pytest.param("oracle://scott:sekret@db/orcl", ["oracle is not supported"], id="oracle"),
        pytest.param("mysql://root:sekret@127.0.0.1:port/test", ["bad"], id="bad-url"),
    ],
)
def test_an_unreachable_database_is_one_line(url: str, words: list[str]) -> None:
    for make in (
        lambda: DeadLetterTableSource(url, SEED_MAPPING),
        lambda: TableSink(url, _options(), PESANAN_2),
    ):
        with pytest.raises(TriageError) as e:
            make()
        _one_line(e, *words)


def test_a_sqlite_file_that_is_not_there_is_not_made(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    with pytest.raises(TriageError) as e:
        DeadLetterTableSource(f"sqlite:///{missing}", SEED_MAPPING)
    _one_line(e, "no SQLite file at")
    assert not missing.exists()


def test_a_sink_that_cannot_be_opened_leaves_each_row_open_saying_why(tmp_path: Path) -> None:
    path = tmp_path / "toko.db"
    sqlite3.connect(path).close()
    url = f"sqlite:///{path}"
    create_seed_tables(url)
    run_seed_loader(url)
    with open_workspace(tmp_path / "ws") as ws:
        _import(ws, url, _options(table="gudang"))
        _fix(ws, _by_line(ws))
        s = _redrive(ws, url)
        assert (s.succeeded, s.undelivered) == (0, 3)  # line 3 fails before any sink
        whys = {r.error for r in s.results if r.outcome == RedriveOutcome.UNDELIVERED}
        assert whys == {f"no table gudang in {url}"}
