"""Change-sets (issue 13): a fix previewed on many dead letters writes nothing; applied, it
changes each row the preview saw through the guarded transitions, audited, and the preview
said what re-driving them then does; reverted, every payload is back byte for byte, except
rows that moved on since, which are reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from tests.support import REPO, cli
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, ChangeSetRow, DeadLetter, Workspace, open_workspace
from triage_app.core.deadletters import DeadLetterFilter, Fix, Step
from triage_app.core.deadletters.expanded_events import row_events
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry

P1 = default_registry().get("pesanan@1")


def _order(i: int, **changes: object) -> bytes:
    record = {
        "pesanan_id": i,
        "waktu": "2026-01-12T08:00:00",
        "pelanggan": f"p{i}",
        "produk": "kopi",
        "qty": 1 + i % 3,
        "harga": 1000 + i,
        "diskon": None,
    }
    record.update(changes)
    return orjson.dumps(record) + b"\n"


def _batch(ws: Workspace, folder: Path, n: int = 60) -> list[int]:
    """n rows failing pesanan@1: most for a null diskon, every fifth also for a bad qty,
    every seventh cut off mid-line (no fix can read it)."""
    src = folder / "orders.jsonl"
    with src.open("wb") as f:
        for i in range(n):
            line = _order(i, qty=-1) if i % 5 == 0 else _order(i)
            f.write(line[:30] + b"\n" if i % 7 == 3 else line)
    summary = run_batch(ws, src, "pesanan@1")
    assert summary.quarantined == n
    return dls.chosen_ids(ws, None, DeadLetterFilter())


def _stored(ws: Workspace, ids: list[int]) -> dict[int, tuple[bytes | None, str, int]]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(
                DeadLetter.id, DeadLetter.payload, DeadLetter.payload_kind, DeadLetter.version
            ).where(DeadLetter.id.in_(ids))
        )
        return {r.id: (r.payload, r.payload_kind, r.version) for r in rows}


def _events(ws: Workspace, ids: list[int]) -> list[tuple[int, str, str, bytes | None]]:
    """The rows' events but their quarantine, as the trail tells them (stored, or expanded
    from the change-sets), oldest first."""
    with ws.store.connect() as conn:
        events = [e for i in ids for e in row_events(conn, i) if e.action != "quarantined"]
    events.sort(key=lambda e: (e.at, e.id))
    return [(e.dead_letter_id, e.action, e.detail, e.replaced_payload) for e in events]


DEFAULT_DISKON = Fix(steps=(Step("default", "diskon", 0),))


def test_a_preview_writes_nothing_and_says_why_for_every_row_left_out(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path)
    before = _stored(workspace, ids)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids, transform=P1)

    assert _stored(workspace, ids) == before and _events(workspace, ids) == []
    cut = [i for i in range(60) if i % 7 == 3]
    bad_qty = [i for i in range(60) if i % 5 == 0 and i % 7 != 3]
    assert p.rows == 60
    assert p.not_applicable == len(cut)
    assert p.applies == 60 - len(cut) == len(p.versions)
    assert (p.would_load, p.still_fails) == (p.applies - len(bad_qty), len(bad_qty))
    (reason,) = p.why_not
    assert reason.startswith("the payload is not valid JSON")
    # Those left out come first, each with its reason; then the rows it changes.
    assert [r.outcome for r in p.shown[: len(cut)]] == ["not_applicable"] * len(cut)
    assert all(r.why for r in p.shown[: len(cut)])
    changed = p.shown[len(cut)]
    assert (
        orjson.loads(changed.after)["diskon"] == 0
        and orjson.loads(changed.before)["diskon"] is None
    )


def test_what_the_preview_says_is_what_applying_then_redriving_does(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids, transform=P1, keep=len(ids))
    report = dls.apply_fix(workspace, DEFAULT_DISKON, p.versions)
    assert sorted(report.changed) == sorted(p.versions) and report.refused == ()

    redriven = dls.redrive(workspace, "pesanan@1", ids=list(p.versions), keep=None)
    outcome = {r.id: r for r in redriven.results}
    for row in p.shown:
        if row.outcome == "would_load":
            assert outcome[row.id].outcome == "resolved", row.id
        elif row.outcome == "still_fails":
            assert outcome[row.id].outcome in ("failed", "parked"), row.id
            assert outcome[row.id].error == row.error, row.id
    assert redriven.succeeded == p.would_load


def test_applying_audits_each_row_and_keeps_what_it_replaced(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path, n=10)
    by_hand = ids[1]  # edited by a person first: its stored payload is that edit
    dls.edit_payload(workspace, by_hand, '{"pesanan_id": 1,  "diskon": null,   "qty": 2}')
    before = _stored(workspace, ids)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids)
    report = dls.apply_fix(workspace, DEFAULT_DISKON, p.versions, actor="ani")

    cs = report.change_set_id
    info = dls.change_set(workspace, cs)
    assert (info.actor, info.rows, info.description) == (
        "ani",
        len(report.changed),
        "default diskon = 0",
    )
    events = [e for e in _events(workspace, ids) if e[2].startswith("change-set")]
    assert [e[0] for e in events] == sorted(report.changed)
    assert all(e[1] == "edited" and e[2] == f"change-set {cs}: default diskon = 0" for e in events)
    with workspace.store.connect() as conn:
        lines = {
            r.dead_letter_id: r
            for r in conn.execute(select(ChangeSetRow).where(ChangeSetRow.change_set_id == cs))
        }
    for dl_id in report.changed:
        payload, kind, version = before[dl_id]
        assert lines[dl_id].payload_before == payload  # None: it showed its original
        assert lines[dl_id].kind_before == kind
        assert lines[dl_id].version_after == version + 1 == _stored(workspace, [dl_id])[dl_id][2]
    assert lines[by_hand].payload_before == b'{"pesanan_id": 1,  "diskon": null,   "qty": 2}'
    assert lines[ids[0]].payload_before is None


def test_revert_restores_every_payload_byte_for_byte(workspace: Workspace, tmp_path: Path) -> None:
    ids = _batch(workspace, tmp_path, n=10)
    dls.edit_payload(workspace, ids[2], '{"pesanan_id": 2,\n  "diskon": null}')
    before = _stored(workspace, ids)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids)
    cs = dls.apply_fix(workspace, DEFAULT_DISKON, p.versions).change_set_id
    reverted = dls.revert_change_set(workspace, cs)

    assert sorted(reverted.changed) == sorted(p.versions) and reverted.refused == ()
    after = _stored(workspace, ids)
    for dl_id in ids:
        payload, kind, version = before[dl_id]
        changed = dl_id in p.versions
        assert after[dl_id] == (payload, kind, version + (2 if changed else 0)), dl_id
    assert dls.change_set(workspace, cs).reverted_at is not None
    with pytest.raises(TriageError, match="was reverted"):
        dls.revert_change_set(workspace, cs)


def test_a_row_changed_after_the_preview_is_left_out_and_reported(
    workspace: Workspace, tmp_path: Path
) -> None:
    ids = _batch(workspace, tmp_path, n=10)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids)
    meddled = next(iter(p.versions))
    dls.edit_payload(workspace, meddled, '{"pesanan_id": 0, "diskon": 5}', actor="budi")
    report = dls.apply_fix(workspace, DEFAULT_DISKON, p.versions)

    assert meddled not in report.changed
    ((refused_id, reason),) = report.refused
    assert refused_id == meddled and "changed since version 1 (edited by budi" in reason
    assert _stored(workspace, [meddled])[meddled][0] == b'{"pesanan_id": 0, "diskon": 5}'
    assert len(report.changed) == len(p.versions) - 1


def test_revert_judges_every_row_and_finishes_once_none_waits(
    workspace: Workspace, tmp_path: Path
) -> None:
    """Resolved since: moved on for good. Edited since: moved on, still open, so the
    change-set stays open. Held by a re-drive: left for now. Edited back to its payload
    from before by hand: already restored. Once the edited row is discarded and the lease
    is gone, the revert runs again: the rows it restored are already restored (its own
    edits, not someone else's), and the change-set is reverted."""
    from triage_app.core.deadletters import claims, leases, transitions

    ids = _batch(workspace, tmp_path, n=10)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids)
    cs = dls.apply_fix(workspace, DEFAULT_DISKON, p.versions).change_set_id
    resolved, edited, held, by_hand = sorted(p.versions)[1:5]  # [0] has a bad qty
    assert dls.redrive(workspace, "pesanan@1", ids=[resolved]).succeeded == 1
    dls.edit_payload(workspace, edited, '{"pesanan_id": 1, "diskon": 5}', actor="budi")
    original = dls.get_dead_letter(workspace, by_hand, reveal=True).original_bytes
    dls.edit_payload(workspace, by_hand, '{"x": 1}')
    dls.edit_payload(workspace, by_hand, original.decode())  # back, by hand
    token = leases.new_token("other")
    claims.claim(workspace.store, [held], token)

    first = dls.revert_change_set(workspace, cs)
    assert [i for i, _ in first.refused] == [held] and "held by a re-drive" in first.refused[0][1]
    assert first.already == (by_hand,)
    assert [(m.id, m.still_open) for m in first.moved_on] == [(resolved, False), (edited, True)]
    assert "resolved by" in first.moved_on[0].why and "edited by budi" in first.moved_on[1].why
    assert len(first.changed) == len(p.versions) - 4
    assert first.reverted_at is None and dls.change_set(workspace, cs).reverted_at is None

    claims.release(workspace.store, [held], token)
    dls.apply_change(workspace, [edited], transitions.discard("junk"))
    second = dls.revert_change_set(workspace, cs)
    assert second.changed == (held,) and second.refused == ()
    assert sorted(second.already) == sorted(set(first.changed) | {by_hand})
    assert [(m.id, m.still_open) for m in second.moved_on] == [
        (resolved, False),
        (edited, False),
    ]
    assert second.reverted_at is not None
    assert dls.change_set(workspace, cs).reverted_at == second.reverted_at


def test_a_row_a_redrive_holds_is_not_fixed(workspace: Workspace, tmp_path: Path) -> None:
    from triage_app.core.deadletters import claims, leases

    ids = _batch(workspace, tmp_path, n=10)
    p = dls.preview_fix(workspace, DEFAULT_DISKON, ids)
    held = next(iter(p.versions))
    claims.claim(workspace.store, [held], leases.new_token("other"))
    report = dls.apply_fix(workspace, DEFAULT_DISKON, p.versions)
    assert [i for i, _ in report.refused] == [held]
    assert "held by a re-drive" in report.refused[0][1]


def test_csv_dead_letters_are_fixed_as_columns(tmp_path: Path) -> None:
    src = tmp_path / "orders.csv"
    src.write_text(
        "order_id,pelanggan,status,total,updated_at\n"
        "1,Ani,lunas,1500,2026-01-09T08:00:00\n"
        "2,Budi,lunas,abc,2026-01-09T08:00:00\n"
        "3,Citra,lunas,-5,2026-01-09T08:00:00\n"
    )
    with open_workspace(tmp_path / "ws") as ws:
        run_batch(ws, src, "orders@1")
        ids = dls.chosen_ids(ws, None, DeadLetterFilter())
        assert len(ids) == 2
        fix = Fix(steps=(Step("set", "total", "1500"),))
        p = dls.preview_fix(ws, fix, ids, transform=default_registry().get("orders@1"))
        assert p.would_load == 2
        dls.apply_fix(ws, fix, p.versions)
        detail = dls.get_dead_letter(ws, ids[0], reveal=True)
        assert detail.payload_kind == "json-csv"
        assert orjson.loads(detail.payload_bytes)["total"] == "1500"
        assert dls.redrive(ws, "orders@1", ids=ids).succeeded == 2


# -- the command line ------------------------------------------------------------------------
def test_fix_from_the_command_line(tmp_path: Path) -> None:
    ws = str(tmp_path / "ws")
    assert cli("--workspace", ws, "demo").returncode == 0
    base = ("--workspace", ws)

    dry = cli(
        *base,
        "--json",
        "fix",
        "--default",
        "diskon=0",
        "--status",
        "open",
        "--try",
        "pesanan@1",
        "--dry-run",
    )
    assert dry.returncode == 0, dry.stderr
    preview = json.loads(dry.stdout)["preview"]
    assert (preview["applies"], preview["would_load"], preview["not_applicable"]) == (1, 1, 3)
    assert "applied" not in json.loads(dry.stdout)
    assert json.loads(cli(*base, "--json", "changesets").stdout) == []

    done = cli(
        *base,
        "fix",
        "--signature",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
        "--default",
        "diskon=0",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    said = "Change-set 1: 1 dead letter changed. Revert change-set 1 to undo it."
    assert said in done.stdout
    listed = json.loads(cli(*base, "--json", "changesets").stdout)
    assert [(c["id"], c["rows"], c["description"]) for c in listed] == [
        (1, 1, "default diskon = 0")
    ]

    undone = cli(*base, "revert", "1")
    assert undone.returncode == 0
    assert undone.stdout.splitlines() == ["Change-set 1 reverted: 1 dead letter restored."]
    again = cli(*base, "revert", "1")
    assert again.returncode == 2 and again.stderr.startswith(
        "triage-app: change-set 1 was reverted"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("fix", "--status", "open"), "say what to change"),
        (("fix", "--set", "qty=1"), "name the rows"),
        (("fix", "--map", "status=paid", "--status", "open"), "the values must be a JSON object"),
        (("fix", "--set", "qty", "--status", "open"), "expected FIELD=JSON"),
        (("fix", "--patch", "no-such.json", "--status", "open"), "cannot read the patch"),
        (("fix", "--set", "qty=1", "--batch", "ffff"), "no dead letters match"),
        (("revert", "99"), "no change-set 99"),
    ],
)
def test_bad_fix_commands_get_one_line(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    ws = str(tmp_path / "ws")
    assert cli("--workspace", ws, "demo").returncode == 0
    out = cli("--workspace", ws, *args)
    assert out.returncode == 2, out.stdout + out.stderr
    assert said in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_an_edit_by_another_process_between_preview_and_apply_is_reported(tmp_path: Path) -> None:
    """Real processes: the fix is held after its preview (a pause point), another steward
    edits one of its rows, then the fix goes on and leaves that row out."""
    ws = str(tmp_path / "ws")
    assert cli("--workspace", ws, "demo").returncode == 0
    gate = tmp_path / "gate"
    env = {**os.environ, "TRIAGE_PAUSE_AT": "fix-before-apply", "TRIAGE_PAUSE_FILE": str(gate)}
    fixing = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "triage_app",
            "--workspace",
            ws,
            "--json",
            "fix",
            "--set",
            'kanal="web"',
            "--status",
            "open",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )
    reached = Path(f"{gate}.reached")
    for _ in range(600):
        if reached.exists() or fixing.poll() is not None:
            break
        subprocess.run(["sleep", "0.05"], check=True)
    assert reached.exists(), fixing.communicate()[1].decode()
    edited = cli("--workspace", ws, "edit", "2", "--payload", '{"pesanan_id": 4, "qty": 2}')
    assert edited.returncode == 0, edited.stderr
    gate.touch()
    out, err = fixing.communicate(timeout=120)
    assert fixing.returncode == 1, err.decode()
    applied = json.loads(out)["applied"]
    assert [r["id"] for r in applied["refused"]] == [2]
    assert "changed since version 1 (edited by" in applied["refused"][0]["reason"]
    assert sorted(applied["changed"]) == [3, 4]  # 1 is cut off mid-line: no fix reads it
    shown = json.loads(cli("--workspace", ws, "--json", "show", "2").stdout)
    assert shown["payload"] == '{"pesanan_id": 4, "qty": 2}'


def test_a_fix_killed_mid_way_says_exactly_which_rows_it_changed(tmp_path: Path) -> None:
    """SIGKILL while the second chunk of a change-set is written (not committed): the
    change-set lists the first chunk's rows, each changed and audited once; the rest are
    untouched, and running the fix again changes them as a change-set of their own."""
    from sqlalchemy import func

    from triage_app.core.deadletters.change_sets import CHUNK

    ws_dir = tmp_path / "ws"
    with open_workspace(ws_dir) as ws:
        ids = _batch(ws, tmp_path, n=CHUNK * 2 + 100)
    args = ("--workspace", str(ws_dir), "fix", "--status", "open", "--set", "kanal=toko")
    killed = cli(*args, env={**os.environ, "TRIAGE_CRASH_AT": "mid-change-set:2"})
    assert killed.returncode == -9, killed.stderr

    with open_workspace(ws_dir) as ws:
        (info,) = dls.list_change_sets(ws)
        with ws.store.connect() as conn:
            lines = list(conn.execute(select(ChangeSetRow.dead_letter_id)).scalars())
            stored_edits = conn.execute(
                select(func.count()).select_from(AuditEvent).where(AuditEvent.action == "edited")
            ).scalar_one()
        edited = dls.count_audit_events(ws, dls.AuditFilter(action="edited"))
        assert stored_edits == 0  # the change-set's lines are its events
        assert info.rows == len(lines) == edited == CHUNK
        changed = set(lines)
        stored = _stored(ws, ids)
        for dl_id in ids:
            assert (stored[dl_id][0] is not None) == (dl_id in changed), dl_id
    again = cli(*args, "--json")
    assert again.returncode == 0, again.stderr
    applied = json.loads(again.stdout)["applied"]
    assert applied["change_set"] == 2 and not set(applied["changed"]) & changed


@pytest.mark.postgres
def test_apply_and_revert_on_postgresql(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    """The same on a team store: the driver's own executemany, the time as PostgreSQL
    takes it, every payload back byte for byte."""
    wh, dl = pg_urls
    with open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws:
        ids = _batch(ws, tmp_path, n=30)
        dls.edit_payload(ws, ids[2], '{"pesanan_id": 2,\n  "diskon": null}')
        before = _stored(ws, ids)
        p = dls.preview_fix(ws, DEFAULT_DISKON, ids, transform=P1)
        applied = dls.apply_fix(ws, DEFAULT_DISKON, p.versions, actor="ani")
        assert sorted(applied.changed) == sorted(p.versions) and applied.refused == ()
        assert dls.redrive(ws, "pesanan@1", ids=[ids[1]]).succeeded == 1  # moves on
        reverted = dls.revert_change_set(ws, applied.change_set_id)
        assert [m.id for m in reverted.moved_on] == [ids[1]] and reverted.refused == ()
        assert reverted.reverted_at is not None  # resolved: moved on for good
        after = _stored(ws, ids)
        for dl_id in reverted.changed:
            payload, kind, version = before[dl_id]
            assert after[dl_id] == (payload, kind, version + 2), dl_id
        events = [e for e in _events(ws, ids) if e[1] == "edited" and "change-set" in e[2]]
        assert len(events) == len(applied.changed) + len(reverted.changed)
