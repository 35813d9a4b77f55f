"""The window's colours, in one place: what each colour means is named here, and every
widget, chart and dialog takes it from here.

Red is "needs a person" or "wrong", green "done" or "fine", amber a warning; the three
error classes keep one colour each everywhere (table, charts, groups).
"""

from __future__ import annotations

from triage_app.core.vocabulary import ErrorClass, RedriveOutcome

# Text and lines.
INK = "#111827"  # titles, text on coloured rows
TEXT = "#374151"  # chart axes and labels
SECONDARY = "#4b5563"  # the workspace label
MUTED = "#6b7280"  # hints, placeholders, empty states
RULE = "#d1d5db"  # legend frames
GREY_FILL = "#f3f4f6"  # the editor's line numbers, skipped rows
FOCUS = "#2563eb"  # the keyboard focus: the ring around the focused table or text

# Meaning.
ERROR = "#b91c1c"  # a refusal, an invalid edit, a failed job
ERROR_STRONG = "#991b1b"  # "still fails" after Try
ALERT = "#dc2626"  # parked, a spike, the error marker
VALID = "#047857"  # valid JSON
LOADS = "#065f46"  # "would load" after Try
NOTE_TEXT = "#92400e"  # a note above the editor
NOTE_FILL = "#fef3c7"
ADDED = "#dcfce7"  # a diff's added lines, a re-drive that succeeds
REMOVED = "#fee2e2"  # a diff's removed lines, a re-drive that fails
GAP = "#e0e7ff"  # a diff's hunk header

CLASS_COLOURS = {
    ErrorClass.DATA.value: "#b45309",
    ErrorClass.CODE.value: "#7c3aed",
    ErrorClass.TRANSIENT.value: "#0369a1",
}
UNKNOWN_CLASS = MUTED

OUTCOME_FILLS = {
    RedriveOutcome.WOULD_SUCCEED.value: ADDED,
    RedriveOutcome.RESOLVED.value: ADDED,
    RedriveOutcome.WOULD_FAIL.value: REMOVED,
    RedriveOutcome.FAILED.value: REMOVED,
    RedriveOutcome.PARKED.value: NOTE_FILL,
    RedriveOutcome.SKIPPED.value: GREY_FILL,
    RedriveOutcome.LAPSED.value: NOTE_FILL,  # left as it is: a person looks again
    RedriveOutcome.UNDELIVERED.value: NOTE_FILL,  # a sink did not confirm: left open
}

# Trends: the backlog's two lines, the attempts histogram, the rate chart.
WAITING = "#64748b"  # not parked yet
OPEN = "#ea580c"
RESOLVED = "#16a34a"
RATE = "#94a3b8"

# JSON highlighting in the payload editor.
JSON_NUMBER = "#b45309"
JSON_LITERAL = "#7c3aed"
JSON_STRING = VALID
JSON_KEY = "#1d4ed8"
ERROR_LINE = "#fde8e8"
ERROR_CHAR = "#fca5a5"

# Style sheets that several widgets share.
HINT = f"color: {MUTED};"
LINK_CHIP = "background: #eef2ff; color: #3730a3; border-radius: 8px; padding: 1px 8px;"
# A dead letter of a held (all-or-nothing) batch: its batch loads only whole.
HELD_BANNER = (
    f"background: {NOTE_FILL}; color: {NOTE_TEXT}; border: 1px solid #fcd34d; "
    "border-radius: 4px; padding: 4px 6px;"
)
SPIKE_BANNER = (
    "#spikeBanner { background: #fef2f2; border: 1px solid #fca5a5; border-radius: 4px; }"
    "#spikeBanner QLabel { color: #7f1d1d; }"
)

# Tables and text areas: most platform styles draw nothing when one of them has the
# keyboard focus, so a steward moving by keyboard could not see where the arrows or the
# typing go. Either state is two pixels deep (a rule and its padding, or the ring), so the
# contents do not move when the focus comes or goes. The window sets it on itself; its
# dialogs inherit it.
FOCUS_RING = (
    "QTableView, QTreeView, QPlainTextEdit, QTextEdit "
    f"{{ border: 1px solid {RULE}; padding: 1px; }}"
    "QTableView:focus, QTreeView:focus, QPlainTextEdit:focus, QTextEdit:focus "
    f"{{ border: 2px solid {FOCUS}; padding: 0px; }}"
)


def class_colour(error_class: str) -> str:
    return CLASS_COLOURS.get(error_class, UNKNOWN_CLASS)


def coloured(text: str, colour: str) -> str:
    """Rich text in one colour (``text`` is already escaped)."""
    return f"<span style='color:{colour}'>{text}</span>"
