"""A package that loads each of its parts the first time one of its names is asked for.

``deadletters`` and ``trends`` export some fifty names from a dozen modules; importing them
all eagerly cost every ``triage-app run`` 30-40 ms for parts it never uses. Each lists its
interface once, as ``_PARTS`` (part -> the names it defines that the package exports), from
which ``lazy_interface`` derives ``__all__`` and the ``__getattr__`` that loads a part on
first use. Its ``__init__`` also imports the same names under ``TYPE_CHECKING``, for type
checkers and import-linter only (tests/cli/test_startup_imports.py holds the two equal).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_interface(
    package: str, parts: Mapping[str, tuple[str, ...]], namespace: dict[str, Any]
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__all__``, ``__getattr__`` and ``__dir__`` of ``package``.
    ``parts`` maps each part (a module of the package) to the names it defines that the
    package exports, each name under one part only. A value once loaded is kept in
    ``namespace`` (the package's globals), so it is looked up only once."""
    part_of: dict[str, str] = {}
    for part, names in parts.items():
        for name in names:
            if name in part_of:  # the table is the interface: a name means one thing
                raise ValueError(
                    f"{package}: {name!r} is listed under {part_of[name]!r} and {part!r}"
                )
            part_of[name] = part

    def __getattr__(name: str) -> Any:
        try:
            part = part_of[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(f"{package}.{part}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(part_of))

    return sorted(part_of), __getattr__, __dir__
