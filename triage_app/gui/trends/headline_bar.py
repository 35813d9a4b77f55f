"""The line a team lead reads first on Trends: how many rows wait, how long the oldest has
waited, the spike and its cause, and the error groups nobody owns (a click shows them).
The numbers are ``core.trends.Headline``'s; this only lays them out."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QWidget

from triage_app.core.clock import utcnow, waited
from triage_app.core.deadletters import LadderBacklog
from triage_app.core.locale_format import format_datetime, format_int, format_percent
from triage_app.core.retry import short_wait
from triage_app.core.text_input import shown
from triage_app.core.trends import Headline, Verdict
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate

# The spike tile's short verdict (%1: the transform version, as HTML); the banner and the
# tooltip carry the whole sentence.
_VERDICTS = {
    Verdict.RELEASE: QT_TRANSLATE_NOOP("HeadlineBar", "code errors after a new release of %1"),
    Verdict.CODE: QT_TRANSLATE_NOOP("HeadlineBar", "code errors through %1, not new: new input?"),
    Verdict.DATA: QT_TRANSLATE_NOOP("HeadlineBar", "data errors: the source sent bad rows"),
    Verdict.TRANSIENT: QT_TRANSLATE_NOOP("HeadlineBar", "transient errors: something was down"),
    Verdict.MIXED: QT_TRANSLATE_NOOP("HeadlineBar", "a mix of classes"),
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
                tile.say("…", translate("HeadlineBar", "counting"))
            return
        n = h.open_now
        self.open_tile.say(
            format_int(n),
            # The caption under the count: "rows wait for a person" ("row waits" for one).
            translate("HeadlineBar", "row(s) wait for a person", "", n),
            style.OPEN if h.open_now else style.INK,
        )
        self.open_tile.setToolTip(h.direction())
        age = h.oldest_wait(utcnow())
        self.wait_tile.say(
            waited(age) if age is not None else "—",
            translate("HeadlineBar", "oldest open row's wait"),
        )
        self.wait_tile.setToolTip(
            ""
            if h.oldest_open is None
            else fill(
                translate("HeadlineBar", "first failed %1 UTC"), format_datetime(h.oldest_open)
            )
        )
        self._say_spike(h)
        if h.unowned:
            unowned = h.unowned
            self.unowned_tile.say(
                format_int(unowned),
                fill(
                    translate(
                        "HeadlineBar",
                        '<a href="unowned">group(s) nobody owns</a> (%1 with open rows)',
                        "",
                        unowned,
                    ),
                    h.unowned_open,
                ),
                style.ALERT if h.unowned_open else style.INK,
            )
            self.unowned_tile.setToolTip(
                translate("HeadlineBar", "Click: the error groups below narrow to the unowned")
            )
        else:
            self.unowned_tile.say(
                format_int(0),
                translate("HeadlineBar", "groups nobody owns: every group has an owner"),
            )
            self.unowned_tile.setToolTip("")

    def show_ladder(self, b: LadderBacklog | None) -> None:
        """The retry ladder's backlog: how many transient rows wait for a retry, per step
        (the wait before it: ``5m 8 · 30m 3 · 2h 1``), how many are due now and how many
        its end parked for a person."""
        self.ladder = b
        if b is None:
            self.ladder_tile.say("…", translate("HeadlineBar", "counting"))
            return
        waits = b.ladder.waits
        steps = ", ".join(
            fill(
                translate("HeadlineBar", "%1 at %2"),
                s.waiting,
                short_wait(waits[s.step])
                if s.step < len(waits)
                else fill(translate("HeadlineBar", "step %1"), s.step + 1),
            )
            for s in b.steps
        )
        caption = (
            fill(translate("HeadlineBar", "on the retry ladder: %1"), steps)
            if steps
            else translate("HeadlineBar", "on the retry ladder")
        )
        more = []
        if b.due_now:
            more.append(fill(translate("HeadlineBar", "%1 due now"), b.due_now))
        if b.parked_at_end:
            more.append(fill(translate("HeadlineBar", "%1 parked at its end"), b.parked_at_end))
        if more:
            caption += "<br>" + ", ".join(more)
        self.ladder_tile.say(format_int(b.waiting), caption)
        tip = [fill(translate("HeadlineBar", "The retry ladder: %1"), b.ladder.words())]
        for s in b.steps:
            if s.next_due:
                tip.append(
                    fill(
                        translate("HeadlineBar", "Before retry %1: %2 waiting, next due %3 UTC"),
                        s.step + 1,
                        s.waiting,
                        format_datetime(s.next_due),
                    )
                )
            else:
                tip.append(
                    fill(
                        translate("HeadlineBar", "Before retry %1: %2 waiting"),
                        s.step + 1,
                        s.waiting,
                    )
                )
        tip.append(
            fill(
                translate("HeadlineBar", "Parked at the ladder's end, waiting for a person: %1"),
                b.parked_at_end,
            )
        )
        self.ladder_tile.setToolTip("\n".join(tip))

    def _say_spike(self, h: Headline) -> None:
        s = h.spike
        if s is None:
            self.spike_tile.say(
                translate("HeadlineBar", "No spike"),
                translate("HeadlineBar", "in the newest batches"),
            )
            self.spike_tile.setToolTip("")
            return
        b = s.batch
        verdict = (
            fill(translate("HeadlineBar", _VERDICTS[s.cause.verdict]), html.escape(b.transform))
            if s.cause is not None
            else translate("HeadlineBar", "cause unknown")
        )
        self.spike_tile.say(
            fill(
                translate("HeadlineBar", "Spike: %1 in batch %2"),
                format_percent(b.rate, 1),
                b.batch_id[:8],
            ),
            fill(
                translate("HeadlineBar", '%1 · <a href="%2">its rows</a>'),
                verdict,
                html.escape(b.batch_id),
            ),
            style.ALERT,
        )
        self.spike_tile.setToolTip(shown(s.message()))

    def _on_spike_link(self, href: str) -> None:
        self.spikeRequested.emit(href)
