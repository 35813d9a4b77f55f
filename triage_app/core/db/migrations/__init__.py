"""The store's schema versions as Alembic revisions (``versions/``), carried inside the
package so that a wheel and a frozen app bring them along.

Nothing here imports Alembic at import time: ``schema.py`` answers "is the store current?"
without it, and loads ``runner`` only when a store must be recognised or upgraded.
"""

from pathlib import Path

MIGRATIONS_DIR = Path(__file__).resolve().parent
