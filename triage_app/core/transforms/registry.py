"""The registry of transforms: the built-ins, and plugins registered through the entry-point
group ``triage_app.transforms`` (each entry point names a ``Transform`` or a callable
returning an iterable of them)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib.metadata import entry_points

from triage_app.core.errors import TriageError
from triage_app.core.transforms import orders, pesanan
from triage_app.core.transforms.transform import Transform

ENTRY_POINT_GROUP = "triage_app.transforms"
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
        reg = Registry()
        for t in (*pesanan.TRANSFORMS, *orders.TRANSFORMS):
            reg.register(t)
        _load_plugins(reg)
        _default = reg
    return _default
