"""Backing up the server's database while it runs, and what to do on PostgreSQL.

SQLite keeps recent moves in its write-ahead log (``spieltisch.db-wal``) until a checkpoint,
so copying the ``.db`` file alone can lose them. :func:`backup_sqlite` uses SQLite's online
backup API instead: one consistent copy of everything committed, taken while the server
writes, into a single file that opens on its own. A PostgreSQL database is backed up with its
own tool, ``pg_dump`` (:func:`pg_dump_command` says how for a URL).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

from spieltisch.web.common.settings import default_database

PAGES_PER_STEP = 256
"""Pages copied at a time: the server may write between steps (the copy stays consistent)."""


class BackupError(Exception):
    """A backup that cannot be made, and why."""


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (``None`` for another database)."""
    if not url.startswith("sqlite:///"):
        return None
    return Path(url.removeprefix("sqlite:///"))


def backup_sqlite(source: Path, target: Path) -> int:
    """Copy the SQLite database ``source`` into the new file ``target`` with the online
    backup API, and check the copy; the number of pages copied."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if target.exists():
        raise BackupError(f"{target} exists already: a backup never overwrites a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    with (
        sqlite3.connect(f"file:{source}?mode=ro", uri=True) as reading,
        sqlite3.connect(target) as writing,
    ):
        reading.backup(writing, pages=PAGES_PER_STEP)
        pages = int(writing.execute("PRAGMA page_count").fetchone()[0])
        writing.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        check = writing.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        raise BackupError(f"the copy failed its integrity check: {check}")
    return pages


def pg_dump_command(url: str, target: Path) -> str:
    """The ``pg_dump`` line that backs up the PostgreSQL database at ``url`` (the password is
    left out: give it in ``PGPASSWORD`` or ``~/.pgpass``)."""
    parts = urlsplit(url.replace("postgresql+psycopg://", "postgresql://", 1))
    host = parts.hostname or "localhost"
    port = parts.port or 5432
    user = parts.username or "postgres"
    database = parts.path.lstrip("/")
    return (
        f"pg_dump --format=custom --file={target} --host={host} --port={port} "
        f"--username={user} {database}"
    )


def backup(url: str, target: Path) -> str:
    """Back up the database at ``url`` (empty: the default SQLite file) into ``target``; what
    was done, in a sentence."""
    url = url or default_database()
    path = sqlite_path(url)
    if path is None:
        if url.startswith("postgresql"):
            return (
                "PostgreSQL is backed up with its own tool, while the server runs:\n  "
                + pg_dump_command(url, target)
                + "\nand restored into an empty database with pg_restore (docs/web.md)."
            )
        raise BackupError(f"no backup for this kind of database: {url.split(':', 1)[0]}")
    pages = backup_sqlite(path, target)
    return f"backed up {path} into {target} ({pages} pages, checked)"
