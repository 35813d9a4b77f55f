"""The engine: batches, dead letters, re-drive, trends. No Qt here, ever (a test enforces it).

Each sub-package's ``__init__`` is its public interface, and the window and the command
line use nothing else (import-linter contracts in ``pyproject.toml`` enforce it, and that
dependencies point down this list):

- ``jobs``, ``demo``: the long jobs the CLI and the window run; demo and synthetic data
- ``verify``: reconcile a batch, prove a file idempotent
- ``trends``: counts for team leads, the spike rule, ``stats`` and its cache
- ``deadletters``: filters, reads, audited changes, re-drive, export
- ``batch``: readers, chunks, the chunk commit, lanes, quarantine, ``run_batch``
- ``db``: the workspace and its two databases, the store's tables, warehouse upserts, audit
- ``transforms``: what a transform is, the built-ins, the registry
- the words and tools every layer uses: ``vocabulary``, ``errors``, ``clock``, ``retry``,
  ``progress``, ``crashpoints``, ``places``, ``fingerprint``, ``quick_stats``, ``csv_cells``

This module itself imports nothing, so that the standard-library-only modules at the
bottom (``fingerprint``, ``quick_stats``, ``clock``) can be used without loading the engine.
"""
