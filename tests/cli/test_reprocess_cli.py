"""``triage-app reprocess`` as a steward runs it: a plugin's old version loaded wrong totals;
the dry run names every changed row with its diff, applying changes them and the run
reconciles; a refusal is one line."""

from __future__ import annotations

import os
from pathlib import Path

import orjson

from tests.core.reprocess.crafted import right_total, write_night
from tests.support import cli

PLUGIN = """
from triage_app.core.transforms import Transform
from triage_app.core.transforms.pesanan import COLUMNS, _fields


def lama(record):
    pid, waktu, pelanggan, produk, qty, harga = _fields(record)
    return (pid, waktu, pelanggan, produk, qty, harga, qty * harga)  # diskon forgotten


TRANSFORMS = [Transform("pesanan_lama", 1, "pesanan", "pesanan_id", COLUMNS, lama)]
"""


def test_reprocess_from_the_command_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    plugins = data / "triage-desk" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "pesanan_lama.py").write_text(PLUGIN)
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    ws = ["--workspace", str(tmp_path / "ws")]
    records = write_night(tmp_path / "night.jsonl", 40, seed=3)
    done = cli(*ws, "run", str(tmp_path / "night.jsonl"), "--transform", "pesanan_lama@1", env=env)
    assert done.returncode == 0, done.stderr
    pair = ["--produced-by", "pesanan_lama@1", "--with", "pesanan@2"]

    dry = cli(*ws, "reprocess", *pair, "--dry-run", env=env)
    assert dry.returncode == 0, dry.stderr
    changed = [r for r in records if isinstance(r["diskon"], int) and r["diskon"]]
    failing = [r for r in records if isinstance(r["diskon"], str)]
    head, *rows = dry.stdout.splitlines()
    assert head.startswith(
        f"40 rows last written by pesanan_lama@1, run through pesanan@2: "
        f"{40 - len(changed) - len(failing)} unchanged, {len(changed)} changed, "
        f"{len(failing)} now failing."
    )
    assert head.endswith("Nothing was written.")
    for r in changed:
        key = r["pesanan_id"]
        said = f"total: {r['qty'] * r['harga']} -> {right_total(r)}"
        assert any(row.startswith(f"  {key} (batch ") and row.endswith(said) for row in rows)
    assert len(rows) == len(changed) + len(failing)

    every = cli(*ws, "reprocess", *pair, "--dry-run", "--show-unchanged", env=env)
    assert len(every.stdout.splitlines()) == 1 + 40
    assert sum(line.endswith(": unchanged") for line in every.stdout.splitlines()) == (
        40 - len(changed) - len(failing)
    )

    as_json = cli(*ws, "reprocess", *pair, "--dry-run", "--json", env=env)
    out = orjson.loads(as_json.stdout)
    assert out["changed"] == len(changed) and out["with"] == "pesanan@2"
    # Every row, the unchanged ones by name: the report of the whole suspect set.
    assert sorted(r["key"] for r in out["rows"]) == [r["pesanan_id"] for r in records]
    assert sum(r["verdict"] == "unchanged" for r in out["rows"]) == out["unchanged"] > 0
    diffs = {r["key"]: r["diff"] for r in out["rows"] if r["verdict"] == "changed"}
    assert diffs == {
        r["pesanan_id"]: [
            {"column": "total", "was": r["qty"] * r["harga"], "becomes": right_total(r)}
        ]
        for r in changed
    }

    applied = cli(*ws, "reprocess", *pair, "--json", env=env)
    assert applied.returncode == 0, applied.stderr
    result = orjson.loads(applied.stdout)
    assert (result["applied"], result["quarantined"]) == (len(changed), len(failing))
    books = cli(*ws, "reconcile", result["run_id"], env=env)
    assert books.returncode == 0 and ": consistent\nsource kept" in books.stdout
    trail = cli(*ws, "audit", "--action", "reprocessed", env=env)
    assert trail.returncode == 0, trail.stderr
    [event] = trail.stdout.splitlines()[1:]
    assert (
        "reprocessed" in event and f"run {result['run_id']}: pesanan_lama@1 -> pesanan@2" in event
    )

    same = cli(*ws, "reprocess", "--produced-by", "pesanan@2", "--with", "pesanan@2", env=env)
    assert same.returncode != 0 and len(same.stderr.splitlines()) == 1
    assert "with another version, not itself" in same.stderr and "Traceback" not in same.stderr
