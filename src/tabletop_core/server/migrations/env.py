"""Alembic's environment for the match store: runs on the connection the store hands it."""

from __future__ import annotations

from alembic import context

from tabletop_core.server.store import METADATA

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=METADATA)
with context.begin_transaction():
    context.run_migrations()
