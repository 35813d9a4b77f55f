"""gettext's two file formats, read and written without gettext's tools: ``.po`` (the
catalogue translators edit) and ``.mo`` (what ``gettext.GNUTranslations`` reads).

Only what the desk's catalogues use: no ``msgctxt``, a ``#, fuzzy`` entry counts as not
translated, ``#:`` lines say where a text is used.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    """One message: its English (``msgid``, and ``plural`` when it counts), its translation
    (one string, or one per plural form), where the sources use it."""

    msgid: str
    plural: str | None = None
    translations: list[str] = field(default_factory=list)
    where: list[str] = field(default_factory=list)
    fuzzy: bool = False

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.msgid, self.plural)

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.translations) and all(self.translations)


@dataclass
class Catalogue:
    """A ``.po`` file: its header lines (``Plural-Forms`` among them) and its entries."""

    header: dict[str, str]
    entries: list[Entry]

    def by_key(self) -> dict[tuple[str, str | None], Entry]:
        return {e.key: e for e in self.entries}


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted .po string: {text[:40]!r}")
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _quote(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return f'"{escaped}"'


def read_po(path: Path) -> Catalogue:
    """The catalogue in ``path``; ValueError naming the line when it is not a .po file."""
    entries: list[Entry] = []
    current: Entry | None = None
    field_name: str | None = None
    where: list[str] = []
    fuzzy = False

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        try:
            if not line:
                finish()
                field_name = None
            elif line.startswith("#:"):
                if current is not None and field_name is not None and field_name != "msgid":
                    finish()
                where.extend(line[2:].split())
            elif line.startswith("#,"):
                fuzzy = "fuzzy" in line
            elif line.startswith("#"):
                continue
            elif line.startswith("msgid_plural "):
                assert current is not None
                current.plural, field_name = _unquote(line[13:]), "msgid_plural"
            elif line.startswith("msgid "):
                finish()
                current = Entry(_unquote(line[6:]), where=where, fuzzy=fuzzy)
                where, fuzzy, field_name = [], False, "msgid"
            elif line.startswith("msgstr["):
                assert current is not None
                index = int(line[7 : line.index("]")])
                value = _unquote(line[line.index("]") + 1 :])
                while len(current.translations) <= index:
                    current.translations.append("")
                current.translations[index] = value
                field_name = f"msgstr[{index}]"
            elif line.startswith("msgstr "):
                assert current is not None
                current.translations = [_unquote(line[7:])]
                field_name = "msgstr"
            elif line.startswith('"'):
                assert current is not None and field_name is not None
                more = _unquote(line)
                if field_name == "msgid":
                    current.msgid += more
                elif field_name == "msgid_plural":
                    current.plural = (current.plural or "") + more
                else:
                    index = int(field_name[7:-1]) if field_name.startswith("msgstr[") else 0
                    current.translations[index] += more
            else:
                raise ValueError("unexpected text")
        except (ValueError, AssertionError, IndexError) as exc:
            raise ValueError(f"{path}:{number}: not a .po line ({exc})") from None
    finish()
    header: dict[str, str] = {}
    body = []
    for entry in entries:
        if entry.msgid == "" and entry.plural is None:
            for item in (entry.translations or [""])[0].splitlines():
                name, _, value = item.partition(":")
                header[name.strip()] = value.strip()
        else:
            body.append(entry)
    return Catalogue(header, body)


def write_po(path: Path, catalogue: Catalogue) -> None:
    """``catalogue`` as a .po file, entries in the order given."""
    lines = ['msgid ""', 'msgstr ""']
    lines += [_quote(f"{name}: {value}\n") for name, value in catalogue.header.items()]
    for entry in catalogue.entries:
        lines.append("")
        if entry.where:
            lines.append("#: " + " ".join(entry.where))
        if entry.fuzzy:
            lines.append("#, fuzzy")
        lines.append("msgid " + _quote(entry.msgid))
        if entry.plural is not None:
            lines.append("msgid_plural " + _quote(entry.plural))
            forms = entry.translations or [""]
            lines += [f"msgstr[{i}] {_quote(form)}" for i, form in enumerate(forms)]
        else:
            lines.append("msgstr " + _quote((entry.translations or [""])[0]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_mo(path: Path, header: dict[str, str], entries: Iterable[Entry]) -> None:
    """The translated ``entries`` as a GNU .mo file (no hash table: gettext does not need
    one), with ``header`` (its ``Plural-Forms`` tells gettext the language's plural rule)."""
    pairs: dict[bytes, bytes] = {
        b"": "".join(f"{k}: {v}\n" for k, v in header.items()).encode("utf-8")
    }
    for entry in entries:
        if not entry.translated:
            continue
        original = entry.msgid if entry.plural is None else f"{entry.msgid}\0{entry.plural}"
        pairs[original.encode("utf-8")] = "\0".join(entry.translations).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    table_o, table_t, blob = [], [], bytearray()
    for key in keys:
        table_o.append((len(key), data_at + len(blob)))
        blob += key + b"\0"
    for key in keys:
        value = pairs[key]
        table_t.append((len(value), data_at + len(blob)))
        blob += value + b"\0"
    out = bytearray(
        struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, data_at)
    )
    for length, offset in table_o + table_t:
        out += struct.pack("<2I", length, offset)
    out += blob
    path.write_bytes(bytes(out))
