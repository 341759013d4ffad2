"""Alembic's entry point for the server's migrations (run by
``spieltisch.web.store.db.migrate``)."""

from __future__ import annotations

from typing import Any

from alembic import context

from spieltisch.web.store.db import METADATA, make_engine

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
    elif connection.dialect.name == "sqlite":
        # A batch migration copies a table and drops the old one, which SQLite refuses while
        # other rows refer to it and foreign keys are enforced (Alembic's batch-mode advice:
        # enforce them again after). Said to the driver itself, outside any transaction,
        # where the pragma takes effect.
        driver: Any = connection.connection.driver_connection
        driver.execute("PRAGMA foreign_keys=OFF")
    context.configure(connection=connection, target_metadata=METADATA)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
