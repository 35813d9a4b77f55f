"""Who may do what on a store: viewer, steward, lead (issue 27).

On a team store (PostgreSQL) the roles are the database's own: three group roles per store
(``triage_<database>_viewer``, ``_steward``, ``_lead``; the schema after the database when
the store is not in ``public``), whose grants, column privileges, views and triggers
(``role_setup.py``) let each do exactly what its row of ``NEEDS`` says, whatever client
connects. The desk asks which one its login holds only to grey out what the
database would refuse anyway, and to refuse it in one line before trying.

A store whose roles were never set up (and every SQLite workspace: the OS user is the one
steward-lead) gives everyone the lead's rights, as before roles existed.
"""

from __future__ import annotations

import enum
import hashlib
import threading
import weakref

from sqlalchemy import Connection, Engine, text

from triage_app.core.errors import TriageError
from triage_app.core.messages import N_, _


class Role(enum.StrEnum):
    """A person's role on a team store, weakest first."""

    VIEWER = "viewer"  # reads, with personal fields masked
    STEWARD = "steward"  # edits, fixes, re-drives, parks, discards, reveals
    LEAD = "lead"  # and purges, reverts others' change-sets, sets policies, grants roles


ROLES: tuple[str, ...] = tuple(r.value for r in Role)
_RANK = {Role.VIEWER: 0, Role.STEWARD: 1, Role.LEAD: 2}


class Act(enum.StrEnum):
    """What a person may be allowed to do on a store."""

    READ = "read"
    REVEAL = "reveal"  # see a row's personal fields unmasked (audited)
    EDIT = "edit"
    FIX = "fix"  # a change-set over many rows
    REDRIVE = "redrive"  # also the retry ladder's passes
    PARK = "park"
    DISCARD = "discard"
    REOPEN = "reopen"
    RECLASSIFY = "reclassify"
    NOTE = "note"  # notes on rows, an error group's owner, tags and note
    RUN = "run"  # run a batch, import from a connector, reprocess
    REVERT_OWN = "revert_own"  # revert a change-set one applied oneself
    REVERT_OTHERS = "revert_others"
    PURGE = "purge"
    POLICY = "policy"  # the retention policy, the retry ladder
    ROLES = "roles"  # grant and revoke roles


# The weakest role allowed each act.
NEEDS: dict[Act, Role] = {
    Act.READ: Role.VIEWER,
    Act.REVEAL: Role.STEWARD,
    Act.EDIT: Role.STEWARD,
    Act.FIX: Role.STEWARD,
    Act.REDRIVE: Role.STEWARD,
    Act.PARK: Role.STEWARD,
    Act.DISCARD: Role.STEWARD,
    Act.REOPEN: Role.STEWARD,
    Act.RECLASSIFY: Role.STEWARD,
    Act.NOTE: Role.STEWARD,
    Act.RUN: Role.STEWARD,
    Act.REVERT_OWN: Role.STEWARD,
    Act.REVERT_OTHERS: Role.LEAD,
    Act.PURGE: Role.LEAD,
    Act.POLICY: Role.LEAD,
    Act.ROLES: Role.LEAD,
}

# Each act's refusal, one whole sentence: "a {role} may not ... on this store", filled with
# the role that asked and the weakest role that may ({needed}, also in the command).
_REFUSALS: dict[Act, str] = {
    Act.READ: N_(
        "a {role} may not read this store: that needs the {needed} role (a lead grants it: "
        "triage-app roles grant USER {needed})"
    ),
    Act.REVEAL: N_(
        "a {role} may not reveal personal fields on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.EDIT: N_(
        "a {role} may not edit dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.FIX: N_(
        "a {role} may not apply a fix to many rows on this store: that needs the {needed} "
        "role (a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.REDRIVE: N_(
        "a {role} may not re-drive dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.PARK: N_(
        "a {role} may not park dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.DISCARD: N_(
        "a {role} may not discard dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.REOPEN: N_(
        "a {role} may not reopen dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.RECLASSIFY: N_(
        "a {role} may not reclassify dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.NOTE: N_(
        "a {role} may not write notes or change error groups on this store: that needs the "
        "{needed} role (a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.RUN: N_(
        "a {role} may not run batches or imports on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.REVERT_OWN: N_(
        "a {role} may not revert change-sets on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.REVERT_OTHERS: N_(
        "a {role} may not revert another person's change-set on this store: that needs the "
        "{needed} role (a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.PURGE: N_(
        "a {role} may not purge dead letters on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.POLICY: N_(
        "a {role} may not change the store's retention policy or retry ladder on this store: "
        "that needs the {needed} role (a lead grants it: triage-app roles grant USER {needed})"
    ),
    Act.ROLES: N_(
        "a {role} may not grant or revoke roles on this store: that needs the {needed} role "
        "(a lead grants it: triage-app roles grant USER {needed})"
    ),
}


class NotAllowed(TriageError):
    """The role of this login may not do that on this store."""


def may(role: Role, act: Act) -> bool:
    """Whether ``role`` may do ``act``."""
    return _RANK[role] >= _RANK[NEEDS[act]]


def why_not(role: Role, act: Act) -> str | None:
    """One line saying why ``role`` may not do ``act`` (None: it may), for the CLI's refusal
    and the window's greyed-out actions."""
    if may(role, act):
        return None
    return _(_REFUSALS[act]).format(role=role.value, needed=NEEDS[act].value)


def _cut(stem: str, room: int) -> str:
    """``stem`` within ``room`` bytes: a long one cut, with a hash of the whole, so that two
    long names that share a beginning stay apart."""
    raw = stem.encode("utf-8")
    if len(raw) <= room:
        return stem
    digest = hashlib.blake2b(raw, digest_size=4).hexdigest()
    return raw[: room - 9].decode("utf-8", "ignore") + "_" + digest


def group_roles(database: str, schema: str = "public") -> dict[Role, str]:
    """The names of a store's three group roles. Role names are the cluster's, not one
    database's: they name the database, and the schema when the store is not in
    ``public`` (two stores in two schemas of one database have their own teams).
    PostgreSQL keeps names to 63 bytes: a long stem is cut (and hashed) so that the suffix
    always fits."""
    stem = "triage_" + database + ("" if schema == "public" else "_" + schema)
    stem = _cut(stem, 63 - len("_steward"))
    return {role: f"{stem}_{role.value}" for role in Role}


def masked_schema(schema: str) -> str:
    """The schema of the masked views a viewer reads, beside the store's ``schema``:
    ``triage_masked`` for a store in ``public``, ``<schema>_masked`` for another."""
    if schema == "public":
        return "triage_masked"
    return _cut(schema, 63 - len("_masked")) + "_masked"


# The store's schema, as SQL: where its version table is (a viewer's search_path puts the
# masked views' schema first, so current_schema() is not it), else the current schema (a
# store not made yet).
STORE_SCHEMA_SQL = (
    "coalesce((SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE c.oid = to_regclass('alembic_version')), current_schema())"
)

_known: weakref.WeakKeyDictionary[Engine, Role] = weakref.WeakKeyDictionary()
_known_lock = threading.Lock()


def role_of(bind: Engine | Connection) -> Role:
    """The role of the login behind ``bind`` on its store. SQLite, and a PostgreSQL store
    whose roles were never set up: lead. The database's owner, the store's (who owns its
    tables) and a superuser: lead. Otherwise
    the strongest of the store's group roles the login is a member of; a login in none of
    them is a viewer at most (the database refuses it even that). Asked once per engine."""
    engine = bind.engine if isinstance(bind, Connection) else bind
    with _known_lock:
        known = _known.get(engine)
    if known is not None:
        return known
    if engine.dialect.name != "postgresql":
        found = Role.LEAD
    elif isinstance(bind, Connection):
        found = _postgres_role(bind)
    else:
        with engine.connect() as conn:
            found = _postgres_role(conn)
    with _known_lock:
        _known[engine] = found
    return found


def forget_role(engine: Engine) -> None:
    """Ask again next time (after a grant or a revoke on this engine's login)."""
    with _known_lock:
        _known.pop(engine, None)


def _postgres_role(conn: Connection) -> Role:
    place = conn.execute(text(f"SELECT current_database(), {STORE_SCHEMA_SQL}")).one()
    names = group_roles(str(place[0]), str(place[1] or "public"))
    row = conn.execute(
        text(
            "SELECT r.rolsuper"
            " OR pg_has_role(session_user, d.datdba, 'MEMBER')"
            " OR coalesce(pg_has_role(session_user, (SELECT c.relowner FROM pg_class c"
            " WHERE c.oid = to_regclass('alembic_version')), 'MEMBER'), false) AS owner,"
            " EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :lead) AS set_up"
            " FROM pg_roles r, pg_database d"
            " WHERE r.rolname = session_user AND d.datname = current_database()"
        ),
        {"lead": names[Role.LEAD]},
    ).one()
    if row.owner or not row.set_up:
        return Role.LEAD
    for role in (Role.LEAD, Role.STEWARD, Role.VIEWER):
        member = conn.execute(
            text(
                # CASE: pg_has_role fails on a missing role, and AND need not go first.
                "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :name)"
                " THEN pg_has_role(session_user, :name, 'MEMBER') ELSE false END"
            ),
            {"name": names[role]},
        ).scalar_one()
        if member:
            return role
    return Role.VIEWER


def require(bind: Engine | Connection, act: Act) -> None:
    """Refuse ``act`` in one line when this login's role may not do it."""
    reason = why_not(role_of(bind), act)
    if reason is not None:
        raise NotAllowed(reason)


def login_of(bind: Engine | Connection) -> str | None:
    """The database user this login is (PostgreSQL's ``session_user``), None on SQLite."""
    engine = bind.engine if isinstance(bind, Connection) else bind
    if engine.dialect.name != "postgresql":
        return None
    if isinstance(bind, Connection):
        return str(bind.execute(text("SELECT session_user")).scalar_one())
    with engine.connect() as conn:
        return str(conn.execute(text("SELECT session_user")).scalar_one())


def revert_act(bind: Engine | Connection, change_set_id: int) -> Act:
    """Which act reverting ``change_set_id`` is for this login: ``REVERT_OWN`` when the
    database user who applied it (``change_sets.db_user``) is this session's, else
    ``REVERT_OTHERS`` (also for one whose applier is unknown: from before roles, or
    SQLite, where the one user is a lead anyway)."""
    engine = bind.engine if isinstance(bind, Connection) else bind
    if engine.dialect.name != "postgresql":
        return Act.REVERT_OWN
    query = text("SELECT db_user = session_user FROM change_sets WHERE id = :id")
    if isinstance(bind, Connection):
        own = bind.execute(query, {"id": change_set_id}).scalar()
    else:
        with engine.connect() as conn:
            own = conn.execute(query, {"id": change_set_id}).scalar()
    return Act.REVERT_OWN if own else Act.REVERT_OTHERS


def require_revert(bind: Engine | Connection, change_set_id: int) -> None:
    """Refuse in one line a revert this login may not make: another person's change-set
    unless a lead, any change-set for a viewer."""
    act = revert_act(bind, change_set_id)
    reason = why_not(role_of(bind), act)
    if reason is not None:
        raise NotAllowed(_("change-set {id}: {reason}").format(id=change_set_id, reason=reason))
