"""``triage-app report``: the Trends charts as PNG files plus a summary (Markdown, and HTML
with the images inside, fit for a mail), written without a display.

Beside the charts, not in ``core``: it draws the Trends tab's own pyqtgraph charts,
offscreen, so the report and the tab never disagree. The numbers come from
``core.trends`` like everywhere else.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import os
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from triage_app.core.clock import day_start, iso, minute, utcnow, waited
from triage_app.core.db import Workspace
from triage_app.core.deadletters import ErrorGroup
from triage_app.core.text_input import shown
from triage_app.core.trends import (
    CHART_TITLES,
    BatchPoint,
    Digest,
    Headline,
    SpikeRule,
    Trends,
    chart_tables,
    compute_digest,
    compute_trends,
    judged_on_history,
    write_csv,
)
from triage_app.core.vocabulary import plural
from triage_app.gui import style
from triage_app.gui.lifetime import dispose
from triage_app.gui.trends.attempts_chart import AttemptsChart
from triage_app.gui.trends.backlog_chart import BacklogChart
from triage_app.gui.trends.failures_chart import FailuresChart
from triage_app.gui.trends.groups_chart import GroupsChart
from triage_app.gui.trends.rate_chart import RateChart

CHART_SIZE = (1100, 440)
GROUPS_SIZE = (1100, 480)
TOP_GROUPS = 10
DIGEST_ROWS = 20  # batches and groups listed in the digest, at most
UNOWNED = "unowned"


@dataclass(frozen=True)
class ReportSummary:
    out_dir: Path
    markdown: Path
    html: Path
    images: tuple[Path, ...]
    tables: tuple[Path, ...]  # each chart's numbers as CSV
    dead_letters: int
    spikes: int  # batches the spike rule flagged in the period
    seconds: float
    since: dt.datetime | None = None  # the digest's start (naive UTC); None: no digest
    new_groups: int | None = None  # error groups first seen since then

    def to_json(self) -> dict[str, Any]:
        return {
            "out_dir": str(self.out_dir),
            "markdown": str(self.markdown),
            "html": str(self.html),
            "images": [str(p) for p in self.images],
            "tables": [str(p) for p in self.tables],
            "dead_letters": self.dead_letters,
            "spikes": self.spikes,
            "seconds": round(self.seconds, 3),
            "since": iso(self.since) or None,
            "new_groups": self.new_groups,
        }


def _application() -> Any:
    """The running QApplication, or a new one on the offscreen platform: a report never
    needs a display (cron, a server, a CI job)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is not None:
        return app
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # The offscreen platform warns about window hints a report never uses; keep the
    # command's output to its one line.
    os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
    return QApplication(["triage-app report"])


def render_charts(t: Trends, out_dir: Path) -> list[Path]:
    """Each Trends chart drawn offscreen and saved as ``<chart>.png`` in ``out_dir``."""
    app = _application()
    per_batch = FailuresChart()
    per_batch.set_mode("batch")
    charts: list[tuple[Any, tuple[int, int]]] = [
        (FailuresChart(), CHART_SIZE),
        (per_batch, CHART_SIZE),
        (BacklogChart(), CHART_SIZE),
        (RateChart(), CHART_SIZE),
        (AttemptsChart(), (700, 400)),
        (GroupsChart(), GROUPS_SIZE),
    ]
    written = []
    for chart, size in charts:
        # A file travels without the tab's panel around it: the title goes in the image.
        chart.getPlotItem().setTitle(CHART_TITLES[chart.table_name], color=style.INK, size="12pt")
        chart.resize(*size)
        chart.show()  # offscreen: laid out and painted, never on a screen
        chart.show_trends(t)
        app.processEvents()
        written.append(chart.export_png(out_dir / f"{chart.table_name}.png"))
        chart.close()
        dispose(chart)  # now: processEvents() outside an event loop runs no deferred delete
    return written


def write_report(
    ws: Workspace,
    out_dir: str | os.PathLike[str],
    since: dt.date | dt.datetime | None = None,
    *,
    rule: SpikeRule | None = None,
) -> ReportSummary:
    """Write the charts (PNG), their numbers (CSV) and ``summary.md`` / ``summary.html``
    into ``out_dir`` (created if missing). ``since``: a UTC day, or a moment (naive UTC):
    the charts cover from its UTC day on, and the summaries open with what happened since
    it (the digest). Without it: the whole store, no digest."""
    started = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if isinstance(since, dt.datetime):
        since_at: dt.datetime | None = since
        first_day: dt.date | None = since.date()
    else:
        since_at = None if since is None else day_start(since)
        first_day = since
    t = compute_trends(ws, None, since=first_day, rule=rule)
    digest = None
    if since_at is not None:
        t = judged_on_history(ws, t)
        digest = compute_digest(ws, since_at, t)
        # A group's first failure, oldest open row and growth are the store's, not the period's.
        t = replace(t, groups=tuple(digest.history(g) for g in t.groups))
    images = render_charts(t, out)
    tables = []
    for name, table in chart_tables(t).items():
        path = out / f"{name}.csv"
        write_csv(path, table)
        tables.append(path)
    h = Headline.of(t)
    page = _Page(t, h, images, ws.config.description, utcnow(), digest)
    md = out / "summary.md"
    md.write_text(markdown_summary(page), encoding="utf-8")
    html_page = out / "summary.html"
    html_page.write_text(html_summary(page), encoding="utf-8")
    return ReportSummary(
        out,
        md,
        html_page,
        tuple(images),
        tuple(tables),
        h.dead_letters,
        len(t.spikes),
        time.perf_counter() - started,
        since_at,
        None if digest is None else len(digest.new_groups),
    )


@dataclass(frozen=True)
class _Page:
    """What both summaries say."""

    t: Trends
    h: Headline
    images: list[Path]
    where: str
    now: dt.datetime
    digest: Digest | None = None


# -- the words, for both formats ------------------------------------------------------------
def _period(t: Trends) -> str:
    if t.since is not None:
        return f"since {t.since.isoformat()} (UTC days)"
    if t.per_day:
        return f"{t.per_day[0].day.isoformat()} to {t.per_day[-1].day.isoformat()} (UTC days)"
    return "no dead letters yet"


def _findings(
    t: Trends, h: Headline, now: dt.datetime | None = None, told: Digest | None = None
) -> list[str]:
    """The sentences a lead reads first; plain text, formatted by each writer. A spike the
    digest ``told`` already is named, not told twice."""
    now = now or utcnow()
    out = [h.direction()]
    wait = h.oldest_wait(now)
    if wait is not None and h.oldest_open is not None:
        out.append(
            f"The oldest open dead letter has waited {waited(wait)} "
            f"(it first failed {minute(h.oldest_open)} UTC)."
        )
    if h.arrived_previous_7 is not None:
        diff = h.arrived_last_7 - h.arrived_previous_7
        word = "more" if diff > 0 else "fewer" if diff < 0 else "as many"
        amount = f"{abs(diff):,} " if diff else ""
        out.append(
            f"Quarantined in the last 7 days: {h.arrived_last_7:,} "
            f"({amount}{word} than the 7 days before: {h.arrived_previous_7:,})."
        )
    else:
        out.append(f"Quarantined in the last 7 days: {h.arrived_last_7:,}.")
    if h.top_group is not None:
        g = h.top_group
        share = g.count / h.dead_letters if h.dead_letters else 0.0
        out.append(
            f"The largest cause is {g.signature} ({g.error_class}): "
            f"{plural(g.count, 'dead letter')}, "
            f"{share:.0%} of all, {g.open:,} still open, "
            + (f"owned by {g.owner}." if g.owner else "nobody owns it.")
        )
    if t.groups:
        said = h.ownership()
        out.append(said[0].upper() + said[1:] + ".")
    if h.spike is not None and told is not None and h.spike in told.spikes:
        out.append(f"The spike in batch {h.spike.batch.batch_id[:8]}: see above.")
    elif h.spike is not None:
        out.append(h.spike.message())  # the banner's words: the numbers, the cause's verdict
    older = [s for s in t.spikes if not s.newest]
    if older:
        names = ", ".join(f"{s.batch.batch_id[:8]} ({s.batch.transform})" for s in older[-5:])
        out.append(f"Earlier spikes in the period: {names}.")
    elif h.spike is None:
        out.append(f"No spikes: no batch crossed the rule ({t.rule.describe()}).")
    return out


def _owner(g: ErrorGroup) -> str:
    return g.owner or UNOWNED


def _oldest(g: ErrorGroup, now: dt.datetime) -> str:
    """How long its oldest open row has waited: ``3 d``; "—" with none open."""
    age = g.age(now)
    return "—" if age is None else waited(age)


def _trend(g: ErrorGroup) -> str:
    """``▲ +12 (3 the 24 h before)``: its new rows in the last 24 h against the 24 h before."""
    before = f"({g.previous_24h:,} the 24 h before)"
    if g.trend == "quiet":
        return "quiet (none in 48 h)"
    if g.trend == "stopped":
        return f"{g.trend_mark} stopped {before}"
    return f"{g.trend_mark} +{g.last_24h:,} {before}"


def _first(g: ErrorGroup) -> str:
    return "" if g.first_seen is None else minute(g.first_seen)


def _batch(b: BatchPoint) -> str:
    return f"{b.rate:.1%} of {b.rows:,}"


def _since_lines(d: Digest) -> list[str]:
    """The digest's sentences (its tables are each writer's)."""
    classes = ", ".join(f"{c} {n:,}" for c, n in d.by_class.items())
    out = [
        f"{plural(d.dead_letters, 'dead letter')} quarantined"
        + (f": {classes}." if classes else ".")
    ]
    spiked = ", ".join(s.batch.batch_id[:8] for s in d.spikes)
    out.append(
        f"{plural(len(d.batches), 'batch')} ran"
        + (f"; {plural(len(d.spikes), 'spike')} ({spiked})." if d.spikes else ", no spike.")
    )
    out += [s.message() for s in d.spikes]
    out.append(
        f"{plural(len(d.new_groups), 'new error group')} (first seen since then); "
        f"{plural(len(d.grew), 'older group')} grew."
    )
    return out


def _since_when(d: Digest) -> str:
    return f"Since {minute(d.since)} UTC"


# -- Markdown -------------------------------------------------------------------------------
def _status_column(t: Trends) -> str:
    """What the status table counts: with a period, only its rows (the backlog's "wait
    for a person" line is the whole store)."""
    if t.since is None:
        return "dead letters"
    return f"dead letters first failed since {t.since.isoformat()}"


def markdown_summary(p: _Page) -> str:
    t, h, now = p.t, p.h, p.now
    lines = [
        "# Dead-letter trends",
        "",
        f"{_period(t)} · {_md_text(p.where)} · written {minute(now)} UTC",
        "",
    ]
    if p.digest is not None:
        lines += _md_digest(p.digest, now)
        lines += [f"## The period: {_period(t)}", ""]
    lines += [f"- {_md_text(s)}" for s in _findings(t, h, now, p.digest)]
    lines += ["", f"| status | {_status_column(t)} |", "|---|---:|"]
    lines += [f"| {s} | {n:,} |" for s, n in h.by_status.items()]
    top = t.groups[:TOP_GROUPS]
    lines += [
        "",
        "## Error groups: who works on what",
        "",
        "| signature | class | count | open | oldest open | owner | tags | note |",
        "|---|---|---:|---:|---:|---|---|---|",
    ]
    lines += [
        f"| {_md_code(g.signature)} | {g.error_class} | {g.count:,} | {g.open:,} "
        f"| {_oldest(g, now)} | {_md_cell(_owner(g))} | {_md_cell(', '.join(g.tags))} "
        f"| {_md_cell(g.note)} |"
        for g in top
    ]
    lines += [
        "",
        "## Error groups: since when, which release, still growing",
        "",
        "| signature | first seen (UTC) | first batch | source | version | last 24 h |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {_md_code(g.signature)} | {_first(g)} | {_md_cell((g.first_batch or '')[:8])} "
        f"| {_md_cell(g.first_source or '')} | {_md_cell(g.first_transform or '')} "
        f"| {_trend(g)} |"
        for g in top
    ]
    for path in p.images:
        title = CHART_TITLES.get(path.stem, path.stem)
        lines += ["", f"## {title}", "", f"![{title}]({path.name})"]
    return "\n".join(lines) + "\n"


def _md_digest(d: Digest, now: dt.datetime) -> list[str]:
    lines = [f"## {_since_when(d)}", ""]
    lines += [f"- {_md_text(s)}" for s in _since_lines(d)]
    if d.batches:
        spiked = {s.batch.batch_id for s in d.spikes}
        lines += [
            "",
            "| batch | source | version | quarantined | spike |",
            "|---|---|---|---:|---|",
        ]
        lines += [
            f"| {_md_cell(b.batch_id[:8])} | {_md_cell(b.source_name)} "
            f"| {_md_cell(b.transform)} | {_batch(b)} | {'spike' if b.batch_id in spiked else ''} |"
            for b in d.batches[-DIGEST_ROWS:]
        ]
    if d.new_groups:
        lines += [
            "",
            "New error groups:",
            "",
            "| signature | class | count | first seen (UTC) | first batch | version | owner |",
            "|---|---|---:|---|---|---|---|",
        ]
        lines += [
            f"| {_md_code(g.signature)} | {g.error_class} | {g.count:,} | {_first(g)} "
            f"| {_md_cell((g.first_batch or '')[:8])} | {_md_cell(g.first_transform or '')} "
            f"| {_md_cell(_owner(g))} |"
            for g in d.new_groups[:DIGEST_ROWS]
        ]
    if d.grew:
        lines += [
            "",
            "Older groups that grew:",
            "",
            "| signature | class | since then | open | oldest open | owner |",
            "|---|---|---:|---:|---:|---|",
        ]
        lines += [
            f"| {_md_code(g.signature)} | {g.error_class} | +{n:,} | {g.open:,} "
            f"| {_oldest(g, now)} | {_md_cell(_owner(g))} |"
            for g, n in d.grew[:DIGEST_ROWS]
        ]
    return [*lines, ""]


def _md_text(text: str) -> str:
    """Text from the store in Markdown: no control reaches a terminal that shows the file,
    and no tag or entity is read as HTML by a renderer."""
    return html.escape(shown(text), quote=False)


def _md_cell(text: str) -> str:
    """Text from the store in a table cell, not a code span: as ``_md_text``, and neither a
    pipe (it ends a cell) nor a backtick (it opens a span) read as Markdown."""
    return _md_text(text).replace("|", "\\|").replace("`", "\\`")


def _md_code(text: str) -> str:
    """Text from the store as a code span in a table cell: fenced by more backticks than it
    holds in a row, its pipes escaped (a pipe ends a cell even inside a span)."""
    body = shown(text).replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall("`+", body)), default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"


# -- HTML -----------------------------------------------------------------------------------
def _html(text: str) -> str:
    return html.escape(shown(text))


def _table(
    headers: list[str],
    rows: list[list[str]],
    numeric: frozenset[int] = frozenset(),
    wrap: frozenset[int] = frozenset({0}),
) -> str:
    """A table of cells already escaped: the ``numeric`` columns aligned right; only the
    ``wrap`` columns (a signature, a note) break lines, so a time, a version or a trend
    stays on one line and a narrow pane squeezes the long text instead."""

    def cell(i: int, c: str) -> str:
        kind = "n" if i in numeric else "w" if i in wrap else ""
        return f"<td class={kind}>{c}</td>" if kind else f"<td>{c}</td>"

    head = "".join(f"<th>{h}</th>" for h in headers)
    body = "".join("<tr>" + "".join(cell(i, c) for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _h_owner(g: ErrorGroup) -> str:
    return _html(g.owner) if g.owner else f"<span class=unowned>{UNOWNED}</span>"


def _h_sig(g: ErrorGroup) -> str:
    return f"<code>{_html(g.signature)}</code>"


def html_summary(p: _Page) -> str:
    """One self-contained page: the images are inside it, so it survives being mailed."""
    t, h, now, e = p.t, p.h, p.now, _html
    top = t.groups[:TOP_GROUPS]
    who = _table(
        ["signature", "class", "count", "open", "oldest open", "owner", "tags", "note"],
        [
            [
                _h_sig(g),
                e(g.error_class),
                f"{g.count:,}",
                f"{g.open:,}",
                _oldest(g, now),
                _h_owner(g),
                e(", ".join(g.tags)),
                e(g.note),
            ]
            for g in top
        ],
        frozenset({2, 3, 4}),
        frozenset({0, 6, 7}),
    )
    since = _table(
        ["signature", "first seen (UTC)", "first batch", "source", "version", "last 24 h"],
        [
            [
                _h_sig(g),
                _first(g),
                e((g.first_batch or "")[:8]),
                e(g.first_source or ""),
                e(g.first_transform or ""),
                _trend(g),
            ]
            for g in top
        ],
        frozenset(),
    )
    status = _table(
        ["status", e(_status_column(t))],
        [[e(s), f"{n:,}"] for s, n in h.by_status.items()],
        frozenset({1}),
    )
    figures = "".join(
        f"<h2>{e(CHART_TITLES.get(i.stem, i.stem))}</h2>"
        f'<img alt="{e(i.stem)}" src="data:image/png;base64,'
        f'{base64.b64encode(i.read_bytes()).decode()}">'
        for i in p.images
    )
    findings = "".join(f"<li>{e(s)}</li>" for s in _findings(t, h, now, p.digest))
    digest = ""
    if p.digest is not None:
        digest = _html_digest(p.digest, now) + f"<h2>The period: {e(_period(t))}</h2>"
    return (
        "<!doctype html><html><head><meta charset=utf-8><title>Dead-letter trends</title>"
        "<style>body{font-family:sans-serif;color:#1f2937;max-width:1140px;margin:24px}"
        "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #e5e7eb;"
        "padding:3px 8px;text-align:left;vertical-align:top;white-space:nowrap}"
        "th{background:#f9fafb}.n{text-align:right}.w{white-space:normal}img{max-width:100%}"
        "code{overflow-wrap:anywhere}.meta{color:#6b7280}.unowned{color:#b45309}"
        "li{margin:3px 0}</style></head><body>"
        f"<h1>Dead-letter trends</h1><p class=meta>{e(_period(t))} · {e(p.where)} · written "
        f"{minute(now)} UTC</p>{digest}<ul>{findings}</ul>{status}"
        f"<h2>Error groups: who works on what</h2>{who}"
        f"<h2>Error groups: since when, which release, still growing</h2>{since}"
        f"{figures}</body></html>\n"
    )


def _html_digest(d: Digest, now: dt.datetime) -> str:
    e = _html
    parts = [f"<h2>{e(_since_when(d))}</h2>"]
    parts.append("<ul>" + "".join(f"<li>{e(s)}</li>" for s in _since_lines(d)) + "</ul>")
    if d.batches:
        spiked = {s.batch.batch_id for s in d.spikes}
        parts.append(
            _table(
                ["batch", "source", "version", "quarantined", "spike"],
                [
                    [
                        e(b.batch_id[:8]),
                        e(b.source_name),
                        e(b.transform),
                        _batch(b),
                        "spike" if b.batch_id in spiked else "",
                    ]
                    for b in d.batches[-DIGEST_ROWS:]
                ],
                frozenset({3}),
                frozenset({1}),
            )
        )
    if d.new_groups:
        parts.append("<h3>New error groups</h3>")
        parts.append(
            _table(
                [
                    "signature",
                    "class",
                    "count",
                    "first seen (UTC)",
                    "first batch",
                    "version",
                    "owner",
                ],
                [
                    [
                        _h_sig(g),
                        e(g.error_class),
                        f"{g.count:,}",
                        _first(g),
                        e((g.first_batch or "")[:8]),
                        e(g.first_transform or ""),
                        _h_owner(g),
                    ]
                    for g in d.new_groups[:DIGEST_ROWS]
                ],
                frozenset({2}),
            )
        )
    if d.grew:
        parts.append("<h3>Older groups that grew</h3>")
        parts.append(
            _table(
                ["signature", "class", "since then", "open", "oldest open", "owner"],
                [
                    [
                        _h_sig(g),
                        e(g.error_class),
                        f"+{n:,}",
                        f"{g.open:,}",
                        _oldest(g, now),
                        _h_owner(g),
                    ]
                    for g, n in d.grew[:DIGEST_ROWS]
                ],
                frozenset({2, 3, 4}),
            )
        )
    return "".join(parts)
