"""A package that loads each of its parts the first time one of its names is asked for.

``deadletters`` and ``trends`` export some fifty names from a dozen modules; importing them
all eagerly cost every ``triage-app run`` 30-40 ms for parts it never uses. Their
``__init__`` keeps the eager imports for type checkers and import-linter only, and answers
at run time through the ``__getattr__`` made here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(
    package: str, source: Mapping[str, tuple[str, str]], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``. ``source`` maps each
    exported name to (the part that defines it, its name there); a value once loaded is
    kept in ``namespace`` (the package's globals), so it is looked up only once."""

    def __getattr__(name: str) -> Any:
        try:
            part, there = source[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(f"{package}.{part}"), there)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(source))

    return __getattr__, __dir__
