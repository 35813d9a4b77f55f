"""Transforms: the registry and the built-ins."""

from triage_app.core.transforms.registry import (
    ENTRY_POINT_GROUP,
    Column,
    Registry,
    Transform,
    default_registry,
)

__all__ = ["ENTRY_POINT_GROUP", "Column", "Registry", "Transform", "default_registry"]
