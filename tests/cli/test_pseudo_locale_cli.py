"""The command line under the pseudo-locale (issue 28): every catalogue text comes out as
``⟦Åççéñtéd~~~⟧``, so a word of English outside the brackets is a text that never went
through the catalogue, and two bracketed pieces side by side on one line are a sentence
glued from pieces. The words of the workspace's own data (batch ids, payload keys, errors
the transforms wrote, file names) are not the desk's to translate."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.support import cli
from tests.support.catalogues import catalogue_tool
from triage_app.core.catalogues import LOCALE_DIR_ENV
from triage_app.core.db import open_workspace
from triage_app.core.demo import make_demo

REPO = Path(__file__).resolve().parents[2]
OPEN, CLOSE = "⟦", "⟧"
# Names no language translates, and the words of commands and flags a line may quote.
NAMES = {
    "triage",
    "desk",
    "json",
    "jsonl",
    "csv",
    "sql",
    "sqlite",
    "postgresql",
    "utc",
    "sha",
    "pesanan",
    "pelanggan",
    "orders",
    "jurnal",
    "triage-app",
    "lang",
    "workspace",
    "demo",
    "usage",
    "stdin",
    "http",
    "https",
    "amqp",
    "mysql",
    "mariadb",
    "rabbitmq",
    "url",
    "html",
}


def outside(text: str) -> tuple[str, str]:
    """``text`` with every bracketed piece blanked (a piece argparse wrapped over lines
    included), and with each top-level piece as one ``\x01``; both keep the lines."""
    blank, marked, depth = [], [], 0
    for ch in text:
        if ch == OPEN:
            if depth == 0:
                marked.append("\x01")
            depth += 1
        elif ch == CLOSE and depth:
            depth -= 1
        elif depth == 0 or ch == "\n":
            blank.append(ch)
            marked.append(ch)
        else:
            blank.append(" ")
    return "".join(blank), "".join(marked)


@pytest.fixture(scope="module")
def pseudo_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("pseudo-locale")
    catalogue_tool().write_pseudo(folder)
    return {**os.environ, "TRIAGE_LANG": "xx", LOCALE_DIR_ENV: str(folder)}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, set[str]]:
    folder = tmp_path_factory.mktemp("ws") / "ws"
    with open_workspace(folder) as ws:
        make_demo(ws)
    done = cli("--workspace", str(folder), "--json", "list", "--status", "all")
    data = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z_-]{2,}", done.stdout + str(folder))}
    return str(folder), data


from triage_app.cli import COMMANDS as COMMAND_NAMES  # noqa: E402

# The keys a person types back (--status open, --class data, --action edited), shown as
# they are, and the months of the dates the pseudo-locale writes the English way.
KEYS = {
    "open",
    "resolved",
    "parked",
    "discarded",
    "data",
    "code",
    "transient",
    "quarantined",
    "edited",
    "via",
    "all",
    "imported",
    "revealed",
    "reopened",
    "noted",
    "note",
    "redriven",
}
MONTHS = {
    m.lower()
    for m in ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

COMMANDS = [
    ("--help",),
    ("list",),
    ("list", "--status", "all"),
    ("show", "1"),
    ("stats",),
    ("groups",),
    ("audit",),
    ("transforms",),
    ("changesets",),
    ("ladder",),
    ("roles", "me"),
    ("park", "1", "--dry-run"),
    ("redrive", "--with", "pesanan@2", "--dry-run"),
    ("show", "999"),  # a refusal
    ("list", "--status", "nonsense"),  # a usage error
    ("list", "--help"),
]


@pytest.mark.slow
def test_every_line_the_cli_says_went_through_the_catalogue(
    pseudo_env: dict[str, str], demo: tuple[str, set[str]]
) -> None:
    folder, data = demo
    commands = {part for name in COMMAND_NAMES for part in name.split("-")}
    allowed = data | NAMES | KEYS | commands | MONTHS
    problems = []
    for args in COMMANDS:
        done = cli("--workspace", folder, *args, env=pseudo_env)
        said = done.stdout + done.stderr
        blank, marked = outside(said)
        for line, rest, pieces in zip(
            said.splitlines(), blank.splitlines(), marked.splitlines(), strict=True
        ):
            # Flags, transform refs, constants, paths and logins are quoted, not prose.
            rest = re.sub(r"--?[a-z][a-z-]*|[\w.-]+@[\w.-]+|\b[A-Z_]{2,}\b|\S+[/\\]\S+", " ", rest)
            words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", rest)} - allowed
            if words:
                problems.append(f"{' '.join(args)}: untranslated {sorted(words)}: {line!r}")
            elif "  " not in pieces.strip() and pieces.count("\x01") > 1:
                problems.append(f"{' '.join(args)}: glued: {line!r}")  # not a table's cells
    assert not problems, f"{len(problems)} lines:\n" + "\n".join(problems[:60])
