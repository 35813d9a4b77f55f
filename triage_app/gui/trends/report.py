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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triage_app.core.clock import day, minute, utcnow
from triage_app.core.db import Workspace
from triage_app.core.text_input import shown
from triage_app.core.trends import (
    CHART_TITLES,
    Headline,
    SpikeRule,
    Trends,
    chart_tables,
    compute_trends,
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
    since: dt.date | None = None,
    *,
    rule: SpikeRule | None = None,
) -> ReportSummary:
    """Write the charts (PNG), their numbers (CSV) and ``summary.md`` / ``summary.html``
    into ``out_dir`` (created if missing). ``since``: the first UTC day to cover."""
    started = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t = compute_trends(ws, None, since=since, rule=rule)
    images = render_charts(t, out)
    tables = []
    for name, table in chart_tables(t).items():
        path = out / f"{name}.csv"
        write_csv(path, table)
        tables.append(path)
    h = Headline.of(t)
    where = ws.config.description
    md = out / "summary.md"
    md.write_text(markdown_summary(t, h, images, where), encoding="utf-8")
    page = out / "summary.html"
    page.write_text(html_summary(t, h, images, where), encoding="utf-8")
    return ReportSummary(
        out,
        md,
        page,
        tuple(images),
        tuple(tables),
        h.dead_letters,
        len(t.spikes),
        time.perf_counter() - started,
    )


# -- the summary, in two formats ------------------------------------------------------------
def _period(t: Trends) -> str:
    if t.since is not None:
        return f"since {t.since.isoformat()} (UTC days)"
    if t.per_day:
        return f"{t.per_day[0].day.isoformat()} to {t.per_day[-1].day.isoformat()} (UTC days)"
    return "no dead letters yet"


def _findings(t: Trends, h: Headline) -> list[str]:
    """The sentences a lead reads first; plain text, formatted by each writer."""
    out = [h.direction()]
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
            f"{share:.0%} of all, {g.open:,} still open."
        )
    if h.spike is not None:
        out.append(h.spike.message())
    older = [s for s in t.spikes if not s.newest]
    if older:
        names = ", ".join(f"{s.batch.batch_id[:8]} ({s.batch.transform})" for s in older[-5:])
        out.append(f"Earlier spikes in the period: {names}.")
    elif h.spike is None:
        out.append(f"No spikes: no batch crossed the rule ({t.rule.describe()}).")
    return out


def markdown_summary(t: Trends, h: Headline, images: list[Path], where: str) -> str:
    lines = [
        "# Dead-letter trends",
        "",
        f"{_period(t)} · {where} · written {minute(utcnow())} UTC",
        "",
    ]
    lines += [f"- {_md_text(s)}" for s in _findings(t, h)]
    lines += ["", "| status | dead letters |", "|---|---:|"]
    lines += [f"| {s} | {n:,} |" for s, n in h.by_status.items()]
    lines += [
        "",
        "## Error groups",
        "",
        "| signature | class | count | open | resolved | first seen | last seen |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for g in t.groups[:TOP_GROUPS]:
        lines.append(
            f"| {_md_code(g.signature)} | {g.error_class} | {g.count:,} | {g.open:,} "
            f"| {g.resolved:,} "
            f"| {_day(g.first_seen)} | {_day(g.last_seen)} |"
        )
    for path in images:
        title = CHART_TITLES.get(path.stem, path.stem)
        lines += ["", f"## {title}", "", f"![{title}]({path.name})"]
    return "\n".join(lines) + "\n"


def _md_text(text: str) -> str:
    """Text from the store in Markdown: no control reaches a terminal that shows the file,
    and no tag or entity is read as HTML by a renderer."""
    return html.escape(shown(text), quote=False)


def _md_code(text: str) -> str:
    """Text from the store as a code span in a table cell: fenced by more backticks than it
    holds in a row, its pipes escaped (a pipe ends a cell even inside a span)."""
    body = shown(text).replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall("`+", body)), default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def _html(text: str) -> str:
    return html.escape(shown(text))


def html_summary(t: Trends, h: Headline, images: list[Path], where: str) -> str:
    """One self-contained page: the images are inside it, so it survives being mailed."""
    e = _html
    rows = "".join(
        f"<tr><td><code>{e(g.signature)}</code></td><td>{e(g.error_class)}</td>"
        f"<td class=n>{g.count:,}</td><td class=n>{g.open:,}</td><td class=n>{g.resolved:,}</td>"
        f"<td>{_day(g.first_seen)}</td><td>{_day(g.last_seen)}</td></tr>"
        for g in t.groups[:TOP_GROUPS]
    )
    status = "".join(
        f"<tr><td>{e(s)}</td><td class=n>{n:,}</td></tr>" for s, n in h.by_status.items()
    )
    figures = "".join(
        f"<h2>{e(CHART_TITLES.get(p.stem, p.stem))}</h2>"
        f'<img alt="{e(p.stem)}" src="data:image/png;base64,'
        f'{base64.b64encode(p.read_bytes()).decode()}">'
        for p in images
    )
    findings = "".join(f"<li>{e(s)}</li>" for s in _findings(t, h))
    return (
        "<!doctype html><html><head><meta charset=utf-8><title>Dead-letter trends</title>"
        "<style>body{font-family:sans-serif;color:#1f2937;max-width:1140px;margin:24px}"
        "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #e5e7eb;"
        "padding:3px 8px;text-align:left}.n{text-align:right}img{max-width:100%}"
        ".meta{color:#6b7280}</style></head><body>"
        f"<h1>Dead-letter trends</h1><p class=meta>{e(_period(t))} · {e(where)} · written "
        f"{minute(utcnow())} UTC</p><ul>{findings}</ul>"
        f"<table><tr><th>status</th><th>dead letters</th></tr>{status}</table>"
        "<h2>Error groups</h2><table><tr><th>signature</th><th>class</th><th>count</th>"
        "<th>open</th><th>resolved</th><th>first seen</th><th>last seen</th></tr>"
        f"{rows}</table>{figures}</body></html>\n"
    )


def _day(t: dt.datetime | None) -> str:
    return "" if t is None else day(t)
