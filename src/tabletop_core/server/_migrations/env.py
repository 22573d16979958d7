"""Alembic's environment for the match store: runs on the connection the store hands it.

Imported outside a migration run (the documentation tests import every module), it does nothing.
"""

from __future__ import annotations

from alembic import context

from tabletop_core.server.store import METADATA


def _run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=METADATA)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # alembic's context has a config only while it runs a migration
    _run()
