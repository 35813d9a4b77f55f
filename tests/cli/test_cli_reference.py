"""docs/cli.md is the command line's reference, generated from the parser by
scripts/cli_reference.py (issue 22, part 5): it names every command with its help and flags,
and it is never out of date."""

from __future__ import annotations

import runpy
from collections.abc import Callable

from tests.support import REPO
from triage_app.cli import COMMANDS

SCRIPT = REPO / "scripts" / "cli_reference.py"
REFERENCE = REPO / "docs" / "cli.md"


def render() -> str:
    made: Callable[[], str] = runpy.run_path(str(SCRIPT))["render"]
    return made()


def test_the_reference_is_what_the_parser_says() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == render(), (
        "docs/cli.md is out of date: run python scripts/cli_reference.py"
    )


def test_the_reference_has_every_command_and_flag() -> None:
    text = render()
    for name in COMMANDS:
        assert f"\n## `triage-app {name}`\n" in text, name
    # A flag of each kind of command, as --help prints it.
    for flag in ("--chunk-size N", "--max-failure-rate SHARE", "--patch FILE", "--save-policy"):
        assert flag in text, flag


def test_the_reference_is_english_whatever_the_language_in_use() -> None:
    """A steward who speaks Indonesian regenerates the same English reference."""
    from triage_app.core import messages

    messages.use_language("id")
    try:
        assert render() == REFERENCE.read_text(encoding="utf-8")
    finally:
        messages.use_language("en")
