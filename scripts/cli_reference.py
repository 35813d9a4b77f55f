"""Write docs/cli.md, the command line's reference, from the parser itself
(``triage_app.cli.build_parser``): the options before the command, then every command with
its help and its flags, as ``--help`` prints them. tests/cli/test_cli_reference.py fails when
docs/cli.md is out of date, so a new flag or a reworded help reaches the reference.

    python scripts/cli_reference.py           # write docs/cli.md
    python scripts/cli_reference.py --check   # exit 1 if docs/cli.md is out of date
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "cli.md"
# The help is wrapped at a fixed width, not the terminal's: the file must not depend on
# where it was made.
WIDTH = 88

sys.path.insert(0, str(REPO))

HEAD = """\
# The command line: `triage-app`

<!-- Generated from the parser by scripts/cli_reference.py; do not edit by hand. Run
     `python scripts/cli_reference.py` after changing a command: a test fails while this
     file is out of date. -->

`triage-app [OPTIONS] COMMAND [ARGS]`; with no command it opens the window. Every command
takes `--json` (before or after the command) and then prints JSON for scripts instead of
lines for people. Exit 0 when the command did its job; 1 when it ran but did not get there
(a batch that does not reconcile, rows refused, a re-drive that stopped itself); 2 with one
line on stderr for bad usage, unreadable input or an unreachable database.
"""


def _help(parser: argparse.ArgumentParser) -> str:
    parser.formatter_class = functools.partial(argparse.HelpFormatter, width=WIDTH)
    return parser.format_help().rstrip("\n")


def _anchor(name: str) -> str:
    """The anchor a Markdown renderer gives the heading ``triage-app NAME``."""
    return f"triage-app-{name}"


def render() -> str:
    """The reference, in English whatever the machine's language (the parser's help texts
    and argparse's own words are said in the language in use when it is built)."""
    from triage_app.cli import build_parser
    from triage_app.core import messages

    messages.use_language("en")
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    # A "|" in a help would end its table cell.
    said = {a.dest: (a.help or "").replace("|", "\\|") for a in commands._choices_actions}
    out = [HEAD, "## Commands", "", "| command | what it does |", "|---|---|"]
    out += [f"| [`{name}`](#{_anchor(name)}) | {said[name]} |" for name in commands.choices]
    out += ["", "## Options before the command", "", "```text", _help(parser), "```"]
    for name, sub in commands.choices.items():
        out += ["", f"## `triage-app {name}`", "", "```text", _help(sub), "```"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/cli.md is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(
                f"{OUT.relative_to(REPO)} is out of date: run python scripts/{Path(__file__).name}"
            )
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
