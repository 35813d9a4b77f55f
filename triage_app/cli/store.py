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
    more_note,
    open_workspace_of,
    whole,
)
from triage_app.core.vocabulary import AuditAction, plural


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
        "counts by class and status, attempts, failures per day, top errors",
    )
    sp.add_argument(
        "--days",
        type=whole(1, 3660),
        default=14,
        metavar="N",
        help="failures per day for the last N days (default 14; --json has every day)",
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
        out = [plural(st["total"], "dead letter")]
        out.append("by class:  " + ", ".join(f"{k} {v}" for k, v in st["by_class"].items()))
        out.append("by status: " + ", ".join(f"{k} {v}" for k, v in st["by_status"].items()))
        out.append("attempts:  " + ", ".join(f"{k}x {v}" for k, v in st["attempts"].items()))
        held = (st.get("trends") or {}).get("held") or {}
        if held.get("rows"):
            out.append(
                f"held:      {plural(held['rows'], 'row')} in {plural(held['batches'], 'batch')} "
                "(all or nothing: they load when every dead letter of their batch is fixed)"
            )
        out += _per_day(st["failures_per_day"], args.days)
        out.append("top signatures:")
        out += [
            f"  {s['count']:>6}  {s['class']:9} {for_terminal(s['signature'])}"
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
    span = f"{first.isoformat()} to {last.isoformat()}" if days != 1 else last.isoformat()
    head = (
        f"failures per day (first failure, UTC), last {days} day{'s' if days != 1 else ''} "
        f"({span}):"
    )
    if not by_day:
        newest = max((c["day"] for c in counts), default=None)
        return [head, "  none" + (f" (the newest: {newest})" if newest else "")]
    lines = [head]
    day = dt.date.fromisoformat(min(by_day))
    while day <= last:
        classes = by_day.get(day.isoformat(), {})
        said = ", ".join(f"{c} {n:,}" for c, n in classes.items())
        lines.append(f"  {day.isoformat()}  {sum(classes.values()):>6,}  {said}".rstrip())
        day += dt.timedelta(days=1)
    return lines


def _add_report(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "report",
        cmd_report,
        "write the Trends charts (PNG, with their numbers as CSV) and a Markdown and "
        "HTML summary into a folder; needs no display",
    )
    sp.add_argument("--out", required=True, metavar="DIR", help="folder to write (created)")
    sp.add_argument(
        "--since",
        metavar="WHEN",
        help="a morning digest: what happened since WHEN (YYYY-MM-DD, or YYYY-MM-DDTHH:MM "
        "in UTC): dead letters, batches and spikes, new error groups and those that grew; "
        "the charts cover from its UTC day on. Without it: the whole store, no digest",
    )


def cmd_report(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import parse_since
    from triage_app.core.errors import TriageError

    # A day (its start) or a moment, naive UTC; else a one-line refusal.
    since = parse_since(args.since) if args.since else None
    if not args.out.strip():
        raise TriageError("--out names no folder: give the folder to write the report in")
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
                f"cannot write the report to {where}: {exc.strerror or exc}"
            ) from None
    emit(
        r.to_json(),
        args.json,
        lambda: (
            f"report in {r.out_dir}: {plural(len(r.images), 'chart')}, "
            f"{plural(r.dead_letters, 'dead letter')}"
            + (f", {plural(r.spikes, 'spike')}" if r.spikes else "")
            + (
                f", {plural(r.new_groups, 'new error group')} since {r.since:%Y-%m-%d %H:%M}"
                if r.since is not None and r.new_groups is not None
                else ""
            )
            + f"; open {r.html.name} or {r.markdown.name}"
        ),
    )
    return 0


def _add_purge(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "purge",
        cmd_purge,
        "delete resolved or discarded dead letters closed more than DAYS ago, with their "
        "history (open and parked ones never); without --older-than, the store's policy",
    )
    sp.add_argument(
        "--older-than",
        type=int,
        metavar="DAYS",
        help="closed more than DAYS days ago (default: the store's retention policy)",
    )
    sp.add_argument(
        "--status",
        action="append",
        metavar="STATUS",
        help="resolved or discarded; repeat for both (default: both, or the policy's)",
    )
    sp.add_argument("--batch", metavar="ID", help="only this batch's rows (id or prefix)")
    sp.add_argument("--dry-run", action="store_true", help="count what would go; delete nothing")
    sp.add_argument(
        "--keep-sources",
        metavar="DAYS",
        help="forget the batches' kept sources kept more than DAYS days ago, or 'forever' to "
        "forget none (default: the store's keep_sources_days, 90 unless set); a source a "
        "running or held batch reads always stays",
    )
    sp.add_argument(
        "--save-policy",
        action="store_true",
        help="keep --older-than, --status and --keep-sources as the store's retention "
        "policy, for the team",
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
                    "no retention policy is set for this store: give --older-than DAYS "
                    "(and --save-policy to keep it for the team)"
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
            lines.append(f"retention policy saved for the store: {policy.describe()}")
            if args.keep_sources is not None:
                lines.append(f"and {describe_retention(keep_sources)}")
        return "\n".join(lines)

    emit(s.to_json(), args.json, text)
    return 0


def _add_audit(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "audit",
        cmd_audit,
        "the audit trail: who did what to which dead letter, and when; newest first",
    )
    sp.add_argument(
        "--since",
        metavar="DATE",
        help="from this UTC day (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM[:SS], UTC unless "
        "it gives an offset) on",
    )
    sp.add_argument("--actor", metavar="TEXT", help="actors containing TEXT (any case)")
    sp.add_argument(
        "--action",
        metavar="ACTION",
        help="only this action: " + ", ".join(a.value for a in AuditAction),
    )
    sp.add_argument(
        "one_id", type=dead_letter_id, nargs="?", metavar="ID", help="only this dead letter's"
    )
    sp.add_argument("--id", type=whole(1), metavar="N", help="only the events of dead letter N")
    sp.add_argument(
        "--limit", type=whole(1), default=100, metavar="N", help="at most N events (default 100)"
    )
    sp.add_argument(
        "--offset",
        type=whole(0),
        default=0,
        metavar="N",
        help="skip the N newest matching events: the next page",
    )


def cmd_audit(args: argparse.Namespace) -> int:
    from triage_app.core.clock import readable
    from triage_app.core.deadletters import AuditFilter, audit_page, parse_action, parse_since
    from triage_app.core.errors import TriageError

    if args.one_id is not None and args.id not in (None, args.one_id):
        raise TriageError(f"audit: dead letter {args.one_id} or {args.id}? give one id")
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
        if not events:
            return "no audit events match" + (
                f" after the first {args.offset:,}" if args.offset else ""
            )
        actors = [for_terminal(e.actor) for e in events]
        who = min(max(len("actor"), *map(len, actors)), 40)
        lines = [f"{'at (UTC)':19}  {'actor':{who}}  {'action':14}  {'dead letter':>11}  detail"]
        for e, actor in zip(events, actors, strict=True):
            dl = "" if e.dead_letter_id is None else str(e.dead_letter_id)
            detail = for_terminal(e.detail if len(e.detail) <= 100 else e.detail[:99] + "…")
            lines.append(
                f"{readable(e.at):19}  {actor[:who]:{who}}  {e.action:14}  {dl:>11}  {detail}"
            )
        return "\n".join(lines)

    emit([e.to_json() for e in events], args.json, text, more)
    return 0


def _add_migrate(subparsers: Subparsers) -> None:
    command(
        subparsers,
        "migrate",
        cmd_migrate,
        "bring the dead-letter store to this version's schema (a SQLite store is copied "
        "first; back up a PostgreSQL one yourself)",
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
        said = change.message if change else f"{store} is current"
        return said if masked is None else f"{said}\nmasked copies refreshed: {masked:,} rows"

    emit(data, args.json, text)
    return 0


def _add_masks(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "masks",
        cmd_masks,
        "personal data: refresh fills the masked copies of every dead letter (a store from "
        "before schema 0013, or a transform that newly declares a personal field)",
    )
    sp.add_argument("action", choices=("refresh",), help="refresh: make every masked copy anew")


def cmd_masks(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import refresh_masks

    with open_workspace_of(args) as ws:
        changed = refresh_masks(ws)
    emit(
        {"refreshed": changed},
        args.json,
        lambda: (
            f"masked copies refreshed: {changed:,} dead letter"
            + ("" if changed == 1 else "s")
            + " changed"
        ),
    )
    return 0
