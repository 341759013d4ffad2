"""Alembic's entry point for the server's migrations (run by ``spieltisch.web.db.migrate``)."""

from __future__ import annotations

from alembic import context

from spieltisch.web.db import METADATA, make_engine

url = context.config.get_main_option("sqlalchemy.url")
if url is None:
    raise RuntimeError("the migrations need a database URL")
MIGRATION_LOCK = 7_318_226_004
"""PostgreSQL advisory lock held while migrating, so two servers starting at once on one new
database do not both run a migration (the second waits, then finds nothing to do)."""

engine = make_engine(url)
with engine.connect() as connection:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
        connection.commit()
    context.configure(connection=connection, target_metadata=METADATA)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
