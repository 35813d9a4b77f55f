"""The report of tests/core/db/test_query_plans.py (written with ``TRIAGE_PLAN_REPORT=FILE``):
each query and the index its plan uses on each database, what each index serves, the
indexes no query used, and what dropping each one alone would change."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.query_plans import DropEffects, Usage, Verdict, sorts


@dataclass
class BackendResult:
    name: str  # sqlite, postgresql
    # variant ("stats", "no stats" on SQLite; "" on PostgreSQL) -> indexes, verdicts
    variants: dict[str, tuple[dict[str, tuple[str, bool]], list[Verdict]]] = field(
        default_factory=dict
    )
    effects: dict[str, DropEffects] = field(default_factory=dict)  # by variant

    def add(
        self, variant: str, indexes: dict[str, tuple[str, bool]], verdicts: list[Verdict]
    ) -> None:
        self.variants[variant] = (indexes, verdicts)

    def columns(self) -> list[tuple[str, str]]:
        """(variant, heading) per column of the report."""
        if self.name == "sqlite":
            return [(v, f"SQLite ({v})") for v in self.variants]
        return [(v, "PostgreSQL") for v in self.variants]


def _uses(verdicts: list[Verdict]) -> str:
    """The indexes a group of statements' plans use, with how (keyed unless said)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for v in verdicts:
        if v.error:
            seen[f"EXPLAIN failed: {v.error}"].add("")
        for a in v.accesses:
            name = a.index or "**FULL SCAN**"
            tag = "" if a.kind == "keyed" else a.kind
            if a.index is None and v.allowed:
                tag = f"allowed: {v.allowed}"
            seen[f"{a.table.split('_')[0][:5]}.{name}"].add(tag)
    if not seen:
        return "–"
    parts = []
    for name, tags in sorted(seen.items()):
        tags.discard("")
        parts.append(name + (f" ({', '.join(sorted(tags))})" if tags else ""))
    return "<br>".join(parts)


def write_report(path: Path, results: dict[str, BackendResult]) -> None:
    lines: list[str] = ["# Query plans of the dead-letter store", ""]
    lines += [
        "Written by `tests/core/db/test_query_plans.py` (`TRIAGE_PLAN_REPORT=FILE`). Each "
        "query is named by the innermost application function that sent it and a shape "
        "(kind, tables, filtered columns, order, flags). Index uses are *keyed* (a SEARCH, "
        "an Index Cond) unless marked: *walk* (an index read in the order asked for, up to "
        "a LIMIT), *index-only* (a whole index read instead of the table, by a statement "
        "about every row: count(*), DISTINCT). `(primary key)` is the table's own key. "
        "`dead.` is dead_letters, `audit.` audit_events. *Dropped alone*: the same "
        "statements explained with that index dropped (in a transaction, rolled back).",
        "",
    ]
    for r in results.values():
        for v, h in r.columns():
            lines.append(f"- {h}: {len(r.variants[v][1])} statements explained")
    lines.append("")
    cols = [(r, v, h) for r in results.values() for v, h in r.columns()]

    # -- indexes ---------------------------------------------------------------------------
    all_indexes: dict[str, tuple[str, bool]] = {}
    usages: dict[tuple[str, str], Usage] = {}
    for r, v, _h in cols:
        indexes, verdicts = r.variants[v]
        all_indexes.update(indexes)
        usages[(r.name, v)] = Usage.of(indexes, verdicts)
    lines += ["## Indexes", ""]
    head = "| index | table |" + "".join(f" {h} |" for _r, _v, h in cols)
    eff_cols = [(r, v, h) for r, v, h in cols if v in r.effects]
    head += "".join(f" dropped alone, {h} |" for _r, _v, h in eff_cols)
    lines += [head, "|" + "---|" * (2 + len(cols) + len(eff_cols))]
    for name, (table, droppable) in sorted(all_indexes.items(), key=lambda kv: kv[1][0] + kv[0]):
        row = f"| `{name}`{'' if droppable else ' (constraint)'} | {table} |"
        for r, v, _h in cols:
            u = usages[(r.name, v)]
            if name not in u.indexes:
                row += " (absent) |"
                continue
            by_kind: dict[str, int] = defaultdict(int)
            sites: set[str] = set()
            for kind, verdict in u.uses.get(name, []):
                by_kind[kind] += 1
                sites.add(verdict.statement.site.split(":")[-1])
            row += (
                " "
                + ", ".join(f"{n} {k}" for k, n in sorted(by_kind.items()))
                + f" ({len(sites)} functions) |"
                if by_kind
                else " **unused** |"
            )
        for r, v, _h in eff_cols:
            effect = r.effects[v].alone.get(name)
            if effect is None:
                row += " – |"
                continue
            broken, moved = effect
            if broken:
                where = sorted({b.statement.site.split(":")[-1] for b in broken})
                row += f" **{len(broken)} full scans**: {', '.join(where)} |"
            elif moved:
                changed = [(b, a) for b, a in moved if b.plan != a.plan]
                sorting = [a for b, a in changed if sorts(a) and not sorts(b)]
                where = sorted({a.statement.site.split(":")[-1] for a in sorting})
                row += f" served otherwise ({len(changed)} plans change"
                row += f"; {len(sorting)} gain a sort: {', '.join(where)}) |" if sorting else ") |"
            else:
                row += " nothing changes |"
        lines.append(row)
    lines.append("")

    unused_everywhere = [
        name
        for name, (_t, droppable) in sorted(all_indexes.items())
        if droppable and all(not u.uses.get(name) for u in usages.values() if name in u.indexes)
    ]
    index_only = [
        name
        for name, (_t, droppable) in sorted(all_indexes.items())
        if droppable
        and name not in unused_everywhere
        and all(all(k == "index-only" for k, _ in u.uses.get(name, [])) for u in usages.values())
    ]
    lines += ["## Indexes no query used (on any database, with or without statistics)", ""]
    lines += [f"- `{n}` ({all_indexes[n][0]})" for n in unused_everywhere] or ["- none"]
    lines += [
        "",
        "## Indexes used only as a whole-index read (count(*), DISTINCT over all rows: any "
        "index, or the table, serves those)",
        "",
    ]
    lines += [f"- `{n}` ({all_indexes[n][0]})" for n in index_only] or ["- none"]
    for r, v, h in eff_cols:
        safe = [name for name, (broken, _moved) in sorted(r.effects[v].alone.items()) if not broken]
        lines += [
            "",
            f"## {h}: indexes whose drop, alone, leaves no query reading a whole table",
            "",
            ", ".join(f"`{n}`" for n in safe) or "none",
            "",
            f"Dropped together (tried by name, each kept dropped if nothing then reads a whole "
            f"table): {', '.join(f'`{n}`' for n in r.effects[v].together) or 'none'}",
        ]
    if eff_cols:
        sets = [set(r.effects[v].together) for r, v, _h in eff_cols]
        joint = sorted(set.intersection(*sets))
        lines += [
            "",
            "## Droppable together on every database, with and without statistics",
            "",
            "Dropping all of these leaves every query above served by an index by this "
            "test's rules (a plan can only get better with an index more, so what each "
            "database allows together, their intersection allows on all). *Served by an "
            "index* is not *as fast*: the Trends and paging figures are the benchmarks' to "
            "judge (benchmarks/bench_trends.py, bench_gui.py).",
            "",
            ", ".join(f"`{n}`" for n in joint) or "none",
        ]
    lines.append("")

    # -- queries ---------------------------------------------------------------------------
    lines += ["## Queries", ""]
    groups: dict[tuple[str, str], dict[tuple[str, str], list[Verdict]]] = defaultdict(
        lambda: defaultdict(list)
    )
    steps: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r, v, _h in cols:
        for verdict in r.variants[v][1]:
            s = verdict.statement
            key = (s.site, _neutral(s.shape))
            groups[key][(r.name, v)].append(verdict)
            steps[key].add(s.step)
    lines.append(
        "| query (file:function) | shape | steps (examples) |"
        + "".join(f" {h} |" for _r, _v, h in cols)
    )
    lines.append("|" + "---|" * (3 + len(cols)))
    for key in sorted(groups):
        site, shape = key
        some = sorted(steps[key])
        ex = "; ".join(some[:2]) + (f" (+{len(some) - 2})" if len(some) > 2 else "")
        row = f"| `{site}` | {shape} | {ex} |"
        for r, v, _h in cols:
            row += f" {_uses(groups[key].get((r.name, v), []))} |"
        lines.append(row)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _neutral(shape: str) -> str:
    """A shape both dialects share: their own spellings of a list of ids taken out."""
    for word in (" json_each", " = ANY", " FOR UPDATE"):
        shape = shape.replace(word, "")
    return shape
