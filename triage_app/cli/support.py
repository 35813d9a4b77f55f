"""What every command of the CLI shares: the parser that reports usage errors in one line,
how a command is added (``command``), the argparse types of its arguments, how output is
written (a line for people or JSON for scripts), opening the workspace the arguments name,
and the garbage collector paused while the engine is imported. Only the standard library
and orjson at import: the fast paths (``--version``, ``--help``) import this module too.
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
from collections.abc import Callable
from typing import Any, TypeAlias

import orjson

from triage_app.core.locale_format import format_datetime, format_int
from triage_app.core.messages import _, ngettext

JsonValue = Any
Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """Usage errors as one line (exit 2), the way every other refusal is reported."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


# What ``add_subparsers`` returns: each family of commands adds its own to it.
Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


def command(
    subparsers: Subparsers, name: str, fn: Handler, help_: str, *, opens_workspace: bool = True
) -> argparse.ArgumentParser:
    """Add the command ``name``, run by ``fn``; its ``--help`` and the list of commands say
    ``help_``. ``opens_workspace``: ``fn`` opens its workspace through ``open_workspace_of``
    before any long work, which ends the collector's pause (main ends it at once for the
    others: the window, a proof in scratch databases)."""
    sp: argparse.ArgumentParser = subparsers.add_parser(name, help=help_, description=help_)
    # SUPPRESS: not given after the command, it keeps what was given before it.
    sp.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=_("print JSON"))
    sp.set_defaults(func=fn, opens_workspace=opens_workspace)
    return sp


def emit(data: JsonValue, as_json: bool, text: Callable[[], str], more: str | None = None) -> None:
    """``data`` as JSON, or ``text()`` as a terminal shows it. ``more``: what a page left
    over (``more_note``), the text's last line; under ``--json`` on stderr, so that the JSON
    stays the value scripts read (an array for ``list`` and ``audit``)."""
    if as_json:
        try:
            out = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
        except orjson.JSONEncodeError:  # a name that is not UTF-8 (a file's, say) somewhere
            out = orjson.dumps(printable_json(data), option=orjson.OPT_INDENT_2).decode()
        # JSON is read on terminals too: what orjson leaves raw and a terminal acts on (C1
        # controls, DEL, bidi and zero-width marks) as \uNNNN, which decodes to the same.
        sys.stdout.write(_RAW_IN_JSON.sub(_json_escape, out) + "\n")
        if more:
            print(more, file=sys.stderr)
    else:
        # Each line as a terminal shows it and does not act on: a command names its fields
        # from the store through for_terminal (so that a newline in one cannot forge a line),
        # and what one forgets still reaches no terminal raw.
        said = text() if more is None else f"{text()}\n{more}"
        line = "\n".join(map(for_terminal, said.split("\n")))
        try:
            sys.stdout.write(line + "\n")
        except UnicodeEncodeError:  # the same, on a terminal that takes only valid UTF-8
            from triage_app.core.places import printable

            sys.stdout.write(printable(line) + "\n")


def for_terminal(text: str) -> str:
    """Text from the store (a partner's bytes, an error quoting them) as a terminal shows it
    and does not act on: core's one rule for it (``text_input.shown``), loaded when first
    needed like the rest of core."""
    from triage_app.core.text_input import shown

    return shown(text)


# What orjson writes raw (it escapes C0 controls itself) and a terminal acts on: inside JSON
# strings only, as nothing else in JSON text can hold them.
_RAW_IN_JSON = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def _json_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def printable_json(data: JsonValue) -> JsonValue:
    """``data`` with every text made encodable (``places.printable``): names the OS gave
    may hold bytes that are not UTF-8, which JSON cannot carry."""
    from triage_app.core.places import printable

    if isinstance(data, str):
        return printable(data)
    if isinstance(data, dict):
        return {printable(str(k)): printable_json(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [printable_json(v) for v in data]
    return data


def text_argument(path: str, what: str) -> str:
    """The UTF-8 text of the file ``path`` names, or of standard input for ``-`` (as
    ``run -`` reads it): ``edit --payload-file``, ``fix --patch``. A one-line refusal names
    ``what`` ("the payload", "the patch", already in the user's language) when it cannot be
    read."""
    from pathlib import Path

    from triage_app.core.errors import TriageError
    from triage_app.core.places import printable

    if path == "-":
        if sys.stdin.isatty():
            raise TriageError(
                _(
                    "{what} on standard input: it is a terminal; pipe {what} in (e.g. < file)"
                ).format(what=what)
            )
        try:
            return sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError:
            raise TriageError(
                _("{what} on standard input is not UTF-8 text").format(what=what)
            ) from None
    name = printable(path)
    try:
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise TriageError(
            _("cannot read {what} {name}: {reason}").format(
                what=what, name=name, reason=exc.strerror
            )
        ) from None
    except UnicodeDecodeError:
        raise TriageError(
            _("{what} {name} is not UTF-8 text").format(what=what, name=name)
        ) from None


# A signed 64-bit integer: the largest id, LIMIT or OFFSET either database takes.
INT64_MAX = 2**63 - 1


def whole(minimum: int, maximum: int = INT64_MAX) -> Callable[[str], int]:
    """An argparse type: a whole number in ``[minimum, maximum]``; argparse names the
    argument in front of the refusal (``argument --limit: must be at least 1, not -1``).
    The numbers are written as they are typed on a command line, not grouped."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text} is not a whole number").format(text=repr(text))
            ) from None
        if n < minimum:
            raise argparse.ArgumentTypeError(
                _("must be at least {minimum}, not {n}").format(minimum=minimum, n=n)
            )
        if n > maximum:
            raise argparse.ArgumentTypeError(
                _("must be at most {maximum}, not {n}").format(maximum=maximum, n=n)
            )
        return n

    return parse


def share(text: str) -> float:
    """An argparse type for a share between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(
            _("{text} is not a share between 0 and 1 (e.g. 0.2)").format(text=repr(text))
        )
    return value


def rate(text: str) -> float:
    """An argparse type for rows per second: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            _("{text} is not a number of rows a second").format(text=repr(text))
        )
    return value


def dead_letter_id(text: str) -> int:
    """An argparse type for a dead letter's id. One beyond a 64-bit integer names no dead
    letter, and is refused as any other id that names none."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not an id (a whole number)").format(text=repr(text))
        ) from None
    if not 1 <= n <= INT64_MAX:
        from triage_app.core.errors import TriageError

        raise TriageError(_("no dead letter with id {id}").format(id=n))
    return n


def chosen_ids(args: argparse.Namespace, command: str, filters: dict[str, str]) -> list[int]:
    """The dead letters named as positional ``ids`` and by ``--id`` (the older spelling,
    kept), in the order given; refused in one line when none are named and none of
    ``filters`` (option -> its dest) is given, or when ids come with one of them."""
    from triage_app.core.errors import TriageError

    ids = list(dict.fromkeys([*(getattr(args, "ids", None) or []), *(args.id or [])]))
    given = [f for f, dest in filters.items() if getattr(args, dest, None) is not None]
    given = [f for f in given if getattr(args, filters[f]) is not False]
    if ids and given:
        raise TriageError(
            _("{command}: name dead letters by id or by {option}, not both").format(
                command=command, option=given[0]
            )
        )
    if not ids and not given:
        raise TriageError(
            _("{command}: name dead letters by id, or by {options}").format(
                command=command, options=either(list(filters))
            )
        )
    return ids


def either(options: list[str]) -> str:
    """``--a or --b or --c``: options any one of which will do."""
    said = options[0]
    for option in options[1:]:
        said = _("{one} or {other}").format(one=said, other=option)
    return said


def full_ref(ref: str, *, writes: bool = False) -> str:
    """A transform as ``NAME@VERSION``. A command that writes the warehouse through a bare
    name is refused, naming the versions: which one loads is the steward's choice, never
    whichever happens to be newest. A read (a dry run, a try, a proof in scratch databases)
    means the newest version; it is said on stderr here, for logs, and the command's own
    output (stdout) names the version it used."""
    if "@" in ref:
        return ref
    from triage_app.core.transforms import default_registry

    registry = default_registry()
    newest = registry.newest(ref)  # an unknown name: refused in one line, naming the known
    if writes:
        from triage_app.core.errors import TriageError

        versions = ", ".join(t.ref for t in registry.all() if t.name == newest.name)
        raise TriageError(
            _("--transform {ref}: say which version: {versions}").format(ref=ref, versions=versions)
        )
    print(
        _("triage-app: {ref} means {newest}, the newest version").format(
            ref=ref, newest=newest.ref
        ),
        file=sys.stderr,
    )
    return newest.ref


def more_note(more: int, next_offset: int, *, json: bool = False) -> str:
    """What a full page leaves out: the table's last line, or with ``--json`` a line on
    stderr (stdout stays the JSON array that scripts read). The offset is written as it is
    typed."""
    if json:
        return _("triage-app: {n} more match: --offset {offset} for the next page").format(
            n=format_int(more), offset=next_offset
        )
    return _("… and {n} more: --offset {offset} for the next page").format(
        n=format_int(more), offset=next_offset
    )


def masks_refreshed(rows: int) -> str:
    """``migrate``'s and ``roles setup``'s last line: the rows whose masked copies were made."""
    return ngettext(
        "masked copies refreshed: {n} row", "masked copies refreshed: {n} rows", rows
    ).format(n=format_int(rows))


def when(moment: Any) -> str:
    """A stored time for people, as the language writes it, to the second (UTC, as stored):
    ``30 Nov 2026 14:05:09`` / ``30 Nov 2026 14.05.09``. ``moment``: a datetime, or an
    ``iso()`` text (``2026-11-30T14:05:09Z``); "" for none."""
    import datetime as dt

    if moment is None or moment == "":
        return ""
    if isinstance(moment, str):
        moment = dt.datetime.fromisoformat(moment.removesuffix("Z"))
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC).replace(tzinfo=None)
    return format_datetime(moment, seconds=True)


def open_workspace_of(  # type: ignore[no-untyped-def]
    args: argparse.Namespace,
    *,
    create: bool = True,
    act: Any = None,
    warehouse_optional: bool = False,
):
    """The workspace; ``create=False`` for the commands that only read: a workspace that is
    not there is refused ("no workspace at ..."), never made. ``act``: what the command is
    about to do, a ``core.db.Act`` by its value (``"edit"``), refused in one line (exit 2)
    before anything is written when this login's role on a team store may not do it."""
    from triage_app.core.db import NoWorkspace, open_workspace, require
    from triage_app.core.errors import TriageError

    try:
        ws = open_workspace(
            args.workspace,
            warehouse_url=args.warehouse,
            dead_letter_url=args.dead_letter,
            create=create,
            warehouse_optional=warehouse_optional,
        )
    except NoWorkspace as exc:
        raise TriageError(f"{exc}; {how_to_make(args, exc.folder)}") from None
    if act is not None:
        from triage_app.core.db import Act

        try:
            require(ws.store, Act(act))
        except BaseException:
            ws.close()
            raise
    if ws.schema_change is not None and ws.schema_change.before is not None:
        # Upgraded as it opened (SQLite): rows from before masking get their masked copies.
        from triage_app.core.deadletters import refresh_after_upgrade

        try:
            refresh_after_upgrade(ws)
        except BaseException:
            ws.close()
            raise
    start_up_done()  # the engine is imported and the workspace open: the work begins
    return ws


def workspace_args(args: argparse.Namespace, folder: Any) -> str:
    """The options that name ``folder`` on a command line: none for the default
    workspace, ``--workspace FOLDER`` (quoted for a shell) otherwise."""
    import shlex

    from triage_app.core.places import default_workspace_dir, printable

    named = args.workspace or None
    if named is None and str(folder) == str(default_workspace_dir().resolve()):
        return ""
    return f" --workspace {shlex.quote(printable(folder))}"


def how_to_make(args: argparse.Namespace, folder: Any) -> str:
    """How to make a workspace at ``folder``: the demo, or a first batch."""
    where = workspace_args(args, folder)
    return _(
        "make one with: triage-app{where} demo; or load a file: "
        "triage-app{where} run FILE --transform NAME@VERSION"
    ).format(where=where)


# The cyclic garbage collector during start-up: "paused" by main, "frozen" once the
# command is under way, None when main left it alone (a caller had stopped it).
_collector: str | None = None


def pause_collector() -> None:
    """Importing the engine makes some 300,000 objects and next to no garbage: the collector
    going over them again and again is a sixth of the import time. It is paused until the
    command's workspace is open (open_workspace_of), or the command starts for those that open none
    that way (the window, verify-idempotent, migrate)."""
    global _collector
    if gc.isenabled():
        gc.disable()
        _collector = "paused"


def start_up_done() -> None:
    """The collector back on, with what start-up made frozen: it lives as long as the
    process, and a collection that went over it again would cost what the pause saved."""
    global _collector
    if _collector == "paused":
        gc.freeze()
        gc.enable()
        _collector = "frozen"


def start_up_over() -> None:
    """Main is done: the collector as main found it (in a process that goes on: tests)."""
    global _collector
    start_up_done()
    if _collector == "frozen":
        gc.unfreeze()
    _collector = None


def add_row_filter(
    target: Any,
    *,
    status_help: str,
    status_default: str | None = None,
    class_flag: str = "--class",
    class_help: str | None = None,
) -> None:
    """The filter of every command that picks dead letters by what they are (``list``, the
    row actions, ``fix``): class, status, batch, search. ``target``: a parser or a group.
    ``status_help``, ``class_help``: in the user's language already."""
    from triage_app.core.vocabulary import CLASSES, STATUS_FILTERS

    target.add_argument(
        class_flag,
        dest="error_class",
        choices=CLASSES,
        help=_("only this class") if class_help is None else class_help,
    )
    target.add_argument(
        "--status", default=status_default, choices=STATUS_FILTERS, help=status_help
    )
    target.add_argument("--batch", metavar="ID", help=_("only this batch (id or prefix)"))
    target.add_argument("--search", metavar="TEXT", help=_("literal text in the payload or error"))
    target.add_argument(
        "--source",
        metavar="NAME",
        help=_(
            "only the rows imported from this connector (`connectors` lists them), or "
            "`files`: the desk's own batches"
        ),
    )


def row_filter(args: argparse.Namespace, *, status: str, **more: Any) -> Any:
    """The ``DeadLetterFilter`` of ``add_row_filter``'s flags, in ``status`` (the command's
    default when none was given), narrowed by ``more`` (owner, tag, signature)."""
    from triage_app.core.deadletters import DeadLetterFilter

    return DeadLetterFilter(
        status=status,
        error_class=args.error_class,
        batch_id=args.batch,
        search=args.search,
        source=getattr(args, "source", None),
        **more,
    )
