"""The registry of named, versioned transforms.

A transform is a pure function from one parsed record to one warehouse row (a tuple in
the order of its declared columns), or an exception. Plugins register through the
entry-point group ``triage_app.transforms``: each entry point names a ``Transform`` or a
callable returning an iterable of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Literal

from triage_app.core.errors import TriageError

ColumnType = Literal["int", "text", "real"]
ENTRY_POINT_GROUP = "triage_app.transforms"


@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType


@dataclass(frozen=True)
class Transform:
    """A named, versioned transform and the warehouse table it writes."""

    name: str
    version: int
    table: str
    key: str
    columns: tuple[Column, ...]
    fn: Callable[[Any], tuple[Any, ...]]
    ordering: str | None = None  # column whose larger value wins (newest wins)
    input_format: Literal["jsonl", "csv"] = "jsonl"
    description: str = ""
    # Optional, JSONL only: a raw record's bytes straight to its row, for speed. It may raise
    # anything for any record, which means "ask fn": fn decides every failure and its
    # evidence. Wherever it returns, it must return exactly fn(orjson.loads(raw)).
    fast: Callable[[bytes], tuple[Any, ...]] | None = None

    @property
    def ref(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def __post_init__(self) -> None:
        names = self.column_names
        if self.key not in names:
            raise ValueError(f"{self.ref}: key {self.key!r} is not a column")
        if self.ordering is not None and self.ordering not in names:
            raise ValueError(f"{self.ref}: ordering {self.ordering!r} is not a column")
        for n in (self.table, *names):
            if not _NAME.fullmatch(n) or n.startswith("_"):
                raise ValueError(f"{self.ref}: bad table or column name {n!r}")


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
_REF = re.compile(r"([A-Za-z_][\w.-]*)@(\d+)")


class Registry:
    def __init__(self) -> None:
        self._by_ref: dict[tuple[str, int], Transform] = {}

    def register(self, transform: Transform) -> Transform:
        key = (transform.name, transform.version)
        existing = self._by_ref.get(key)
        if existing is not None and existing is not transform:
            raise ValueError(f"transform {transform.ref} is registered twice")
        self._by_ref[key] = transform
        return transform

    def all(self) -> list[Transform]:
        return [self._by_ref[k] for k in sorted(self._by_ref)]

    def newest(self, name: str) -> Transform:
        versions = [t for (n, _), t in self._by_ref.items() if n == name]
        if not versions:
            raise TriageError(f"unknown transform {name!r}; known: {self.known()}")
        return max(versions, key=lambda t: t.version)

    def get(self, ref: str) -> Transform:
        """Look up ``name@version``; a bare ``name`` means its newest version."""
        if "@" not in ref:
            return self.newest(ref)
        m = _REF.fullmatch(ref)
        if not m:
            raise TriageError(f"bad transform reference {ref!r}: expected NAME@VERSION")
        found = self._by_ref.get((m.group(1), int(m.group(2))))
        if found is None:
            raise TriageError(f"unknown transform {ref}; known: {self.known()}")
        return found

    def known(self) -> str:
        return ", ".join(t.ref for t in self.all()) or "none"


def _load_plugins(registry: Registry) -> None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        loaded = ep.load()
        items: Iterable[Transform]
        items = [loaded] if isinstance(loaded, Transform) else loaded()
        for t in items:
            registry.register(t)


_default: Registry | None = None


def default_registry() -> Registry:
    """The built-ins plus every installed plugin, loaded once."""
    global _default
    if _default is None:
        from triage_app.core.transforms import orders, pesanan

        reg = Registry()
        for t in (*pesanan.TRANSFORMS, *orders.TRANSFORMS):
            reg.register(t)
        _load_plugins(reg)
        _default = reg
    return _default
