"""One module a revision; Alembic reads them by file (``__init__`` is skipped)."""
