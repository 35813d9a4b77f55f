"""Bad input found by trying the CLI as a user: each gets one line and exit 2, or simply
works. Integers beyond 64 bits, negative and zero limits, a zero chunk size, file names
that are not UTF-8, a report folder that cannot be written, ``--json`` before the
command, a transform named without its version, and paging through ``list``."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.support import SEED_BATCH, cli

BIG = "99999999999999999999"  # beyond a signed 64-bit integer


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws")}


@pytest.fixture
def seeded(env: dict[str, str]) -> dict[str, str]:
    """A workspace holding the seed batch's four dead letters."""
    out = cli("run", str(SEED_BATCH), "--transform", "pesanan@1", env=env)
    assert out.returncode == 0, out.stderr
    return env


def one_line_refusal(out: object, *needles: str) -> None:
    stderr = out.stderr  # type: ignore[attr-defined]
    assert out.returncode == 2, (out.returncode, stderr)  # type: ignore[attr-defined]
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    for needle in needles:
        assert needle in stderr, stderr


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["show", BIG], [f"no dead letter with id {BIG}"]),
        (["edit", BIG, "--payload", "{}"], [f"no dead letter with id {BIG}"]),
        (
            ["redrive", "--id", "1", BIG, "--transform", "pesanan@2"],
            [f"no dead letter with id {BIG}"],
        ),
        (["park", BIG], [f"no dead letter with id {BIG}"]),
        (["list", "--limit", BIG], ["argument --limit", "at most 9223372036854775807", BIG]),
        (["list", "--limit", "-1"], ["argument --limit", "at least 1, not -1"]),
        (["list", "--limit", "0"], ["argument --limit", "at least 1, not 0"]),
        (["list", "--limit", "ten"], ["argument --limit", "'ten' is not a whole number"]),
        (["list", "--offset", "-5"], ["argument --offset", "at least 0, not -5"]),
        (["list", "--offset", BIG], ["argument --offset", "at most"]),
        (["audit", "--limit", BIG], ["argument --limit"]),
        (["audit", "--id", BIG], ["argument --id", "at most"]),
        (
            ["run", str(SEED_BATCH), "--transform", "pesanan@1", "--chunk-size", "0"],
            ["argument --chunk-size", "at least 1, not 0"],
        ),
        (
            ["run", str(SEED_BATCH), "--transform", "pesanan@1", "--chunk-size", BIG],
            ["argument --chunk-size", "at most"],
        ),
        (["run", str(SEED_BATCH), "--transform", "nosuch"], ["unknown transform 'nosuch'"]),
        (["report", "--out", ""], ["--out names no folder"]),
    ],
)
def test_refused_in_one_line(seeded: dict[str, str], args: list[str], needles: list[str]) -> None:
    one_line_refusal(cli(*args, env=seeded), *needles)


def test_list_limit_minus_one_is_refused_on_postgresql(pg_urls: tuple[str, str]) -> None:
    """On PostgreSQL ``LIMIT -1`` was a database error, on SQLite "no limit": now both
    refuse it before any database is asked; a real page works there too."""
    wh, dl = pg_urls
    urls = ["--warehouse", wh, "--dead-letter", dl]
    assert cli(*urls, "run", str(SEED_BATCH), "--transform", "pesanan@1").returncode == 0
    one_line_refusal(cli(*urls, "list", "--limit", "-1"), "argument --limit", "at least 1")
    one_line_refusal(cli(*urls, "show", BIG), f"no dead letter with id {BIG}")
    page = cli(*urls, "--json", "list", "--limit", "3")
    assert page.returncode == 0, page.stderr
    assert len(json.loads(page.stdout)) == 3
    assert "1 more match: --offset 3 for the next page" in page.stderr
    most = str(2**63 - 1)  # the largest either database takes, as limit and as offset
    everything = cli(*urls, "--json", "list", "--limit", most)
    assert everything.returncode == 0 and len(json.loads(everything.stdout)) == 4
    beyond = cli(*urls, "--json", "list", "--limit", most, "--offset", most)
    assert beyond.returncode == 0 and json.loads(beyond.stdout) == []
    audited = cli(*urls, "--json", "audit", "--limit", most, "--id", most)
    assert audited.returncode == 0 and json.loads(audited.stdout) == []


def test_list_says_what_follows_a_full_page(seeded: dict[str, str]) -> None:
    out = cli("list", "--limit", "3", env=seeded)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 1 + 3 + 1  # header, three rows, the note
    assert lines[-1] == "… and 1 more: --offset 3 for the next page"

    rest = cli("list", "--limit", "3", "--offset", "3", env=seeded)
    assert rest.returncode == 0 and len(rest.stdout.splitlines()) == 2  # header, one row
    assert "more" not in rest.stdout

    exact = cli("list", "--limit", "4", env=seeded)
    assert "more" not in exact.stdout  # a full page with nothing after it says nothing

    past = cli("list", "--offset", "10", env=seeded)
    assert past.returncode == 0 and past.stdout == "no dead letters match after the first 10\n"


def test_list_json_stays_an_array_and_says_the_rest_on_stderr(seeded: dict[str, str]) -> None:
    first = cli("list", "--limit", "3", "--json", env=seeded)
    assert first.returncode == 0
    rows = json.loads(first.stdout)
    assert isinstance(rows, list) and len(rows) == 3
    assert first.stderr == "triage-app: 1 more match: --offset 3 for the next page\n"
    second = json.loads(cli("list", "--limit", "3", "--offset", "3", "--json", env=seeded).stdout)
    assert [r["id"] for r in rows + second] == sorted(r["id"] for r in rows + second)
    assert len({r["id"] for r in rows + second}) == 4


def test_json_before_the_command(seeded: dict[str, str]) -> None:
    before = cli("--json", "list", env=seeded)
    after = cli("list", "--json", env=seeded)
    assert before.returncode == 0 and before.stdout == after.stdout
    assert len(json.loads(before.stdout)) == 4
    assert json.loads(cli("--json", "transforms").stdout)[0]["ref"] == "jurnal@1"
    assert cli("list", env=seeded).stdout.startswith("    id")  # no --json: text


def test_a_bare_transform_name_says_which_version_it_means(env: dict[str, str]) -> None:
    """A read (a dry run, a try, a proof in scratch databases) means the newest version and
    says so, on stdout too; a write through a bare name is refused, naming the versions
    (issue 20: which version loads the warehouse is the steward's choice)."""
    said = "triage-app: pesanan means pesanan@2, the newest version\n"
    refused = "triage-app: --transform pesanan: say which version: pesanan@1, pesanan@2\n"
    run = cli("run", str(SEED_BATCH), "--transform", "pesanan", "--json", env=env)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", refused)
    run = cli("run", str(SEED_BATCH), "--transform", "pesanan@2", "--json", env=env)
    assert run.returncode == 0 and run.stderr == ""
    assert json.loads(run.stdout)["quarantined"] == 3  # pesanan@2 handles the null diskon
    dry = cli("redrive", "--all-open", "--transform", "pesanan", "--dry-run", "--json", env=env)
    assert dry.returncode == 0 and dry.stderr == said
    assert json.loads(dry.stdout)["attempted"] == 3
    assert json.loads(dry.stdout)["transform"] == "pesanan@2"
    dry = cli("redrive", "--all-open", "--transform", "pesanan", "--dry-run", env=env)
    assert dry.stdout.startswith("Preview of 3 dead letters with pesanan@2: ")
    wet = cli("redrive", "--all-open", "--transform", "pesanan", env=env)
    assert (wet.returncode, wet.stdout, wet.stderr) == (2, "", refused)
    verify = cli("verify-idempotent", str(SEED_BATCH), "--transform", "pesanan", env=env)
    assert verify.returncode == 0 and verify.stderr == said
    assert "through pesanan@2" in verify.stdout
    tried = cli(
        "fix", "--status", "open", "--set", "qty=1", "--try", "pesanan", "--dry-run", env=env
    )
    assert tried.returncode == 0 and tried.stderr == said
    assert "through pesanan@2: " in tried.stdout
    full = cli("redrive", "--all-open", "--transform", "pesanan@1", "--dry-run", env=env)
    assert full.stderr == ""  # a version named: nothing to say
    unknown = cli("redrive", "--all-open", "--transform", "pesan", env=env)
    assert unknown.returncode == 2 and unknown.stderr.startswith(
        "triage-app: unknown transform 'pesan'; known: "
    )


def test_report_errors_name_the_folder(seeded: dict[str, str], tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = cli("report", "--out", str(blocker), env=seeded)
    one_line_refusal(out, f"cannot write the report to {blocker}", "File exists")
    inside = cli("report", "--out", str(blocker / "sub"), env=seeded)
    one_line_refusal(inside, f"cannot write the report to {blocker / 'sub'}", "Not a directory")


# -- file names that are not UTF-8 ----------------------------------------------------------
def not_utf8(folder: Path, name: bytes) -> Path:
    """A path whose last part is ``name``, bytes that are not UTF-8 (kept by Python as
    surrogates, as it keeps any such name it reads from the OS)."""
    return folder / os.fsdecode(name)


def test_a_source_named_in_bytes_that_are_not_utf8_runs(
    env: dict[str, str], tmp_path: Path
) -> None:
    source = not_utf8(tmp_path, b"pesanan_\xff\xfe.jsonl")
    shutil.copyfile(SEED_BATCH, source)
    run = cli("run", str(source), "--transform", "pesanan@1", "--json", env=env)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["quarantined"] == 4
    again = cli("run", str(source), "--transform", "pesanan@1", env=env)
    assert again.returncode == 0 and "already loaded" in again.stdout
    # Stored marked, not refused and not mangled: the bytes can be read back from it.
    db = sqlite3.connect(tmp_path / "ws" / "dead_letter.db")
    [(name,)] = db.execute("SELECT source_name FROM batches").fetchall()
    db.close()
    assert name == "pesanan_\\xff\\xfe.jsonl"
    verify = cli("verify-idempotent", str(source), "--transform", "pesanan@1", "--json", env=env)
    assert verify.returncode == 0, verify.stderr
    assert json.loads(verify.stdout)["identical"] is True


def test_a_payload_file_named_in_bytes_that_are_not_utf8(
    seeded: dict[str, str], tmp_path: Path
) -> None:
    fixed = not_utf8(tmp_path, b"fix\xff.json")
    fixed.write_text('{"pesanan_id": 3, "qty": 1}', encoding="utf-8")
    out = cli("edit", "1", "--payload-file", str(fixed), "--json", env=seeded)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["payload"] == '{"pesanan_id": 3, "qty": 1}'
    missing = cli("edit", "1", "--payload-file", str(tmp_path / os.fsdecode(b"no\xff")), env=seeded)
    one_line_refusal(missing, "cannot read", "no\\xff", "No such file")


def test_a_report_into_a_folder_named_in_bytes_that_are_not_utf8(
    seeded: dict[str, str], tmp_path: Path
) -> None:
    folder = not_utf8(tmp_path, b"report_\xff")
    out = cli("report", "--out", str(folder), "--json", env=seeded, timeout=180)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["out_dir"] == str(tmp_path / "report_\\xff")  # said marked: \xNN
    written = os.listdir(os.fsencode(tmp_path / os.fsdecode(b"report_\xff")))
    assert b"summary.html" in written and sum(n.endswith(b".png") for n in written) >= 5


def test_a_workspace_named_in_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    folder = not_utf8(tmp_path, b"ws_\xff")
    out = cli("--workspace", str(folder), "demo", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["workspace"] == str(tmp_path / "ws_\\xff")
    listed = cli("--workspace", str(folder), "--json", "list")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 4
