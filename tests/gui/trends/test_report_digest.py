"""The report a lead forwards (issue 24), over a lead's morning (``core/demo/morning.py``):
each error group says who works on it, since when and which release, and whether it still
grows, in ``summary.md``, ``summary.html`` and ``error_groups.csv``; the findings carry the
banner's verdict (the source, or the release) and who owns nothing; ``report --since`` opens
with what happened since last evening, new groups first."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from pathlib import Path

import pytest

from tests.support import cli
from triage_app.core.db import open_workspace
from triage_app.core.demo.morning import OWNED, QTY, TYPE_ERROR, fill_morning
from triage_app.core.locale_format import format_date, format_datetime
from triage_app.core.trends import compute_trends

KEY_ERROR = "KeyError: <s>"
MISSING = "DataError: kolom wajib hilang: qty"


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for spike in ("data", "release"):
        folder = tmp_path_factory.mktemp(f"morning-{spike}") / "ws"
        with open_workspace(folder) as ws:
            fill_morning(ws, spike)
        out[spike] = folder
    return out


@pytest.fixture(scope="module")
def reports(stores: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from triage_app.gui.trends.report import write_report

    out = {}
    for spike, folder in stores.items():
        with open_workspace(folder) as ws:
            out[spike] = write_report(ws, tmp_path_factory.mktemp(f"report-{spike}")).out_dir
    return out


def md_row(md: str, heading: str, signature: str) -> list[str]:
    """The cells of ``signature``'s row in the table under ``## heading``."""
    section = md.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        if line.startswith(f"| `{signature}` |"):
            return [c.strip() for c in line.strip("|").split(" | ")]
    raise AssertionError(f"no row of {signature!r} under {heading!r}:\n{section}")


def csv_rows(folder: Path) -> dict[str, dict[str, str]]:
    with (folder / "error_groups.csv").open(encoding="utf-8", newline="") as fh:
        return {r["signature"]: r for r in csv.DictReader(fh)}


def first_nights(folder: Path) -> tuple[dt.datetime, dt.datetime]:
    """When the first and the last nightly batch started."""
    with open_workspace(folder) as ws:
        batches = compute_trends(ws).per_batch
    return batches[0].started_at, batches[-1].started_at


WHO = "Error groups: who works on what"
SINCE = "Error groups: since when, which release, still growing"


def test_each_group_says_who_works_on_it(reports: dict[str, Path]) -> None:
    folder = reports["data"]
    md = (folder / "summary.md").read_text(encoding="utf-8")
    page = (folder / "summary.html").read_text(encoding="utf-8")
    rows = csv_rows(folder)
    assert set(OWNED) < set(rows)
    for sig, (owner, tags, note) in OWNED.items():
        _sig, _cls, _count, _open, oldest, *team = md_row(md, WHO, sig)
        assert team == [owner, ", ".join(tags), note], team
        assert re.fullmatch(r"\d+ [dh]", oldest), oldest  # its oldest open row's wait
        assert rows[sig]["owner"] == owner
        assert rows[sig]["tags"] == "; ".join(tags) and rows[sig]["note"] == note
        assert dt.datetime.fromisoformat(rows[sig]["oldest_open"].rstrip("Z"))
    assert "<td>ani</td><td class=w>needs source fix</td><td class=w>asked the shop</td>" in page
    unowned = [s for s in rows if s not in OWNED]
    assert len(unowned) == 6
    for sig in unowned:
        assert md_row(md, WHO, sig)[5] == "unowned"
        assert rows[sig]["owner"] == "" and rows[sig]["tags"] == ""
    assert page.count("<span class=unowned>unowned</span>") == 6


def test_each_group_says_since_when_and_if_it_grows(
    reports: dict[str, Path], stores: dict[str, Path]
) -> None:
    folder = reports["data"]
    md = (folder / "summary.md").read_text(encoding="utf-8")
    page = (folder / "summary.html").read_text(encoding="utf-8")
    rows = csv_rows(folder)
    first, _last = first_nights(stores["data"])
    source = f"pesanan_{first:%Y-%m-%d}.jsonl"
    # Since the first night, through pesanan@1; the code errors since the fifth.
    _sig, seen, batch, src, version, _trend = md_row(md, SINCE, MISSING)
    assert seen.startswith(f"{format_date(first.date())} 01:30")
    assert (batch, src) == ("b47c0000", source)
    assert version == "pesanan@1"
    assert rows[MISSING]["first_batch"].startswith("b47c0000")
    assert rows[MISSING]["first_source"] == source
    assert rows[MISSING]["first_transform"] == "pesanan@1"
    assert md_row(md, SINCE, KEY_ERROR)[2] == "b47c0004"
    # The spiking group grew: last night's rows against the night before's.
    qty = rows[QTY]
    assert qty["trend"] == "growing" and int(qty["last_24h"]) > 249 > int(qty["previous_24h"])
    said = f"▲ +{int(qty['last_24h']):,} ({int(qty['previous_24h']):,} the 24 h before)"
    assert md_row(md, SINCE, QTY)[5] == said
    assert said in page
    # A group with no row last night stopped; the report says so, not "growing".
    assert rows[TYPE_ERROR]["trend"] == "stopped" and int(rows[TYPE_ERROR]["last_24h"]) == 0
    assert md_row(md, SINCE, TYPE_ERROR)[5].startswith("■ stopped (")


def findings(md: str) -> list[str]:
    return [ln for ln in md.split("\n\n| status")[0].splitlines() if ln.startswith("- ")]


def test_a_data_spike_blames_the_source(reports: dict[str, Path]) -> None:
    md = (reports["data"] / "summary.md").read_text(encoding="utf-8")
    page = (reports["data"] / "summary.html").read_text(encoding="utf-8")
    said = findings(md)
    spike = next(s for s in said if "Quarantine spike in batch b47c0009" in s)
    assert "the source sent" in spike and "likely broke" not in md
    assert "the source sent" in page and "likely broke" not in page
    assert "- 6 error groups nobody owns (6 with open rows)." in said
    assert "<li>6 error groups nobody owns (6 with open rows).</li>" in page
    assert any(re.fullmatch(r"- The oldest open dead letter has waited 9 d .*", s) for s in said)


def test_a_release_spike_blames_the_release(reports: dict[str, Path]) -> None:
    md = (reports["release"] / "summary.md").read_text(encoding="utf-8")
    page = (reports["release"] / "summary.html").read_text(encoding="utf-8")
    spike = next(s for s in findings(md) if "Quarantine spike in batch b47c0009" in s)
    assert "the release of pesanan@2 likely broke the transform" in spike
    assert "likely broke the transform" in page and "the source sent" not in md


def digest(md: str) -> str:
    return md.split("\n## Since ", 1)[1].split("\n## The period", 1)[0]


def table_after(text: str, caption: str) -> list[str]:
    """The rows (not the header) of the table under the line ``caption``."""
    if caption not in text:
        return []
    lines = text.split(caption, 1)[1].strip("\n").splitlines()
    table = lines[: lines.index("")] if "" in lines else lines
    return table[2:]


def test_since_an_evening_the_digest_names_the_new_group(
    stores: dict[str, Path], tmp_path: Path
) -> None:
    _first, last = first_nights(stores["release"])
    evening = last - dt.timedelta(hours=7)  # after the night before, before last night
    out = tmp_path / "digest"
    done = cli(
        "--workspace",
        str(stores["release"]),
        "--json",
        "report",
        "--out",
        str(out),
        "--since",
        f"{evening:%Y-%m-%dT%H:%M}",
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["new_groups"] == 1 and summary["since"] == f"{evening:%Y-%m-%dT%H:%M}:00Z"
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert md.index("## Since ") < md.index("## The period")  # at the top
    top = digest(md)
    assert top.startswith(f"{format_datetime(evening)} UTC")
    assert "- 1 batch ran; 1 spike (b47c0009)." in top
    with open_workspace(stores["release"]) as ws:
        night = compute_trends(ws).per_batch[-1]
    # Last night's rows only: the night before is before the evening, though on its day.
    assert f"- {night.quarantined:,} dead letters quarantined: " in top
    assert "likely broke the transform" in top  # last night's spike, judged on the week
    new = table_after(top, "New error groups:")
    assert len(new) == 1 and new[0].startswith(f"| `{TYPE_ERROR}` | code | 240 |"), new
    assert "| b47c0009 | pesanan@2 | unowned |" in new[0]
    grew = "\n".join(table_after(top, "Older groups that grew:"))
    assert f"`{QTY}`" in grew and f"`{MISSING}`" in grew and TYPE_ERROR not in grew
    page = (out / "summary.html").read_text(encoding="utf-8")
    new_html = page.split("<h3>New error groups</h3>", 1)[1].split("</table>", 1)[0]
    assert "TypeError" in new_html and "DataError" not in new_html


def test_since_a_day_covers_from_its_start(stores: dict[str, Path], tmp_path: Path) -> None:
    _first, last = first_nights(stores["data"])
    out = tmp_path / "day"
    done = cli(
        "--workspace",
        str(stores["data"]),
        "report",
        "--out",
        str(out),
        "--since",
        f"{last:%Y-%m-%d}",
    )
    assert done.returncode == 0, done.stderr
    # The command line's text writes the day as people read it (issue 28: 3 Dec 2026).
    said = f"since {format_date(last.date())} 00:00"
    assert said in done.stdout and "0 new error groups" in done.stdout
    top = digest((out / "summary.md").read_text(encoding="utf-8"))
    assert top.startswith(f"{format_date(last.date())} 00:00 UTC")
    assert "the source sent" in top and "New error groups:" not in top


@pytest.mark.parametrize("value", ["last night", "2026-12-01T25:00", "2026-02-30"])
def test_a_bad_since_is_one_line(stores: dict[str, Path], tmp_path: Path, value: str) -> None:
    done = cli(
        "--workspace", str(stores["data"]), "report", "--out", str(tmp_path / "r"), "--since", value
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"--since {value!r} is not a date or time" in lines[0]
    assert not (tmp_path / "r").exists()
