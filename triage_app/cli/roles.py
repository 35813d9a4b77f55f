"""The command line's roles on a team store (issue 27): ``roles`` lists who holds which,
``roles me`` says this login's and what it may not do, ``roles setup`` (the store
database's owner) makes the roles and what enforces them, ``roles grant USER ROLE`` and
``roles revoke USER`` (a lead) change who holds them. A thin layer over ``core.db``
(roles.py, role_setup.py). On SQLite the OS user is the one steward-lead: it says so."""

from __future__ import annotations

import argparse

from triage_app.cli.support import Subparsers, command, emit, for_terminal, open_workspace_of
from triage_app.core.errors import TriageError

ACTIONS = ("list", "me", "setup", "grant", "revoke")


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "roles",
        cmd_roles,
        "who may do what on a team store: list the roles' members (default), `me`, "
        "`setup` (the database's owner), `grant USER ROLE` and `revoke USER` (a lead)",
    )
    sp.add_argument(
        "action",
        nargs="?",
        default="list",
        choices=ACTIONS,
        help="list (default): the members of each role; me: your role and what it may not "
        "do; setup: create the roles, grants, masked views and checks (run again after an "
        "upgrade); grant USER ROLE; revoke USER",
    )
    sp.add_argument("words", nargs="*", metavar="ARG", help="grant: USER ROLE; revoke: USER")


def cmd_roles(args: argparse.Namespace) -> int:
    from triage_app.core.db import Act, Role, require

    wanted = {"list": 0, "me": 0, "setup": 0, "grant": 2, "revoke": 1}[args.action]
    if len(args.words) != wanted:
        usage = {"grant": "roles grant USER ROLE", "revoke": "roles revoke USER"}.get(
            args.action, f"roles {args.action}"
        )
        raise TriageError(f"roles {args.action}: takes {wanted or 'no'} arguments: {usage}")
    with open_workspace_of(args, create=False) as ws:
        if args.action == "list":
            return _list(args, ws)
        if args.action == "me":
            return _me(args, ws)
        if args.action == "setup":
            return _setup(args, ws)
        if ws.store.dialect.name != "postgresql":
            raise TriageError(
                f"roles {args.action}: this workspace's store is SQLite, where the OS user is "
                "the one steward-lead; roles are for a team store on PostgreSQL"
            )
        require(ws.store, Act.ROLES)
        from triage_app.core.db import forget_role, grant_role, revoke_role

        login = args.words[0]
        if args.action == "grant":
            try:
                role = Role(args.words[1])
            except ValueError:
                raise TriageError(
                    f"roles grant: no role {for_terminal(args.words[1])}: viewer, steward or lead"
                ) from None
            group = grant_role(ws.store, login, role)
            said = f"{login} is now {role.value} on this store ({group})"
            data = {"login": login, "role": role.value, "group": group}
        else:
            group = revoke_role(ws.store, login)
            said = f"{login} holds no role on this store now (was {group})"
            data = {"login": login, "role": None, "was": group}
        forget_role(ws.store)
    emit(data, args.json, lambda: for_terminal(said))
    return 0


def _list(args: argparse.Namespace, ws: object) -> int:
    from triage_app.core.db import members

    m = members(ws.store)  # type: ignore[attr-defined]

    def text() -> str:
        lines = [
            f"{r}: {', '.join(map(for_terminal, who)) or 'nobody'}" for r, who in m.by_role.items()
        ]
        lines.append(f"you ({for_terminal(m.you)}): {m.your_role.value}")
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
        head = (
            f"you are {'the one steward-lead of this SQLite workspace' if sqlite else role.value}"
        )
        if not refused:
            return f"{head}: you may do everything on this store"
        return "\n".join([f"{head}; you may not:", *(f"  {w}" for w in refused)])

    emit(data, args.json, text)
    return 0


def _setup(args: argparse.Namespace, ws: object) -> int:
    from triage_app.core.db import setup_roles

    if ws.store.dialect.name != "postgresql":  # type: ignore[attr-defined]
        raise TriageError(
            "roles setup: this workspace's store is SQLite, where the OS user is the one "
            "steward-lead; roles are for a team store on PostgreSQL"
        )
    from triage_app.core.deadletters import refresh_masks

    report = setup_roles(ws.store, ws.warehouse)  # type: ignore[attr-defined]
    # A viewer reads the masked copies: rows stored before a transform declared a field
    # (or before schema 0013) get theirs now, before anyone is granted the viewer role.
    masked = refresh_masks(ws)  # type: ignore[arg-type]
    data = {**report.to_json(), "masks_refreshed": masked}
    emit(data, args.json, lambda: f"{report.describe()}\nmasked copies refreshed: {masked:,} rows")
    return 0
