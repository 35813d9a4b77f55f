"""Every command that takes dead-letter ids takes them as positional arguments (issue 20):
``redrive 2 --transform pesanan@2`` as ``park 2`` does; ``--id`` still works where it
existed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.support import cli


@pytest.fixture
def ws(tmp_path: Path) -> list[str]:
    args = ["--workspace", str(tmp_path / "ws")]
    assert cli(*args, "demo").returncode == 0  # the seed's 10 rows: ids 1-4 quarantined
    return args


def as_json(ws: list[str], *args: str) -> object:
    done = cli(*ws, *args, "--json")
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


def test_redrive_takes_ids_positionally_and_by_id(ws: list[str]) -> None:
    out = as_json(ws, "redrive", "4", "--transform", "pesanan@2")
    assert isinstance(out, dict) and (out["attempted"], out["succeeded"]) == (1, 1)
    out = as_json(ws, "redrive", "2", "3", "--transform", "pesanan@2", "--dry-run")
    assert isinstance(out, dict) and [r["id"] for r in out["results"]] == [2, 3]
    out = as_json(ws, "redrive", "2", "--id", "3", "--transform", "pesanan@2", "--dry-run")
    assert isinstance(out, dict) and [r["id"] for r in out["results"]] == [2, 3]
    out = as_json(ws, "redrive", "--id", "1", "--transform", "pesanan@2", "--dry-run")
    assert isinstance(out, dict) and [r["id"] for r in out["results"]] == [1]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["redrive", "--transform", "pesanan@2"],
            "triage-app: redrive: name dead letters by id, or by --all-open or --class or "
            "--batch or --source\n",
        ),
        (
            ["redrive", "2", "--all-open", "--transform", "pesanan@2"],
            "triage-app: redrive: name dead letters by id or by --all-open, not both\n",
        ),
        (
            ["redrive", "2", "--class", "data", "--transform", "pesanan@2"],
            "triage-app: redrive: name dead letters by id or by --class, not both\n",
        ),
        (["redrive", "x", "--transform", "pesanan@2"], "is not an id (a whole number)"),
        (["redrive", "99", "--transform", "pesanan@2"], "no dead letter with id 99"),
        (["audit", "2", "--id", "3"], "triage-app: audit: dead letter 2 or 3? give one id\n"),
    ],
)
def test_refusals_name_what_is_wrong_in_one_line(ws: list[str], args: list[str], line: str) -> None:
    done = cli(*ws, *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and line in done.stderr, done.stderr


def test_fix_and_audit_take_ids_positionally(ws: list[str]) -> None:
    out = as_json(ws, "fix", "2", "3", "--set", "qty=1", "--dry-run")
    assert isinstance(out, dict) and out["preview"]["rows"] == 2
    out = as_json(ws, "fix", "2", "--id", "3", "--set", "qty=1", "--dry-run")
    assert isinstance(out, dict) and out["preview"]["rows"] == 2
    assert as_json(ws, "note", "2", "--text", "seen")
    events = as_json(ws, "audit", "2")
    assert isinstance(events, list)
    assert [(e["dead_letter_id"], e["action"]) for e in events] == [(2, "note"), (2, "quarantined")]
    assert as_json(ws, "audit", "--id", "2") == events
    assert as_json(ws, "audit", "2", "--id", "2") == events
