"""The server's settings: where its data lives, and the limits it keeps."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def home() -> Path:
    """Where spieltisch keeps its files: ``$SPIELTISCH_HOME`` or ``~/.spieltisch``."""
    return Path(os.environ.get("SPIELTISCH_HOME", Path.home() / ".spieltisch"))


def default_database() -> str:
    """The SQLite file under :func:`home`, as an SQLAlchemy URL."""
    return f"sqlite:///{home() / 'spieltisch.db'}"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server can be told (the defaults suit a table of friends)."""

    database: str = ""
    """SQLAlchemy URL; empty: the SQLite file under the spieltisch home."""
    bot_workers: int = 2
    """Worker processes that play bots (bounded: a thinking bot never blocks the server)."""
    bot_pause: float = 0.8
    """Least seconds between a move and a bot's next move, so that people can follow."""
    max_message: int = 4096
    """Longest message a connection may send, in characters."""
    rate_per_second: float = 10.0
    rate_burst: int = 20
    """A connection may send ``rate_burst`` messages at once and ``rate_per_second`` after."""
    queue_limit: int = 256
    """Messages waiting for one slow connection before it is closed (it resyncs on return)."""
    expire_after: float = 24 * 3600.0
    """Seconds after which a table that never started expires."""
    max_tables_listed: int = 50

    def database_url(self) -> str:
        """The database to use."""
        return self.database or default_database()
