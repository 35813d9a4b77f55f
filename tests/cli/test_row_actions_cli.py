"""The row actions in the CLI: park, discard, reopen, reclassify, note, by ids (all or
none) or by the filters ``list`` takes; and optimistic edits with ``--if-version``."""

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


def run(ws: list[str], *args: str) -> tuple[int, object, str]:
    done = cli(*ws, *args, "--json")
    return done.returncode, orjson.loads(done.stdout) if done.stdout else None, done.stderr


def shown(ws: list[str], dl_id: int, *extra: str) -> dict:  # type: ignore[type-arg]
    out = run(ws, "show", str(dl_id), *extra)[1]
    assert isinstance(out, dict)
    return out


def test_each_action_by_ids(ws: list[str]) -> None:
    code, out, _ = run(ws, "park", "1", "2", "--reason", "later")
    assert code == 0 and out == {
        "action": "parked",
        "changed": [1, 2],
        "unchanged": [],
        "refused": [],
    }
    assert [shown(ws, i)["status"] for i in (1, 2)] == ["parked", "parked"]
    assert shown(ws, 1)["events"][-1]["detail"] == "later"
    assert run(ws, "reopen", "1")[1] == {
        "action": "reopened",
        "changed": [1],
        "unchanged": [],
        "refused": [],
    }
    assert run(ws, "reclassify", "1", "--class", "code")[0] == 0
    assert shown(ws, 1)["error_class"] == "code"
    assert run(ws, "note", "1", "3", "--text", "asked the shop")[1]["changed"] == [1, 3]  # type: ignore[index]
    assert run(ws, "discard", "3", "--reason", "junk")[0] == 0
    d = shown(ws, 3)
    assert d["status"] == "discarded"
    assert [e["action"] for e in d["events"]] == ["quarantined", "note", "discarded"]
    assert d["version"] == 3  # quarantined 1, +note, +discard


def test_ids_are_all_or_none_with_one_line(ws: list[str]) -> None:
    assert run(ws, "discard", "3", "--reason", "junk")[0] == 0
    done = cli(*ws, "park", "1", "3")
    assert done.returncode == 2
    assert done.stderr == "triage-app: dead letter 3 is discarded; it cannot be parked\n"
    assert shown(ws, 1)["status"] == "open"  # nothing changed
    done = cli(*ws, "park", "1", "99")
    assert (done.returncode, done.stderr) == (2, "triage-app: no dead letter with id 99\n")


def test_a_filter_changes_what_it_can_and_lists_the_rest(ws: list[str]) -> None:
    assert run(ws, "park", "2")[0] == 0
    # Every data-class row, whatever its status: 2 is parked already, 1 and 3 are open.
    code, out, _ = run(ws, "park", "--class", "data", "--status", "all")
    assert code == 0
    assert out == {"action": "parked", "changed": [1, 3], "unchanged": [2], "refused": []}
    assert run(ws, "discard", "3", "--reason", "x")[0] == 0  # parked rows can be discarded
    assert run(ws, "redrive", "--id", "4", "--transform", "pesanan@2")[0] == 0  # 4 is resolved
    code, out, _ = run(ws, "reopen", "--status", "all")
    assert code == 1  # 4 was refused: listed, not a traceback
    # A discarded row can be reopened (issue 20); a resolved one cannot.
    assert out["changed"] == [1, 2, 3] and out["unchanged"] == []  # type: ignore[index]
    assert out["refused"] == [  # type: ignore[index]
        {"id": 4, "reason": "dead letter 4 is resolved; it cannot be reopened"}
    ]
    text = cli(*ws, "park", "--batch", "zzz")
    assert (text.returncode, text.stdout) == (0, "Parked 0 dead letters.\n")


def test_an_action_needs_ids_or_a_filter(ws: list[str]) -> None:
    done = cli(*ws, "park")
    assert done.returncode == 2
    assert done.stderr.startswith("triage-app: park: name dead letters by id, or by a filter")
    assert all(shown(ws, i)["status"] == "open" for i in (1, 2, 3, 4))


def test_discard_needs_a_reason_and_note_a_text(ws: list[str]) -> None:
    assert cli(*ws, "discard", "1").returncode == 2
    done = cli(*ws, "discard", "1", "--reason", "  ")
    assert (done.returncode, done.stderr) == (2, "triage-app: discarding needs a reason\n")
    done = cli(*ws, "note", "1", "--text", "")
    assert (done.returncode, done.stderr) == (2, "triage-app: a note cannot be empty\n")


def test_edit_if_version_refuses_a_row_that_moved_on(ws: list[str]) -> None:
    seen = shown(ws, 4)["version"]
    assert seen == 1
    fix = '{"pesanan_id": 1008, "waktu": "2026-01-12T10:00:00", "pelanggan": "x", '
    fix += '"produk": "y", "qty": 1, "harga": 10, "diskon": 0}'
    # Another steward adds a note meanwhile: the row is at version 2 now.
    assert cli(*ws, "note", "4", "--text", "looking").returncode == 0
    done = cli(*ws, "edit", "4", "--payload", fix, "--if-version", str(seen))
    assert done.returncode == 2
    line = done.stderr
    assert line.count("\n") == 1
    assert line.startswith("triage-app: dead letter 4 changed since version 1 (note by ")
    assert line.endswith("); it is now version 2\n")
    before = shown(ws, 4)
    assert before["payload"] != fix
    done = cli(*ws, "edit", "4", "--payload", fix, "--if-version", "2", "--json")
    assert done.returncode == 0, done.stderr
    after = orjson.loads(done.stdout)
    shown_fix = fix.replace('"pelanggan": "x"', '"pelanggan": "x•••"')  # masked (issue 27)
    assert (after["payload"], after["version"]) == (shown_fix, 3)


def test_every_edit_keeps_the_payload_it_replaced(ws: list[str], tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    first = '{"a": 1}'
    second = '{"a": 2}'
    original = shown(ws, 2, "--reveal")["payload"]
    assert cli(*ws, "edit", "2", "--payload", first).returncode == 0
    assert cli(*ws, "edit", "2", "--payload", second).returncode == 0
    engine = create_engine(f"sqlite:///{tmp_path / 'ws' / 'dead_letter.db'}")
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT replaced_payload, version FROM audit_events "
                "WHERE dead_letter_id = 2 AND action = 'edited' ORDER BY id"
            )
        ).all()
    engine.dispose()
    assert [(bytes(r[0]).decode(), r[1]) for r in rows] == [(original, 2), (first, 3)]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["edit", "1", "--payload", "{}", "--if-version", "0"], "must be at least 1, not 0"),
        (
            ["edit", "1", "--payload", "{}", "--if-version", str(2**31)],
            f"must be at most {2**31 - 1}, not {2**31}",
        ),
        (
            ["redrive", "--id", "1", "--transform", "pesanan@2", "--max-attempts", "0"],
            "must be at least 1, not 0",
        ),
        (["demo", "--rows", "99999999999999999999"], "must be at most 100000000"),
    ],
)
def test_counts_out_of_range_are_one_line(ws: list[str], args: list[str], line: str) -> None:
    done = cli(*ws, *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and line in done.stderr, done.stderr


def statuses(ws: list[str]) -> list[tuple[str, int, int]]:
    """Each row's status, version and number of events."""
    out = []
    for i in (1, 2, 3, 4):
        d = shown(ws, i)
        out.append((d["status"], d["version"], len(d["events"])))
    return out


@pytest.mark.slow
def test_discard_dry_run_counts_shows_and_writes_nothing(ws: list[str]) -> None:
    """Issue 20: a discard by a filter can be previewed: how many, which, and the rows it
    would not change and why; nothing is written."""
    assert run(ws, "park", "2")[0] == 0
    assert run(ws, "redrive", "--id", "4", "--transform", "pesanan@2")[0] == 0  # resolved
    before = statuses(ws)
    done = cli(*ws, "discard", "--status", "all", "--reason", "typo", "--dry-run")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "would discard 3 dead letters"
    rows = [line.split() for line in lines[2:5]]  # id, batch, line, class, error
    assert [(r[0], r[2], r[3]) for r in rows] == [
        ("1", "3", "data"),
        ("2", "4", "data"),
        ("3", "6", "data"),
    ]
    assert "DataError: kolom wajib hilang: qty" in lines[3]
    assert lines[5:] == [
        "would not discard 1:",
        "  dead letter 4 is resolved; it cannot be discarded",
        "dry run: nothing was written",
    ]
    assert "discarded" not in done.stdout.replace("be discarded", "")  # never says it did
    assert statuses(ws) == before
    code, out, _ = run(ws, "discard", "--status", "all", "--reason", "typo", "--dry-run")
    assert code == 0 and isinstance(out, dict)
    assert (out["action"], out["would_change"], out["versions"]) == (
        "discarded",
        3,
        {"1": 1, "2": 2, "3": 1},
    )
    assert out["refused"] == [
        {"id": 4, "reason": "dead letter 4 is resolved; it cannot be discarded"}
    ]
    assert [r["id"] for r in out["sample"]] == [1, 2, 3]
    assert statuses(ws) == before
    # Already in that state: named, not refused; by ids, all or none is said.
    done = cli(*ws, "park", "1", "2", "--dry-run")
    assert done.stdout.splitlines()[-2:] == [
        "already parked (1): #2",
        "dry run: nothing was written",
    ]
    done = cli(*ws, "park", "1", "4", "--dry-run")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "would park none: by ids it is all or none, and 1 would be refused:",
        "  dead letter 4 is resolved; it cannot be parked",
        "dry run: nothing was written",
    ]
    assert statuses(ws) == before


def test_a_dry_run_escapes_what_the_store_holds(ws: list[str], tmp_path: Path) -> None:
    """A partner's bytes reach the terminal shown, never acted on (an escape sequence
    would repaint the screen or hide the rest of the line)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{tmp_path / 'ws' / 'dead_letter.db'}")
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE dead_letters SET error = :e WHERE id = 2"), {"e": "X\x1b[2J\u202eY"}
        )
    engine.dispose()
    done = cli(*ws, "discard", "2", "--reason", "x", "--dry-run")
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    assert "X\\x1b[2J\\u202eY" in done.stdout


def test_a_filter_names_the_rows_already_there_and_those_refused(ws: list[str]) -> None:
    assert run(ws, "park", "2")[0] == 0
    assert run(ws, "redrive", "--id", "4", "--transform", "pesanan@2")[0] == 0  # resolved
    done = cli(*ws, "park", "--status", "all")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "Parked 2 dead letters: #1 and #3. Already parked: #2. Left out 1: #4 "
        "(first: dead letter 4 is resolved; it cannot be parked).",
        "  dead letter 4 is resolved; it cannot be parked",
    ]


def test_a_discard_by_filter_can_be_undone_by_reopen(ws: list[str]) -> None:
    """The way back (issue 20): discard a batch's data rows, reopen one by id; the audit
    trail shows both; a resolved row's reopen is refused in one line."""
    batch = shown(ws, 1)["batch_id"]
    code, out, _ = run(ws, "discard", "--batch", batch[:6], "--class", "data", "--reason", "typo")
    assert code == 0 and out["changed"] == [1, 2, 3]  # type: ignore[index]
    code, out, _ = run(ws, "reopen", "2", "--reason", "not junk")
    assert code == 0 and out["changed"] == [2]  # type: ignore[index]
    assert [shown(ws, i)["status"] for i in (1, 2, 3)] == ["discarded", "open", "discarded"]
    code, events, _ = run(ws, "audit", "--id", "2")
    assert code == 0 and isinstance(events, list)
    assert [(e["action"], e["detail"]) for e in events][:2] == [
        ("reopened", "not junk"),
        ("discarded", "typo"),
    ]
    assert run(ws, "redrive", "--id", "4", "--transform", "pesanan@2")[0] == 0  # resolved
    done = cli(*ws, "reopen", "4")
    assert (done.returncode, done.stderr) == (
        2,
        "triage-app: dead letter 4 is resolved; it cannot be reopened\n",
    )


def test_edit_reads_the_payload_from_stdin(ws: list[str]) -> None:
    """``--payload-file -`` reads standard input, as ``run -`` and ``fix --patch -`` do."""
    import subprocess
    import sys

    fix = '{"pesanan_id": 4, "qty": 1}'

    def edit(data: bytes) -> subprocess.CompletedProcess[bytes]:
        argv = [sys.executable, "-m", "triage_app", *ws, "edit", "2", "--payload-file", "-"]
        return subprocess.run(argv, input=data, capture_output=True, timeout=60)

    done = edit(fix.encode() + b"\n")
    assert done.returncode == 0, done.stderr
    d = shown(ws, 2)
    assert (d["payload"], d["version"]) == (fix + "\n", 2)
    done = edit(b"\xff{}")
    assert (done.returncode, done.stderr) == (
        2,
        b"triage-app: the payload on standard input is not UTF-8 text\n",
    )
    done = edit(b"{not json")
    assert done.returncode == 2 and done.stderr.startswith(b"triage-app: not valid JSON")
    assert shown(ws, 2)["version"] == 2


def test_edit_if_version_ahead_of_the_row_says_where_the_row_is(ws: list[str]) -> None:
    """Issue 20: ``--if-version 5`` on a version-1 row said "changed since version 5"; the
    row never was at 5."""
    done = cli(*ws, "edit", "3", "--payload", '{"qty": 1}', "--if-version", "5")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        "triage-app: dead letter 3 is at version 1, not 5: it has never been at version 5 "
        "(last change: quarantined by "
    )
    assert shown(ws, 3)["version"] == 1


def test_a_discard_of_a_discarded_row_says_already_discarded(ws: list[str]) -> None:
    """Issue 20: not refused (it is where the steward wants it), the same in a dry run,
    by ids and by a filter; exit 0."""
    assert run(ws, "discard", "3", "--reason", "junk")[0] == 0
    done = cli(*ws, "discard", "3", "--reason", "junk")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "Discarded 0 dead letters. Already discarded: #3.",
    ]
    assert run(ws, "discard", "1", "3", "--reason", "junk")[1] == {
        "action": "discarded",
        "changed": [1],
        "unchanged": [3],
        "refused": [],
    }
    done = cli(*ws, "discard", "3", "--reason", "junk", "--dry-run")
    assert (done.returncode, done.stdout.splitlines()) == (
        0,
        [
            "would discard 0 dead letters",
            "already discarded (1): #3",
            "dry run: nothing was written",
        ],
    )
    code, out, _ = run(ws, "discard", "--status", "discarded", "--reason", "x", "--dry-run")
    assert code == 0 and isinstance(out, dict)
    assert (out["would_change"], out["unchanged"], out["refused"]) == (0, [1, 3], [])
    assert [e["action"] for e in shown(ws, 3)["events"]] == ["quarantined", "discarded"]
