"""Trends in Bahasa Indonesia (issue 28): a spike's message and its cause, the headline and
the purge notes are said in the user's language, with its numbers and dates, built when they
are shown; ``stats --json`` and the stats cache, which every user of a store shares, stay
English and locale-free whatever the language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.core.trends.test_headline import headline
from tests.support import cli
from tests.support.spike_stores import QTY, TYPE_ERROR, build_spike
from triage_app.core import messages
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.trends import (
    CHART_TITLES,
    Headline,
    SpikeRule,
    compute_stats,
    compute_trends,
    stats_json,
)
from triage_app.core.trends.model import PurgeNote


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    with open_workspace(tmp_path / "ws") as w:
        yield w


def _release_spike(ws: Workspace) -> None:
    build_spike(ws, [("code", TYPE_ERROR, 780), ("data", QTY, 20)], transform="pesanan@2")


def test_a_spike_and_its_cause_in_indonesian(ws: Workspace, indonesian: None) -> None:
    _release_spike(ws)
    s = compute_trends(ws).banner_spike()
    assert s is not None and s.cause is not None
    text = s.message()
    assert text.startswith("Lonjakan karantina di batch 00000000 (night_8.jsonl, transformasi")
    # Indonesian numbers: 800 of 1.000 rows is 80,0%, 40,0x the quiet nights' 2,0%.
    assert "80,0% dari 1.000 baris dikarantina, 40,0x median 2,0% dari batch-batch" in text
    assert "780 dari 800 baris yang dikarantina merupakan bug kode" in text
    assert "pesanan@2 adalah versi baru: batch ini yang pertama melewatinya" in text
    assert f"Terbesar: {TYPE_ERROR} (780); {QTY} (20)." in text
    short = s.short_message()
    assert short.startswith("Lonjakan di batch 00000000")
    assert "Bug kode (780 dari 800) dan pesanan@2 adalah versi baru" in short
    # No English sentence left in either.
    for english in ("quarantined", "spike", "release", "Largest", "rows"):
        assert english not in text and english not in short


def test_stats_json_and_its_cache_are_the_same_in_both_languages(ws: Workspace) -> None:
    _release_spike(ws)
    english = compute_stats(ws).to_json()
    messages.use_language("id")
    try:
        indonesian = compute_stats(ws).to_json()
        cached = stats_json(ws)  # computed now, stored for every user of the store
    finally:
        messages.use_language("en")
    assert indonesian == english
    (spike,) = english["trends"]["spikes"]
    assert spike["message"].startswith("Quarantine spike in batch 00000000")
    assert "780 of the 800 quarantined rows are code errors" in spike["cause"]["sentence"]
    assert orjson.loads(orjson.dumps(cached, default=str)) == orjson.loads(
        orjson.dumps(english, default=str)
    )


def test_stats_json_from_the_command_line_is_the_same_in_both_languages(
    ws: Workspace, tmp_path: Path
) -> None:
    _release_spike(ws)
    args = ("--workspace", str(tmp_path / "ws"), "stats", "--json")
    # Indonesian first: it counts and fills the cache the English run then answers from.
    indonesian = cli("--lang", "id", *args)
    english = cli("--lang", "en", *args)
    assert english.returncode == indonesian.returncode == 0, english.stderr + indonesian.stderr
    assert orjson.loads(indonesian.stdout) == orjson.loads(english.stdout)
    assert "Quarantine spike" in english.stdout


def test_the_headline_counts_one_and_many_in_both_languages(indonesian: None) -> None:
    assert headline(1, None).direction() == "1 dead letter menunggu ditangani seseorang."
    assert headline(12_345, 10_000).direction() == (
        "Backlog naik: 12.345 dead letter menunggu ditangani seseorang, +2.345 dalam 7 hari."
    )
    h = Headline(3, {"open": 3}, 3, None, 0, None, None, None, unowned=1, unowned_open=1)
    assert h.ownership() == "1 kelompok galat tanpa pemilik (1 dengan baris terbuka)"
    messages.use_language("en")
    assert headline(1, None).direction() == "1 dead letter waits for a person."
    assert headline(2, 3).direction() == (
        "The backlog is falling: 2 dead letters wait for a person, -1 in 7 days."
    )
    assert h.ownership() == "1 error group nobody owns (1 with open rows)"


def test_purge_notes_rule_and_chart_titles_in_indonesian(indonesian: None) -> None:
    at = dt.datetime(2026, 5, 3, 14, 5)
    assert PurgeNote(at, 1, ("resolved",)).message() == "1 baris dihapus permanen pada 3 Mei 2026"
    assert PurgeNote(at, 1_234, ("resolved",)).message() == (
        "1.234 baris dihapus permanen pada 3 Mei 2026"
    )
    assert SpikeRule().describe() == (
        "batch yang tingkat karantinanya melebihi 3x median dari 7 batch sebelumnya "
        "(median di bawah 0,1% dihitung sebagai 0,1%)"
    )
    assert messages._(CHART_TITLES["backlog"]) == "Backlog: terbuka vs selesai"
    messages.use_language("en")
    assert PurgeNote(at, 1, ("resolved",)).message() == "1 row purged on 3 May 2026"
    assert (
        SpikeRule(window=1)
        .describe()
        .startswith("a batch whose quarantine rate exceeds 3x the median of the previous 1 batch (")
    )
