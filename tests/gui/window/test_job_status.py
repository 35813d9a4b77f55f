"""The status bar while a job runs: how far it is, its rows per second and the time left
("Re-driving 84,000 of 200,000 rows · 12,300 rows/s · about 9 s left"), and a Cancel that
stops it at its next chunk."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt

from triage_app.core.db import Workspace
from triage_app.core.jobs import RedriveJob
from triage_app.core.progress import Progress

LINE = re.compile(
    r"^Re-driving (?P<done>[\d,]+) of (?P<total>[\d,]+) rows · (?P<rate>[\d,]+) rows/s · "
    r"(about \d+ (s|min)|less than a second) left$"
)


@dataclass(frozen=True)
class SteadyRedrive(RedriveJob):
    """A re-drive as the window sees one, without a store: 2,000 rows every 20 ms, for
    as long as it is not cancelled (it would take 2 s to finish)."""

    rows: int = 200_000

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> Any:
        assert progress is not None
        done = 0
        while not progress.cancelled() and done < self.rows:
            time.sleep(0.02)
            done += 2_000
            progress.update(done, self.rows, done)
        return done


def test_a_running_job_shows_rows_per_second_and_the_time_left_and_cancels(
    qtbot, open_main_window, tmp_path, bulk_store
):
    folder = tmp_path / "ws"
    bulk_store(folder, 10)
    window = open_main_window(folder)
    jobs = window.jobs
    assert not jobs.label.isVisible()

    runner = jobs.start(None, SteadyRedrive("pesanan@2"))
    qtbot.waitUntil(lambda: LINE.match(jobs.text()) is not None, timeout=5_000)
    line = LINE.match(jobs.text())
    assert line is not None
    assert line["total"] == "200,000"
    done = int(line["done"].replace(",", ""))
    assert 0 < done < 200_000
    # About 100,000 rows/s: loose, as a busy machine sleeps longer than it is asked to.
    assert 10_000 < int(line["rate"].replace(",", "")) < 150_000
    assert jobs.progress.isVisible() and 0 < jobs.progress.value() < 1_000
    assert jobs.cancel_button.isVisible() and jobs.cancel_button.isEnabled()
    # The line is elided to a fixed width: a report changes the label's text, never its
    # size, so the status bar is not laid out again ten times a second (what blocked the
    # event loop for 70-170 ms at a time), and it still fits a 1280-pixel screen.
    size = jobs.label.size()
    shown = jobs.label.text()
    qtbot.waitUntil(lambda: jobs.label.text() != shown, timeout=5_000)
    assert jobs.label.size() == size
    assert window.statusBar().minimumSizeHint().width() <= 1280

    finished: list[int] = []
    runner.finished.connect(finished.append)
    qtbot.mouseClick(jobs.cancel_button, Qt.MouseButton.LeftButton)
    assert "cancelling" in jobs.text()
    qtbot.waitUntil(lambda: not jobs.label.isVisible(), timeout=5_000)
    assert finished and finished[0] < 200_000  # it stopped at a chunk, short of the end
    assert not jobs.running()
    assert not jobs.cancel_button.isVisible()


def test_a_redrive_from_the_window_says_its_pace_and_the_status_bar_cancels_it(
    qtbot, open_main_window, tmp_path, bulk_store
):
    rows = 6_000
    folder = tmp_path / "ws"
    bulk_store(folder, rows)
    window = open_main_window(folder)
    qtbot.mouseClick(window.redrive_button, Qt.MouseButton.LeftButton)
    dialog = window.dialogs()[-1]
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=60_000)

    lines: list[str] = []
    summaries = []
    dialog.jobFinished.connect(summaries.append)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    runner = dialog._runner
    assert runner is not None
    # After the status bar has read the report (it connected first): what it says, and
    # Cancel pressed at the first report, as a steward would.
    runner.progress.connect(lambda _report: lines.append(window.jobs.text()))
    runner.progress.connect(
        lambda _report: window.jobs.cancel_button.isEnabled() and window.jobs.cancel_button.click()
    )
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=60_000)

    first = LINE.match(lines[0])
    assert first is not None, lines
    assert first["total"] == f"{rows:,}"
    assert dialog.summary.text().startswith("Re-drove")
    (s,) = summaries
    assert s.cancelled and 0 < s.attempted < rows
    assert "Cancelled" in dialog.summary.text()
    assert not window.jobs.label.isVisible()
