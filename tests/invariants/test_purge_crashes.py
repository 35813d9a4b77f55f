"""A retention purge killed (SIGKILL) mid-run, on SQLite and PostgreSQL (issue 21): the rows
it deleted are exactly the rows its committed chunks' ``purged`` events name, the
``purges`` record counts them, and the same command again purges the rest and audits it,
with no row counted twice and none left out.

The purge runs as a real ``triage-app purge`` process, killed at a crash point: after its
first chunk committed (``purge-after-chunk``), or inside its second chunk's transaction
(``purge-mid-chunk``: deleted and recorded, not committed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from sqlalchemy import func, select

from tests.support.purge_store import counts, fill_purge_store
from triage_app.core.db import (
    AuditEvent,
    DeadLetter,
    Purge,
    WorkspaceConfig,
    open_config,
    resolve_config,
)
from triage_app.core.deadletters.retention import PURGE_CHUNK

RESOLVED, DISCARDED = PURGE_CHUNK + 1_000, 4_000  # chunks: 5,000 + 1,000 resolved, 4,000


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[WorkspaceConfig, list[str]]:
    """The workspace, and the arguments that name it to the command line."""
    folder = tmp_path / "ws"
    if request.param == "sqlite":
        return resolve_config(folder, env={}), ["--workspace", str(folder)]
    wh, dl = request.getfixturevalue("pg_urls")
    args = ["--workspace", str(folder), "--warehouse", wh, "--dead-letter", dl]
    return resolve_config(folder, wh, dl, env={}), args


def _purge(args: list[str], crash: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_CRASH_AT"}
    if crash:
        env["TRIAGE_CRASH_AT"] = crash
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *args, "purge", "--older-than", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _audited(config: WorkspaceConfig) -> tuple[list[dict[str, object]], list[int], dict[int, int]]:
    """The purged events' details, the ids they name (with repeats), and each purges row's
    count."""
    with open_config(config) as ws, ws.store.connect() as conn:
        details = [
            orjson.loads(d)
            for d in conn.execute(
                select(AuditEvent.detail)
                .where(AuditEvent.action == "purged")
                .order_by(AuditEvent.id)
            ).scalars()
        ]
        recorded = {int(i): int(n) for i, n in conn.execute(select(Purge.id, Purge.rows))}
    named = [i for d in details for a, b in d["ids"] for i in range(a, b + 1)]  # type: ignore[attr-defined]
    return details, named, recorded


def _ids(config: WorkspaceConfig) -> set[int]:
    with open_config(config) as ws, ws.store.connect() as conn:
        return set(conn.execute(select(DeadLetter.id)).scalars())


@pytest.mark.parametrize("point", ["purge-after-chunk:1", "purge-mid-chunk:2"])
def test_a_killed_purge_audited_what_went_and_the_rerun_the_rest(
    where: tuple[WorkspaceConfig, list[str]], point: str
) -> None:
    config, args = where
    with open_config(config) as ws:
        store = fill_purge_store(ws, resolved=RESOLVED, discarded=DISCARDED, open_=3, parked=2)
    everything = _ids(config)
    closed = set(store.ids["resolved"]) | set(store.ids["discarded"])

    killed = _purge(args, point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    gone = everything - _ids(config)
    details, named, recorded = _audited(config)
    # The first chunk went, and only it; its event names exactly those rows.
    assert len(gone) == PURGE_CHUNK and gone <= set(store.ids["resolved"])
    assert sorted(named) == sorted(gone)
    assert [d["rows"] for d in details] == [PURGE_CHUNK]
    assert list(recorded.values()) == [PURGE_CHUNK]
    with open_config(config) as ws, ws.store.connect() as conn:
        # The rows' own events went with them, nothing else's.
        left = conn.execute(
            select(func.count())
            .select_from(AuditEvent)
            .where(AuditEvent.dead_letter_id.in_(sorted(gone)))
        ).scalar_one()
    assert left == 0

    again = _purge(args, None)
    assert again.returncode == 0, again.stderr
    assert f"Purged {RESOLVED + DISCARDED - PURGE_CHUNK:,} dead letters" in again.stdout
    details, named, recorded = _audited(config)
    # Every closed row is named once, across both runs; the two purges' records add up.
    assert sorted(named) == sorted(closed)
    assert sum(d["rows"] for d in details) == len(closed)  # type: ignore[misc]
    assert sorted(recorded.values()) == sorted([PURGE_CHUNK, len(closed) - PURGE_CHUNK])
    assert {d["purge_id"] for d in details} == set(recorded)
    with open_config(config) as ws:
        assert counts(ws) == {"open": 3, "parked": 2, "events": 3 + 2 * 2}
