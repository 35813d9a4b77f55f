"""What a steward types that the store keeps and shows to others: an error group's owner,
tags and note, a dead letter's note, and the reason of a park, a discard or a reopen.

Each is checked here, on its way in, for both stores alike, by every entry point (the
command line, the window, a script calling core): control characters are refused, since a
terminal or a spreadsheet would act on them (``\\x1b]0;...`` retitles a terminal, BEL rings,
CR rewrites the line), and so are the invisible and reordering marks; a note may hold
newlines and tabs, the rest is one line. The limits are set once, in ``LIMITS``. A refusal
is one line naming the field and the character (``the owner holds \\x1b (ESC) at 3``).

What is already in a store from before these checks is not trusted either: the command
line escapes every text from the store (``cli.support.for_terminal``), CSV cells go through
``csv_cells.safe_cell``, and the report's HTML through ``html.escape``.
"""

from __future__ import annotations

import re
import unicodedata

from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _

# The longest each may be, in characters. An owner or a tag is a name that fits a column
# of the groups table; a note or a reason is a few sentences, not a document.
LIMITS: dict[str, int] = {"owner": 80, "tag": 80, "note": 2000, "reason": 2000}
# Each field as a refusal names it, the subject of its sentence ("the owner holds ...").
_FIELDS: dict[str, str] = {
    "owner": N_("the owner"),
    "tag": N_("the tag"),
    "note": N_("the note"),
    "reason": N_("the reason"),
}

# What a terminal acts on instead of showing (cli.support.for_terminal uses shown() below):
# C0 and C1 controls, DEL, bidi overrides and isolates, zero-width and line-separator
# marks, the byte order mark, and lone surrogates (bytes that were not UTF-8).
_UNSHOWN = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069"
    "\ufeff\ud800-\udfff]"
)
# A note may run over several lines, with tabs; nothing else a terminal acts on.
_MULTI_LINE_OK = frozenset("\n\t")
# Names people know the commonest by.
_NAMES = {
    0x07: "BEL",
    0x08: "BS",
    0x09: "TAB",
    0x0A: "newline",
    0x0D: "CR",
    0x1B: "ESC",
    0x7F: "DEL",
    0x9B: "CSI",
}


def char_name(ch: str) -> str:
    """``\\x1b (ESC)``: the character as a person can type it back, and its name."""
    n = ord(ch)
    code = f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"
    name = _NAMES.get(n) or unicodedata.name(ch, "")
    return f"{code} ({name})" if name else code


def checked(field: str, value: str, *, multi_line: bool = False) -> str:
    """``value`` with its ends stripped, or a TriageError in one line naming ``field`` and
    what is wrong with it: a control character (the first, and where), or its length past
    ``LIMITS[field]``."""
    text = value.strip()
    named = _(_FIELDS[field]) if field in _FIELDS else field
    for m in _UNSHOWN.finditer(text):
        if multi_line and m.group() in _MULTI_LINE_OK:
            continue
        if multi_line:
            said = _("{field} holds {char} at character {at}: control characters are not kept")
        else:
            said = _(
                "{field} holds {char} at character {at}: control characters are not kept (it "
                "is one line)"
            )
        raise TriageError(
            said.format(field=named, char=char_name(m.group()), at=format_int(m.start() + 1))
        )
    limit = LIMITS[field]
    if len(text) > limit:
        raise TriageError(
            _("{field} is {n} characters long: at most {limit}").format(
                field=named, n=format_int(len(text)), limit=format_int(limit)
            )
        )
    return text


def owner(value: str) -> str:
    """An owner's name: one line, not empty, at most ``LIMITS['owner']`` characters."""
    text = checked("owner", value)
    if not text:
        raise TriageError(_("an owner is a name: it cannot be empty (--no-owner: nobody)"))
    return text


def tag(value: str) -> str:
    """A tag: one line, at most ``LIMITS['tag']`` characters; empty is no tag ("")."""
    return checked("tag", value)


def note(value: str) -> str:
    """A note: lines and tabs allowed, at most ``LIMITS['note']`` characters."""
    return checked("note", value, multi_line=True)


def reason(value: str) -> str:
    """The reason of a park, a discard or a reopen: one line."""
    return checked("reason", value)


def shown(text: str) -> str:
    """``text`` as a person reads it and no terminal acts on: each character the checks
    refuse as ``\\xNN``/``\\uNNNN`` (a byte kept as a lone surrogate as that byte). For text
    already in a store, from before these checks or from a partner's file, that goes where
    a terminal may show it (the report's Markdown, read with ``cat`` as often as rendered).
    The command line escapes through it too (``cli.support.for_terminal``)."""

    def escaped(m: re.Match[str]) -> str:
        n = ord(m.group())
        if 0xDC80 <= n <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape): that byte
            n -= 0xDC00
        return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"

    return _UNSHOWN.sub(escaped, text)
