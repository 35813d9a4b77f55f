"""The manual page, ``triage-desk(1)``, written from the command line's own parser so that
it never drifts from ``triage-app --help``; the ``.deb`` installs it for both names.

    .venv/bin/python packaging/manpage.py > triage-desk.1
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version

from triage_app.cli import build_parser

SEE_ALSO = """\
.SH ENVIRONMENT
.TP
.B TRIAGE_WORKSPACE
The workspace folder used when \\fB\\-\\-workspace\\fR is not given.
.TP
.BR TRIAGE_WAREHOUSE_URL ", " TRIAGE_DEAD_LETTER_URL
SQLAlchemy URLs (PostgreSQL for a team) that replace the workspace's two SQLite databases.
.SH FILES
.TP
.I ~/.local/share/triage-desk/
The data folder: the default workspace (\\fIworkspace/\\fR), the demo (\\fIdemo/\\fR) and
transform plugins (\\fIplugins/\\fR, one \\fI.py\\fR file or package each).
.TP
.I ~/.config/TriageDesk/
The window's settings and recent workspaces. Passwords are kept in the system keyring.
.PP
Removing the package leaves both folders.
.SH EXIT STATUS
0 on success; 1 when a command ran and found something wrong (a failed check, rows
refused); 2 for a usage error or input that cannot be used, explained in one line.
"""


def _escape(text: str) -> str:
    out = text.replace("\\", "\\\\").replace("-", "\\-")
    # A line starting with . or ' would be read as a request.
    return "\n".join(("\\&" + ln if ln[:1] in ".'" else ln) for ln in out.splitlines())


def _options(parser: argparse.ArgumentParser) -> list[str]:
    lines = []
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        flags = ", ".join(f"\\fB{_escape(o)}\\fR" for o in action.option_strings)
        if action.metavar or (action.nargs != 0 and action.type is not None):
            flags += f" \\fI{_escape(str(action.metavar or action.dest.upper()))}\\fR"
        lines += [".TP", flags, _escape((action.help or "") % vars(action))]
    return lines


def manual() -> str:
    parser = build_parser()
    lines = [
        f'.TH TRIAGE-DESK 1 "" "triage-desk {version("triage-desk")}" "User Commands"',
        ".SH NAME",
        "triage-desk, triage-app \\- quarantine, fix and re-drive the rows a nightly batch "
        "could not load",
        ".SH SYNOPSIS",
        ".B triage-desk",
        "[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fIARGS\\fR]]",
        ".SH DESCRIPTION",
        _escape(parser.description or ""),
        ".PP",
        "Each command also takes \\fB\\-\\-json\\fR; "
        "\\fBtriage-desk \\fICOMMAND\\fB \\-\\-help\\fR gives its own options.",
        ".SH OPTIONS",
        *_options(parser),
        ".SH COMMANDS",
    ]
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        lines += [".TP", f"\\fB{_escape(name)}\\fR", _escape(sub.description or "")]
    return "\n".join(lines) + "\n" + SEE_ALSO


if __name__ == "__main__":
    sys.stdout.write(manual())
