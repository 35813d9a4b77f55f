"""Triage Desk: quarantine, fix and re-drive the rows a nightly batch could not load."""

__version__ = "0.1.0"
