"""The database's side of the roles (issue 27): the three group roles of a team store, their
grants, the masked views a viewer reads, the triggers that check what a grant cannot say,
and the functions through which a lead grants and revokes.

Everything here is PostgreSQL; a SQLite workspace has one user, the OS's, who may do all.

- ``setup_roles(ws)`` (``triage-app roles setup``, run by the store database's owner or a
  superuser, again after every upgrade): idempotent. It creates the group roles when they
  are missing, revokes what they had on the store's tables and grants it again, remakes the
  views, triggers and functions, and grants the stewards and leads what a re-drive writes
  in a PostgreSQL warehouse.
- ``grant_role`` / ``revoke_role`` call the store's ``triage_roles_grant`` /
  ``triage_roles_revoke``: SECURITY DEFINER functions owned by the setup user, executable
  by the lead group only, which check again that the caller is a lead, change the
  membership and append an audit event in the same transaction.
- ``use_masked_views`` is the store engine's connect hook: a login that may not read the
  raw payloads (a viewer) gets the masked views' schema first on its search_path, so the
  desk's unchanged queries read masked bytes. The database refuses the raw columns either
  way: the hook is for the desk's convenience, not its safety.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, text

from triage_app.core.bilingual import Said, both
from triage_app.core.db.audit import actor_for
from triage_app.core.db.models import metadata
from triage_app.core.db.roles import (
    STORE_SCHEMA_SQL,
    NotAllowed,
    Role,
    forget_role,
    group_roles,
    masked_schema,
    role_of,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.vocabulary import AuditAction

# The store settings only a lead writes: the retention policies and the retry ladder.
POLICY_KEYS = ("retention", "keep_sources_days", "retry_ladder")

# Tables whose rows hold a partner's bytes (payloads, a source's bytes, a row's evidence):
# a viewer reads them through a masked view, or only the columns named here.
MASKED_VIEWS: dict[str, dict[str, str]] = {
    # column -> the expression the view gives for it
    "dead_letters": {
        "original_payload": "COALESCE(masked_original, original_payload)",
        "payload": "CASE WHEN payload IS NULL THEN NULL ELSE COALESCE(masked_payload, payload) END",
    },
    "audit_events": {"replaced_payload": "NULL::bytea"},
    "change_set_rows": {"payload_before": "NULL::bytea", "payload_reverted": "NULL::bytea"},
    "dead_letter_origins": {"evidence": "'{}'::text"},
}
# A viewer reads these columns only: what counts and reconciles, never the bytes.
VIEWER_COLUMNS: dict[str, tuple[str, ...]] = {
    "held_rows": ("batch_id", "line"),
    "source_blobs": ("sha256", "part"),
}
# A steward's deletes: caches, counters, held rows a whole-batch load consumes, settings
# other than the policies (a trigger guards those), kept copies a steward mends. Never a
# dead letter (purge), an event, a change-set or its lines (history).
STEWARD_DELETES = (
    "stats_cache",
    "dead_letter_counts",
    "held_rows",
    "store_settings",
    "kept_sources",
    "source_blobs",
    "error_groups",
)
# What a steward may only read or append to.
STEWARD_APPEND_ONLY = ("audit_events",)
STEWARD_READ_ONLY = ("purges",)


@dataclass(frozen=True)
class SetupReport:
    """What ``setup_roles`` did, for the CLI's line and ``--json``. ``warehouse`` and
    ``notes`` are sentences: in the user's language in ``describe``, in English in
    ``--json``."""

    database: str
    schema: str
    roles: dict[str, str]
    created: tuple[str, ...]
    tables: int
    views: tuple[str, ...]
    warehouse: Said
    notes: tuple[Said, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        roles = ", ".join(f"{r} = {n}" for r, n in self.roles.items())
        if self.created:
            head = _("roles set up on {database}, schema {schema}: {roles} (created {created})")
        else:
            head = _("roles set up on {database}, schema {schema}: {roles}")
        grants = ngettext(
            "grants on {n} table; masked views for viewers in {masked}: {views}",
            "grants on {n} tables; masked views for viewers in {masked}: {views}",
            self.tables,
        )
        lines = [
            head.format(
                database=self.database,
                schema=self.schema,
                roles=roles,
                created=", ".join(self.created),
            ),
            grants.format(
                n=format_int(self.tables),
                masked=masked_schema(self.schema),
                views=", ".join(self.views),
            ),
            _("warehouse: {said}").format(said=self.warehouse),
            *(str(note) for note in self.notes),
        ]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "schema": self.schema,
            "roles": self.roles,
            "created": list(self.created),
            "tables": self.tables,
            "masked_schema": masked_schema(self.schema),
            "views": list(self.views),
            "warehouse": self.warehouse.english,
            "notes": [note.english for note in self.notes],
        }


def _not_postgres(engine: Engine, what: str) -> None:
    if engine.dialect.name != "postgresql":
        said = _(
            "{command}: this workspace's store is SQLite, where the OS user is the one "
            "steward-lead; roles are for a team store on PostgreSQL"
        )
        raise TriageError(said.format(command=what))


def store_place(conn: Connection) -> tuple[str, str]:
    """The store's database and schema (where its tables are)."""
    row = conn.execute(text(f"SELECT current_database(), {STORE_SCHEMA_SQL}")).one()
    if row[1] is None:
        raise TriageError(_("the store's search_path names no schema that exists"))
    return str(row[0]), str(row[1])


def _q(conn: Connection, name: str) -> str:
    return conn.dialect.identifier_preparer.quote_identifier(name)


def _runner(conn: Connection) -> Any:
    """Run one statement of DDL as written: the driver's placeholders (``%``) escaped, for
    PL/pgSQL's own ``%`` in RAISE and format()."""

    def run(sql: str) -> None:
        conn.exec_driver_sql(sql.replace("%", "%%"))

    return run


def _lit(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def setup_roles(store: Engine, warehouse: Engine | None = None) -> SetupReport:
    """Create (or bring up to date) the store's roles and everything that enforces them; see
    the module's docstring. One transaction on the store, one on the warehouse."""
    _not_postgres(store, "roles setup")
    with store.begin() as conn:
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext('triage-desk roles'))")
        database, schema = store_place(conn)
        _may_set_up(conn, schema)
        names = group_roles(database, schema)
        created = _create_groups(conn, names)
        tables = _store_tables(conn, schema)
        _grant_store(conn, schema, names, tables)
        views = _masked_views(conn, schema, names, tables)
        _functions_and_triggers(conn, schema, names)
    forget_role(store)
    wh = both(N_("SQLite: nothing to grant"))
    notes: list[Said] = []
    if warehouse is not None and warehouse.dialect.name == "postgresql":
        wh, notes = _grant_warehouse(warehouse, names)
    return SetupReport(
        database,
        schema,
        {r.value: n for r, n in names.items()},
        tuple(created),
        len(tables),
        tuple(views),
        wh,
        tuple(notes),
    )


def _may_set_up(conn: Connection, schema: str) -> None:
    """A superuser, or the store's owner: who owns its tables (GRANT on a table one does not
    own grants nothing, with a mere warning), may create roles (CREATEROLE) and a schema in
    the database (the masked views'). Else one line saying who may."""
    version = f"{_q(conn, schema)}.alembic_version"
    row = conn.execute(
        text(
            "SELECT r.rolsuper AS super, r.rolcreaterole AS createrole,"
            " has_database_privilege(current_database(), 'CREATE') AS create_schema,"
            " pg_get_userbyid(c.relowner) AS store_owner,"
            " coalesce(pg_has_role(session_user, c.relowner, 'USAGE'), false) AS mine"
            " FROM pg_roles r LEFT JOIN pg_class c ON c.oid = to_regclass(:v)"
            " WHERE r.rolname = session_user"
        ),
        {"v": version},
    ).one()
    if row.super:
        return
    owner = row.store_owner or _("its owner")
    if not row.mine:
        said = _(
            "roles setup must be run by the store's owner ({owner}, who owns its tables) or a "
            "superuser"
        )
        raise NotAllowed(said.format(owner=owner))
    if not row.createrole:
        said = _("roles setup needs CREATEROLE for {owner} (or a superuser)")
        raise NotAllowed(said.format(owner=owner))
    if not row.create_schema:
        raise NotAllowed(
            _(
                "roles setup needs the right to create a schema in this database (the viewers' "
                "masked views): GRANT CREATE ON DATABASE to the store's owner"
            )
        )
    foreign = conn.execute(
        text(
            "SELECT c.relname, pg_get_userbyid(c.relowner) AS owner FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = :s AND c.relkind IN ('r', 'p')"
            " AND NOT pg_has_role(session_user, c.relowner, 'USAGE') LIMIT 1"
        ),
        {"s": schema},
    ).first()
    if foreign is not None:
        said = _(
            "roles setup: the store's table {table} belongs to {owner}: run it as that user or "
            "a superuser"
        )
        raise NotAllowed(said.format(table=foreign.relname, owner=foreign.owner))


def _create_groups(conn: Connection, names: dict[Role, str]) -> list[str]:
    created = []
    for name in names.values():
        there = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name})
        if there.first() is None:
            conn.exec_driver_sql(f"CREATE ROLE {_q(conn, name)} NOLOGIN")
            created.append(name)
    return created


def _store_tables(conn: Connection, schema: str) -> list[str]:
    """The store's tables present in ``schema``: the models' and Alembic's version table."""
    present = set(
        conn.execute(
            text(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = :s AND c.relkind IN ('r', 'p')"
            ),
            {"s": schema},
        ).scalars()
    )
    ours = [t for t in (*metadata.tables, "alembic_version") if t in present]
    if "dead_letters" not in ours:
        said = _("no dead-letter store in schema {schema}: open it once (or run migrate) first")
        raise TriageError(said.format(schema=schema))
    return ours


def _grant_store(conn: Connection, schema: str, names: dict[Role, str], tables: list[str]) -> None:
    s = _q(conn, schema)
    v, st, ld = (_q(conn, names[r]) for r in (Role.VIEWER, Role.STEWARD, Role.LEAD))
    ex = _runner(conn)
    ex(f"GRANT USAGE ON SCHEMA {s} TO {v}, {st}, {ld}")
    ex(f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {v}, {st}, {ld}")
    ex(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {v}, {st}, {ld}")
    for table in tables:
        t = f"{s}.{_q(conn, table)}"
        if table in VIEWER_COLUMNS:
            cols = ", ".join(_q(conn, c) for c in VIEWER_COLUMNS[table])
            ex(f"GRANT SELECT ({cols}) ON {t} TO {v}")
        elif table not in MASKED_VIEWS:
            ex(f"GRANT SELECT ON {t} TO {v}")
        if table in STEWARD_READ_ONLY:
            ex(f"GRANT SELECT ON {t} TO {st}")
        elif table in STEWARD_APPEND_ONLY:
            ex(f"GRANT SELECT, INSERT ON {t} TO {st}")
        else:
            ex(f"GRANT SELECT, INSERT, UPDATE ON {t} TO {st}")
        if table in STEWARD_DELETES:
            ex(f"GRANT DELETE ON {t} TO {st}")
        ex(f"GRANT ALL ON {t} TO {ld}")
    ex(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {s} TO {st}, {ld}")
    # Tables a later revision adds (made by whoever migrates: the setup user, as a rule):
    # the stewards and leads may work with them at once; the viewers get nothing until
    # setup runs again and decides what of them is safe to read.
    ex(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT, INSERT, UPDATE ON TABLES TO {st}")
    ex(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT ALL ON TABLES TO {ld}")
    ex(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT USAGE, SELECT ON SEQUENCES TO {st}, {ld}")


def _columns(conn: Connection, schema: str, table: str) -> list[str]:
    return list(
        conn.execute(
            text(
                "SELECT a.attname FROM pg_attribute a"
                " WHERE a.attrelid = to_regclass(:t) AND a.attnum > 0 AND NOT a.attisdropped"
                " ORDER BY a.attnum"
            ),
            {"t": f"{_q(conn, schema)}.{_q(conn, table)}"},
        ).scalars()
    )


def _masked_views(
    conn: Connection, schema: str, names: dict[Role, str], tables: list[str]
) -> list[str]:
    """The viewer's schema of views named like the tables whose rows hold a partner's bytes,
    those bytes masked or left out; owned by the setup user, readable by viewers only. Not
    security barriers: they filter no rows, and a condition the planner pushes into one
    reads its masked expression, so the barrier would only cost the pages their index."""
    m = _q(conn, masked_schema(schema))
    v = _q(conn, names[Role.VIEWER])
    ex = _runner(conn)
    ex(f"CREATE SCHEMA IF NOT EXISTS {m}")
    ex(f"REVOKE ALL ON SCHEMA {m} FROM PUBLIC")
    ex(f"GRANT USAGE ON SCHEMA {m} TO {v}")
    made = []
    for table, masked in MASKED_VIEWS.items():
        if table not in tables:
            continue
        shown = [
            f"{masked[c]} AS {_q(conn, c)}" if c in masked else _q(conn, c)
            for c in _columns(conn, schema, table)
        ]
        view = f"{m}.{_q(conn, table)}"
        ex(f"DROP VIEW IF EXISTS {view}")
        ex(
            f"CREATE VIEW {view} AS SELECT {', '.join(shown)} "
            f"FROM {_q(conn, schema)}.{_q(conn, table)}"
        )
        ex(f"GRANT SELECT ON {view} TO {v}")
        made.append(table)
    return made


def drop_masked_views(conn: Connection) -> bool:
    """Before an upgrade changes the tables the views read: drop them (True when there were
    any; ``setup_roles`` makes them again)."""
    if conn.dialect.name != "postgresql":
        return False
    _database, schema = store_place(conn)
    name = masked_schema(schema)
    there = conn.execute(text("SELECT 1 FROM pg_namespace WHERE nspname = :n"), {"n": name})
    if there.first() is None:
        return False
    for table in MASKED_VIEWS:
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {_q(conn, name)}.{_q(conn, table)}")
    return True


def remake_masked_views(conn: Connection) -> None:
    """After an upgrade dropped them: the views again, over the upgraded tables."""
    database, schema = store_place(conn)
    names = group_roles(database, schema)
    _masked_views(conn, schema, names, _store_tables(conn, schema))


def _functions_and_triggers(conn: Connection, schema: str, names: dict[Role, str]) -> None:
    s = _q(conn, schema)
    schema_q_version = f"{s}.alembic_version"
    lead, steward, viewer = (_lit(names[r]) for r in (Role.LEAD, Role.STEWARD, Role.VIEWER))
    policy = ", ".join(_lit(k) for k in POLICY_KEYS)
    ex = _runner(conn)
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_is_lead() RETURNS boolean
        LANGUAGE sql STABLE AS $f$
          SELECT r.rolsuper OR pg_has_role(session_user, d.datdba, 'MEMBER')
                 OR pg_has_role(session_user, (SELECT c.relowner FROM pg_class c
                    WHERE c.oid = {_lit(schema_q_version)}::regclass), 'MEMBER')
                 OR pg_has_role(session_user, {lead}, 'MEMBER')
          FROM pg_roles r, pg_database d
          WHERE r.rolname = session_user AND d.datname = current_database()
        $f$"""
    )
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_may_revert(cs_id bigint, owner text)
        RETURNS void LANGUAGE plpgsql AS $f$
        BEGIN
          IF owner IS DISTINCT FROM session_user AND NOT {s}.triage_is_lead() THEN
            RAISE EXCEPTION 'change-set % was applied by %, not by %: only a lead reverts '
              'another person''s change-set', cs_id, coalesce(owner, 'an unknown user'),
              session_user USING ERRCODE = 'insufficient_privilege';
          END IF;
        END $f$"""
    )
    # change_sets: db_user is who applied it, whatever the client sent; marking it
    # reverted is checked like a revert.
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_change_set_owner() RETURNS trigger
        LANGUAGE plpgsql AS $f$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            NEW.db_user := session_user;
            RETURN NEW;
          END IF;
          NEW.db_user := OLD.db_user;
          IF NEW.reverted_at IS DISTINCT FROM OLD.reverted_at
             OR NEW.reverted_by IS DISTINCT FROM OLD.reverted_by THEN
            PERFORM {s}.triage_may_revert(OLD.id, OLD.db_user);
          END IF;
          RETURN NEW;
        END $f$"""
    )
    # A revert run, and a line's revert: only of one's own change-set, unless a lead.
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_revert_guard() RETURNS trigger
        LANGUAGE plpgsql AS $f$
        DECLARE owner text;
        BEGIN
          SELECT db_user INTO owner FROM {s}.change_sets WHERE id = NEW.change_set_id;
          PERFORM {s}.triage_may_revert(NEW.change_set_id, owner);
          RETURN NEW;
        END $f$"""
    )
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_policy_guard() RETURNS trigger
        LANGUAGE plpgsql AS $f$
        DECLARE k text;
        BEGIN
          IF TG_OP = 'DELETE' THEN k := OLD.key; ELSE k := NEW.key; END IF;
          IF (k IN ({policy}) OR (TG_OP = 'UPDATE' AND OLD.key IN ({policy})))
             AND NOT {s}.triage_is_lead() THEN
            RAISE EXCEPTION 'only a lead may change the store''s % setting (% is not one)',
              k, session_user USING ERRCODE = 'insufficient_privilege';
          END IF;
          IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
          RETURN NEW;
        END $f$"""
    )
    triggers = (
        ("triage_change_set_owner", "change_sets", "BEFORE INSERT OR UPDATE", "", "owner"),
        ("triage_revert_guard", "change_set_reverts", "BEFORE INSERT OR UPDATE", "", "revert"),
        (
            "triage_revert_guard",
            "change_set_rows",
            "BEFORE UPDATE",
            " WHEN (OLD.reverted_in IS DISTINCT FROM NEW.reverted_in"
            " OR OLD.payload_reverted IS DISTINCT FROM NEW.payload_reverted"
            " OR OLD.change_set_id IS DISTINCT FROM NEW.change_set_id)",
            "revert",
        ),
        ("triage_policy_guard", "store_settings", "BEFORE INSERT OR UPDATE OR DELETE", "", "p"),
    )
    for fn, table, when, condition, _kind in triggers:
        t = f"{s}.{_q(conn, table)}"
        ex(f"DROP TRIGGER IF EXISTS {fn} ON {t}")
        ex(f"CREATE TRIGGER {fn} {when} ON {t} FOR EACH ROW{condition} EXECUTE FUNCTION {s}.{fn}()")
    groups = f"ARRAY[{viewer}, {steward}, {lead}]"
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_roles_grant(login text, wanted text,
          actor text) RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = {s}, pg_temp AS $f$
        DECLARE
          target text;
          g text;
          who text;
        BEGIN
          IF NOT {s}.triage_is_lead() THEN
            RAISE EXCEPTION '% is not a lead of this store: only a lead grants roles',
              session_user USING ERRCODE = 'insufficient_privilege';
          END IF;
          target := CASE wanted WHEN 'viewer' THEN {viewer} WHEN 'steward' THEN {steward}
                    WHEN 'lead' THEN {lead} END;
          IF target IS NULL THEN
            RAISE EXCEPTION 'no role %: viewer, steward or lead', wanted
              USING ERRCODE = 'TDR01';
          END IF;
          IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login AND rolcanlogin) THEN
            RAISE EXCEPTION 'no login named % on this server: create it first (CREATE ROLE % '
              'LOGIN)', login, login USING ERRCODE = 'TDR01';
          END IF;
          FOREACH g IN ARRAY {groups} LOOP
            IF g <> target AND EXISTS (
                SELECT 1 FROM pg_auth_members m
                JOIN pg_roles r ON r.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
                WHERE r.rolname = g AND u.rolname = login) THEN
              EXECUTE format('REVOKE %I FROM %I', g, login);
            END IF;
          END LOOP;
          EXECUTE format('GRANT %I TO %I', target, login);
          who := coalesce(nullif(actor, ''), session_user::text);
          IF strpos(who, '(db: ' || session_user || ')') = 0 THEN
            who := who || ' (db: ' || session_user || ')';
          END IF;
          INSERT INTO {s}.audit_events (dead_letter_id, at, actor, action, detail)
          VALUES (NULL, now() AT TIME ZONE 'UTC', left(who, 200),
                  {_lit(AuditAction.ROLE_GRANTED.value)},
                  format('%s is now %s on this store', login, wanted));
          PERFORM pg_notify('triage_changes', current_schema());
          RETURN target;
        END $f$"""
    )
    ex(
        f"""CREATE OR REPLACE FUNCTION {s}.triage_roles_revoke(login text, actor text)
          RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = {s}, pg_temp AS $f$
        DECLARE
          g text;
          had text := NULL;
          who text;
        BEGIN
          IF NOT {s}.triage_is_lead() THEN
            RAISE EXCEPTION '% is not a lead of this store: only a lead revokes roles',
              session_user USING ERRCODE = 'insufficient_privilege';
          END IF;
          FOREACH g IN ARRAY {groups} LOOP
            IF EXISTS (
                SELECT 1 FROM pg_auth_members m
                JOIN pg_roles r ON r.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
                WHERE r.rolname = g AND u.rolname = login) THEN
              EXECUTE format('REVOKE %I FROM %I', g, login);
              had := g;
            END IF;
          END LOOP;
          IF had IS NULL THEN
            RAISE EXCEPTION '% holds no role on this store', login
              USING ERRCODE = 'TDR01';
          END IF;
          who := coalesce(nullif(actor, ''), session_user::text);
          IF strpos(who, '(db: ' || session_user || ')') = 0 THEN
            who := who || ' (db: ' || session_user || ')';
          END IF;
          INSERT INTO {s}.audit_events (dead_letter_id, at, actor, action, detail)
          VALUES (NULL, now() AT TIME ZONE 'UTC', left(who, 200),
                  {_lit(AuditAction.ROLE_REVOKED.value)},
                  format('%s holds no role on this store now (was %s)', login, had));
          PERFORM pg_notify('triage_changes', current_schema());
          RETURN had;
        END $f$"""
    )
    for fn, args in (
        ("triage_roles_grant", "text, text, text"),
        ("triage_roles_revoke", "text, text"),
    ):
        ex(f"REVOKE ALL ON FUNCTION {s}.{fn}({args}) FROM PUBLIC")
        ex(f"GRANT EXECUTE ON FUNCTION {s}.{fn}({args}) TO {_q(conn, names[Role.LEAD])}")


def _grant_warehouse(warehouse: Engine, names: dict[Role, str]) -> tuple[Said, list[Said]]:
    """Stewards and leads write what a re-drive writes (the transforms' tables, any table
    a first batch makes later); viewers get nothing there (its rows are not masked)."""
    notes: list[Said] = []
    with warehouse.begin() as conn:
        database, schema = store_place(conn)
        missing = [
            n
            for n in names.values()
            if conn.execute(text("SELECT to_regrole(:n)"), {"n": n}).scalar() is None
        ]
        if missing:
            elsewhere = N_(
                "{database}, schema {schema}: on another server, whose roles these are not; "
                "grant the stewards and leads there by hand"
            )
            return both(elsewhere, database=database, schema=schema), notes
        s = _q(conn, schema)
        v, st, ld = (_q(conn, names[r]) for r in (Role.VIEWER, Role.STEWARD, Role.LEAD))
        ex = _runner(conn)
        ex(f"GRANT USAGE, CREATE ON SCHEMA {s} TO {st}, {ld}")
        ours = list(
            conn.execute(
                text(
                    "SELECT c.relname, pg_has_role(session_user, c.relowner, 'USAGE') AS mine"
                    " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    " JOIN pg_attribute a ON a.attrelid = c.oid"
                    " WHERE n.nspname = :s AND c.relkind IN ('r', 'p')"
                    " AND a.attname = '_batch_id' AND NOT a.attisdropped ORDER BY 1"
                ),
                {"s": schema},
            )
        )
        superuser = bool(
            conn.execute(
                text("SELECT rolsuper FROM pg_roles WHERE rolname = session_user")
            ).scalar()
        )
        granted = []
        for row in ours:
            if not (row.mine or superuser):
                foreign = N_(
                    "warehouse table {table} belongs to another user: run roles setup as a "
                    "superuser to share it"
                )
                notes.append(both(foreign, table=row.relname))
                continue
            t = f"{s}.{_q(conn, row.relname)}"
            ex(f"REVOKE ALL ON {t} FROM {v}")
            ex(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {t} TO {st}, {ld}")
            granted.append(row.relname)
        ex(
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} "
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {st}, {ld}"
        )
    if not granted:
        none_yet = N_("{database}, schema {schema}: stewards and leads write none yet")
        return both(none_yet, database=database, schema=schema), notes
    written = N_("{database}, schema {schema}: stewards and leads write {tables}")
    return both(written, database=database, schema=schema, tables=", ".join(granted)), notes


# -- membership --------------------------------------------------------------------------
def _set_up(conn: Connection) -> tuple[str, dict[Role, str]]:
    database, schema = store_place(conn)
    names = group_roles(database, schema)
    there = conn.execute(text("SELECT to_regrole(:n)"), {"n": names[Role.LEAD]}).scalar()
    if there is None:
        raise TriageError(
            _("roles are not set up on this store: its owner runs `triage-app roles setup` first")
        )
    return schema, names


def grant_role(store: Engine, login: str, role: Role) -> str:
    """Make ``login`` a ``role`` of this store (its other roles here removed), through the
    store's SECURITY DEFINER function: the database checks the caller is a lead. The group
    role's name."""
    _not_postgres(store, "roles grant")
    with store.begin() as conn:
        schema, _names = _set_up(conn)
        fn = f"{_q(conn, schema)}.triage_roles_grant"
        got = conn.execute(
            text(f"SELECT {fn}(:login, :role, :actor)"),
            {"login": login, "role": role.value, "actor": actor_for(conn)},
        ).scalar_one()
    return str(got)


def revoke_role(store: Engine, login: str) -> str:
    """Take every role of this store from ``login``; the group role it held."""
    _not_postgres(store, "roles revoke")
    with store.begin() as conn:
        schema, _names = _set_up(conn)
        fn = f"{_q(conn, schema)}.triage_roles_revoke"
        got = conn.execute(
            text(f"SELECT {fn}(:login, :actor)"), {"login": login, "actor": actor_for(conn)}
        ).scalar_one()
    return str(got)


@dataclass(frozen=True)
class Members:
    """Who holds which role on a store (PostgreSQL), or the one user of a SQLite one.
    ``remark``: a sentence about them (``note``: in the user's language; ``--json``: English)."""

    set_up: bool
    by_role: dict[str, tuple[str, ...]]
    you: str
    your_role: Role
    remark: Said | None = None

    @property
    def note(self) -> str:
        return "" if self.remark is None else str(self.remark)

    def to_json(self) -> dict[str, Any]:
        return {
            "set_up": self.set_up,
            "members": {r: list(m) for r, m in self.by_role.items()},
            "you": self.you,
            "your_role": self.your_role.value,
            "note": "" if self.remark is None else self.remark.english,
        }


def members(store: Engine) -> Members:
    """The logins of each role (directly granted), and this login's role."""
    if store.dialect.name != "postgresql":
        from triage_app.core.db.audit import current_actor

        you = current_actor()
        return Members(
            False,
            {r.value: ((you,) if r is Role.LEAD else ()) for r in Role},
            you,
            Role.LEAD,
            both(N_("a SQLite workspace: the OS user is the one steward-lead")),
        )
    with store.connect() as conn:
        database, schema = store_place(conn)
        names = group_roles(database, schema)
        you = str(conn.execute(text("SELECT session_user")).scalar_one())
        found: dict[str, tuple[str, ...]] = {}
        set_up = False
        for role, name in names.items():
            rows = conn.execute(
                text(
                    "SELECT u.rolname FROM pg_auth_members m"
                    " JOIN pg_roles r ON r.oid = m.roleid JOIN pg_roles u ON u.oid = m.member"
                    " WHERE r.rolname = :g ORDER BY 1"
                ),
                {"g": name},
            ).scalars()
            found[role.value] = tuple(str(r) for r in rows)
            if role is Role.LEAD:
                set_up = (
                    conn.execute(text("SELECT to_regrole(:n)"), {"n": name}).scalar() is not None
                )
    note = None
    if not set_up:
        note = both(N_("roles are not set up on this store: everyone may do all of it"))
    return Members(set_up, found, you, role_of(store), note)


# -- a login with no role ------------------------------------------------------------------
_NO_USAGE = text(
    "SELECT session_user AS login, n.nspname AS schema FROM pg_namespace n"
    " WHERE current_schema() IS NULL"
    " AND n.nspname = ANY(string_to_array(replace(current_setting('search_path'), ' ', ''), ','))"
    " AND NOT has_schema_privilege(n.oid, 'USAGE') LIMIT 1"
)


def _no_role(login: str, schema: str | None = None) -> NotAllowed:
    """``login`` holds no role: refused the store's ``schema``, or (None) reading it."""
    if schema is not None:
        said = _(
            "the database refused the schema {schema}: {login} holds no role on this store; "
            "a lead grants one: triage-app roles grant {login} viewer"
        )
    else:
        said = _(
            "the database refused reading: {login} holds no role on this store; a lead grants "
            "one: triage-app roles grant {login} viewer"
        )
    return NotAllowed(said.format(login=login, schema=schema))


def check_access(engine: Engine) -> None:
    """Before the store is read: a login the store's schema is closed to (no role on a store
    whose roles are set up) is told so in one line, rather than finding "no store" there
    (PostgreSQL skips a schema it may not use, so the store looks empty)."""
    if engine.dialect.name != "postgresql":
        return
    with engine.connect() as conn:
        row = conn.execute(_NO_USAGE).first()
    if row is not None:
        raise _no_role(str(row.login), str(row.schema))


def refused_reading(engine: Engine) -> NotAllowed:
    """The one line for a login refused even reading the store's tables (no role)."""
    return _no_role(engine.url.username or _("this login"))


# -- the viewer's search_path ---------------------------------------------------------------
# psycopg's own placeholders: run by the connect hook on the driver's connection.
_MASKED_FIRST = (
    "SELECT set_config('search_path', quote_ident(%(m)s) || ', ' || "
    "current_setting('search_path'), false)"
    " WHERE EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = %(m)s)"
    " AND to_regclass(quote_ident(current_schema()) || '.dead_letters') IS NOT NULL"
    " AND NOT has_column_privilege("
    "to_regclass(quote_ident(current_schema()) || '.dead_letters'), 'original_payload', 'SELECT')"
)


def use_masked_views(engine: Engine) -> None:
    """Listen on ``engine`` (a PostgreSQL store): each new connection of a login that may not
    read the raw payloads puts the masked views' schema first on its search_path."""
    from sqlalchemy import event

    if engine.dialect.name != "postgresql":
        return

    def _connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        try:
            cur.execute("SELECT current_schema()")
            (schema,) = cur.fetchone()
            if schema is not None:
                cur.execute(_MASKED_FIRST, {"m": masked_schema(str(schema))})
        finally:
            cur.close()
        dbapi_conn.commit()

    event.listen(engine, "connect", _connect)


def names_of(logins: Iterable[str]) -> str:
    return ", ".join(logins) or _("nobody")
