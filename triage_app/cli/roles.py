"""The command line's roles on a team store (issue 27): ``roles`` lists who holds which,
``roles me`` says this login's and what it may not do, ``roles setup`` (the store
database's owner) makes the roles and what enforces them, ``roles grant USER ROLE`` and
``roles revoke USER`` (a lead) change who holds them. A thin layer over ``core.db``
(roles.py, role_setup.py). On SQLite the OS user is the one steward-lead: it says so."""

from __future__ import annotations

import argparse

from triage_app.cli.support import (
    Subparsers,
    command,
    emit,
    for_terminal,
    masks_refreshed,
    open_workspace_of,
)
from triage_app.core.errors import TriageError
from triage_app.core.messages import _, ngettext

ACTIONS = ("list", "me", "setup", "grant", "revoke")


def _on_sqlite(action: str) -> TriageError:
    """A role command refused on SQLite."""
    return TriageError(
        _(
            "roles {action}: this workspace's store is SQLite, where the OS user is the one "
            "steward-lead; roles are for a team store on PostgreSQL"
        ).format(action=action)
    )


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "roles",
        cmd_roles,
        _(
            "who may do what on a team store: list the roles' members (default), `me`, "
            "`setup` (the database's owner), `grant USER ROLE` and `revoke USER` (a lead)"
        ),
    )
    sp.add_argument(
        "action",
        nargs="?",
        default="list",
        choices=ACTIONS,
        help=_(
            "list (default): the members of each role; me: your role and what it may not "
            "do; setup: create the roles, grants, masked views and checks (run again after "
            "an upgrade); grant USER ROLE; revoke USER"
        ),
    )
    sp.add_argument("words", nargs="*", metavar="ARG", help=_("grant: USER ROLE; revoke: USER"))


def cmd_roles(args: argparse.Namespace) -> int:
    from triage_app.core.db import Act, Role, require

    wanted = {"list": 0, "me": 0, "setup": 0, "grant": 2, "revoke": 1}[args.action]
    if len(args.words) != wanted:
        usage = {"grant": "roles grant USER ROLE", "revoke": "roles revoke USER"}.get(
            args.action, f"roles {args.action}"
        )
        if wanted:
            said = ngettext(
                "roles {action}: takes {n} argument: {usage}",
                "roles {action}: takes {n} arguments: {usage}",
                wanted,
            )
        else:
            said = _("roles {action}: takes no arguments: {usage}")
        raise TriageError(said.format(action=args.action, n=wanted, usage=usage))
    with open_workspace_of(args, create=False) as ws:
        if args.action == "list":
            return _list(args, ws)
        if args.action == "me":
            return _me(args, ws)
        if args.action == "setup":
            return _setup(args, ws)
        if ws.store.dialect.name != "postgresql":
            raise _on_sqlite(args.action)
        require(ws.store, Act.ROLES)
        from triage_app.core.db import forget_role, grant_role, revoke_role

        login = args.words[0]
        if args.action == "grant":
            try:
                role = Role(args.words[1])
            except ValueError:
                raise TriageError(
                    _("roles grant: no role {role}: viewer, steward or lead").format(
                        role=for_terminal(args.words[1])
                    )
                ) from None
            group = grant_role(ws.store, login, role)
            said = _("{login} is now {role} on this store ({group})").format(
                login=login, role=role.value, group=group
            )
            data = {"login": login, "role": role.value, "group": group}
        else:
            group = revoke_role(ws.store, login)
            said = _("{login} holds no role on this store now (was {group})").format(
                login=login, group=group
            )
            data = {"login": login, "role": None, "was": group}
        forget_role(ws.store)
    emit(data, args.json, lambda: for_terminal(said))
    return 0


def _list(args: argparse.Namespace, ws: object) -> int:
    from triage_app.core.db import members

    m = members(ws.store)  # type: ignore[attr-defined]

    def text() -> str:
        lines = [
            f"{r}: {', '.join(map(for_terminal, who)) or _('nobody')}"
            for r, who in m.by_role.items()
        ]
        lines.append(
            _("you ({login}): {role}").format(login=for_terminal(m.you), role=m.your_role.value)
        )
        if m.note:
            lines.append(m.note)
        return "\n".join(lines)

    emit(m.to_json(), args.json, text)
    return 0


def _me(args: argparse.Namespace, ws: object) -> int:
    from triage_app.core.db import Act, role_of, why_not

    store = ws.store  # type: ignore[attr-defined]
    role = role_of(store)
    refused = [why for act in Act if (why := why_not(role, act)) is not None]
    sqlite = store.dialect.name != "postgresql"
    data = {
        "role": role.value,
        "may_not": [a.value for a in Act if why_not(role, a) is not None],
        "why": refused,
        "store": "sqlite" if sqlite else "postgresql",
    }

    def text() -> str:
        if sqlite:
            head = _("you are the one steward-lead of this SQLite workspace")
        else:
            head = _("you are {role}").format(role=role.value)
        if not refused:
            return _("{head}: you may do everything on this store").format(head=head)
        return "\n".join(
            [_("{head}; you may not:").format(head=head), *(f"  {w}" for w in refused)]
        )

    emit(data, args.json, text)
    return 0


def _setup(args: argparse.Namespace, ws: object) -> int:
    from triage_app.core.db import setup_roles

    if ws.store.dialect.name != "postgresql":  # type: ignore[attr-defined]
        raise _on_sqlite("setup")
    from triage_app.core.deadletters import refresh_masks

    report = setup_roles(ws.store, ws.warehouse)  # type: ignore[attr-defined]
    # A viewer reads the masked copies: rows stored before a transform declared a field
    # (or before schema 0013) get theirs now, before anyone is granted the viewer role.
    masked = refresh_masks(ws)  # type: ignore[arg-type]
    data = {**report.to_json(), "masks_refreshed": masked}
    emit(data, args.json, lambda: f"{report.describe()}\n{masks_refreshed(masked)}")
    return 0
