"""The line a team lead reads first on Trends: how many rows wait, how long the oldest has
waited, the spike and its cause, and the error groups nobody owns (a click shows them).
The numbers are ``core.trends.Headline``'s; this only lays them out."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QWidget

from triage_app.core.clock import utcnow, waited
from triage_app.core.deadletters import LadderBacklog
from triage_app.core.retry import short_wait
from triage_app.core.text_input import shown
from triage_app.core.trends import Headline, Verdict
from triage_app.gui import style

# The spike tile's short verdict; the banner and the tooltip carry the whole sentence.
_VERDICTS = {
    Verdict.RELEASE: "code errors after a new release of {t}",
    Verdict.CODE: "code errors through {t}, not new: new input?",
    Verdict.DATA: "data errors: the source sent bad rows",
    Verdict.TRANSIENT: "transient errors: something was down",
    Verdict.MIXED: "a mix of classes",
}


class _Tile(QLabel):
    """A number over its caption (which may hold a link, for a tile that acts)."""

    def __init__(self, name: str) -> None:
        super().__init__(objectName=name)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setContentsMargins(10, 2, 10, 2)

    def say(self, value: str, caption: str, colour: str = style.INK) -> None:
        self.setText(
            f'<span style="font-size:15pt; font-weight:600; color:{colour}">'
            f"{html.escape(value)}</span><br>"
            f'<span style="color:{style.MUTED}">{caption}</span>'
        )


class HeadlineBar(QFrame):
    """Open rows · oldest wait · spike · unowned groups."""

    unownedRequested = Signal()  # show the groups nobody owns
    spikeRequested = Signal(str)  # the spiking batch's rows

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="trendsHeadline")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#trendsHeadline { background: white; }")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        h = QHBoxLayout(self)
        h.setContentsMargins(4, 4, 4, 4)
        h.setSpacing(0)
        self.open_tile = _Tile("headlineOpen")
        self.wait_tile = _Tile("headlineWait")
        self.spike_tile = _Tile("headlineSpike")
        self.spike_tile.setWordWrap(True)
        self.unowned_tile = _Tile("headlineUnowned")
        self.ladder_tile = _Tile("headlineLadder")
        for tile in (self.spike_tile, self.unowned_tile):
            tile.setTextInteractionFlags(
                Qt.TextInteractionFlag.LinksAccessibleByMouse
                | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
            )
        self.spike_tile.linkActivated.connect(self._on_spike_link)
        self.unowned_tile.linkActivated.connect(lambda _href: self.unownedRequested.emit())
        for tile in (self.open_tile, self.wait_tile, self.spike_tile):
            h.addWidget(tile, 3 if tile is self.spike_tile else 0)
            h.addWidget(self._rule())
        h.addWidget(self.unowned_tile, 1)
        h.addWidget(self._rule())
        h.addWidget(self.ladder_tile, 1)
        self.headline: Headline | None = None
        self.ladder: LadderBacklog | None = None
        self.show_headline(None)
        self.show_ladder(None)

    def _rule(self) -> QFrame:
        line = QFrame()
        line.setFrameShape(QFrame.Shape.VLine)
        line.setStyleSheet(f"color: {style.RULE}")
        return line

    def show_headline(self, h: Headline | None) -> None:
        """Say ``h``; None: nothing counted yet."""
        self.headline = h
        if h is None:
            for tile in (self.open_tile, self.wait_tile, self.spike_tile, self.unowned_tile):
                tile.say("…", "counting")
            return
        self.open_tile.say(
            f"{h.open_now:,}", "rows wait for a person", style.OPEN if h.open_now else style.INK
        )
        self.open_tile.setToolTip(h.direction())
        age = h.oldest_wait(utcnow())
        self.wait_tile.say(waited(age) if age is not None else "—", "oldest open row's wait")
        self.wait_tile.setToolTip(
            "" if h.oldest_open is None else f"first failed {h.oldest_open:%Y-%m-%d %H:%M} UTC"
        )
        self._say_spike(h)
        if h.unowned:
            self.unowned_tile.say(
                f"{h.unowned:,}",
                f'<a href="unowned">groups nobody owns</a> ({h.unowned_open:,} with open rows)',
                style.ALERT if h.unowned_open else style.INK,
            )
            self.unowned_tile.setToolTip("Click: the error groups below narrow to the unowned")
        else:
            self.unowned_tile.say("0", "groups nobody owns: every group has an owner")
            self.unowned_tile.setToolTip("")

    def show_ladder(self, b: LadderBacklog | None) -> None:
        """The retry ladder's backlog: how many transient rows wait for a retry, per step
        (the wait before it: ``5m 8 · 30m 3 · 2h 1``), how many are due now and how many
        its end parked for a person."""
        self.ladder = b
        if b is None:
            self.ladder_tile.say("…", "counting")
            return
        waits = b.ladder.waits
        steps = ", ".join(
            f"{s.waiting:,} at "
            + (short_wait(waits[s.step]) if s.step < len(waits) else f"step {s.step + 1}")
            for s in b.steps
        )
        caption = "on the retry ladder" + (f": {steps}" if steps else "")
        more = []
        if b.due_now:
            more.append(f"{b.due_now:,} due now")
        if b.parked_at_end:
            more.append(f"{b.parked_at_end:,} parked at its end")
        if more:
            caption += "<br>" + ", ".join(more)
        self.ladder_tile.say(f"{b.waiting:,}", caption)
        tip = [f"The retry ladder: {b.ladder.words()}"]
        tip += [
            f"Before retry {s.step + 1}: {s.waiting:,} waiting"
            + (f", next due {s.next_due:%Y-%m-%d %H:%M} UTC" if s.next_due else "")
            for s in b.steps
        ]
        tip.append(f"Parked at the ladder's end, waiting for a person: {b.parked_at_end:,}")
        self.ladder_tile.setToolTip("\n".join(tip))

    def _say_spike(self, h: Headline) -> None:
        s = h.spike
        if s is None:
            self.spike_tile.say("No spike", "in the newest batches")
            self.spike_tile.setToolTip("")
            return
        b = s.batch
        verdict = (
            _VERDICTS[s.cause.verdict].format(t=html.escape(b.transform))
            if s.cause is not None
            else "cause unknown"
        )
        self.spike_tile.say(
            f"Spike: {b.rate:.1%} in batch {b.batch_id[:8]}",
            f'{verdict} · <a href="{html.escape(b.batch_id)}">its rows</a>',
            style.ALERT,
        )
        self.spike_tile.setToolTip(shown(s.message()))

    def _on_spike_link(self, href: str) -> None:
        self.spikeRequested.emit(href)
