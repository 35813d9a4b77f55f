"""``triage-app retry-due`` and ``ladder`` in real processes (issue 27): two passes started
at once on one store retry each due row once per step (SQLite and PostgreSQL); a warehouse
whose connections are refused moves the rows down the ladder, saying why, and once it takes
connections again they load exactly once; bad input and an unreachable store get one line.

The transient failures come from a plugin, ``flaky@1``, dropped into the plugins folder of
the processes' data folder: it fails every record transiently while a flag file exists, as
an API that is down does."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import func, select

from tests.invariants.test_races import Store, race
from tests.support import REPO
from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, DeadLetter, Resolution, Workspace, open_workspace
from triage_app.core.deadletters import Ladder, retry_due, set_workspace_ladder
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Registry

PLUGIN = """
import os
from pathlib import Path

from triage_app.core.errors import TransientError
from triage_app.core.transforms import Column, Transform


def _row(record):
    if Path(os.environ["FLAKY_DOWN"]).exists():
        raise TransientError("layanan stok sibuk: coba lagi nanti")
    return (int(record["id"]), str(record["nama"]))


TRANSFORMS = [
    Transform(
        name="flaky",
        version=1,
        table="flaky",
        key="id",
        columns=(Column("id", "int"), Column("nama", "text")),
        fn=_row,
    )
]
"""
NO_WAIT = RetryPolicy(attempts=1)


class Flaky:
    """The plugin on disk, the flag that takes its service down, and the environment the
    processes run in."""

    def __init__(self, tmp: Path) -> None:
        data = tmp / "data"
        folder = data / "triage-desk" / "plugins"
        folder.mkdir(parents=True)
        (folder / "flaky.py").write_text(PLUGIN, encoding="utf-8")
        self.flag = tmp / "down.flag"
        self.env = {"XDG_DATA_HOME": str(data), "FLAKY_DOWN": str(self.flag)}
        spec = importlib.util.spec_from_file_location("flaky_plugin_test", folder / "flaky.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        self.registry = Registry()
        for t in module.TRANSFORMS:
            self.registry.register(t)

    def down(self) -> None:
        self.flag.touch()

    def up(self) -> None:
        self.flag.unlink(missing_ok=True)


@pytest.fixture
def flaky(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flaky:
    f = Flaky(tmp_path)
    monkeypatch.setenv("FLAKY_DOWN", str(f.flag))
    return f


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        ws = tmp_path / "ws"
        yield Store(["--workspace", str(ws)], str(ws))
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield Store(["--warehouse", wh, "--dead-letter", dl], f"{wh},{dl}")


def quarantine(ws: Workspace, tmp: Path, flaky: Flaky, rows: int) -> list[int]:
    path = tmp / "stok.jsonl"
    path.write_bytes(
        b"".join(orjson.dumps({"id": i, "nama": f"barang {i}"}) + b"\n" for i in range(rows))
    )
    flaky.down()
    s = run_batch(ws, path, "flaky@1", registry=flaky.registry, retry=NO_WAIT)
    assert s.quarantined == rows
    with ws.store.connect() as conn:
        return list(conn.execute(select(DeadLetter.id).order_by(DeadLetter.id)).scalars())


def per_row(ws: Workspace, prefix: str) -> Counter[int]:
    """How many ``redrive_failed`` events each row has whose detail starts ``prefix``."""
    ev = AuditEvent
    with ws.store.connect() as conn:
        stmt = select(ev.dead_letter_id, ev.detail).where(ev.action == "redrive_failed")
        return Counter(i for i, d in conn.execute(stmt) if d.startswith(prefix))


def resolutions(ws: Workspace) -> Counter[int]:
    with ws.store.connect() as conn:
        return Counter(conn.execute(select(Resolution.dead_letter_id)).scalars())


def until_due(ws: Workspace) -> None:
    """Wait (the real clock: the processes have no other) until every waiting row is due."""
    with ws.store.connect() as conn:
        last = conn.execute(select(func.max(DeadLetter.next_attempt_at))).scalar()
    assert last is not None
    while dt_now() < last:
        time.sleep(0.1)


def dt_now():  # type: ignore[no-untyped-def]
    import datetime as dt

    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


@pytest.mark.slow
def test_two_passes_at_once_retry_each_row_once_per_step(
    store: Store, flaky: Flaky, tmp_path: Path
) -> None:
    rows = 1500  # several claim chunks each, so that the passes interleave
    with store.open() as ws:
        set_workspace_ladder(ws, Ladder.parse("1s,1s,1s"))
        ids = quarantine(ws, tmp_path, flaky, rows)
        until_due(ws)
    # Step 1, the service still down: both passes at once; each row fails once, moved down.
    ended = race(
        tmp_path,
        [*store.args, "retry-due", "--json"],
        [*store.args, "retry-due", "--json"],
        env=flaky.env,
    )
    assert [e.code for e in ended] == [0, 0], [e.err for e in ended]
    done = [orjson.loads(e.out) for e in ended]
    assert sum(d["retried"] for d in done) == rows
    assert sum(d["moved_down"] for d in done) == rows
    with store.open() as ws:
        assert per_row(ws, "retry 1 of 3 failed") == Counter({i: 1 for i in ids})
        until_due(ws)
    # Step 2, the service back: both again; each row resolved once, loaded once.
    flaky.up()
    ended = race(
        tmp_path,
        [*store.args, "retry-due", "--json"],
        [*store.args, "retry-due", "--json"],
        env=flaky.env,
    )
    assert [e.code for e in ended] == [0, 0], [e.err for e in ended]
    done = [orjson.loads(e.out) for e in ended]
    assert sum(d["resolved"] for d in done) == rows
    assert min(d["waiting"] for d in done) == 0
    with store.open() as ws:
        assert resolutions(ws) == Counter({i: 1 for i in ids})
        assert per_row(ws, "retry 2 of 3") == Counter()
        with ws.warehouse.connect() as conn:
            keys = list(conn.exec_driver_sql("SELECT id FROM flaky").scalars())
        assert sorted(keys) == list(range(rows))


def test_retry_due_prints_one_line_and_exits_0_when_rows_fail(flaky: Flaky, tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        set_workspace_ladder(ws, Ladder.parse("1s,1s"))
        quarantine(ws, tmp_path, flaky, 3)
        until_due(ws)
    got = cli(flaky, "--workspace", str(folder), "retry-due")
    assert got.returncode == 0, got.stderr
    line = got.stdout.strip()
    assert "\n" not in line
    assert line.startswith("Retry pass: 3 rows due. Retried 3: 3 wait "), line
    assert "layanan stok sibuk" in line
    got = cli(flaky, "--workspace", str(folder), "ladder")
    assert got.returncode == 0
    assert "Retry ladder: 1s,1s (1 s, 1 s, then parked; set for this workspace)" in got.stdout
    assert "before retry 2: 3 waiting" in got.stdout


def test_bad_input_and_an_unreachable_store_get_one_line(flaky: Flaky, tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    open_workspace(folder).close()
    for args in (
        ["ladder", "set", "5x"],
        ["ladder", "set"],
        ["ladder", "reset", "5m"],
    ):
        got = cli(flaky, "--workspace", str(folder), *args)
        assert got.returncode == 2 and len(got.stderr.strip().splitlines()) == 1, got.stderr
        assert "Traceback" not in got.stderr
    got = cli(
        flaky,
        "--dead-letter",
        "postgresql://nobody@127.0.0.1:1/none",
        "--workspace",
        str(folder),
        "retry-due",
    )
    assert got.returncode == 2 and len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert "Traceback" not in got.stderr
    got = cli(flaky, "--workspace", str(tmp_path / "nothing"), "retry-due")
    assert got.returncode == 2 and "no workspace at" in got.stderr


def cli(flaky: Flaky, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **flaky.env},
        timeout=120,
    )


# -- a warehouse that is down, then up -------------------------------------------------------
@pytest.fixture
def own_warehouse(pg_available: None) -> Iterator[str]:
    """A PostgreSQL database of the test's own for the warehouse, whose connections the
    test can refuse (ALTER DATABASE ... ALLOW_CONNECTIONS), dropped afterwards."""
    import psycopg
    from sqlalchemy.engine import make_url

    from tests.conftest import PG_BASE

    url = make_url(PG_BASE)
    name = f"triage_wh_{uuid.uuid4().hex[:10]}"
    admin = dict(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        dbname=url.database,
        autocommit=True,
    )
    with psycopg.connect(**admin) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield url.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(**admin) as conn:
        conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def refuse_connections(warehouse_url: str, refuse: bool) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    from tests.conftest import PG_BASE

    url, name = make_url(PG_BASE), make_url(warehouse_url).database
    admin = dict(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        dbname=url.database,
        autocommit=True,
    )
    with psycopg.connect(**admin) as conn:
        conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {'false' if refuse else 'true'}")
        if refuse:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
            )


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["sqlite", "postgresql"])
def test_a_warehouse_down_then_up(
    store_kind: str,
    own_warehouse: str,
    flaky: Flaky,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    rows = 40
    dl = (
        f"sqlite:///{tmp_path / 'store.db'}"
        if store_kind == "sqlite"
        else request.getfixturevalue("pg_urls")[1]
    )
    args = ["--warehouse", own_warehouse, "--dead-letter", dl]
    with open_workspace(warehouse_url=own_warehouse, dead_letter_url=dl) as ws:
        ids = quarantine(ws, tmp_path, flaky, rows)  # the service was down at the batch
        first_due = due_of(ws)
    flaky.up()  # the service is back, but now the warehouse refuses connections
    refuse_connections(own_warehouse, True)
    with open_workspace(
        warehouse_url=own_warehouse, dead_letter_url=dl, warehouse_optional=True
    ) as ws:
        p = retry_due(ws, now=first_due, registry=flaky.registry, retry=NO_WAIT)
        assert (p.due, p.retried, p.moved_down, p.resolved) == (rows, rows, rows, 0)
        assert (
            p.first_failure is not None and "the warehouse could not be reached" in p.first_failure
        )
        failed = per_row(ws, "retry 1 of 3 failed")
        assert failed == Counter({i: 1 for i in ids})
        with ws.store.connect() as conn:
            detail = conn.execute(
                select(AuditEvent.detail).where(AuditEvent.action == "redrive_failed").limit(1)
            ).scalar_one()
            kept = conn.execute(
                select(func.count()).where(DeadLetter.status == "open", DeadLetter.retry_step == 1)
            ).scalar_one()
        assert "the warehouse could not be reached" in detail and "next at" in detail
        assert kept == rows  # nothing lost: every row open, one step down
        second_due = due_of(ws)
    # The command line too opens the workspace while the warehouse is down (nothing is due
    # by the real clock: the rows wait 30 min).
    got = cli(flaky, *args, "retry-due")
    assert got.returncode == 0 and got.stdout.startswith("Retry pass: nothing due"), got.stderr
    # Connections allowed again, the clock moved on: every row loads, exactly once.
    refuse_connections(own_warehouse, False)
    with open_workspace(warehouse_url=own_warehouse, dead_letter_url=dl) as ws:
        p = retry_due(ws, now=second_due, registry=flaky.registry, retry=NO_WAIT)
        assert (p.due, p.resolved, p.waiting) == (rows, rows, 0)
        assert resolutions(ws) == Counter({i: 1 for i in ids})
        with ws.warehouse.connect() as conn:
            keys = list(conn.exec_driver_sql("SELECT id FROM flaky").scalars())
        assert sorted(keys) == list(range(rows))


def due_of(ws: Workspace):  # type: ignore[no-untyped-def]
    with ws.store.connect() as conn:
        return conn.execute(select(func.max(DeadLetter.next_attempt_at))).scalar_one()
