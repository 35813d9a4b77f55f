"""``triage-app sources`` and ``give-source`` (issue 25): the kept sources listed, in text and
JSON, with what the store holds escaped; ``reconcile`` says whether a batch's source is kept;
a batch whose source is gone is given its file again, the wrong file refused in one line."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from tests.support import SEED_BATCH, cli
from triage_app.cli import main
from triage_app.core.db import Batch, open_workspace


def _run(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--workspace", str(folder), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def loaded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, str]:
    """A workspace with the seed's batch run; its folder, the source, the batch id."""
    src = tmp_path / SEED_BATCH.name
    shutil.copyfile(SEED_BATCH, src)
    folder = tmp_path / "ws"
    code, out, _ = _run(capsys, folder, "run", str(src), "--transform", "pesanan@2", "--json")
    assert code == 0
    return folder, src, json.loads(out)["batch_id"]


def test_sources_lists_what_is_kept(
    capsys: pytest.CaptureFixture[str], loaded: tuple[Path, Path, str]
) -> None:
    folder, src, batch = loaded
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    code, out, _ = _run(capsys, folder, "sources", "--json")
    assert code == 0
    (kept,) = json.loads(out)
    assert (kept["sha256"], kept["format"], kept["size"], kept["batches"]) == (
        digest,
        "jsonl",
        src.stat().st_size,
        [batch],
    )
    assert 0 < kept["stored_size"] < kept["size"] and kept["present"] is True
    code, out, _ = _run(capsys, folder, "sources")
    head, line = out.strip().splitlines()
    assert head.startswith("1 kept source (") and "kept sources stay 90 days" in head
    assert line.split()[:2] == [digest[:12], "jsonl"] and line.endswith(batch)


def test_reconcile_says_kept_then_gone_and_give_source_brings_it_back(
    capsys: pytest.CaptureFixture[str], loaded: tuple[Path, Path, str], tmp_path: Path
) -> None:
    folder, src, batch = loaded
    code, out, _ = _run(capsys, folder, "reconcile", batch)
    assert code == 0 and out.strip().splitlines()[-1] == "source kept"
    for kept in (folder / "sources").rglob("*.zst"):
        kept.unlink()
    code, out, _ = _run(capsys, folder, "reconcile", batch)
    assert out.strip().splitlines()[-1] == (
        f"source gone: give it again with triage-app give-source {batch} FILE"
    )
    code, out, _ = _run(capsys, folder, "reconcile", batch, "--json")
    assert json.loads(out)["source_kept"] is False

    wrong = tmp_path / "wrong.jsonl"
    wrong.write_bytes(src.read_bytes() + b"\n")
    code, out, err = _run(capsys, folder, "give-source", batch, str(wrong))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"wrong.jsonl is not the source of batch {batch}" in err
    assert hashlib.sha256(wrong.read_bytes()).hexdigest()[:12] in err

    code, out, _ = _run(capsys, folder, "give-source", batch[:8], str(src))
    assert code == 0 and out.strip() == f"kept the source of batch {batch[:8]}"
    code, out, _ = _run(capsys, folder, "give-source", batch, str(src), "--json")
    assert json.loads(out) == {"batch_id": batch, "kept": False}  # kept already
    code, out, _ = _run(capsys, folder, "reconcile", batch)
    assert out.strip().splitlines()[-1] == "source kept"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["give-source", "ffffffff", "x.jsonl"], "no batch ffffffff"),
        (["give-source", "{batch}", "missing.jsonl"], "no such file"),
        (["give-source", "{batch}"], "the following arguments are required: FILE"),
        (["purge", "--older-than", "30", "--keep-sources", "soon"], "whole number of days"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], loaded: tuple[Path, Path, str], args: list[str], says: str
) -> None:
    folder, _src, batch = loaded
    code, out, err = _run(capsys, folder, *[a.format(batch=batch) for a in args])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err and "Traceback" not in err


def test_purge_keep_sources_forever_is_saved_and_forgets_nothing(
    capsys: pytest.CaptureFixture[str], loaded: tuple[Path, Path, str]
) -> None:
    folder, _src, _batch = loaded
    code, out, _ = _run(
        capsys, folder, "purge", "--older-than", "0", "--keep-sources", "0", "--dry-run"
    )
    assert code == 0 and "Kept sources: would forget 1 source kept more than 0 days ago" in out
    code, out, _ = _run(
        capsys,
        folder,
        "purge",
        "--older-than",
        "30",
        "--keep-sources",
        "forever",
        "--save-policy",
    )
    assert code == 0 and out.strip().endswith("and kept sources stay forever")
    code, out, _ = _run(capsys, folder, "sources")
    assert "kept sources stay forever" in out and out.count("\n") == 2


def test_what_the_store_holds_is_escaped(
    capsys: pytest.CaptureFixture[str], loaded: tuple[Path, Path, str]
) -> None:
    """A batch id planted in the store with a terminal escape in it never reaches the
    terminal raw, in text or JSON."""
    folder, _src, batch = loaded
    with open_workspace(folder) as ws, ws.store.begin() as conn:
        row = conn.execute(select(Batch.__table__).where(Batch.batch_id == batch)).one()
        values = dict(row._mapping) | {"batch_id": "evil\x1b[2J\u202e"}
        conn.execute(insert(Batch).values(values))
    code, out, _ = _run(capsys, folder, "sources")
    assert code == 0 and "\x1b" not in out and "\u202e" not in out and "evil\\x1b" in out
    code, out, _ = _run(capsys, folder, "sources", "--json")
    assert "\u202e" not in out and "\\u202e" in out


def test_as_a_child_process(loaded: tuple[Path, Path, str], tmp_path: Path) -> None:
    folder, _src, batch = loaded
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"{}\n")
    r = cli("--workspace", str(folder), "give-source", batch, str(other))
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr.startswith("triage-app: other.jsonl is not the source of batch")
