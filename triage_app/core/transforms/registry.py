"""The registry of transforms: the built-ins, plugins registered through the entry-point
group ``triage_app.transforms`` (each entry point names a ``Transform`` or a callable
returning an iterable of them), and plugins dropped into the user's plugins folder
(``plugin_folder``), which is how a packaged app, blind to ``pip``, gets them.

The plugins are looked for only when a question needs them: the list of transforms, a
bare name's newest version, or a reference that no built-in answers. Scanning every
installed package's entry points costs a start-up 15 ms, and ``run --transform
pesanan@1`` needs none of it (a plugin cannot replace a built-in: the same reference
twice is an error)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.transforms import jurnal, orders, pesanan
from triage_app.core.transforms.transform import Transform

ENTRY_POINT_GROUP = "triage_app.transforms"
_REF = re.compile(r"([A-Za-z_][\w.-]*)@(\d+)")


class Registry:
    """Transforms by ``name@version``. ``plugins``: what adds the rest, called once, on the
    first question the registered transforms cannot answer alone."""

    def __init__(self, plugins: Callable[[Registry], None] | None = None) -> None:
        self._by_ref: dict[tuple[str, int], Transform] = {}
        self._plugins = plugins
        self._lock = threading.RLock()
        self._loading = False
        # Plugins that could not be loaded, one line each: reported, never fatal, so one
        # broken file does not take the built-ins and the other plugins down with it.
        self.problems: list[str] = []

    def _complete(self) -> None:
        if self._plugins is None:
            return
        # The window asks from several threads: the others wait until the plugins are in.
        with self._lock:
            load = self._plugins
            if load is None or self._loading:  # loaded meanwhile; a plugin asking, itself
                return
            self._loading = True
            before = dict(self._by_ref)
            try:
                load(self)
            except BaseException:
                self._by_ref = before  # asked again, they are looked for again, afresh
                raise
            else:
                self._plugins = None
            finally:
                self._loading = False

    def register(self, transform: Transform) -> Transform:
        key = (transform.name, transform.version)
        existing = self._by_ref.get(key)
        if existing is not None and existing is not transform:
            raise ValueError(_("transform {ref} is registered twice").format(ref=transform.ref))
        self._by_ref[key] = transform
        return transform

    def all(self) -> list[Transform]:
        self._complete()
        return [self._by_ref[k] for k in sorted(self._by_ref)]

    def newest(self, name: str) -> Transform:
        self._complete()
        versions = [t for (n, _), t in self._by_ref.items() if n == name]
        if not versions:
            raise TriageError(self._unknown(repr(name)))
        return max(versions, key=lambda t: t.version)

    def get(self, ref: str) -> Transform:
        """Look up ``name@version``; a bare ``name`` means its newest version."""
        if "@" not in ref:
            return self.newest(ref)
        m = _REF.fullmatch(ref)
        if not m:
            raise TriageError(
                _("bad transform reference {ref}: expected NAME@VERSION").format(ref=repr(ref))
            )
        key = (m.group(1), int(m.group(2)))
        found = self._by_ref.get(key)
        if found is None and self._plugins is not None:
            self._complete()
            found = self._by_ref.get(key)
        if found is None:
            raise TriageError(self._unknown(ref))
        return found

    def _unknown(self, ref: str) -> str:
        """One line: ``ref`` is no transform; the known ones, and the plugins that failed."""
        text = _("unknown transform {ref}; known: {known}").format(ref=ref, known=self.known())
        if self.problems:
            n = len(self.problems)
            text += " " + ngettext(
                "({n} plugin failed to load: {problem})",
                "({n} plugins failed to load: {problem})",
                n,
            ).format(n=format_int(n), problem=self.problems[0])
        return text

    def known(self) -> str:
        return ", ".join(t.ref for t in self.all()) or _("none")


def _load_plugins(registry: Registry) -> None:
    from importlib.metadata import entry_points

    from triage_app.core.transforms.plugin_folder import (
        load_plugin_folder,
        plugins_dir,
        transforms_of,
    )

    problems: list[str] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            for t in transforms_of(ep.load()):
                registry.register(t)
        except Exception as exc:  # someone else's package: report it, keep the rest
            cause = (str(exc).strip().splitlines() or [_("(no message)")])[0]
            problems.append(
                _("entry point {name} ({value}): {error}: {cause}").format(
                    name=ep.name, value=ep.value, error=type(exc).__name__, cause=cause
                )
            )
    folder_problems = load_plugin_folder(plugins_dir(), registry.register)[1]
    registry.problems = problems + folder_problems


_default: Registry | None = None


def default_registry() -> Registry:
    """The built-ins plus every installed plugin, loaded once (when first needed)."""
    global _default
    if _default is None:
        reg = Registry(plugins=_load_plugins)
        for t in (*pesanan.TRANSFORMS, *orders.TRANSFORMS, *jurnal.TRANSFORMS):
            reg.register(t)
        _default = reg
    return _default


def personal_fields_of(ref: str | None) -> tuple[str, ...]:
    """The personal fields of the transform ``ref`` names (its newest version's when that
    version is not known here, a plugin gone say; none when the name is unknown either)."""
    if not ref:
        return ()
    reg = default_registry()
    try:
        return reg.get(ref).personal_fields
    except TriageError:
        pass
    try:
        return reg.newest(ref.split("@", 1)[0]).personal_fields
    except TriageError:
        return ()
