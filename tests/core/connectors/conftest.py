"""Where a connector test runs: a SQLite workspace folder, or a team store on PostgreSQL."""

from tests.support.places import open_place, place

__all__ = ["open_place", "place"]
