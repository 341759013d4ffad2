"""What lets server processes share tables through one database: announcements of what changed,
the fan-out that hears them, and leases that give each table one mover. Knows tables by their
ids only; imports ``store`` and ``common``."""
