"""Alembic's entry point for the server's migrations (run by ``spieltisch.web.db.migrate``)."""

from __future__ import annotations

from alembic import context

from spieltisch.web.db import METADATA, make_engine

url = context.config.get_main_option("sqlalchemy.url")
if url is None:
    raise RuntimeError("the migrations need a database URL")
engine = make_engine(url)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=METADATA)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
