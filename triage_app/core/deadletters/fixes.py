"""Fixes for many dead letters at once (issue 13): a JSON Patch (RFC 6902), or a form for
the common cases (set, default, rename, trim, to a number, map values), applied to each
row's payload as a JSON value. A CSV dead letter is patched as its header -> value object,
as a person edits it.

A fix decides per row: the new payload, or why it does not apply ("diskon already has a
value", "the payload is not valid JSON"), never a silent skip. The same function serves the
preview and the write (``change_sets.py``), which runs it again on the row it locked, so a
row that changed since the preview is refused rather than patched blind.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from triage_app.core.batch import csv_header_names, decode_csv
from triage_app.core.deadletters.said import both, reason_of
from triage_app.core.errors import TriageError
from triage_app.core.messages import N_, _
from triage_app.core.vocabulary import PayloadKind, edited_kind

# The form's steps: what each does to a row, and the JSON Patch it becomes there.
FORM_STEPS = ("set", "default", "rename", "trim", "to_number", "map")
_NUMBER = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*")
_INTEGER = re.compile(r"\s*[-+]?\d+\s*")


class NotApplicable(Exception):
    """The fix does not apply to this row; the message says why, in one line (a ``Said``:
    a preview's ``--json`` keeps its English)."""


@dataclass(frozen=True)
class Step:
    """One step of a form fix. ``field``: a top-level key, or a JSON Pointer (``/a/b``)."""

    op: str
    field: str
    value: Any = None  # set, default: the value; rename: the new name; map: {old: new}

    def __post_init__(self) -> None:
        if self.op not in FORM_STEPS:
            raise TriageError(
                _("unknown fix step {step}; known: {known}").format(
                    step=repr(self.op), known=", ".join(FORM_STEPS)
                )
            )
        if not self.field:
            raise TriageError(_("{step}: name a field").format(step=self.op))
        if self.op == "rename" and (not isinstance(self.value, str) or not self.value):
            raise TriageError(_("rename: name the new field (OLD=NEW)"))
        if self.op == "map" and (not isinstance(self.value, dict) or not self.value):
            raise TriageError(
                _("map: give the values as a JSON object, e.g. {example}").format(
                    example='{"lunas": "paid"}'
                )
            )

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"op": self.op, "field": self.field}
        if self.op in ("set", "default", "rename", "map"):
            d["value"] = self.value
        return d


@dataclass(frozen=True)
class Fix:
    """A JSON Patch, or the steps of a form, and how people will read it in the history."""

    patch: tuple[dict[str, Any], ...] = ()
    steps: tuple[Step, ...] = ()
    description: str = field(default="")

    def __post_init__(self) -> None:
        if bool(self.patch) == bool(self.steps):
            raise TriageError(_("a fix is a JSON Patch or form steps (--set, --default, ...)"))
        if self.patch:
            _check_patch(self.patch)
        if not self.description:
            object.__setattr__(self, "description", describe(self))

    def spec(self) -> str:
        """What the change-set keeps of the fix: JSON, ``{"patch": [...]}`` or
        ``{"steps": [...]}``."""
        if self.patch:
            return orjson.dumps({"patch": list(self.patch)}).decode()
        return orjson.dumps({"steps": [s.to_json() for s in self.steps]}).decode()

    def apply(self, value: Any) -> Any:
        """The fixed value; NotApplicable when the fix does not apply or changes nothing."""
        if self.patch:
            fixed = apply_patch(value, self.patch)
        else:
            fixed = value
            for step in self.steps:  # each step sees what the one before it made
                fixed = apply_patch(fixed, _step_operations(step, fixed))
        if _canonical(fixed) == _canonical(value):
            raise NotApplicable(both(N_("the fix changes nothing here")))
        return fixed


def step_from_text(op: str, field: str, value: str = "") -> Step:
    """A step as a person types it (the command line, the window's form): a value as JSON,
    or else as text (``set status=paid``); rename's new name; map's values as a JSON
    object. TriageError in one line when it is not one."""
    if op in ("trim", "to_number"):
        return Step(op, field)
    if op == "rename":
        return Step(op, field, value.strip())
    try:
        parsed = orjson.loads(value)
    except orjson.JSONDecodeError:
        if op == "map":
            raise TriageError(
                _("map {field}: the values must be a JSON object, e.g. {example}").format(
                    field=field, example='{"lunas": "paid"}'
                )
            ) from None
        parsed = value  # a bare word is the text
    return Step(op, field, parsed)


def fix_from_spec(text: str, description: str = "") -> Fix:
    """A fix as a change-set keeps it (``Fix.spec``)."""
    spec = orjson.loads(text)
    if "patch" in spec:
        return Fix(patch=tuple(spec["patch"]), description=description)
    return Fix(steps=tuple(Step(**s) for s in spec["steps"]), description=description)


def read_patch(text: str) -> tuple[dict[str, Any], ...]:
    """A JSON Patch document (an array of operations), checked; TriageError in one line."""
    try:
        ops = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise TriageError(_("the patch is not valid JSON: {error}").format(error=exc)) from None
    if not isinstance(ops, list) or not ops:
        raise TriageError(_("a JSON Patch is a non-empty array of operations"))
    return tuple(_check_patch(ops))


def describe(fix: Fix) -> str:
    """The fix in a line, for the history and the list of change-sets: stored as the
    change-set's description, so in English (the operations are the patch's own words)."""
    if fix.patch:
        parts = [f"{o.get('op')} {o.get('path')}" for o in fix.patch[:4]]
        more = f" and {len(fix.patch) - 4} more" if len(fix.patch) > 4 else ""
        return "JSON Patch: " + ", ".join(parts) + more
    said = []
    for s in fix.steps:
        if s.op in ("set", "default"):
            said.append(f"{s.op} {s.field} = {orjson.dumps(s.value).decode()}")
        elif s.op == "rename":
            said.append(f"rename {s.field} -> {s.value}")
        elif s.op == "map":
            pairs = ", ".join(f"{k} -> {v}" for k, v in list(s.value.items())[:4])
            said.append(f"map {s.field}: {pairs}")
        else:
            said.append(f"{s.op.replace('_', ' ')} {s.field}")
    return "; ".join(said)


# -- a row's payload as a JSON value, and back ------------------------------------------------
def payload_value(raw: bytes, kind: str, csv_header: bytes | None) -> Any:
    """The JSON value a fix works on: the payload parsed, or a CSV row as header -> value.
    NotApplicable when it is neither (a line cut off mid-string, say)."""
    if kind == PayloadKind.CSV:
        try:
            return decode_csv(raw, csv_header_names(csv_header or b""))
        except (TriageError, ValueError, UnicodeDecodeError) as exc:
            raise NotApplicable(
                both(N_("the CSV row cannot be read as its columns: {error}"), error=_line(exc))
            ) from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise NotApplicable(
            both(N_("the payload is not valid JSON: {error}"), error=_line(exc))
        ) from None


def fixed_payload(fix: Fix, raw: bytes, kind: str, csv_header: bytes | None) -> bytes:
    """The row's new payload (as an edit stores it: JSON, kind ``edited_kind(kind)``);
    NotApplicable with the reason."""
    fixed = fix.apply(payload_value(raw, kind, csv_header))
    if edited_kind(kind) == PayloadKind.JSON_CSV and not isinstance(fixed, dict):
        raise NotApplicable(both(N_("a CSV row must stay an object of column -> value")))
    return orjson.dumps(fixed)


def what_changed(before: bytes, after: bytes, kind: str, csv_header: bytes | None) -> str:
    """The fix on one row in a line a person reads at a glance ("diskon: null -> 0;
    + kanal: "web""): fields changed, added (+) and removed (-), at the top level."""
    old = payload_value(before, kind, csv_header)
    new = orjson.loads(after)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return f"{_short(old)} -> {_short(new)}"
    said = []
    for key, value in new.items():
        if key not in old:
            said.append(f"+ {key}: {_short(value)}")
        elif _canonical(old[key]) != _canonical(value):
            said.append(f"{key}: {_short(old[key])} -> {_short(value)}")
    said += [f"- {key}" for key in old if key not in new]
    return "; ".join(said)


def _short(value: Any, most: int = 40) -> str:
    text = orjson.dumps(value).decode()
    return text if len(text) <= most else text[: most - 1] + "…"


# -- the steps -------------------------------------------------------------------------------
def _pointer(name: str) -> str:
    if name.startswith("/"):
        return name
    return "/" + name.replace("~", "~0").replace("/", "~1")


def _lookup(value: Any, pointer: str) -> tuple[bool, Any]:
    """Whether ``pointer`` names something in ``value``, and what."""
    current = value
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(current, dict) and token in current:
            current = current[token]
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
        else:
            return False, None
    return True, current


def _step_operations(step: Step, value: Any) -> list[dict[str, Any]]:
    path = _pointer(step.field)
    found, current = _lookup(value, path)
    if step.op == "set":
        return [{"op": "add", "path": path, "value": step.value}]
    if step.op == "default":
        if found and current is not None:
            raise NotApplicable(both(N_("{field} already has a value"), field=step.field))
        return [{"op": "replace" if found else "add", "path": path, "value": step.value}]
    if not found:
        raise NotApplicable(both(N_("there is no {field}"), field=step.field))
    if step.op == "rename":
        target = _pointer(step.value)
        if _lookup(value, target)[0]:
            raise NotApplicable(both(N_("{field} is there already"), field=step.value))
        return [{"op": "move", "from": path, "path": target}]
    if step.op == "trim":
        if not isinstance(current, str):
            raise NotApplicable(both(N_("{field} is not text"), field=step.field))
        trimmed = current.strip()
        if trimmed == current:
            raise NotApplicable(both(N_("{field} has nothing to trim"), field=step.field))
        return [{"op": "replace", "path": path, "value": trimmed}]
    if step.op == "to_number":
        return [{"op": "replace", "path": path, "value": _number(step.field, current)}]
    # map
    if isinstance(current, str) and current in step.value:
        return [{"op": "replace", "path": path, "value": step.value[current]}]
    shown = orjson.dumps(current).decode()
    raise NotApplicable(
        both(
            N_("{field} is {value}, none of the values mapped"),
            field=step.field,
            value=shown[:60],
        )
    )


def _number(name: str, current: Any) -> int | float:
    if isinstance(current, bool) or not isinstance(current, str):
        if isinstance(current, int | float):
            raise NotApplicable(both(N_("{field} is a number already"), field=name))
        raise NotApplicable(both(N_("{field} is not text"), field=name))
    if _INTEGER.fullmatch(current):
        return int(current)
    if _NUMBER.fullmatch(current):
        number = float(current)
        if math.isfinite(number):
            return number
    raise NotApplicable(
        both(N_("{field} is not a number: {value}"), field=name, value=repr(current[:40]))
    )


# -- JSON Patch -----------------------------------------------------------------------------
_OPS = {"add", "remove", "replace", "move", "copy", "test"}


def _check_patch(ops: Sequence[Any]) -> Sequence[dict[str, Any]]:
    for i, op in enumerate(ops):
        if (
            not isinstance(op, dict)
            or op.get("op") not in _OPS
            or not isinstance(op.get("path"), str)
        ):
            raise TriageError(
                _("patch operation {n} is not RFC 6902: each needs op ({ops}) and path").format(
                    n=i + 1, ops=", ".join(sorted(_OPS))
                )
            )
        if op["op"] in ("move", "copy") and not isinstance(op.get("from"), str):
            raise TriageError(
                _("patch operation {n} ({op}) needs from").format(n=i + 1, op=op["op"])
            )
        for key in ("path", "from"):
            pointer = op.get(key)
            if isinstance(pointer, str) and pointer and not pointer.startswith("/"):
                raise TriageError(
                    _(
                        "patch operation {n}: {key} {pointer} is not a JSON Pointer "
                        "(it starts with /)"
                    ).format(n=i + 1, key=key, pointer=repr(pointer))
                )
        if op["op"] in ("add", "replace", "test") and "value" not in op:
            raise TriageError(
                _("patch operation {n} ({op}) needs value").format(n=i + 1, op=op["op"])
            )
    return ops


def apply_patch(doc: Any, ops: Sequence[Mapping[str, Any]]) -> Any:
    """RFC 6902: ``ops`` applied in order to ``doc``, which is left as it was. Only the
    objects and arrays on each operation's path are copied (the rest is shared, and never
    written), so a fix costs what it changes, not the size of the payload: a deep copy per
    row made a 100,000-row preview four times slower. NotApplicable, with the operation and
    why, when one cannot apply (a missing path, a failed test)."""
    holder = [doc]
    for n, op in enumerate(ops, 1):
        try:
            _operation(holder, op)
        except NotApplicable as exc:
            raise NotApplicable(
                both(
                    N_("{why} (operation {n}: {op} {path})"),
                    why=reason_of(exc),
                    n=n,
                    op=op["op"],
                    path=op["path"],
                )
            ) from None
    return holder[0]


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise NotApplicable(
            both(
                N_("the patch does not apply: {pointer} is not a JSON Pointer"),
                pointer=repr(pointer),
            )
        )
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _index(container: list[Any], token: str, *, adding: bool = False) -> int:
    if adding and token == "-":
        return len(container)
    if not token.isdigit() or (token != "0" and token.startswith("0")):
        raise NotApplicable(
            both(N_("the patch does not apply: {token} is not an array index"), token=repr(token))
        )
    i = int(token)
    if i > len(container) or (i == len(container) and not adding):
        raise NotApplicable(both(N_("the patch does not apply: index {i} is past the end"), i=i))
    return i


def _no_such(token: str) -> Any:
    return both(N_("the patch does not apply: there is no {token}"), token=repr(token))


def _inside(token: str) -> Any:
    return both(N_("the patch does not apply: {token} is inside a value"), token=repr(token))


def _get(doc: Any, tokens: list[str]) -> Any:
    current = doc
    for token in tokens:
        if isinstance(current, dict):
            if token not in current:
                raise NotApplicable(_no_such(token))
            current = current[token]
        elif isinstance(current, list):
            current = current[_index(current, token)]
        else:
            raise NotApplicable(_inside(token))
    return current


def _parent(holder: list[Any], tokens: list[str]) -> Any:
    """The container ``tokens[:-1]`` names, copied (as is every one above it) so that it
    can be written without touching the document the patch was given."""
    owner: Any = holder
    key: Any = 0
    for token in tokens[:-1]:
        child = owner[key]
        if isinstance(child, dict):
            child = dict(child)
        elif isinstance(child, list):
            child = list(child)
        else:
            raise NotApplicable(_inside(token))
        owner[key] = child
        if isinstance(child, dict):
            if token not in child:
                raise NotApplicable(_no_such(token))
            owner, key = child, token
        else:
            owner, key = child, _index(child, token)
    child = owner[key]
    if isinstance(child, dict):
        child = dict(child)
    elif isinstance(child, list):
        child = list(child)
    else:
        raise NotApplicable(both(N_("the patch does not apply: the path goes inside a value")))
    owner[key] = child
    return child


def _add(holder: list[Any], tokens: list[str], value: Any) -> None:
    if not tokens:
        holder[0] = value
        return
    parent = _parent(holder, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    else:
        parent.insert(_index(parent, last, adding=True), value)


def _remove(holder: list[Any], tokens: list[str]) -> Any:
    if not tokens:
        raise NotApplicable(both(N_("the patch does not apply: it would remove the whole payload")))
    parent = _parent(holder, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise NotApplicable(_no_such(last))
        return parent.pop(last)
    return parent.pop(_index(parent, last))


def _operation(holder: list[Any], op: Mapping[str, Any]) -> None:
    kind, path = op["op"], _tokens(op["path"])
    if kind == "add":
        _add(holder, path, op["value"])
    elif kind == "remove":
        _remove(holder, path)
    elif kind == "replace":
        _get(holder[0], path)  # it must be there
        if not path:
            holder[0] = op["value"]
        else:
            parent = _parent(holder, path)  # in place: a key keeps its position
            key = path[-1] if isinstance(parent, dict) else _index(parent, path[-1])
            parent[key] = op["value"]
    elif kind == "test":
        if not _json_equal(_get(holder[0], path), op["value"]):
            raise NotApplicable(
                both(
                    N_("test failed: {path} is not {value}"),
                    path=op["path"],
                    value=_short(op["value"]),
                )
            )
    else:  # move, copy
        source = _tokens(op["from"])
        value = _get(holder[0], source)
        if kind == "move":
            if path == source:
                return  # to where it is: nothing moves
            if path[: len(source)] == source and len(path) > len(source):
                raise NotApplicable(
                    both(N_("the patch does not apply: a value cannot move into itself"))
                )
            _remove(holder, source)
        _add(holder, path, value)


def _json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON values: a boolean is never a number, and 1 equals 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
