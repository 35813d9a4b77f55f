"""The store as a whole: its ``stats``, the Trends ``report``, the retention ``purge``, the
``audit`` trail, and ``migrate`` to this version's schema."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import orjson

from triage_app.cli.support import (
    Subparsers,
    command,
    dead_letter_id,
    emit,
    for_terminal,
    masks_refreshed,
    more_note,
    open_workspace_of,
    when,
    whole,
)
from triage_app.core.locale_format import format_date, format_datetime, format_int
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.vocabulary import AuditAction

# The audit table's column heads.
AT, ACTOR, ACTION, DEAD_LETTER, DETAIL = (
    N_("at (UTC)"),
    N_("actor"),
    N_("action"),
    N_("dead letter"),
    N_("detail"),
)


def add_commands(subparsers: Subparsers) -> None:
    _add_stats(subparsers)
    _add_report(subparsers)
    _add_purge(subparsers)
    _add_audit(subparsers)
    _add_migrate(subparsers)
    _add_masks(subparsers)


def _add_stats(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "stats",
        cmd_stats,
        _("counts by class and status, attempts, failures per day, top errors"),
    )
    sp.add_argument(
        "--days",
        type=whole(1, 3660),
        default=14,
        metavar="N",
        help=_("failures per day for the last N days (default 14; --json has every day)"),
    )


def cmd_stats(args: argparse.Namespace) -> int:
    from triage_app.core import quick_stats

    db = quick_stats.store_path(args.workspace, args.dead_letter)
    payload = quick_stats.cached_answer(db) if db is not None else None
    if payload is not None:
        st = orjson.loads(payload)  # unchanged since last asked: no engine needed
    else:
        from triage_app.core.trends import stats_json

        with open_workspace_of(args, create=False) as ws:
            st = stats_json(ws)

    def text() -> str:
        def counts(by: dict[str, int], mark: str = "") -> str:
            return ", ".join(f"{k}{mark} {format_int(v)}" for k, v in by.items())

        total = st["total"]
        out = [ngettext("{n} dead letter", "{n} dead letters", total).format(n=format_int(total))]
        out.append(_("by class:  {counts}").format(counts=counts(st["by_class"])))
        out.append(_("by status: {counts}").format(counts=counts(st["by_status"])))
        out.append(_("attempts:  {counts}").format(counts=counts(st["attempts"], "x")))
        held = (st.get("trends") or {}).get("held") or {}
        if held.get("rows"):
            rows, batches = held["rows"], held["batches"]
            out.append(
                _(
                    "held:      {rows} in {batches} (all or nothing: they load when every "
                    "dead letter of their batch is fixed)"
                ).format(
                    rows=ngettext("{n} row", "{n} rows", rows).format(n=format_int(rows)),
                    batches=ngettext("{n} batch", "{n} batches", batches).format(
                        n=format_int(batches)
                    ),
                )
            )
        out += _per_day(st["failures_per_day"], args.days)
        out.append(_("top signatures:"))
        out += [
            f"  {format_int(s['count']):>6}  {s['class']:9} {for_terminal(s['signature'])}"
            for s in st["top_signatures"]
        ]
        return "\n".join(out)

    emit(st, args.json, text)
    return 0


def _per_day(counts: list[dict[str, Any]], days: int) -> list[str]:
    """``stats``' failures per day: each of the last ``days`` UTC days (from the first with a
    failure), by the day of each dead letter's first failure, with its classes. The head
    names the days: a UTC day is not the reader's own, and the window ends at today's."""
    import datetime as dt

    from triage_app.core.clock import today

    last = today()
    first = last - dt.timedelta(days=days - 1)
    by_day: dict[str, dict[str, int]] = {}
    for c in counts:  # {"day", "class", "count"}, zero counts left out
        if first.isoformat() <= c["day"] <= last.isoformat():
            by_day.setdefault(c["day"], {})[c["class"]] = c["count"]
    if days != 1:
        span = _("{first} to {last}").format(first=format_date(first), last=format_date(last))
    else:
        span = format_date(last)
    head = ngettext(
        "failures per day (first failure, UTC), last {n} day ({span}):",
        "failures per day (first failure, UTC), last {n} days ({span}):",
        days,
    ).format(n=format_int(days), span=span)
    if not by_day:
        newest = max((c["day"] for c in counts), default=None)
        if newest is None:
            return [head, _("  none")]
        newest_day = format_date(dt.date.fromisoformat(newest))
        return [head, _("  none (the newest: {day})").format(day=newest_day)]
    lines = [head]
    day = dt.date.fromisoformat(min(by_day))
    while day <= last:
        classes = by_day.get(day.isoformat(), {})
        said = ", ".join(f"{c} {format_int(n)}" for c, n in classes.items())
        total = format_int(sum(classes.values()))
        lines.append(f"  {format_date(day):>11}  {total:>6}  {said}".rstrip())
        day += dt.timedelta(days=1)
    return lines


def _add_report(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "report",
        cmd_report,
        _(
            "write the Trends charts (PNG, with their numbers as CSV) and a Markdown and "
            "HTML summary into a folder; needs no display"
        ),
    )
    sp.add_argument("--out", required=True, metavar="DIR", help=_("folder to write (created)"))
    sp.add_argument(
        "--since",
        metavar="WHEN",
        help=_(
            "a morning digest: what happened since WHEN (YYYY-MM-DD, or YYYY-MM-DDTHH:MM "
            "in UTC): dead letters, batches and spikes, new error groups and those that "
            "grew; the charts cover from its UTC day on. Without it: the whole store, no "
            "digest"
        ),
    )


def cmd_report(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import parse_since
    from triage_app.core.errors import TriageError

    # A day (its start) or a moment, naive UTC; else a one-line refusal.
    since = parse_since(args.since) if args.since else None
    if not args.out.strip():
        raise TriageError(_("--out names no folder: give the folder to write the report in"))
    from triage_app.core.places import printable
    from triage_app.gui.trends.report import write_report

    out = Path(args.out)
    with open_workspace_of(args, create=False) as ws:
        try:
            r = write_report(ws, out, since)
        except OSError as exc:
            # The folder named, and the file inside it where that is what failed.
            where = printable(out)
            if isinstance(exc.filename, str) and Path(exc.filename) != out:
                where += f" ({printable(Path(exc.filename).name)})"
            raise TriageError(
                _("cannot write the report to {where}: {reason}").format(
                    where=where, reason=exc.strerror or exc
                )
            ) from None

    def text() -> str:
        charts = len(r.images)
        said = [
            ngettext("{n} chart", "{n} charts", charts).format(n=format_int(charts)),
            ngettext("{n} dead letter", "{n} dead letters", r.dead_letters).format(
                n=format_int(r.dead_letters)
            ),
        ]
        if r.spikes:
            said.append(
                ngettext("{n} spike", "{n} spikes", r.spikes).format(n=format_int(r.spikes))
            )
        if r.since is not None and r.new_groups is not None:
            said.append(
                ngettext(
                    "{n} new error group since {when}",
                    "{n} new error groups since {when}",
                    r.new_groups,
                ).format(n=format_int(r.new_groups), when=format_datetime(r.since))
            )
        return _("report in {folder}: {counts}; open {html} or {markdown}").format(
            folder=r.out_dir, counts=", ".join(said), html=r.html.name, markdown=r.markdown.name
        )

    emit(r.to_json(), args.json, text)
    return 0


def _add_purge(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "purge",
        cmd_purge,
        _(
            "delete resolved or discarded dead letters closed more than DAYS ago, with their "
            "history (open and parked ones never); without --older-than, the store's policy"
        ),
    )
    sp.add_argument(
        "--older-than",
        type=int,
        metavar="DAYS",
        help=_("closed more than DAYS days ago (default: the store's retention policy)"),
    )
    sp.add_argument(
        "--status",
        action="append",
        metavar="STATUS",
        help=_("resolved or discarded; repeat for both (default: both, or the policy's)"),
    )
    sp.add_argument("--batch", metavar="ID", help=_("only this batch's rows (id or prefix)"))
    sp.add_argument("--dry-run", action="store_true", help=_("count what would go; delete nothing"))
    sp.add_argument(
        "--keep-sources",
        metavar="DAYS",
        help=_(
            "forget the batches' kept sources kept more than DAYS days ago, or 'forever' to "
            "forget none (default: the store's keep_sources_days, 90 unless set); a source "
            "a running or held batch reads always stays"
        ),
    )
    sp.add_argument(
        "--save-policy",
        action="store_true",
        help=_(
            "keep --older-than, --status and --keep-sources as the store's retention "
            "policy, for the team"
        ),
    )


def cmd_purge(args: argparse.Namespace) -> int:
    from triage_app.core.batch import check_keep_days, describe_retention, set_sources_retention
    from triage_app.core.deadletters import RetentionPolicy, retention_policy, set_retention_policy
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import PurgeJob

    keep_sources = None if args.keep_sources is None else check_keep_days(args.keep_sources)
    with open_workspace_of(args, act=None if args.dry_run else "purge") as ws:
        if args.save_policy:
            from triage_app.core.db import Act, require

            require(ws.store, Act.POLICY)
        if args.older_than is None:
            policy = retention_policy(ws)
            if policy is None:
                raise TriageError(
                    _(
                        "no retention policy is set for this store: give --older-than DAYS "
                        "(and --save-policy to keep it for the team)"
                    )
                )
            if args.status:
                policy = RetentionPolicy.of(policy.days, args.status)
        else:
            policy = RetentionPolicy.of(args.older_than, args.status or ["resolved", "discarded"])
        if args.save_policy:
            set_retention_policy(ws, policy)
            if args.keep_sources is not None:
                set_sources_retention(ws, keep_sources)
        # Sources: the store's setting, or --keep-sources for this run ("forever": none).
        forget = args.keep_sources is None or keep_sources is not None
        s = PurgeJob(
            policy.days,
            policy.statuses,
            args.dry_run,
            args.batch,
            sources=forget,
            sources_older_than=keep_sources,
        ).run(ws)

    def text() -> str:
        # Core's sentence, the one the window shows: counts by status, the cutoff, the
        # first days quarantined (--json has every day), cancelled.
        lines = [for_terminal(s.describe())]
        if s.sources is not None:
            lines.append(for_terminal(s.sources.describe()))
        if args.save_policy:
            lines.append(
                _("retention policy saved for the store: {policy}").format(policy=policy.describe())
            )
            if args.keep_sources is not None:
                lines.append(
                    _("and {retention}").format(retention=describe_retention(keep_sources))
                )
        return "\n".join(lines)

    emit(s.to_json(), args.json, text)
    return 0


def _add_audit(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "audit",
        cmd_audit,
        _("the audit trail: who did what to which dead letter, and when; newest first"),
    )
    sp.add_argument(
        "--since",
        metavar="DATE",
        help=_(
            "from this UTC day (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM[:SS], UTC unless "
            "it gives an offset) on"
        ),
    )
    sp.add_argument("--actor", metavar="TEXT", help=_("actors containing TEXT (any case)"))
    sp.add_argument(
        "--action",
        metavar="ACTION",
        help=_("only this action: {actions}").format(
            actions=", ".join(a.value for a in AuditAction)
        ),
    )
    sp.add_argument(
        "one_id",
        type=dead_letter_id,
        nargs="?",
        metavar="ID",
        help=_("only this dead letter's"),
    )
    sp.add_argument("--id", type=whole(1), metavar="N", help=_("only the events of dead letter N"))
    sp.add_argument(
        "--limit",
        type=whole(1),
        default=100,
        metavar="N",
        help=_("at most N events (default 100)"),
    )
    sp.add_argument(
        "--offset",
        type=whole(0),
        default=0,
        metavar="N",
        help=_("skip the N newest matching events: the next page"),
    )


def cmd_audit(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import AuditFilter, audit_page, parse_action, parse_since
    from triage_app.core.errors import TriageError

    if args.one_id is not None and args.id not in (None, args.one_id):
        raise TriageError(
            _("audit: dead letter {one} or {other}? give one id").format(
                one=args.one_id, other=args.id
            )
        )
    f = AuditFilter(
        since=parse_since(args.since) if args.since else None,
        actor=args.actor or None,
        action=parse_action(args.action) if args.action else None,
        dead_letter_id=args.id if args.one_id is None else args.one_id,
    )
    with open_workspace_of(args, create=False) as ws:
        page = audit_page(ws, f, limit=args.limit, offset=args.offset)
    events = page.records
    more = more_note(page.more, page.next_offset, json=args.json) if page.more else None

    def text() -> str:
        if not events and args.offset:
            return _("no audit events match after the first {n}").format(n=format_int(args.offset))
        if not events:
            return _("no audit events match")
        actors = [for_terminal(e.actor) for e in events]
        times = [when(e.at) for e in events]
        at = max(len(_(AT)), *map(len, times))
        who = min(max(len(_(ACTOR)), *map(len, actors)), 40)
        dead = max(len(_(DEAD_LETTER)), 11)
        lines = [
            f"{_(AT):{at}}  {_(ACTOR):{who}}  {_(ACTION):14}  {_(DEAD_LETTER):>{dead}}  {_(DETAIL)}"
        ]
        for e, actor, time in zip(events, actors, times, strict=True):
            dl = "" if e.dead_letter_id is None else str(e.dead_letter_id)
            detail = for_terminal(e.detail if len(e.detail) <= 100 else e.detail[:99] + "…")
            lines.append(f"{time:{at}}  {actor[:who]:{who}}  {e.action:14}  {dl:>{dead}}  {detail}")
        return "\n".join(lines)

    emit([e.to_json() for e in events], args.json, text, more)
    return 0


def _add_migrate(subparsers: Subparsers) -> None:
    command(
        subparsers,
        "migrate",
        cmd_migrate,
        _(
            "bring the dead-letter store to this version's schema (a SQLite store is copied "
            "first; back up a PostgreSQL one yourself)"
        ),
        opens_workspace=False,
    )


def cmd_migrate(args: argparse.Namespace) -> int:
    from triage_app.core.db import migrate_workspace

    store, change = migrate_workspace(args.workspace, dead_letter_url=args.dead_letter)
    data: dict[str, Any] = (
        change.to_json() if change else {"store": store, "from": None, "to": None}
    )
    data["current"] = change is None
    masked = None
    from triage_app.core.deadletters import MASKS_SINCE

    if change is not None and change.before is not None and change.before < MASKS_SINCE:
        # Rows stored before personal fields were masked get their masked copies now, so
        # that no list, export or search of the upgraded store shows a name.
        from triage_app.core.db import make_engine, resolve_config
        from triage_app.core.deadletters import refresh_masks

        config = resolve_config(args.workspace, None, args.dead_letter)
        store_engine = make_engine(config.dead_letter_url, "dead-letter store")
        try:
            masked = refresh_masks(store_engine)
        finally:
            store_engine.dispose()
        data["masks_refreshed"] = masked

    def text() -> str:
        said = change.message if change else _("{store} is current").format(store=store)
        if masked is None:
            return said
        return f"{said}\n{masks_refreshed(masked)}"

    emit(data, args.json, text)
    return 0


def _add_masks(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "masks",
        cmd_masks,
        _(
            "personal data: refresh fills the masked copies of every dead letter (a store "
            "from before schema 0013, or a transform that newly declares a personal field)"
        ),
    )
    sp.add_argument("action", choices=("refresh",), help=_("refresh: make every masked copy anew"))


def cmd_masks(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import refresh_masks

    with open_workspace_of(args) as ws:
        changed = refresh_masks(ws)
    emit(
        {"refreshed": changed},
        args.json,
        lambda: ngettext(
            "masked copies refreshed: {n} dead letter changed",
            "masked copies refreshed: {n} dead letters changed",
            changed,
        ).format(n=format_int(changed)),
    )
    return 0
