"""The command line: a thin layer over ``triage_app.core``; ``--json`` on every command.

Exit 0 when the command did its job (a batch with quarantined rows succeeded); exit 2
with one line on stderr for bad usage, unreadable input or an unreachable database.

One module per family of commands, each with its flags beside its handlers (``add_commands``
adds them): ``batches``, ``dead_letters``, ``change_sets``, ``groups``, ``store``,
``roles``; what they share (argument types, output, opening the workspace) is
``support``. Here: the options before the command, the window (no command, or ``gui``),
``--self-test``, and ``main``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from triage_app import __version__
from triage_app.cli import (
    batches,
    change_sets,
    connectors,
    dead_letters,
    groups,
    ladder,
    reprocess,
    roles,
    store,
)
from triage_app.cli.support import (
    Parser,
    Subparsers,
    UsageError,
    command,
    for_terminal,
    pause_collector,
    start_up_done,
    start_up_over,
)

# The order `triage-app --help` lists the commands in (and a usage error names them in):
# the everyday run first, then the steward's work on the rows, then the team's tools.
COMMANDS = (
    "run",
    "list",
    "show",
    "edit",
    "park",
    "discard",
    "reopen",
    "reclassify",
    "note",
    "fix",
    "changesets",
    "revert",
    "groups",
    "group",
    "redrive",
    "retry-due",
    "ladder",
    "reprocess",
    "import",
    "connectors",
    "transforms",
    "stats",
    "demo",
    "reconcile",
    "sources",
    "give-source",
    "verify-idempotent",
    "report",
    "purge",
    "audit",
    "masks",
    "migrate",
    "roles",
    "gui",
)


def build_parser() -> argparse.ArgumentParser:
    from triage_app.core.messages import _

    p = Parser(
        prog="triage-app",
        description=_(
            "Triage Desk: run nightly batches, quarantine the rows that fail, fix them and "
            "re-drive them. With no command, opens the window."
        ),
    )
    p.add_argument(
        "--version",
        action="version",
        version=f"triage-app {__version__}",
        help=_("show program's version number and exit"),
    )
    p.add_argument(
        "--workspace",
        metavar="DIR",
        help=_(
            "workspace folder (env TRIAGE_WORKSPACE; default: the workspace in your data "
            "folder, which every command and the window use when none is named)"
        ),
    )
    p.add_argument(
        "--warehouse",
        metavar="URL",
        help=_("warehouse SQLAlchemy URL (env TRIAGE_WAREHOUSE_URL)"),
    )
    p.add_argument(
        "--dead-letter",
        metavar="URL",
        help=_("dead-letter store SQLAlchemy URL (env TRIAGE_DEAD_LETTER_URL)"),
    )
    p.add_argument(
        "--json", action="store_true", help=_("print JSON (before or after the command)")
    )
    p.add_argument(
        "--lang",
        metavar="LANG",
        help=_("the language to speak: en or id (env TRIAGE_LANG; default: the system's locale)"),
    )
    p.add_argument(
        "--self-test",
        action="store_true",
        help=_(
            "check this installation (drivers, transforms, migrations, the window, charts) "
            "in a temporary workspace, one line per check, and exit"
        ),
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for family in (
        batches,
        dead_letters,
        change_sets,
        groups,
        ladder,
        reprocess,
        connectors,
        store,
        roles,
    ):
        family.add_commands(sub)
    command(sub, "gui", cmd_gui, _("open the window"), opens_workspace=False)
    _list_in_order(sub, COMMANDS)
    return p


def _list_in_order(sub: Subparsers, order: Sequence[str]) -> None:
    """The commands listed in ``order``, not in the order the families added them. argparse
    lists them as added and has no public way to reorder: the help's list is its private
    ``_choices_actions``, a usage error's the ``choices`` map."""
    assert sorted(sub.choices) == sorted(order), "a command is missing from COMMANDS"
    rank = {name: i for i, name in enumerate(order)}
    parsers = sorted(sub.choices.items(), key=lambda item: rank[item[0]])
    sub.choices.clear()
    sub.choices.update(parsers)
    sub._choices_actions.sort(key=lambda action: rank[action.dest])


def cmd_gui(args: argparse.Namespace) -> int:
    from triage_app.gui.app import run_gui

    return run_gui(args.workspace, warehouse_url=args.warehouse, dead_letter_url=args.dead_letter)


def cmd_self_test(_args: argparse.Namespace) -> int:
    from triage_app.cli.self_test import run_self_test

    return run_self_test()


def main(argv: Sequence[str] | None = None, *, fast_exit: bool = False) -> int:
    """Run one command; its exit code. ``fast_exit`` (the console script) ends the process
    as soon as a command other than the window has done its job and flushed its output."""
    # The engine is imported by the commands, not here: `run` starts hashing its file on a
    # thread first, and the import (SQLAlchemy, a third of a second) overlaps the hash.
    pause_collector()
    try:
        _speak(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(argv)
        if args.self_test:
            args.func, args.opens_workspace = cmd_self_test, False
        elif args.command is None:
            args.func, args.opens_workspace = cmd_gui, False
        if not args.opens_workspace:
            start_up_done()
        code = int(args.func(args))
        if fast_exit and args.func is not cmd_gui:
            _exit_now(code)
        return code
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        from triage_app.core.messages import _

        print(_("triage-app: interrupted; run the same command again to resume"), file=sys.stderr)
        return 130
    except Exception as exc:
        message = _refusal(exc)
        if message is None:
            raise
        # One line, whatever it quotes (a file's name, a row's holder): escaped like stdout.
        print(f"triage-app: {for_terminal(message)}", file=sys.stderr)
        return 2
    finally:
        start_up_over()


def _speak(argv: Sequence[str]) -> None:
    """The language chosen before the parser is built: its help texts are translated as
    they are made. ``--lang`` is read here, ahead of argparse, which checks it again."""
    from triage_app.core import language, messages

    chosen = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            chosen = argv[i + 1]
        elif arg.startswith("--lang="):
            chosen = arg.split("=", 1)[1]
    language.set_explicit(chosen)
    messages.use_language(chosen)


def _exit_now(code: int) -> NoReturn:
    """Skip the interpreter's teardown: unloading SQLAlchemy and friends takes 80 ms that no
    one waits for usefully. By now every database and file the command opened is closed;
    only the standard streams need flushing. The window is left to exit normally, for Qt's
    sake."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to say
            stream.flush()
    os._exit(code)


def entry() -> NoReturn:
    """The ``triage-app`` console script."""
    sys.exit(main(fast_exit=True))


def _refusal(exc: Exception) -> str | None:
    """The one line for a failure the user can act on; None for a bug (it propagates)."""
    from triage_app.core.db import refusal_message

    message = refusal_message(exc)
    name = getattr(exc, "filename", None)
    if message is not None and isinstance(exc, OSError) and isinstance(name, str | bytes):
        # An OSError's own text leaves out the file (strerror): name it, or the line says
        # "No such file or directory" about nothing in particular.
        from triage_app.core.places import printable

        where = printable(os.fsdecode(name))
        if where not in message:
            message = f"{where}: {message}"
    return message
