"""Transform plugins dropped into a folder: the ``plugins`` folder in the user's data folder.

A packaged (frozen) Triage Desk carries its own Python and cannot see what ``pip`` installs,
so entry points alone would leave its users without their plugins. There, and everywhere
else alike, every ``NAME.py`` file and every ``NAME/`` package (a folder with an
``__init__.py``) in that folder is imported and asked for its transforms: a module-level
``TRANSFORMS`` (an iterable of ``Transform``) or a ``transforms()`` function returning one.
Names starting with ``_`` or ``.`` are skipped, so a plugin can be switched off by
renaming it.

A plugin can import the standard library, ``triage_app`` and what the app itself ships
(``orjson``, ``sqlalchemy``); anything else must sit in the plugin's own package folder.

A plugin that fails to import, or gives something that is not a transform, is reported,
never fatal: the built-ins and the other plugins still work, and the report names the file
and the cause in one line.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from triage_app.core.messages import _
from triage_app.core.transforms.transform import Transform

# Modules loaded from the folder live under this prefix in sys.modules, so that a plugin
# named like a standard module (``csv.py``) shadows nothing.
MODULE_PREFIX = "triage_desk_plugins"


def plugins_dir() -> Path:
    """The folder a user drops transform plugins into."""
    from triage_app.core.places import user_data_dir

    return user_data_dir() / "plugins"


def plugin_sources(folder: Path) -> list[Path]:
    """The ``.py`` files and packages in ``folder`` that are plugins, by name."""
    if not folder.is_dir():
        return []
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(("_", ".")):
            continue
        module = entry.is_file() and entry.suffix == ".py"
        package = entry.is_dir() and (entry / "__init__.py").is_file()
        if module or package:
            found.append(entry)
    return found


def load_plugin_folder(
    folder: Path, register: Callable[[Transform], object]
) -> tuple[list[str], list[str]]:
    """Import each plugin in ``folder`` and register its transforms. Returns the plugins
    loaded (their file names) and the problems, one line each."""
    loaded: list[str] = []
    problems: list[str] = []
    for source in plugin_sources(folder):
        try:
            module = _import(source)
            for transform in transforms_of(module):
                register(transform)
        except Exception as exc:  # a user's file: whatever it raises is its problem
            problems.append(
                _("plugin {file}: {error}: {cause}").format(
                    file=source, error=type(exc).__name__, cause=_first_line(exc)
                )
            )
        else:
            loaded.append(source.name)
    return loaded, problems


def transforms_of(obj: object) -> list[Transform]:
    """The transforms a plugin gives: a module's ``TRANSFORMS`` or ``transforms()``, an
    entry point's object, a ``Transform`` itself or a callable returning an iterable."""
    if isinstance(obj, ModuleType):
        given = getattr(obj, "TRANSFORMS", None)
        if given is None:
            given = getattr(obj, "transforms", None)
        if given is None:
            raise ValueError(_("defines neither TRANSFORMS nor transforms()"))
        obj = given
    if isinstance(obj, Transform):
        return [obj]
    items = obj() if callable(obj) else obj
    if not isinstance(items, Iterable):
        raise TypeError(
            _("gave {type}, not an iterable of transforms").format(type=type(items).__name__)
        )
    out = list(items)
    for item in out:
        if not isinstance(item, Transform):
            raise TypeError(_("gave {type}, not a Transform").format(type=type(item).__name__))
    return out


def _import(source: Path) -> ModuleType:
    name = f"{MODULE_PREFIX}.{source.stem if source.is_file() else source.name}"
    if name in sys.modules:  # asked again in this process (a registry made afresh)
        return sys.modules[name]
    if source.is_dir():
        spec = importlib.util.spec_from_file_location(
            name, source / "__init__.py", submodule_search_locations=[str(source)]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, source)
    if spec is None or spec.loader is None:
        raise ImportError(_("cannot be imported"))
    _ensure_prefix_package()
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _ensure_prefix_package() -> None:
    if MODULE_PREFIX not in sys.modules:
        package = ModuleType(MODULE_PREFIX)
        package.__path__ = []  # a namespace of its own: nothing is found in it by search
        sys.modules[MODULE_PREFIX] = package


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else _("(no message)")
