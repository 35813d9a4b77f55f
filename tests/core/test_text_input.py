"""What a steward types is checked on its way in (issue 21): an owner, a tag, a note or a
reason holding ESC, BEL, CR or another control or reordering character is refused in one
line naming the field and the character; an owner of 120,000 characters is refused at the
limit the message states; on SQLite and PostgreSQL alike (the check is core's, before any
write), by core, by the command line (real processes), and nothing is written."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core import text_input
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.demo import make_demo
from triage_app.core.errors import TriageError

QTY = "DataError: kolom wajib hilang: qty"
TITLE = "\x1b]0;PWNED\x07"  # a terminal's title set, then BEL


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("owner", f"ev{TITLE}il", "the owner holds \\x1b (ESC) at character 3"),
        ("tag", "a\rb", "the tag holds \\x0d (CR) at character 2"),
        ("note", "ring\x07", "the note holds \\x07 (BEL) at character 5"),
        ("reason", "one\ntwo", "the reason holds \\x0a (newline) at character 4"),
        ("owner", "a\u202eb", "the owner holds \\u202e (RIGHT-TO-LEFT OVERRIDE) at character 2"),
        ("tag", "a\x9bb", "the tag holds \\x9b (CSI) at character 2"),
        ("owner", "x" * 120_000, "the owner is 120,000 characters long: at most 80"),
        ("note", "x" * 2_001, "the note is 2,001 characters long: at most 2,000"),
    ],
)
def test_refusals_name_the_field_and_the_character(field: str, value: str, said: str) -> None:
    check = getattr(text_input, field)
    with pytest.raises(TriageError) as refused:
        check(value)
    assert str(refused.value).startswith(said)
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)


def test_what_is_fine_passes_stripped() -> None:
    assert text_input.owner("  Ani Wijaya ") == "Ani Wijaya"
    assert text_input.tag("x" * 80) == "x" * 80
    assert text_input.note("asked the shop\n\tand waiting") == "asked the shop\n\tand waiting"
    assert text_input.reason("dup of 12 — junk, ünïcode fine") == "dup of 12 — junk, ünïcode fine"
    assert set(text_input.LIMITS) == {"owner", "tag", "note", "reason"}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def demo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspace]:
    store = request.getfixturevalue("pg_urls")[1] if request.param == "postgresql" else None
    with open_workspace(tmp_path / "ws", dead_letter_url=store) as ws:
        make_demo(ws)
        yield ws


def test_core_refuses_before_writing_on_both_stores(demo: Workspace) -> None:
    refusals = [
        lambda: dls.set_group(demo, QTY, owner=f"o{TITLE}"),
        lambda: dls.set_group(demo, QTY, owner="y" * 120_000),
        lambda: dls.set_group(demo, QTY, add_tags=["t\rx"]),
        lambda: dls.set_group(demo, QTY, note="n\x1b[2J"),
        lambda: dls.apply_change(demo, [1], dls.note("n\x07")),
        lambda: dls.apply_change(demo, [1], dls.discard("r\x1b[31m")),
        lambda: dls.apply_change(demo, [1], dls.park("r\rx")),
    ]
    for refuse in refusals:
        with pytest.raises(TriageError, match=r"^the (owner|tag|note|reason) "):
            refuse()
    assert all(g.version == 0 for g in dls.error_groups(demo))  # no group was written
    events = dls.audit_trail(demo)
    assert {e.action for e in events} == {"quarantined"}
    # What is fine still goes through.
    assert dls.set_group(demo, QTY, owner="ani", note="line one\nline two").owner == "ani"


def test_the_command_line_refuses_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws")}
    assert cli("demo", env=env).returncode == 0
    for args, said in (
        (["group", QTY, "--owner", f"ev{TITLE}il"], "the owner holds \\x1b (ESC) at character 3"),
        (["group", QTY, "--owner", "a" * 120_000], "the owner is 120,000 characters long"),
        (["group", QTY, "--tag", "t\x07"], "the tag holds \\x07 (BEL) at character 2"),
        (["group", QTY, "--note", "n\rx"], "the note holds \\x0d (CR) at character 2"),
        (["note", "1", "--text", "n\x1b[2J"], "the note holds \\x1b (ESC) at character 2"),
        (["discard", "1", "--reason", "r\x1b]0;x\x07"], "the reason holds \\x1b (ESC)"),
        (["park", "1", "--reason", "a\rb"], "the reason holds \\x0d (CR) at character 2"),
        (["reopen", "1", "--reason", "a\x7fb"], "the reason holds \\x7f (DEL) at character 2"),
    ):
        done = cli(*args, env=env)
        assert done.returncode == 2 and done.stdout == "", (args, done.stderr)
        assert done.stderr.startswith(f"triage-app: {said}"), done.stderr
        assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    groups = json.loads(cli("groups", "--json", env=env).stdout)
    assert all(g["version"] == 0 for g in groups)
    events = json.loads(cli("audit", "--json", env=env).stdout)
    assert {e["action"] for e in events} == {"quarantined"}
