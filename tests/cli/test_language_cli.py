"""The command line in the stewards' language (issue 28): ``--lang``, ``TRIAGE_LANG`` and the
locale (``LANG=id_ID.UTF-8``) choose Indonesian; the help, argparse's own words and usage
errors, and the text of the commands are then Indonesian, with numbers and dates written the
Indonesian way (``1.010``, ``3 Des 2026 14.05.09``); a counted text is right for one and for
many in both languages; ``--json`` is the same bytes whatever the language.

The suite runs in English (tests/conftest.py sets ``TRIAGE_LANG=en``): each process here is
given the language it should speak."""

from __future__ import annotations

import argparse
import ast
import os
import re
from pathlib import Path

import pytest

from tests.support import REPO, cli
from triage_app.core import po_files

# What a process inherits, without any say on the language: each test adds its own.
LANGUAGE_VARIABLES = ("TRIAGE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def env_with(**chosen: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LANGUAGE_VARIABLES}
    env.update(chosen)
    return env


INDONESIAN = env_with(TRIAGE_LANG="id")
ENGLISH = env_with(TRIAGE_LANG="en")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The seed's demo batch (10 rows, 4 quarantined) in a workspace of its own."""
    ws = ["--workspace", str(tmp_path_factory.mktemp("lang") / "ws")]
    done = cli(*ws, "demo", env=ENGLISH)
    assert done.returncode == 0, done.stderr
    return ws


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], str, str]:
    """A generated batch with more than a thousand dead letters, made in Indonesian; and
    its demo line in both languages (the second run finds it already there)."""
    ws = ["--workspace", str(tmp_path_factory.mktemp("lang-big") / "ws")]
    args = [*ws, "demo", "--rows", "3000", "--bad", "0.5"]
    made = cli(*args, env=INDONESIAN)
    assert made.returncode == 0, made.stderr
    again = cli(*args, env=ENGLISH)
    assert again.returncode == 0, again.stderr
    return ws, made.stdout, again.stdout


# --- choosing the language -------------------------------------------------------------


def test_lang_id_speaks_indonesian_in_the_help() -> None:
    done = cli("--lang", "id", "--help", env=ENGLISH)  # --lang wins over TRIAGE_LANG
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("penggunaan: triage-app ")
    for said in (
        "\nargumen posisi:\n",
        "\nopsi:\n",
        "tampilkan pesan bantuan ini lalu keluar",
        "tampilkan nomor versi program lalu keluar",
        "daftar dead letter",  # list's help in the list of commands
        "bahasa yang dipakai: en atau id",
    ):
        assert said in out, said
    for english in ("usage:", "options:", "show this help message", "list dead letters"):
        assert english not in out, english


def test_a_commands_help_is_indonesian_too() -> None:
    out = cli("--lang", "id", "redrive", "--help", env=ENGLISH).stdout
    assert out.startswith("penggunaan: triage-app redrive ")
    assert "kirim ulang dead letter melalui sebuah versi transformasi" in out
    # argparse's %% in a help is still a single % once expanded.
    assert "(bawaan 10 atau 1%)" in " ".join(out.split())


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["list", "--limit", "ten"],
            "triage-app list: argumen --limit: 'ten' bukan bilangan bulat\n",
        ),
        (["list", "--bogus"], "triage-app: argumen tidak dikenali: --bogus\n"),
        (["edit"], "triage-app edit: argumen berikut wajib diberikan: id\n"),
        (
            ["list", "--class", "foo"],
            "triage-app list: argumen --class: pilihan tidak valid: 'foo' "
            "(pilih dari 'data', 'code', 'transient')\n",
        ),
        (
            ["list", "--offset", "-1"],
            "triage-app list: argumen --offset: harus paling sedikit 0, bukan -1\n",
        ),
    ],
)
def test_a_usage_error_is_one_indonesian_line(args: list[str], line: str) -> None:
    done = cli("--lang", "id", *args, env=ENGLISH)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line)


def test_triage_lang_chooses_indonesian() -> None:
    done = cli("--help", env=INDONESIAN)
    assert done.stdout.startswith("penggunaan: triage-app ")
    refused = cli("list", "--limit", "0", env=INDONESIAN)
    assert refused.stderr == "triage-app list: argumen --limit: harus paling sedikit 1, bukan 0\n"


def test_the_locale_chooses_indonesian_when_nothing_else_does() -> None:
    done = cli("--help", env=env_with(LANG="id_ID.UTF-8"))
    assert done.stdout.startswith("penggunaan: triage-app ")
    english = cli("--help", env=env_with(LANG="en_US.UTF-8"))
    assert english.stdout.startswith("usage: triage-app ")


def test_lang_en_and_triage_lang_win_over_the_locale() -> None:
    assert cli("--help", env=env_with(LANG="id_ID.UTF-8", TRIAGE_LANG="en")).stdout.startswith(
        "usage: "
    )
    assert cli("--lang", "en", "--help", env=INDONESIAN).stdout.startswith("usage: ")


# --- what the commands say -------------------------------------------------------------


def test_commands_say_their_text_in_indonesian(demo: list[str]) -> None:
    listed = cli(*demo, "list", env=INDONESIAN)
    assert listed.returncode == 0, listed.stderr
    head, *rows = listed.stdout.splitlines()
    assert head.split() == ["id", "batch", "baris", "kelas", "percobaan", "status", "galat"]
    assert len(rows) == 4 and "DataError: kolom wajib hilang: qty" in rows[1]
    # The column values sit under their heads.
    at = head.index("status")
    assert all(row[at:].split()[0] == "open" for row in rows)

    shown = cli(*demo, "show", "2", env=INDONESIAN).stdout.splitlines()
    assert shown[0].startswith("dead letter 2 (versi 1): batch ")
    assert ", open, 1 percobaan, transformasi pesanan@1" in shown[0]
    assert shown[1] == "galat [data]: DataError: kolom wajib hilang: qty"
    assert "riwayat:" in shown
    # The history's time, the Indonesian way: 3 Des 2026 05.58.38.
    assert re.match(r"  \d{1,2} [A-Z][a-z]{2} \d{4} \d\d\.\d\d\.\d\d  ", shown[-1]), shown[-1]

    audit = cli(*demo, "audit", "--limit", "2", env=INDONESIAN).stdout.splitlines()
    assert audit[0].split()[:4] == ["waktu", "(UTC)", "pelaku", "tindakan"]
    assert audit[-1] == "… dan 2 lagi: --offset 2 untuk halaman berikutnya"

    dry = cli(*demo, "park", "--status", "open", "--dry-run", env=INDONESIAN).stdout
    assert dry.splitlines()[0] == "akan memarkir 4 dead letter"
    assert dry.splitlines()[-1] == "uji coba: tidak ada yang ditulis"


def test_numbers_are_written_the_indonesian_way(big: tuple[list[str], str, str]) -> None:
    ws, made, again = big
    first = made.splitlines()[0]
    assert re.fullmatch(
        r"demo di ruang kerja .+: \d\.\d{3} baris = \d\.\d{3} dimuat \+ \d+ digantikan \+ "
        r"\d\.\d{3} dikarantina",
        first,
    ), first
    # The same books in English: 1,624 where Indonesian writes 1.624.
    numbers = re.findall(r"\d[\d.]*", first.split(": ", 1)[1])
    assert again.splitlines()[0].endswith(
        "{} rows = {} loaded + {} superseded + {} quarantined "
        "(already there: nothing to do)".format(*(n.replace(".", ",") for n in numbers))
    ), again
    stats = cli(*ws, "stats", env=INDONESIAN).stdout.splitlines()
    assert re.fullmatch(r"\d\.\d{3} dead letter", stats[0]), stats[0]
    assert re.fullmatch(r"per status: open \d\.\d{3}", stats[2]), stats[2]
    english = cli(*ws, "stats", env=ENGLISH).stdout.splitlines()
    assert english[0] == stats[0].replace(".", ",") + "s"
    # The days of failures per day: 3 Des 2026, never 2026-12-03.
    head = next(line for line in stats if line.startswith("kegagalan per hari"))
    assert re.fullmatch(
        r"kegagalan per hari \(kegagalan pertama, UTC\), 14 hari terakhir "
        r"\(\d{1,2} \w{3} \d{4} sampai \d{1,2} \w{3} \d{4}\):",
        head,
    ), head


def test_a_batchs_books_are_right_for_one_row_and_for_many(demo: list[str], tmp_path: Path) -> None:
    ws = ["--workspace", str(tmp_path / "one")]
    source = tmp_path / "one.jsonl"
    source.write_text('{"pesanan_id": 1, "qty": -1}\n')
    run = cli(*ws, "--json", "run", str(source), "--transform", "pesanan@1", env=ENGLISH)
    assert run.returncode == 0, run.stderr
    one = run.stdout.split('"batch_id": "')[1].split('"')[0]
    many = cli(*demo, "--json", "list", env=ENGLISH).stdout.split('"batch_id": "')[1][:16]
    said = {
        (lang, n): cli(*where, "reconcile", batch, env=env).stdout.splitlines()[0]
        for lang, env in (("en", ENGLISH), ("id", INDONESIAN))
        for n, where, batch in ((1, ws, one), (10, demo, many))
    }
    assert "1 row = 0 loaded + 0 superseded + 1 quarantined over 1 chunk" in said["en", 1]
    assert "10 rows = 6 loaded + 0 superseded + 4 quarantined over 1 chunk" in said["en", 10]
    assert "1 baris = 0 dimuat + 0 digantikan + 1 dikarantina dalam 1 potongan" in said["id", 1]
    assert "10 baris = 6 dimuat + 0 digantikan + 4 dikarantina dalam 1 potongan" in said["id", 10]


def test_a_dry_runs_count_is_right_for_one_and_for_many(demo: list[str]) -> None:
    for ids, en, id_ in (
        (["1"], "would park 1 dead letter", "akan memarkir 1 dead letter"),
        (["1", "2"], "would park 2 dead letters", "akan memarkir 2 dead letter"),
    ):
        assert cli(*demo, "park", *ids, "--dry-run", env=ENGLISH).stdout.startswith(en + "\n")
        assert cli(*demo, "park", *ids, "--dry-run", env=INDONESIAN).stdout.startswith(id_ + "\n")


# --- --json -----------------------------------------------------------------------------

JSON_COMMANDS = [
    ["list"],
    ["list", "--limit", "2"],  # the rest said on stderr, the JSON the same
    ["show", "2"],
    ["stats"],
    ["audit"],
    ["transforms"],
    ["sources"],
    ["changesets"],
    ["connectors"],
    ["roles", "me"],
    ["park", "--status", "all", "--dry-run"],
    ["fix", "--set", "qty=1", "--dry-run", "2", "3"],
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda a: " ".join(a))
def test_json_is_the_same_bytes_in_both_languages(demo: list[str], args: list[str]) -> None:
    en = cli(*demo, "--json", *args, env=ENGLISH)
    id_ = cli(*demo, "--json", *args, env=INDONESIAN)
    assert en.returncode == id_.returncode == 0, en.stderr + id_.stderr
    assert en.stdout == id_.stdout
    assert en.stdout.lstrip()[:1] in ("{", "[")


def test_reconcile_json_is_the_same_bytes_in_both_languages(demo: list[str]) -> None:
    batch = cli(*demo, "--json", "list", env=ENGLISH).stdout.split('"batch_id": "')[1][:16]
    en = cli(*demo, "--json", "reconcile", batch, env=ENGLISH).stdout
    assert en == cli(*demo, "--json", "reconcile", batch, env=INDONESIAN).stdout


# --- argparse's own words ---------------------------------------------------------------

# argparse's texts that only a programming mistake raises: never shown to a user, not in the
# catalogue (triage_app/cli/argparse_words.py).
PROGRAMMING_ERRORS = {
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    'argument "-" with mode %r',
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "conflicting option string: %s",
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
}


def argparse_texts() -> set[str]:
    """Every text this Python's argparse looks up through gettext (``_`` and ``ngettext``'s
    singular), read from its source."""
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("_", "ngettext")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(node.args[0].value)
    return found


def test_every_argparse_text_a_user_meets_has_its_indonesian() -> None:
    catalogue = po_files.read_po(REPO / "resources" / "locale" / "id" / "cli.po")
    translated = {e.msgid for e in catalogue.entries if e.translated}
    wanted = argparse_texts() - PROGRAMMING_ERRORS
    assert wanted, "argparse's texts were not found"
    assert sorted(wanted - translated) == []
    # Python's placeholders survive the translation: argparse fills them after the lookup.
    placeholders = re.compile(r"%\(\w+\)[sr]|%[sr]")
    for entry in catalogue.entries:
        if entry.msgid in wanted:
            assert sorted(placeholders.findall(entry.msgid)) == sorted(
                placeholders.findall(entry.translations[0])
            ), entry.msgid
