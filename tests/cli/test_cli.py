"""The CLI contract: command names, JSON keys, exit codes. Scripts depend on these."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support import SEED_BATCH, cli
from triage_app.cli import build_parser, main

LIST_KEYS = {
    "id",
    "batch_id",
    "line",
    "payload",
    "error",
    "error_class",
    "signature",
    "attempts",
    "status",
    "transform",
    "first_failed_at",
    "last_failed_at",
    "version",
}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    code = main([*args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.fixture
def ws_args(tmp_path: Path) -> list[str]:
    return ["--workspace", str(tmp_path / "ws")]


def test_full_cycle_json_contract(ws_args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    run = run_json(capsys, *ws_args, "run", str(SEED_BATCH), "--transform", "pesanan@1")
    assert isinstance(run, dict)
    assert set(run) == {
        "batch_id",
        "rows",
        "loaded",
        "superseded",
        "quarantined",
        "by_class",
        "seconds",
        "already_loaded",
    }
    assert (run["rows"], run["loaded"], run["quarantined"]) == (10, 6, 4)
    assert run["by_class"] == {"data": 3, "code": 1} and run["already_loaded"] is False

    listed = run_json(capsys, *ws_args, "list")
    assert isinstance(listed, list) and len(listed) == 4
    assert all(set(d) == LIST_KEYS for d in listed)
    by_line = {d["line"]: d for d in listed}
    assert by_line[8]["error_class"] == "code" and by_line[8]["status"] == "open"
    assert run_json(capsys, *ws_args, "list", "--class", "code")[0]["line"] == 8  # type: ignore[index]
    assert len(run_json(capsys, *ws_args, "list", "--search", "qty tidak")) == 1  # type: ignore[arg-type]
    assert (
        run_json(capsys, *ws_args, "list", "--batch", run["batch_id"][:6], "--limit", "2").__len__()
        == 2
    )

    dl3 = by_line[3]["id"]
    fixed = (
        '{"pesanan_id": 3, "waktu": "2026-01-10T19:45:00", "pelanggan": "Dewi", '
        '"produk": "Blouse Katun", "qty": 1, "harga": 120000, "diskon": 0}'
    )
    edited = run_json(capsys, *ws_args, "edit", str(dl3), "--payload", fixed)
    # Shown with the customer's name masked (issue 27); stored as typed.
    assert isinstance(edited, dict) and edited["payload"] == fixed.replace('"Dewi"', '"D•••"')

    shown = run_json(capsys, *ws_args, "show", str(dl3))
    assert isinstance(shown, dict)
    # Beside the row: its history, and its error group's owner, tags and note (none yet).
    group = {"group_owner", "group_tags", "group_note"}
    # And its batch: held (all or nothing) or not, and what of it waits.
    batch = {"batch_state", "batch_held", "batch_waiting"}
    masking = {"personal_fields", "revealed"}  # issue 27
    assert (
        set(shown)
        == LIST_KEYS | {"original_payload", "events", "traceback"} | group | batch | masking
    )
    assert shown["batch_state"] == "complete" and shown["batch_held"] == 0
    assert [shown[k] for k in sorted(group)] == ["", None, []]
    assert shown["original_payload"].endswith('"pelanggan": "D•••", ')  # masked (issue 27)
    assert [e["action"] for e in shown["events"]] == ["quarantined", "edited"]
    keys = {"at", "actor", "action", "detail", "version"}
    assert set(shown["events"][0]) == keys
    # An edit keeps the payload it replaced, so that no edit is ever unrecoverable.
    assert set(shown["events"][1]) == keys | {"replaced_payload"}
    assert shown["events"][1]["replaced_payload"] == shown["original_payload"]

    dry = run_json(
        capsys, *ws_args, "redrive", "--all-open", "--transform", "pesanan@2", "--dry-run"
    )
    assert isinstance(dry, dict)
    assert set(dry) == {
        "transform",  # the version it would go through (issue 20: said on stdout)
        "attempted",
        "succeeded",
        "failed",
        "parked",
        "taken",
        "lapsed",  # its own lease ran out before the outcome was written (issue 21)
        "skipped",
        "results",
    }
    assert (dry["attempted"], dry["succeeded"], dry["failed"]) == (4, 2, 2)
    assert run_json(capsys, *ws_args, "list").__len__() == 4  # the dry run wrote nothing

    done = run_json(capsys, *ws_args, "redrive", "--class", "code", "--transform", "pesanan@2")
    assert isinstance(done, dict)
    assert done["results"] == [
        {"id": by_line[8]["id"], "line": 8, "outcome": "resolved", "error": None}
    ]
    done = run_json(
        capsys,
        *ws_args,
        "redrive",
        "--id",
        str(dl3),
        str(by_line[4]["id"]),
        "--transform",
        "pesanan@2",
    )
    assert isinstance(done, dict)
    assert {r["line"]: r["outcome"] for r in done["results"]} == {3: "resolved", 4: "failed"}
    assert all(set(r) == {"id", "line", "outcome", "error"} for r in done["results"])

    stats = run_json(capsys, *ws_args, "stats")
    assert isinstance(stats, dict)
    assert stats["by_class"] == {"data": 3, "code": 1}
    assert stats["by_status"] == {"open": 2, "resolved": 2}
    assert stats["attempts"] == {"1": 3, "2": 1}
    assert sum(r["count"] for r in stats["failures_per_day"]) == 4
    assert stats["top_signatures"][0]["count"] == 1

    again = run_json(capsys, *ws_args, "run", str(SEED_BATCH), "--transform", "pesanan@1")
    assert isinstance(again, dict) and again["already_loaded"] is True


def test_transforms_and_demo(ws_args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    ts = run_json(capsys, "transforms")
    assert [t["ref"] for t in ts] == ["jurnal@1", "orders@1", "pesanan@1", "pesanan@2"]  # type: ignore[union-attr]
    demo = run_json(capsys, *ws_args, "demo")
    assert isinstance(demo, dict)
    assert Path(demo["workspace"], "warehouse.db").exists()
    assert Path(demo["workspace"], "dead_letter.db").exists()
    assert (demo["loaded"], demo["quarantined"]) == (6, 4)


def test_every_command_has_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, sp in sub.choices.items():  # type: ignore[union-attr]
        assert sp.description, f"{name} has no help text"
        for action in sp._actions:
            if action.dest not in ("help",) and action.option_strings:
                assert action.help, f"{name} {action.option_strings} has no help text"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "missing.jsonl", "--transform", "pesanan@1"], "no such file"),
        (["run", "x.jsonl"], "required: --transform"),
        (["nonsense"], "invalid choice"),
        (["show", "999"], "no workspace at"),  # show only reads: it makes no workspace
        (["redrive", "--id", "5", "--transform", "pesanan@1"], "no dead letter with id 5"),
        (["edit", "1", "--payload", "{"], "no dead letter with id 1"),
        (["--warehouse", "mysql://u:hunter2@h/db", "list"], "not supported"),
        (["--warehouse", "postgresql://u:hunter2@127.0.0.1:1/db", "list"], "cannot reach"),
    ],
)
def test_refusals_are_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    env = {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws")}
    out = cli(*args, env=env)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1, out.stderr
    assert message in out.stderr
    assert "Traceback" not in out.stderr and "hunter2" not in out.stderr


def test_environment_chooses_the_databases(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "TRIAGE_WAREHOUSE_URL": f"sqlite:///{tmp_path}/wh.db",
        "TRIAGE_DEAD_LETTER_URL": f"sqlite:///{tmp_path}/dl.db",
    }
    out = cli("run", str(SEED_BATCH), "--transform", "pesanan@1", "--json", env=env)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "wh.db").exists() and (tmp_path / "dl.db").exists()
    assert json.loads(out.stdout)["quarantined"] == 4


def test_module_entry_point_and_version() -> None:
    out = cli("--version")
    assert out.returncode == 0 and out.stdout.startswith("triage-app ")


def test_report_without_a_display(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["TRIAGE_WORKSPACE"] = str(tmp_path / "ws")
    assert cli("demo", env=env).returncode == 0
    out = cli("report", "--out", str(tmp_path / "rep"), "--json", env=env, timeout=180)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["dead_letters"] == 4 and len(summary["images"]) >= 5
    for png in summary["images"]:
        data = Path(png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2_000
    assert "4" in Path(summary["markdown"]).read_text()
    bad = cli("report", "--out", str(tmp_path / "r2"), "--since", "yesterday", env=env)
    assert bad.returncode == 2 and "is not a date" in bad.stderr
