"""Trends and the report in Bahasa Indonesia (issue 28): the charts' titles, axes, legends,
tooltips and ticks, the groups' table and the headline, and the report that
``triage-app --lang id report`` (or ``TRIAGE_LANG=id``) writes: Indonesian words, numbers
and dates the Indonesian way ("12.345", "12,5%", "1 Mei 2026 14.05"), ``<html lang="id">``,
no English heading left; its ``--json`` the same in both languages. Counted texts are right
for one and for many in both languages."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from tests.support import cli
from tests.support.crafted_trends import build_crafted
from triage_app.core.deadletters import ErrorGroup
from triage_app.core.trends import Headline
from triage_app.core.trends.digest import Digest
from triage_app.core.trends.model import (
    AttemptsBucket,
    BacklogPoint,
    BatchPoint,
    DayCount,
    Trends,
)
from triage_app.gui.i18n import install_language

MAY_1 = dt.date(2026, 5, 1)
AUG_3 = dt.date(2026, 8, 3)
SIGNATURE = "DataError: qty tidak valid: <n>"
# What the report says in English, none of which an Indonesian report may still say.
ENGLISH_HEADINGS = (
    "Dead-letter trends",
    "Error groups: who works on what",
    "Error groups: since when, which release, still growing",
    "The period:",
    "Since ",
    "Quarantined per day, by class",
    "Quarantined per batch, by class",
    "Backlog: open vs resolved",
    "Quarantine rate per batch",
    "New error groups",
    "Older groups that grew",
    "UTC days",
    "| signature |",
    "<th>signature</th>",
    "<th>owner</th>",
    "| unowned |",
    ">unowned<",
    "written ",
)


@pytest.fixture
def indonesian(qapp: QApplication) -> Iterator[None]:
    """The window (and the engine) speaking Indonesian; English again after."""
    install_language(qapp, "id")
    try:
        yield
    finally:
        install_language(qapp, "en")


# -- a page counted by hand, with numbers in the thousands ---------------------------------
def _group(count: int = 12_345) -> ErrorGroup:
    return ErrorGroup(
        SIGNATURE,
        "data",
        count,
        {"open": 1_234, "resolved": count - 1_234},
        dt.datetime(2026, 5, 1, 14, 5),
        dt.datetime(2026, 8, 3, 9, 0),
        oldest_open=dt.datetime(2026, 5, 1, 14, 5),
        first_batch="0123abcd" * 2,
        first_source="pesanan_2026-05-01.jsonl",
        first_transform="pesanan@1",
    )


def _batch(i: int) -> BatchPoint:
    return BatchPoint(
        batch_id=f"{i:016x}",
        source_name=f"pesanan_{i}.jsonl",
        transform="pesanan@1",
        started_at=dt.datetime(2026, 8, 3, 1, 30) + dt.timedelta(minutes=i),
        rows=400,
        quarantined=50,
        by_class={"data": 50, "code": 0, "transient": 0},
    )


def _trends() -> Trends:
    g = _group()
    return Trends(
        since=None,
        attempts=(AttemptsBucket(1, 12_000, 0), AttemptsBucket(3, 345, 345)),
        per_day=(
            DayCount(MAY_1, {"data": 12_345, "code": 0, "transient": 0}),
            DayCount(AUG_3, {"data": 0, "code": 0, "transient": 0}),
        ),
        per_batch=(),
        backlog=(BacklogPoint(AUG_3, 1_234, 11_111, 0, 0, 0),),
        groups=(g,),
        checks=(),
        by_class_status={"data": {"open": 1_234, "resolved": 11_111}},
    )


def _page(batches: int) -> Any:
    from triage_app.core import language
    from triage_app.gui.trends.report import _Page

    t = _trends()
    digest = Digest(
        since=dt.datetime(2026, 8, 2, 18, 30),
        by_class={"data": 1},
        batches=tuple(_batch(i) for i in range(batches)),
        spikes=(),
        new_groups=(_group(),),
        grew=(),
        whole={},
    )
    now = dt.datetime(2026, 8, 4, 7, 45)
    return _Page(t, Headline.of(t), [], "toko", now, digest, language.current())


def test_the_summaries_in_indonesian(indonesian: None) -> None:
    from triage_app.gui.trends.report import html_summary, markdown_summary

    md = markdown_summary(_page(1))
    assert md.startswith("# Tren dead letter\n")
    assert "1 Mei 2026 sampai 3 Agu 2026 (hari UTC) · toko · ditulis 4 Agu 2026 07.45 UTC" in md
    assert "## Sejak 2 Agu 2026 18.30 UTC" in md
    assert "## Periode: 1 Mei 2026 sampai 3 Agu 2026 (hari UTC)" in md
    assert "## Kelompok galat: siapa menangani apa" in md
    assert "| tanda | kelas | jumlah | terbuka | terbuka tertua | pemilik | tag | catatan |" in md
    # Thousands with ".", a time with ".", the class's and the owner's words.
    assert "| cacat data | 12.345 | 1.234 |" in md and "| tanpa pemilik |" in md
    assert "| 1 Mei 2026 14.05 | 0123abcd | pesanan_2026-05-01.jsonl | pesanan@1 |" in md
    assert "| 12,5% dari 400 |" in md  # the digest's batch: its rate of its rows
    assert "- 1 dead letter dikarantina: cacat data 1." in md
    assert "- 1 batch berjalan, tanpa lonjakan." in md
    assert (
        "Penyebab terbesar adalah DataError: qty tidak valid: &lt;n&gt; (cacat data): "
        "12.345 dead letter, 100% dari semuanya, 1.234 masih terbuka, belum ada pemiliknya."
    ) in md
    assert "| terbuka | 1.234 |" in md and "| selesai | 11.111 |" in md  # the status table
    for english in ENGLISH_HEADINGS:
        assert english not in md, english
    assert "- 3 batch berjalan, tanpa lonjakan." in markdown_summary(_page(3))

    page = html_summary(_page(1))
    assert page.startswith('<!doctype html><html lang="id">')
    assert "<title>Tren dead letter</title>" in page and "<h1>Tren dead letter</h1>" in page
    assert "<h2>Kelompok galat: sejak kapan, rilis mana, masih bertambah</h2>" in page
    assert "<h3>Kelompok galat baru</h3>" in page
    assert "<th>tanda</th><th>kelas</th><th>jumlah</th>" in page
    assert "<td class=n>12.345</td>" in page
    assert "<span class=unowned>tanpa pemilik</span>" in page
    assert "<code>DataError: qty tidak valid: &lt;n&gt;</code>" in page  # escaped as before
    assert "<n>" not in page
    for english in ENGLISH_HEADINGS:
        assert english not in page, english


def test_the_same_summaries_in_english() -> None:
    from triage_app.gui.trends.report import html_summary, markdown_summary

    md = markdown_summary(_page(1))
    assert md.startswith("# Dead-letter trends\n")
    assert "1 May 2026 to 3 Aug 2026 (UTC days) · toko · written 4 Aug 2026 07:45 UTC" in md
    assert "| data | 12,345 | 1,234 |" in md and "| unowned |" in md
    assert "| 12.5% of 400 |" in md
    assert "- 1 dead letter quarantined: data 1." in md
    assert "- 1 batch ran, no spike." in md
    assert "12,345 dead letters, 100% of all, 1,234 still open, nobody owns it." in md
    assert "- 3 batches ran, no spike." in markdown_summary(_page(3))
    assert html_summary(_page(1)).startswith('<!doctype html><html lang="en">')


# -- the charts, the groups and the headline ------------------------------------------------
def _ticks(axis: Any, lo: float, hi: float, pixels: float) -> list[str]:
    values = [v for _, level in axis.tickValues(lo, hi, pixels) for v in level]
    return axis.tickStrings(values, 1.0, 1.0)


def test_the_charts_in_indonesian(qtbot: Any, indonesian: None) -> None:
    from triage_app.gui.trends.attempts_chart import AttemptsChart
    from triage_app.gui.trends.base import day_x
    from triage_app.gui.trends.count_axis import CountAxis, count_text
    from triage_app.gui.trends.failures_chart import FailuresChart
    from triage_app.gui.trends.time_axis import DayAxis

    assert count_text(12_345) == "12.345" and count_text(1_250_000) == "1,25 jt"
    assert "10.000" in _ticks(CountAxis("left"), 0, 12_345, 300)
    # Month abbreviations: Mei, Agu, Okt, Des; a new year with its year.
    days = [dt.date(2026, m, 3) for m in (5, 8, 10, 12)] + [dt.date(2027, 1, 4)]
    assert DayAxis().tickStrings([day_x(d) for d in days], 1.0, 1.0) == [
        "3 Mei",
        "3 Agu",
        "3 Okt",
        "3 Des",
        "4 Jan 2027",
    ]

    failures = FailuresChart()
    qtbot.addWidget(failures)
    failures.show_trends(_trends())
    item = failures.getPlotItem()
    assert item.getAxis("left").labelText == "dikarantina"
    legend = [label.text for _sample, label in item.legend.items]
    assert legend == ["cacat data", "bug kode", "sementara"]
    assert failures.describe(day_x(MAY_1), 1) == (
        "1 Mei 2026: 12.345 dikarantina (cacat data 12.345, bug kode 0, sementara 0)"
    )
    link = failures.pick(day_x(MAY_1), 1)
    assert link is not None and link.label == "pertama kali gagal 1 Mei 2026 · cacat data"

    attempts = AttemptsChart()
    qtbot.addWidget(attempts)
    attempts.show_trends(_trends())
    assert attempts.getPlotItem().getAxis("bottom").labelText == "percobaan"
    # One and many: Indonesian nouns do not change with the count.
    assert attempts.describe(1, 1) == "1 percobaan: 12.000 dead letter, 0 diparkir"
    assert attempts.describe(3, 1) == "3 percobaan: 345 dead letter, 345 diparkir"


def test_counted_texts_in_english(qtbot: Any) -> None:
    from triage_app.gui.trends.attempts_chart import AttemptsChart
    from triage_app.gui.trends.count_axis import count_text

    assert count_text(12_345) == "12,345" and count_text(1_250_000) == "1.25M"
    attempts = AttemptsChart()
    qtbot.addWidget(attempts)
    t = _trends()
    attempts.show_trends(t)
    assert attempts.describe(1, 1) == "1 attempt: 12,000 dead letters, 0 parked"
    attempts.show_buckets((AttemptsBucket(1, 1, 0), AttemptsBucket(3, 2, 1)))
    assert attempts.describe(1, 0.5) == "1 attempt: 1 dead letter, 0 parked"
    assert attempts.describe(3, 0.5) == "3 attempts: 2 dead letters, 1 parked"


def test_the_groups_and_the_headline_in_indonesian(qtbot: Any, indonesian: None) -> None:
    from PySide6.QtCore import Qt

    from triage_app.gui.trends.groups_view import COL_CLASS, COL_COUNT, COL_FIRST, GroupsView
    from triage_app.gui.trends.headline_bar import HeadlineBar

    view = GroupsView()
    qtbot.addWidget(view)
    model = view.model
    model.set_groups((_group(),))
    assert view.count_label.text() == "1 kelompok"
    model.set_groups((_group(), _group(7)))
    assert view.count_label.text() == "2 kelompok"
    header = [
        model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        for c in range(model.columnCount())
    ]
    assert header[:5] == ["tanda", "kelas", "terbuka", "terbuka tertua", "pemilik"]
    assert model.index(0, COL_CLASS).data() == "cacat data"
    assert model.index(0, COL_COUNT).data() == "12.345"
    assert model.index(0, COL_FIRST).data().startswith("1 Mei 2026 · pesanan@1")
    assert view.search.placeholderText() == "tanda, pemilik, tag, atau catatan"

    bar = HeadlineBar()
    qtbot.addWidget(bar)
    bar.show_headline(Headline.of(_trends()))
    assert ">1.234<" in bar.open_tile.text() and "baris menunggu ditangani" in bar.open_tile.text()
    assert bar.wait_tile.toolTip() == "pertama kali gagal 1 Mei 2026 14.05 UTC"
    assert "kelompok tanpa pemilik</a> (1 dengan baris terbuka)" in bar.unowned_tile.text()
    assert "Tidak ada lonjakan" in bar.spike_tile.text()


def test_the_groups_count_in_english(qtbot: Any) -> None:
    from triage_app.gui.trends.groups_view import GroupsView
    from triage_app.gui.trends.headline_bar import HeadlineBar

    view = GroupsView()
    qtbot.addWidget(view)
    view.model.set_groups((_group(),))
    assert view.count_label.text() == "1 group"
    view.model.set_groups((_group(), _group(7)))
    assert view.count_label.text() == "2 groups"
    bar = HeadlineBar()
    qtbot.addWidget(bar)
    bar.show_headline(Headline.of(_trends()))
    assert ">1,234<" in bar.open_tile.text() and "rows wait for a person" in bar.open_tile.text()


# -- triage-app report, in a process of its own ---------------------------------------------
@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crafted-id") / "ws"
    build_crafted(folder)
    return folder


def _report(crafted: Path, out: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    done = cli(
        "--workspace", str(crafted), *args, "report", "--out", str(out), env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done


def _comparable(summary: dict[str, Any]) -> dict[str, Any]:
    """``report --json`` less what differs between two runs: their folders and times."""
    out = {k: v for k, v in summary.items() if k not in ("out_dir", "seconds")}
    for key in ("markdown", "html"):
        out[key] = Path(out[key]).name
    for key in ("images", "tables"):
        out[key] = sorted(Path(p).name for p in out[key])
    return out


def test_the_report_command_writes_indonesian(crafted: Path, tmp_path: Path) -> None:
    out = tmp_path / "laporan"
    _report(crafted, out, "--lang", "id")
    md = (out / "summary.md").read_text(encoding="utf-8")
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert md.startswith("# Tren dead letter\n")
    assert "1 Mar 2026 sampai 4 Mar 2026 (hari UTC)" in md
    assert "## Kelompok galat: siapa menangani apa" in md
    assert "## Antrean: terbuka vs selesai" in md and "![Antrean: terbuka vs selesai]" in md
    # The first failure's time written the Indonesian way: "10.00", not "10:00".
    assert re.search(r"\| 1 Mar 2026 10\.00 \| [0-9a-f]{8} \| b1\.jsonl \| pesanan@1 \|", md), md
    assert page.startswith('<!doctype html><html lang="id">')
    assert "<h2>Rasio karantina per batch</h2>" in page
    for english in ENGLISH_HEADINGS:
        assert english not in md and english not in page, english


@pytest.mark.slow
def test_the_report_speaks_triage_lang_and_its_json_is_the_same(
    crafted: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "TRIAGE_LANG": "id"}
    indonesian = _report(crafted, tmp_path / "id" / "r", "--json", env=env)
    english = _report(crafted, tmp_path / "en" / "r", "--json", "--lang", "en")
    page = (tmp_path / "id" / "r" / "summary.html").read_text(encoding="utf-8")
    assert page.startswith('<!doctype html><html lang="id">') and "Tren dead letter" in page
    assert (
        (tmp_path / "en" / "r" / "summary.html")
        .read_text(encoding="utf-8")
        .startswith('<!doctype html><html lang="en">')
    )
    said_id, said_en = json.loads(indonesian.stdout), json.loads(english.stdout)
    assert _comparable(said_id) == _comparable(said_en)
    # The CSVs are for machines: the same bytes in both languages.
    for table in said_en["tables"]:
        name = Path(table).name
        assert Path(table).read_bytes() == (tmp_path / "id" / "r" / name).read_bytes(), name
