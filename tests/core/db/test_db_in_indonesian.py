"""What the store says to a person, in Bahasa Indonesia (issue 28): refusals, roles, schema
changes, lock waits, with Indonesian numbers and dates; the sentences ``--json`` carries are
English there whatever the language (``core/bilingual.py``)."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from tests.support import cli
from triage_app.core import messages
from triage_app.core.bilingual import both, both_gettext, both_ngettext
from triage_app.core.db import (
    STORE,
    WAREHOUSE,
    WORKSPACE_FOLDER,
    Act,
    Role,
    SchemaChange,
    Workspace,
    explain_lock_wait,
    make_engine,
    members,
    read_only_message,
    refusal_message,
    shown_seconds,
    user_message,
    why_not,
)
from triage_app.core.db.lock_waits import BUSY_TIMEOUT_MS
from triage_app.core.errors import TriageError
from triage_app.core.messages import N_


def _syntax_error() -> OperationalError:
    engine = create_engine("sqlite://")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELEC 1"))
    except OperationalError as exc:
        return exc
    finally:
        engine.dispose()
    raise AssertionError("a bad statement must fail")


def test_a_role_refused_in_both_languages() -> None:
    assert why_not(Role.VIEWER, Act.REDRIVE) == (
        "a viewer may not re-drive dead letters on this store: that needs the steward role "
        "(a lead grants it: triage-app roles grant USER steward)"
    )
    messages.use_language("id")
    try:
        assert why_not(Role.STEWARD, Act.PURGE) == (
            "peran steward tidak boleh menghapus permanen dead letter di penyimpanan ini: itu "
            "memerlukan peran lead (lead yang memberikannya: triage-app roles grant USER lead)"
        )
        assert why_not(Role.LEAD, Act.PURGE) is None
    finally:
        messages.use_language("en")


def test_every_act_has_its_sentence(indonesian: None) -> None:
    for act in Act:
        said_ = why_not(Role.VIEWER, act)
        if said_ is not None:
            assert said_.startswith("peran viewer tidak boleh "), said_
            assert "{" not in said_


def test_refusals_in_indonesian(indonesian: None, tmp_path: Path) -> None:
    assert refusal_message(_syntax_error()) == 'galat basis data: near "SELEC": syntax error'
    assert user_message(KeyError("qty")) == "galat tak terduga (KeyError): 'qty'"
    assert read_only_message(WORKSPACE_FOLDER, "/data/ws").startswith(
        "folder ruang kerja /data/ws hanya dapat dibaca oleh pengguna ini"
    )
    assert read_only_message(STORE, "/data/ws/dead_letter.db").startswith(
        "penyimpanan dead letter /data/ws/dead_letter.db hanya dapat dibaca"
    )
    with pytest.raises(TriageError) as bad:
        make_engine("mysql://h/wh", WAREHOUSE)
    assert str(bad.value) == "warehouse: mysql tidak didukung; gunakan sqlite atau postgresql"
    with pytest.raises(TriageError) as url:
        make_engine("postgresql://bob:pw@h:notaport/wh", STORE)
    assert str(url.value).startswith("URL penyimpanan dead letter tidak valid: ")
    assert "pw" not in str(url.value)


def test_a_schema_change_said_in_indonesian(indonesian: None, tmp_path: Path) -> None:
    backup = tmp_path / "dead_letter.schema-0001.db"
    change = SchemaChange("/ws/dead_letter.db", "0001", "0013", backup)
    assert change.message == (
        "penyimpanan dead letter di /ws/dead_letter.db ditingkatkan dari skema 0001 ke 0013; "
        f"penyimpanan sebelumnya disimpan di {backup}"
    )
    # --json says what changed, never a sentence: the same in both languages.
    assert change.to_json() == {
        "store": "/ws/dead_letter.db",
        "from": "0001",
        "to": "0013",
        "backup": str(backup),
    }


def test_a_lock_wait_names_its_holder_in_indonesian(indonesian: None, workspace: Workspace) -> None:
    store = Path(str(workspace.store.url.database))
    note = store.with_name(store.name + ".holder")
    since = "2026-11-30T14:05:09Z"
    holder = {"who": "ani@laptop pid 4242", "pid": os.getppid(), "host": socket.gethostname()}
    note.write_text(json.dumps({**holder, "since": since}), encoding="utf-8")
    said = str(explain_lock_wait(workspace.store, TimeoutError()))
    waited = shown_seconds(BUSY_TIMEOUT_MS / 1000)
    assert said == (
        f"dead letter dikunci oleh ani@laptop pid 4242 di {socket.gethostname()}, menulis sejak "
        f"{since}; sudah menunggu {waited} dtk: coba lagi setelah selesai (proses yang "
        "dihentikan sementara memegang kuncinya sampai dilanjutkan atau diakhiri)"
    )


def test_seconds_as_each_language_writes_them(indonesian: None) -> None:
    assert (shown_seconds(15.0), shown_seconds(2.5), shown_seconds(0.25)) == ("15", "2,5", "0,25")
    messages.use_language("en")
    assert (shown_seconds(15.0), shown_seconds(2.5)) == ("15", "2.5")


def test_a_said_sentence_is_read_translated_and_written_in_english(indonesian: None) -> None:
    one = both_ngettext(
        "the summary holds {n} dead letter where the rows make {counted}: {cell}",
        "the summary holds {n} dead letters where the rows make {counted}: {cell}",
        1_234,
    ).format(n=1_234, counted=1, cell=both_gettext("none"))
    assert (
        str(one)
        == "ringkasan menyimpan 1.234 dead letter, sedangkan barisnya berjumlah 1: tidak ada"
    )
    assert one.english == "the summary holds 1,234 dead letters where the rows make 1: none"
    marked = both(N_("no dead-letter store at {store}"), store="/ws")
    assert (str(marked), marked.english) == (
        "tidak ada penyimpanan dead letter di /ws",
        "no dead-letter store at /ws",
    )


def test_the_members_of_a_sqlite_workspace(workspace: Workspace) -> None:
    english = members(workspace.store)
    messages.use_language("id")
    try:
        m = members(workspace.store)
        assert (
            m.note == "ruang kerja SQLite: pengguna OS adalah satu-satunya steward sekaligus lead"
        )
        assert m.to_json() == english.to_json()
    finally:
        messages.use_language("en")
    assert english.note == "a SQLite workspace: the OS user is the one steward-lead"
    assert english.to_json()["note"] == english.note


def _env(lang: str) -> dict[str, str]:
    return {**os.environ, "TRIAGE_LANG": lang}


def test_the_command_line_in_indonesian(tmp_path: Path, workspace: Workspace) -> None:
    folder = workspace.config.folder
    assert folder is not None
    roles = {
        lang: cli("--workspace", str(folder), "--json", "roles", env=_env(lang))
        for lang in ("en", "id")
    }
    assert roles["en"].returncode == 0, roles["en"].stderr
    assert roles["en"].stdout == roles["id"].stdout
    assert json.loads(roles["id"].stdout)["note"].startswith("a SQLite workspace")
    shown = cli("--workspace", str(folder), "roles", env=_env("id"))
    assert (
        "ruang kerja SQLite: pengguna OS adalah satu-satunya steward sekaligus lead" in shown.stdout
    )
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    missing = cli("--workspace", str(nowhere), "list", env=_env("id"))
    assert missing.returncode != 0
    assert f"tidak ada ruang kerja di {nowhere}" in missing.stderr
