"""Transforms: what a transform is, the built-ins (``pesanan@1``, ``pesanan@2``,
``orders@1``) and the registry that finds them and the plugins."""

from triage_app.core.transforms.registry import ENTRY_POINT_GROUP, Registry, default_registry
from triage_app.core.transforms.transform import Column, Transform

__all__ = [
    "ENTRY_POINT_GROUP",
    "Column",
    "Registry",
    "Transform",
    "default_registry",
]
