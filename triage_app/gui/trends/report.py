"""``triage-app report``: the Trends charts as PNG files plus a summary (Markdown, and HTML
with the images inside, fit for a mail), written without a display.

Beside the charts, not in ``core``: it draws the Trends tab's own pyqtgraph charts,
offscreen, so the report and the tab never disagree. The numbers come from
``core.trends`` like everywhere else.

It speaks the window's language through Qt's translators (the charts' own words are
Qt's): a report written from the command line installs them for the language the command
speaks (``--lang``, ``TRIAGE_LANG``, the locale), and its numbers and dates are written that
language's way. Machine-readable files (the CSVs) stay as they are in every language.
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

from PySide6.QtCore import QT_TRANSLATE_NOOP

from triage_app.core import language
from triage_app.core.clock import day_start, iso, utcnow, waited
from triage_app.core.db import Workspace
from triage_app.core.deadletters import ErrorGroup
from triage_app.core.locale_format import format_date, format_datetime, format_int, format_percent
from triage_app.core.text_input import shown
from triage_app.core.trends import (
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
from triage_app.gui import style
from triage_app.gui.i18n import fill, install_language, translate
from triage_app.gui.labels import class_label, status_label
from triage_app.gui.lifetime import dispose
from triage_app.gui.trends.attempts_chart import AttemptsChart
from triage_app.gui.trends.backlog_chart import BacklogChart
from triage_app.gui.trends.base import dead_letters
from triage_app.gui.trends.failures_chart import FailuresChart
from triage_app.gui.trends.groups_chart import GroupsChart
from triage_app.gui.trends.rate_chart import RateChart

CHART_SIZE = (1100, 440)
GROUPS_SIZE = (1100, 480)
TOP_GROUPS = 10
DIGEST_ROWS = 20  # batches and groups listed in the digest, at most
# What the owner column says of a group nobody owns.
UNOWNED = QT_TRANSLATE_NOOP("report", "unowned")
# Each chart's title, in its image and over it in the summaries (keys: ``chart_tables``).
CHART_TITLES = {
    "failures_per_day": QT_TRANSLATE_NOOP("report", "Quarantined per day, by class"),
    "failures_per_batch": QT_TRANSLATE_NOOP("report", "Quarantined per batch, by class"),
    "backlog": QT_TRANSLATE_NOOP("report", "Backlog: open vs resolved"),
    "quarantine_rate": QT_TRANSLATE_NOOP("report", "Quarantine rate per batch"),
    "attempts": QT_TRANSLATE_NOOP("report", "Attempts"),
    "error_groups": QT_TRANSLATE_NOOP("report", "Error groups"),
}
# The summaries' column headings.
COLUMNS = {
    "signature": QT_TRANSLATE_NOOP("report", "signature"),
    "class": QT_TRANSLATE_NOOP("report", "class"),
    "count": QT_TRANSLATE_NOOP("report", "count"),
    "open": QT_TRANSLATE_NOOP("report", "open"),
    "oldest open": QT_TRANSLATE_NOOP("report", "oldest open"),
    "owner": QT_TRANSLATE_NOOP("report", "owner"),
    "tags": QT_TRANSLATE_NOOP("report", "tags"),
    "note": QT_TRANSLATE_NOOP("report", "note"),
    "first seen (UTC)": QT_TRANSLATE_NOOP("report", "first seen (UTC)"),
    "first batch": QT_TRANSLATE_NOOP("report", "first batch"),
    "source": QT_TRANSLATE_NOOP("report", "source"),
    "version": QT_TRANSLATE_NOOP("report", "version"),
    "last 24 h": QT_TRANSLATE_NOOP("report", "last 24 h"),
    "status": QT_TRANSLATE_NOOP("report", "status"),
    "batch": QT_TRANSLATE_NOOP("report", "batch"),
    "quarantined": QT_TRANSLATE_NOOP("report", "quarantined"),
    "spike": QT_TRANSLATE_NOOP("report", "spike"),
    "since then": QT_TRANSLATE_NOOP("report", "since then"),
}


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
    needs a display (cron, a server, a CI job). Either speaks a language: the window's
    (installed by ``gui.app.application``), or else the one this process speaks (the
    command line's ``--lang`` or ``TRIAGE_LANG``), installed here once, as the window does,
    before any chart is made (a chart's words are fixed when it is made)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        # The offscreen platform warns about window hints a report never uses; keep the
        # command's output to its one line.
        os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
        app = QApplication(["triage-app report"])
    if not app.property("triage_language"):
        app.setProperty("triage_language", install_language(app, language.current()))
    return app


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
        chart.getPlotItem().setTitle(chart_title(chart.table_name), color=style.INK, size="12pt")
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
    page = _Page(t, h, images, ws.config.description, utcnow(), digest, language.current())
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
    lang: str = language.ENGLISH  # the HTML page's ``lang``: the language it is written in


# -- the words, for both formats ------------------------------------------------------------
def chart_title(name: str) -> str:
    """A chart's title in the reader's language; a chart the report does not know, by name."""
    title = CHART_TITLES.get(name)
    return name if title is None else translate("report", title)


def _column(name: str) -> str:
    return translate("report", COLUMNS[name])


# The digest's two tables, the same columns in the Markdown summary and the HTML page.
_SINCE_COLUMNS = ("signature", "first seen (UTC)", "first batch", "source", "version", "last 24 h")
_NEW_GROUP_COLUMNS = (
    "signature",
    "class",
    "count",
    "first seen (UTC)",
    "first batch",
    "version",
    "owner",
)


def _columns(*names: str) -> list[str]:
    return [_column(n) for n in names]


def _period(t: Trends) -> str:
    if t.since is not None:
        return fill(translate("report", "since %1 (UTC days)"), format_date(t.since))
    if t.per_day:
        return fill(
            translate("report", "%1 to %2 (UTC days)"),
            format_date(t.per_day[0].day),
            format_date(t.per_day[-1].day),
        )
    return translate("report", "no dead letters yet")


def _last_7_days(h: Headline) -> str:
    """How many were quarantined in the last 7 days, against the 7 days before."""
    if h.arrived_previous_7 is None:
        return fill(translate("report", "Quarantined in the last 7 days: %1."), h.arrived_last_7)
    diff = h.arrived_last_7 - h.arrived_previous_7
    if diff > 0:
        said = translate(
            "report", "Quarantined in the last 7 days: %1 (%2 more than the 7 days before: %3)."
        )
    elif diff < 0:
        said = translate(
            "report", "Quarantined in the last 7 days: %1 (%2 fewer than the 7 days before: %3)."
        )
    else:
        return fill(
            translate(
                "report", "Quarantined in the last 7 days: %1 (as many as the 7 days before: %2)."
            ),
            h.arrived_last_7,
            h.arrived_previous_7,
        )
    return fill(said, h.arrived_last_7, abs(diff), h.arrived_previous_7)


def _largest_cause(g: ErrorGroup, h: Headline) -> str:
    share = format_percent(g.count / h.dead_letters if h.dead_letters else 0.0, 0)
    if g.owner:
        return fill(
            translate(
                "report", "The largest cause is %1 (%2): %3, %4 of all, %5 still open, owned by %6."
            ),
            g.signature,
            class_label(g.error_class),
            dead_letters(g.count),
            share,
            g.open,
            g.owner,
        )
    return fill(
        translate(
            "report", "The largest cause is %1 (%2): %3, %4 of all, %5 still open, nobody owns it."
        ),
        g.signature,
        class_label(g.error_class),
        dead_letters(g.count),
        share,
        g.open,
    )


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
            fill(
                translate(
                    "report", "The oldest open dead letter has waited %1 (it first failed %2 UTC)."
                ),
                waited(wait),
                format_datetime(h.oldest_open),
            )
        )
    out.append(_last_7_days(h))
    if h.top_group is not None:
        out.append(_largest_cause(h.top_group, h))
    if t.groups:
        said = h.ownership()
        out.append(said[0].upper() + said[1:] + ".")
    if h.spike is not None and told is not None and h.spike in told.spikes:
        out.append(
            fill(
                translate("report", "The spike in batch %1: see above."), h.spike.batch.batch_id[:8]
            )
        )
    elif h.spike is not None:
        out.append(h.spike.message())  # the banner's words: the numbers, the cause's verdict
    older = [s for s in t.spikes if not s.newest]
    if older:
        names = ", ".join(f"{s.batch.batch_id[:8]} ({s.batch.transform})" for s in older[-5:])
        out.append(fill(translate("report", "Earlier spikes in the period: %1."), names))
    elif h.spike is None:
        out.append(
            fill(
                translate("report", "No spikes: no batch crossed the rule (%1)."), t.rule.describe()
            )
        )
    return out


def _owner(g: ErrorGroup) -> str:
    return g.owner or translate("report", UNOWNED)


def _oldest(g: ErrorGroup, now: dt.datetime) -> str:
    """How long its oldest open row has waited: ``3 d``; "—" with none open."""
    age = g.age(now)
    return "—" if age is None else waited(age)


def _trend(g: ErrorGroup) -> str:
    """``▲ +12 (3 the 24 h before)``: its new rows in the last 24 h against the 24 h before."""
    if g.trend == "quiet":
        return translate("report", "quiet (none in 48 h)")
    if g.trend == "stopped":
        return fill(
            translate("report", "%1 stopped (%2 the 24 h before)"), g.trend_mark, g.previous_24h
        )
    return fill(
        translate("report", "%1 +%2 (%3 the 24 h before)"),
        g.trend_mark,
        g.last_24h,
        g.previous_24h,
    )


def _first(g: ErrorGroup) -> str:
    return "" if g.first_seen is None else format_datetime(g.first_seen)


def _batch(b: BatchPoint) -> str:
    """``12.5% of 400``: the batch's quarantine rate and its rows."""
    return fill(translate("report", "%1 of %2"), format_percent(b.rate, 1), b.rows)


def _classes(by_class: dict[str, int]) -> str:
    """``data 3, code 1``: each class's label and its count."""
    return ", ".join(f"{class_label(c)} {format_int(n)}" for c, n in by_class.items())


def _since_lines(d: Digest) -> list[str]:
    """The digest's sentences (its tables are each writer's)."""
    classes = _classes(d.by_class)
    n = d.dead_letters
    out = [
        fill(translate("report", "%Ln dead letter(s) quarantined: %1.", "", n), classes)
        if classes
        else translate("report", "%Ln dead letter(s) quarantined.", "", n)
    ]
    n = len(d.batches)
    if d.spikes:
        spikes = len(d.spikes)
        out.append(
            fill(
                translate("report", "%Ln batch(es) ran; %1 (%2).", "", n),
                translate("report", "%Ln spike(s)", "", spikes),
                ", ".join(s.batch.batch_id[:8] for s in d.spikes),
            )
        )
    else:
        out.append(translate("report", "%Ln batch(es) ran, no spike.", "", n))
    out += [s.message() for s in d.spikes]
    new, grew = len(d.new_groups), len(d.grew)
    out.append(
        fill(
            translate("report", "%1 (first seen since then); %2 grew."),
            translate("report", "%Ln new error group(s)", "", new),
            translate("report", "%Ln older group(s)", "", grew),
        )
    )
    return out


def _since_when(d: Digest) -> str:
    return fill(translate("report", "Since %1 UTC"), format_datetime(d.since))


def _title() -> str:
    return translate("report", "Dead-letter trends")


def _meta(p: _Page, where: str) -> str:
    """``1 Mar 2026 to 4 Mar 2026 (UTC days) · <workspace> · written 5 Mar 2026 08:00 UTC``."""
    return fill(
        translate("report", "%1 · %2 · written %3 UTC"), _period(p.t), where, format_datetime(p.now)
    )


def _period_heading(t: Trends) -> str:
    return fill(translate("report", "The period: %1"), _period(t))


def _who_heading() -> str:
    return translate("report", "Error groups: who works on what")


def _since_heading() -> str:
    return translate("report", "Error groups: since when, which release, still growing")


def _spike_cell(b: BatchPoint, spiked: set[str]) -> str:
    return _column("spike") if b.batch_id in spiked else ""


# -- Markdown -------------------------------------------------------------------------------
def _status_column(t: Trends) -> str:
    """What the status table counts: with a period, only its rows (the backlog's "wait
    for a person" line is the whole store)."""
    if t.since is None:
        return translate("report", "dead letters")
    return fill(translate("report", "dead letters first failed since %1"), format_date(t.since))


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown_summary(p: _Page) -> str:
    t, h, now = p.t, p.h, p.now
    # The meta line and the headings are the desk's words; the workspace's name is the
    # store's, escaped like every text from it.
    lines = [f"# {_title()}", "", _meta(p, _md_text(p.where)), ""]
    if p.digest is not None:
        lines += _md_digest(p.digest, now)
        lines += [f"## {_period_heading(t)}", ""]
    lines += [f"- {_md_text(s)}" for s in _findings(t, h, now, p.digest)]
    lines += ["", _md_row([_column("status"), _status_column(t)]), "|---|---:|"]
    lines += [_md_row([status_label(s), format_int(n)]) for s, n in h.by_status.items()]
    top = t.groups[:TOP_GROUPS]
    lines += [
        "",
        f"## {_who_heading()}",
        "",
        _md_row(
            _columns("signature", "class", "count", "open", "oldest open", "owner", "tags", "note")
        ),
        "|---|---|---:|---:|---:|---|---|---|",
    ]
    lines += [
        _md_row(
            [
                _md_code(g.signature),
                class_label(g.error_class),
                format_int(g.count),
                format_int(g.open),
                _oldest(g, now),
                _md_cell(_owner(g)),
                _md_cell(", ".join(g.tags)),
                _md_cell(g.note),
            ]
        )
        for g in top
    ]
    lines += [
        "",
        f"## {_since_heading()}",
        "",
        _md_row(_columns(*_SINCE_COLUMNS)),
        "|---|---|---|---|---|---|",
    ]
    lines += [
        _md_row(
            [
                _md_code(g.signature),
                _first(g),
                _md_cell((g.first_batch or "")[:8]),
                _md_cell(g.first_source or ""),
                _md_cell(g.first_transform or ""),
                _trend(g),
            ]
        )
        for g in top
    ]
    for path in p.images:
        title = chart_title(path.stem)
        lines += ["", f"## {title}", "", f"![{title}]({path.name})"]
    return "\n".join(lines) + "\n"


def _md_digest(d: Digest, now: dt.datetime) -> list[str]:
    lines = [f"## {_since_when(d)}", ""]
    lines += [f"- {_md_text(s)}" for s in _since_lines(d)]
    if d.batches:
        spiked = {s.batch.batch_id for s in d.spikes}
        lines += [
            "",
            _md_row(_columns("batch", "source", "version", "quarantined", "spike")),
            "|---|---|---|---:|---|",
        ]
        lines += [
            _md_row(
                [
                    _md_cell(b.batch_id[:8]),
                    _md_cell(b.source_name),
                    _md_cell(b.transform),
                    _batch(b),
                    _spike_cell(b, spiked),
                ]
            )
            for b in d.batches[-DIGEST_ROWS:]
        ]
    if d.new_groups:
        lines += [
            "",
            translate("report", "New error groups:"),
            "",
            _md_row(_columns(*_NEW_GROUP_COLUMNS)),
            "|---|---|---:|---|---|---|---|",
        ]
        lines += [
            _md_row(
                [
                    _md_code(g.signature),
                    class_label(g.error_class),
                    format_int(g.count),
                    _first(g),
                    _md_cell((g.first_batch or "")[:8]),
                    _md_cell(g.first_transform or ""),
                    _md_cell(_owner(g)),
                ]
            )
            for g in d.new_groups[:DIGEST_ROWS]
        ]
    if d.grew:
        lines += [
            "",
            translate("report", "Older groups that grew:"),
            "",
            _md_row(_columns("signature", "class", "since then", "open", "oldest open", "owner")),
            "|---|---|---:|---:|---:|---|",
        ]
        lines += [
            _md_row(
                [
                    _md_code(g.signature),
                    class_label(g.error_class),
                    f"+{format_int(n)}",
                    format_int(g.open),
                    _oldest(g, now),
                    _md_cell(_owner(g)),
                ]
            )
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
    """A table of cells already escaped (the headers are escaped here): the ``numeric``
    columns aligned right; only the ``wrap`` columns (a signature, a note) break lines, so a
    time, a version or a trend stays on one line and a narrow pane squeezes the long text
    instead."""

    def cell(i: int, c: str) -> str:
        kind = "n" if i in numeric else "w" if i in wrap else ""
        return f"<td class={kind}>{c}</td>" if kind else f"<td>{c}</td>"

    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(cell(i, c) for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _h_owner(g: ErrorGroup) -> str:
    if g.owner:
        return _html(g.owner)
    unowned = html.escape(translate("report", UNOWNED))
    return f"<span class=unowned>{unowned}</span>"


def _h_sig(g: ErrorGroup) -> str:
    return f"<code>{_html(g.signature)}</code>"


def html_summary(p: _Page) -> str:
    """One self-contained page: the images are inside it, so it survives being mailed. The
    page says its language (``<html lang>``): a screen reader and a mail's translate button
    read it."""
    t, h, now, e = p.t, p.h, p.now, _html
    top = t.groups[:TOP_GROUPS]
    who = _table(
        _columns("signature", "class", "count", "open", "oldest open", "owner", "tags", "note"),
        [
            [
                _h_sig(g),
                e(class_label(g.error_class)),
                format_int(g.count),
                format_int(g.open),
                e(_oldest(g, now)),
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
        _columns(*_SINCE_COLUMNS),
        [
            [
                _h_sig(g),
                e(_first(g)),
                e((g.first_batch or "")[:8]),
                e(g.first_source or ""),
                e(g.first_transform or ""),
                e(_trend(g)),
            ]
            for g in top
        ],
        frozenset(),
    )
    status = _table(
        [_column("status"), _status_column(t)],
        [[e(status_label(s)), format_int(n)] for s, n in h.by_status.items()],
        frozenset({1}),
    )
    figures = "".join(
        f"<h2>{e(chart_title(i.stem))}</h2>"
        f'<img alt="{e(chart_title(i.stem))}" src="data:image/png;base64,'
        f'{base64.b64encode(i.read_bytes()).decode()}">'
        for i in p.images
    )
    findings = "".join(f"<li>{e(s)}</li>" for s in _findings(t, h, now, p.digest))
    digest = ""
    if p.digest is not None:
        digest = _html_digest(p.digest, now) + f"<h2>{e(_period_heading(t))}</h2>"
    title = e(_title())
    return (
        f'<!doctype html><html lang="{e(p.lang)}"><head><meta charset=utf-8>'
        f"<title>{title}</title>"
        "<style>body{font-family:sans-serif;color:#1f2937;max-width:1140px;margin:24px}"
        "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #e5e7eb;"
        "padding:3px 8px;text-align:left;vertical-align:top;white-space:nowrap}"
        "th{background:#f9fafb}.n{text-align:right}.w{white-space:normal}img{max-width:100%}"
        "code{overflow-wrap:anywhere}.meta{color:#6b7280}.unowned{color:#b45309}"
        "li{margin:3px 0}</style></head><body>"
        f"<h1>{title}</h1><p class=meta>{e(_meta(p, p.where))}</p>"
        f"{digest}<ul>{findings}</ul>{status}"
        f"<h2>{e(_who_heading())}</h2>{who}"
        f"<h2>{e(_since_heading())}</h2>{since}"
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
                _columns("batch", "source", "version", "quarantined", "spike"),
                [
                    [
                        e(b.batch_id[:8]),
                        e(b.source_name),
                        e(b.transform),
                        e(_batch(b)),
                        e(_spike_cell(b, spiked)),
                    ]
                    for b in d.batches[-DIGEST_ROWS:]
                ],
                frozenset({3}),
                frozenset({1}),
            )
        )
    if d.new_groups:
        heading = translate("report", "New error groups")
        parts.append(f"<h3>{e(heading)}</h3>")
        parts.append(
            _table(
                _columns(*_NEW_GROUP_COLUMNS),
                [
                    [
                        _h_sig(g),
                        e(class_label(g.error_class)),
                        format_int(g.count),
                        e(_first(g)),
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
        heading = translate("report", "Older groups that grew")
        parts.append(f"<h3>{e(heading)}</h3>")
        parts.append(
            _table(
                _columns("signature", "class", "since then", "open", "oldest open", "owner"),
                [
                    [
                        _h_sig(g),
                        e(class_label(g.error_class)),
                        f"+{format_int(n)}",
                        format_int(g.open),
                        e(_oldest(g, now)),
                        _h_owner(g),
                    ]
                    for g, n in d.grew[:DIGEST_ROWS]
                ],
                frozenset({2, 3, 4}),
            )
        )
    return "".join(parts)
