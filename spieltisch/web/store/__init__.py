"""The database: its schema and migrations, tables kept as logs of moves, the one writer thread
and the readers (:class:`~spieltisch.web.store.database.Database`), and backups. Imports no
other room but ``common``."""
