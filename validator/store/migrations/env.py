"""Alembic's environment for the store: run on the connection ``rulesub`` hands it.

``validator.store.migrate`` opens the connection (holding the database's write lock)
and passes it in ``config.attributes["connection"]``; migrations run inside that one
transaction.
"""

from __future__ import annotations

from alembic import context

from validator.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - rulesub always passes its connection
    raise RuntimeError("the store's migrations run through `rulesub db upgrade`")

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
