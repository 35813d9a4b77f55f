"""argparse's own words, marked for the command line's catalogue (``resources/locale/*/cli.po``).

argparse looks its words up through the names it imported from gettext when it was loaded;
``core/messages.py`` points them at our catalogue (``_route_argparse``), so "usage: ",
"options" and its usage errors are said in the user's language once the catalogue has them.
They are listed here, exactly as argparse spells them, only so that
``scripts/catalogues.py update`` extracts them: nothing imports this module.

The texts are those of CPython 3.11's ``Lib/argparse.py`` that a user can meet (the help's
headings, the usage errors), and those newer versions added (3.12's later releases and
3.13: the version flag's help, warnings, deprecations, the default's note). argparse's
``%``-placeholders (``%s``, ``%r``, ``%(name)s``) are kept as they are: argparse fills them
after the lookup. Left out: the errors that only a programming mistake raises (a conflicting
option string, ``dest=`` missing, a type that is not callable), which a user never sees.
"""

from __future__ import annotations

from triage_app.core.messages import N_, ngettext

# The help: its headings and the -h flag.
N_("usage: ")
N_("positional arguments")
N_("options")
N_("show this help message and exit")
N_("show program's version number and exit")  # 3.13 looks it up; 3.11 does not
N_("subcommands")  # 3.13
N_("%(heading)s:")  # 3.13
N_(" (default: %(default)s)")  # 3.13: ArgumentDefaultsHelpFormatter

# Usage errors, and the line that reports them (ours is Parser.error's, in support.py).
N_("%(prog)s: error: %(message)s\n")
N_("%(prog)s: warning: %(message)s\n")  # 3.13
N_("argument %(argument_name)s: %(message)s")
N_("unknown parser %(parser_name)r (choices: %(choices)s)")
N_("can't open '%(filename)s': %(error)s")
N_("unrecognized arguments: %s")
N_("not allowed with argument %s")
N_("ignored explicit argument %r")
N_("the following arguments are required: %s")
N_("one of the arguments %s is required")
N_("expected one argument")
N_("expected at most one argument")
N_("expected at least one argument")
ngettext("expected %s argument", "expected %s arguments", 2)
N_("ambiguous option: %(option)s could match %(matches)s")
N_("unexpected option string: %s")
N_("invalid %(type)s value: %(value)r")
N_("invalid choice: %(value)r (choose from %(choices)s)")
N_("command '%(parser_name)s' is deprecated")  # 3.13
N_("option '%(option)s' is deprecated")  # 3.13
N_("argument '%(argument_name)s' is deprecated")  # 3.13
