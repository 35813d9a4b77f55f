"""Transforms: what a transform is, the built-ins (``pesanan@1``, ``pesanan@2``,
``orders@1``, and the all-or-nothing ``jurnal@1``) and the registry that finds them and the
plugins (entry points, and the plugins folder in the user's data folder)."""

from triage_app.core.transforms.plugin_folder import (
    load_plugin_folder,
    plugin_sources,
    plugins_dir,
)
from triage_app.core.transforms.registry import (
    ENTRY_POINT_GROUP,
    Registry,
    default_registry,
    personal_fields_of,
)
from triage_app.core.transforms.transform import Column, Transform

__all__ = [
    "ENTRY_POINT_GROUP",
    "Column",
    "Registry",
    "Transform",
    "default_registry",
    "load_plugin_folder",
    "personal_fields_of",
    "plugin_sources",
    "plugins_dir",
]
