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
    sockets_per_token: int = 4
    """Pages one seat's link may have open at a table at once."""
    sockets_per_address: int = 48
    """Sockets one address may have open at once."""
    opens_per_second: float = 5.0
    opens_burst: int = 30
    """Sockets one address may open at once, and a second after (a page loads one)."""
    tables_per_minute: float = 6.0
    tables_burst: int = 12
    """An address may make ``tables_burst`` tables at once and ``tables_per_minute`` after."""
    heavy_per_second: float = 2.0
    heavy_burst: int = 20
    """Records and dice checks an address may ask for (they cost the most)."""
    replay_per_second: float = 10.0
    replay_burst: int = 60
    """Replay steps an address may ask for (a person stepping through a game is quick)."""
    lesson_per_second: float = 10.0
    lesson_burst: int = 120
    """Lesson steps, tried moves and closing-game moves an address may ask for (each is worked
    out in the bots' worker pool; a learner reads between them)."""
    trust_proxy: bool = False
    """Read a client's address from ``X-Forwarded-For`` (only behind a proxy that sets it)."""
    stall_ms: float = 0.0
    """Log where the event loop was when it was held longer than this (0: not watched)."""

    def database_url(self) -> str:
        """The database to use."""
        return self.database or default_database()
