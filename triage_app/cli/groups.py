"""The command line's team backlog (issue 13): ``groups`` lists the error groups with their
counts, the age of their oldest open row, owner, tags and note; ``group`` assigns, tags or
notes one. A thin layer over ``core.deadletters`` (groups.py)."""

from __future__ import annotations

import argparse
from typing import Any

from triage_app.cli.support import Subparsers, command, emit, for_terminal, open_workspace_of, whole
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import GROUP_SORTS, NOBODY


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "groups",
        cmd_groups,
        "list the error groups: counts, the oldest open row's age, owner, tags and note",
    )
    who = sp.add_mutually_exclusive_group()
    who.add_argument("--owner", metavar="NAME", help="only the groups NAME owns")
    who.add_argument(
        "--unowned", dest="owner", action="store_const", const=NOBODY, help="only unowned groups"
    )
    sp.add_argument("--tag", metavar="TAG", help="only the groups tagged TAG")
    sp.add_argument(
        "--sort",
        choices=GROUP_SORTS,
        default="open",
        help="most open first (default), oldest open row first, largest, by owner, or the "
        "most new rows in 24 h first",
    )

    sp = command(subparsers, "group", cmd_group, "assign, tag or note an error group (audited)")
    sp.add_argument(
        "signature", metavar="SIGNATURE", help="the group's signature, as groups lists it"
    )
    owner = sp.add_mutually_exclusive_group()
    owner.add_argument("--owner", metavar="NAME", help="who works on it")
    owner.add_argument("--no-owner", action="store_true", help="nobody works on it any more")
    sp.add_argument("--tag", action="append", default=[], metavar="TAG", help="add a tag")
    sp.add_argument("--untag", action="append", default=[], metavar="TAG", help="remove a tag")
    sp.add_argument("--note", metavar="TEXT", help="the group's note (empty: none)")
    sp.add_argument(
        "--if-version",
        type=whole(0, 2**31 - 1),
        metavar="N",
        help="only if the group is still at version N (groups --json gives it)",
    )


def _waited(g: Any, now: Any) -> str:
    """How long its oldest open row has waited, to the unit that matters ("12 min")."""
    from triage_app.core.clock import waited

    age = g.age(now)
    return "-" if age is None else waited(age)


def cmd_groups(args: argparse.Namespace) -> int:
    from triage_app.core import deadletters as dls
    from triage_app.core.clock import utcnow

    with open_workspace_of(args, create=False) as ws:
        groups = dls.error_groups(ws, owner=args.owner, tag=args.tag, sort=args.sort)
    now = utcnow()

    def text() -> str:
        if not groups:
            return "no error groups match"
        lines = [
            f"{'open':>7} {'all':>7} {'oldest':>7} {'24 h':>6} {'trend':8} {'owner':12} "
            f"{'class':9} signature  [tags]"
        ]
        t = for_terminal  # owners, tags and notes are the team's text; signatures a partner's
        indent = " " * 24  # under the trend
        for g in groups:
            tags = f"  [{t(', '.join(g.tags))}]" if g.tags else ""
            owner = t(g.owner)[:12] if g.owner else "unowned"
            lines.append(
                f"{g.open:>7,} {g.count:>7,} {_waited(g, now):>7} {f'+{g.last_24h:,}':>6} "
                f"{g.trend:8} {owner:12} {g.error_class:9} {t(g.signature)}{tags}"
            )
            if g.first_seen is not None:
                lines.append(f"{indent}first: {t(g.first_said())}")
            if g.note:
                lines.append(f"{indent}note: {t(g.note)}")
        return "\n".join(lines)

    emit([g.to_json(now) for g in groups], args.json, text)
    return 0


def cmd_group(args: argparse.Namespace) -> int:
    from triage_app.core import deadletters as dls

    owner: Any = (
        None if args.no_owner else (args.owner if args.owner is not None else dls.UNCHANGED)
    )
    if owner is dls.UNCHANGED and not (args.tag or args.untag or args.note is not None):
        raise TriageError(
            "group: say what to change: --owner, --no-owner, --tag, --untag or --note"
        )
    with open_workspace_of(args, create=False, act="note") as ws:
        g = dls.set_group(
            ws,
            args.signature,
            owner=owner,
            add_tags=args.tag,
            remove_tags=args.untag,
            note=args.note,
            if_version=args.if_version,
        )

    def text() -> str:
        t = for_terminal
        tags = t(", ".join(g.tags)) or "none"
        return (
            f"error group {t(g.signature)} (version {g.version}): "
            f"owner {t(g.owner or 'nobody')}, tags {tags}"
            + (f", note: {t(g.note)}" if g.note else "")
        )

    emit(g.to_json(), args.json, text)
    return 0
