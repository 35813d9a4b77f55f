"""Working the backlog as a team (issue 13): error groups with their counts and the age of
their oldest open row; an owner, tags and a note per group, each change audited and
guarded by the version its steward saw; the table's rows filtered by owner or tag."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO, cli
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import AuditFilter, DeadLetterFilter
from triage_app.core.demo import make_demo
from triage_app.core.demo.seed import DEMO_BATCH, DEMO_TRANSFORM
from triage_app.core.errors import TriageError
from triage_app.core.jobs import GroupJob
from triage_app.core.places import resources_dir
from triage_app.core.trends import compute_trends
from triage_app.core.vocabulary import NOBODY

QTY = "DataError: kolom wajib hilang: qty"
CODE = "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"


@pytest.fixture
def demo(workspace: Workspace) -> Workspace:
    make_demo(workspace)
    return workspace


def test_every_group_with_its_counts_and_oldest_open_row(demo: Workspace) -> None:
    groups = {g.signature: g for g in dls.error_groups(demo)}
    assert len(groups) == 4
    code = groups[CODE]
    assert (code.error_class, code.count, code.open, code.owner, code.tags, code.version) == (
        "code",
        1,
        1,
        None,
        (),
        0,
    )
    assert code.oldest_open is not None
    later = code.oldest_open + dt.timedelta(days=3, hours=12)
    assert code.to_json(later)["oldest_open_days"] == 3.5
    dls.redrive(demo, "pesanan@2", where=DeadLetterFilter(signature=CODE))
    code = next(g for g in dls.error_groups(demo) if g.signature == CODE)
    assert (code.count, code.open, code.oldest_open) == (1, 0, None)  # resolved: none open


def test_owner_tags_and_note_are_audited_and_guarded(demo: Workspace) -> None:
    g = dls.set_group(
        demo, QTY, owner="ani", add_tags=["needs source fix"], note="asked", actor="lead"
    )
    assert (g.owner, g.tags, g.note, g.version) == ("ani", ("needs source fix",), "asked", 1)
    g = dls.set_group(
        demo, QTY, add_tags=["waiting on vendor"], remove_tags=["needs source fix"], if_version=1
    )
    assert (g.tags, g.version) == (("waiting on vendor",), 2)
    with pytest.raises(TriageError, match=r"changed since version 1 \(by \S+ at "):
        dls.set_group(demo, QTY, owner="budi", if_version=1)
    with pytest.raises(TriageError, match="nothing to change"):
        dls.set_group(demo, QTY, owner="ani")
    with pytest.raises(TriageError, match="no error group"):
        dls.set_group(demo, "no such signature", owner="ani")
    g = dls.set_group(demo, QTY, owner=None)
    assert g.owner is None and g.version == 3
    events = dls.audit_trail(demo, AuditFilter(action="group"))
    assert [e.detail for e in reversed(events)] == [
        f"group {QTY}: owner nobody -> ani; tag + needs source fix; note: asked",
        f"group {QTY}: tag + waiting on vendor; tag - needs source fix",
        f"group {QTY}: owner ani -> nobody",
    ]
    assert events[-1].actor == "lead"


def test_groups_filter_and_sort_and_the_table_filters_by_owner_or_tag(demo: Workspace) -> None:
    dls.set_group(demo, QTY, owner="ani", add_tags=["needs source fix"])
    dls.set_group(demo, CODE, owner="budi", add_tags=['waiting "on" 100%_vendor'])
    assert [g.signature for g in dls.error_groups(demo, owner="ani")] == [QTY]
    assert [g.signature for g in dls.error_groups(demo, tag='waiting "on" 100%_vendor')] == [CODE]
    by_owner = [g.owner for g in dls.error_groups(demo, sort="owner")]
    assert by_owner == ["ani", "budi", None, None]
    rows = dls.list_dead_letters(demo, DeadLetterFilter(owner="budi"))
    assert [r.error for r in rows] and all(r.error_class == "code" for r in rows)
    tagged = dls.list_dead_letters(demo, DeadLetterFilter(tag='waiting "on" 100%_vendor'))
    assert [r.id for r in tagged] == [r.id for r in rows]
    # The LIKE's own characters in a tag are plain text: "100%" matches nothing else.
    assert dls.list_dead_letters(demo, DeadLetterFilter(tag="%")) == []
    with pytest.raises(TriageError, match="unknown sort"):
        dls.error_groups(demo, sort="size")


def test_unowned_groups_and_their_rows(demo: Workspace) -> None:
    """NOBODY (the owner picker's "nobody"): the groups no steward has taken on yet."""
    dls.set_group(demo, QTY, owner="ani")
    dls.set_group(demo, CODE, add_tags=["waiting on vendor"])  # tagged, still nobody's
    unowned = {g.signature for g in dls.error_groups(demo, owner=NOBODY)}
    assert QTY not in unowned and CODE in unowned and len(unowned) == 3
    rows = dls.list_dead_letters(demo, DeadLetterFilter(owner=NOBODY, status="all"))
    every = dls.list_dead_letters(demo, DeadLetterFilter(status="all"))
    assert {r.id for r in rows} == {r.id for r in every if r.error != QTY}
    assert rows and all(r.error != QTY for r in rows)


def test_the_pickers_offer_the_owners_and_tags_in_use(demo: Workspace) -> None:
    assert dls.team_labels(demo) == ([], sorted(dls.SUGGESTED_TAGS))
    dls.set_group(demo, QTY, owner="ani", add_tags=["Vendor B"])
    dls.set_group(demo, CODE, owner="budi", add_tags=["needs source fix"])
    assert dls.team_labels(demo) == (
        ["ani", "budi"],
        ["needs source fix", "Vendor B", "waiting on vendor"],
    )


def test_trends_groups_carry_owner_tags_note_and_version(demo: Workspace) -> None:
    dls.set_group(demo, QTY, owner="ani", add_tags=["needs source fix"], note="asked the shop")
    groups = {g.signature: g for g in compute_trends(demo, top=None).groups}
    qty = groups[QTY]
    assert (qty.owner, qty.tags, qty.note, qty.version) == (
        "ani",
        ("needs source fix",),
        "asked the shop",
        1,
    )
    # A row of the group says whom to ask: its detail (and `show`) carries the group's notes.
    (row,) = dls.list_dead_letters(demo, DeadLetterFilter(signature=QTY))
    detail = dls.get_dead_letter(demo, row.id, reveal=True)
    assert (detail.group_owner, detail.group_tags, detail.group_note) == (
        "ani",
        ("needs source fix",),
        "asked the shop",
    )
    assert detail.to_json()["group_tags"] == ["needs source fix"]
    other = dls.list_dead_letters(demo, DeadLetterFilter(signature=CODE))[0]
    assert dls.get_dead_letter(demo, other.id, reveal=True).group_owner is None
    assert qty.matches(owner="ani") and qty.matches(tag="needs source fix")
    assert qty.matches(text="SHOP") and qty.matches(text="kolom wajib")
    assert not qty.matches(owner=NOBODY) and not qty.matches(owner="budi")
    assert groups[CODE].matches(owner=NOBODY) and not groups[CODE].matches(text="shop")
    # A change names the version its steward saw: a stale one is refused.
    with pytest.raises(TriageError, match="changed since version 0"):
        GroupJob(QTY, owner="budi", set_owner=True, if_version=0).run(demo)
    assert GroupJob(QTY, owner="budi", set_owner=True, if_version=1).run(demo).owner == "budi"


@pytest.mark.slow
def test_groups_and_group_from_the_command_line(tmp_path: Path) -> None:
    ws = str(tmp_path / "ws")
    assert cli("--workspace", ws, "demo").returncode == 0
    out = cli("--workspace", ws, "group", QTY, "--owner", "ani", "--tag", "needs source fix")
    assert out.returncode == 0, out.stderr
    assert "owner ani, tags needs source fix" in out.stdout
    listed = json.loads(cli("--workspace", ws, "--json", "groups", "--owner", "ani").stdout)
    assert [(g["signature"], g["owner"], g["tags"], g["open"]) for g in listed] == [
        (QTY, "ani", ["needs source fix"], 1)
    ]
    text = cli("--workspace", ws, "groups", "--sort", "oldest").stdout
    assert "ani" in text and "needs source fix" in text
    rows = json.loads(cli("--workspace", ws, "--json", "list", "--owner", "ani").stdout)
    assert [r["error"] for r in rows] == [QTY]
    unowned = json.loads(cli("--workspace", ws, "--json", "groups", "--unowned").stdout)
    assert len(unowned) == 3 and QTY not in {g["signature"] for g in unowned}
    rows = json.loads(cli("--workspace", ws, "--json", "list", "--unowned").stdout)
    assert rows and QTY not in {r["error"] for r in rows}
    refused = cli("--workspace", ws, "group", QTY, "--owner", "budi", "--if-version", "0")
    assert refused.returncode == 2 and "changed since version 0" in refused.stderr


@pytest.mark.slow
@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_two_stewards_assigning_one_group_at_once(
    tmp_path: Path, store: str, request: pytest.FixtureRequest
) -> None:
    """Real processes, each sure of version 0: exactly one assignment lands, the other is
    refused naming who got there first; the audit has one event. On SQLite and on a team
    store on PostgreSQL (where the group's row is locked FOR UPDATE)."""
    folder = tmp_path / "ws"
    if store == "postgresql":
        wh, dl = request.getfixturevalue("pg_urls")
        where = ("--warehouse", wh, "--dead-letter", dl)
        opened = {"workspace": None, "warehouse_url": wh, "dead_letter_url": dl}
    else:
        where = ("--workspace", str(folder))
        opened = {"workspace": folder}
    with open_workspace(**opened) as ws:
        if store == "postgresql":  # the demo's batch, into the team's databases
            run_batch(ws, resources_dir() / "demo" / DEMO_BATCH, DEMO_TRANSFORM)
        else:
            make_demo(ws)
    for round_ in range(3):
        with open_workspace(**opened) as ws:
            version = next(g for g in dls.error_groups(ws) if g.signature == QTY).version
        procs = [
            subprocess.Popen(
                [
                    *(sys.executable, "-m", "triage_app", *where),
                    *("group", QTY, "--owner", f"{who}{round_}", "--if-version", str(version)),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=REPO,
            )
            for who in ("ani", "budi")
        ]
        for p in procs:  # read and close their pipes: no ResourceWarning, no full pipe
            p.communicate(timeout=60)
        codes = sorted(p.returncode for p in procs)
        assert codes == [0, 2]
        with open_workspace(**opened) as ws:
            g = next(g for g in dls.error_groups(ws) if g.signature == QTY)
            events = dls.audit_trail(ws, AuditFilter(action="group"))
        assert g.version == version + 1 and g.owner in (f"ani{round_}", f"budi{round_}")
        assert len(events) == round_ + 1
