"""Alembic's environment: the migrations run on the connection ``runner`` hands over, inside
the transaction (and lock) its caller already holds, so Alembic neither begins nor commits."""

from __future__ import annotations

from alembic import context

from triage_app.core.db.models import Base

# Alembic runs this file inside its environment; imported anywhere else (the tests import
# every core module), it does nothing.
_config = getattr(context, "config", None)
if _config is not None:
    context.configure(
        connection=_config.attributes["connection"],
        target_metadata=Base.metadata,
        render_as_batch=True,
        # Called after each revision applied (runner.upgrade's ``after_each``).
        on_version_apply=_config.attributes.get("after_each"),
    )
    with context.begin_transaction():
        context.run_migrations()
