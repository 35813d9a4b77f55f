"""The command line's team backlog (issue 13): ``groups`` lists the error groups with their
counts, the age of their oldest open row, owner, tags and note; ``group`` assigns, tags or
notes one. A thin layer over ``core.deadletters`` (groups.py)."""

from __future__ import annotations

import argparse
from typing import Any

from triage_app.cli.support import Subparsers, command, emit, for_terminal, open_workspace_of, whole
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _
from triage_app.core.vocabulary import GROUP_SORTS, NOBODY

# An error group's trend as the table says it (``--json`` keeps the key).
TRENDS = {
    "growing": N_("growing"),
    "steady": N_("steady"),
    "slowing": N_("slowing"),
    "stopped": N_("stopped"),
    "quiet": N_("quiet"),
}
# The table's column heads.
HEADS = (
    N_("open"),
    N_("all"),
    N_("oldest"),
    N_("24 h"),
    N_("trend"),
    N_("owner"),
    N_("class"),
    N_("signature  [tags]"),
)


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "groups",
        cmd_groups,
        _("list the error groups: counts, the oldest open row's age, owner, tags and note"),
    )
    who = sp.add_mutually_exclusive_group()
    who.add_argument("--owner", metavar="NAME", help=_("only the groups NAME owns"))
    who.add_argument(
        "--unowned",
        dest="owner",
        action="store_const",
        const=NOBODY,
        help=_("only unowned groups"),
    )
    sp.add_argument("--tag", metavar="TAG", help=_("only the groups tagged TAG"))
    sp.add_argument(
        "--sort",
        choices=GROUP_SORTS,
        default="open",
        help=_(
            "most open first (default), oldest open row first, largest, by owner, or the "
            "most new rows in 24 h first"
        ),
    )

    sp = command(subparsers, "group", cmd_group, _("assign, tag or note an error group (audited)"))
    sp.add_argument(
        "signature", metavar="SIGNATURE", help=_("the group's signature, as groups lists it")
    )
    owner = sp.add_mutually_exclusive_group()
    owner.add_argument("--owner", metavar="NAME", help=_("who works on it"))
    owner.add_argument("--no-owner", action="store_true", help=_("nobody works on it any more"))
    sp.add_argument("--tag", action="append", default=[], metavar="TAG", help=_("add a tag"))
    sp.add_argument("--untag", action="append", default=[], metavar="TAG", help=_("remove a tag"))
    sp.add_argument("--note", metavar="TEXT", help=_("the group's note (empty: none)"))
    sp.add_argument(
        "--if-version",
        type=whole(0, 2**31 - 1),
        metavar="N",
        help=_("only if the group is still at version N (groups --json gives it)"),
    )


def _waited(g: Any, now: Any) -> str:
    """How long its oldest open row has waited, to the unit that matters: ``3 d``, ``5 h``,
    ``12 min`` (in the user's language)."""
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
            return _("no error groups match")
        heads = [_(h) for h in HEADS]
        unowned = _("unowned")
        # Each column as wide as its head (or "unowned") in the user's language, at least.
        o, a, w, d, tr, ow, c = (
            max(width, len(h)) for width, h in zip((7, 7, 7, 6, 8, 12, 9), heads[:7], strict=True)
        )
        ow = max(ow, len(unowned))
        lines = [
            f"{heads[0]:>{o}} {heads[1]:>{a}} {heads[2]:>{w}} {heads[3]:>{d}} {heads[4]:{tr}} "
            f"{heads[5]:{ow}} {heads[6]:{c}} {heads[7]}"
        ]
        t = for_terminal  # owners, tags and notes are the team's text; signatures a partner's
        indent = " " * (o + a + w + 3)  # under the last 24 h
        for g in groups:
            tags = f"  [{t(', '.join(g.tags))}]" if g.tags else ""
            owner = t(g.owner)[:ow] if g.owner else unowned
            trend = _(TRENDS[g.trend]) if g.trend in TRENDS else g.trend
            lines.append(
                f"{format_int(g.open):>{o}} {format_int(g.count):>{a}} {_waited(g, now):>{w}} "
                f"{'+' + format_int(g.last_24h):>{d}} "
                f"{trend:{tr}} {owner:{ow}} {g.error_class:{c}} {t(g.signature)}{tags}"
            )
            if g.first_seen is not None:
                lines.append(indent + _("first: {said}").format(said=t(g.first_said())))
            if g.note:
                lines.append(indent + _("note: {note}").format(note=t(g.note)))
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
            _("group: say what to change: --owner, --no-owner, --tag, --untag or --note")
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
        tags = t(", ".join(g.tags)) or _("none")
        owner = t(g.owner) if g.owner else _("nobody")
        if g.note:
            said = _(
                "error group {signature} (version {version}): owner {owner}, tags {tags}, "
                "note: {note}"
            )
        else:
            said = _("error group {signature} (version {version}): owner {owner}, tags {tags}")
        return said.format(
            signature=t(g.signature),
            version=g.version,
            owner=owner,
            tags=tags,
            note=t(g.note or ""),
        )

    emit(g.to_json(), args.json, text)
    return 0
