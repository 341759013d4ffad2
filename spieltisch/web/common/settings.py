"""The server's settings: where its data lives, the limits it keeps, and the name its passkeys
belong to."""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

HEAVY_BOTS_VARIABLE = "SPIELTISCH_HEAVY_BOTS"
"""The environment variable that, set to ``everyone``, lets hosts who are not signed in seat
the heaviest bots too (:attr:`Settings.heavy_bots_for_all`)."""
RP_ID_VARIABLE = "SPIELTISCH_RP_ID"
"""The environment variable ``spieltisch serve`` reads ``--rp-id`` from when it is not given."""
MAX_HOST_NAME = 253
"""The longest a host name may be (RFC 1035), and so a relying-party id."""
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


class SettingsError(ValueError):
    """A setting the server cannot work with (the message names the option)."""


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
    bot_seconds_per_minute: float = 40.0
    bot_seconds_burst: float = 120.0
    """A table's think time in the bot pool (its bots, hints and analyses): ``burst`` seconds
    at once, then ``per_minute`` a minute; a table that spent it waits (0: unbounded)."""
    heavy_bots_for_all: bool = field(
        default_factory=lambda: os.environ.get(HEAVY_BOTS_VARIABLE, "").strip() == "everyone"
    )
    """Whether hosts who are not signed in may seat the heaviest bots (2 s and 5 s a move,
    2,000 iterations); by default only signed-in hosts may (``SPIELTISCH_HEAVY_BOTS``)."""
    max_message: int = 4096
    """Longest message a connection may send, in characters."""
    rate_per_second: float = 10.0
    rate_burst: int = 20
    """A connection may send ``rate_burst`` messages at once and ``rate_per_second`` after."""
    queue_limit: int = 256
    """Messages waiting for one slow connection before it is closed (it resyncs on return)."""
    expire_after: float = 24 * 3600.0
    """Seconds after which a table that never started expires."""
    abandoned_after: float = 6 * 3600.0
    """Seconds without a move, with nobody at the table, after which a game without a clock
    counts as walked away from: the lobby shows it apart, and its seated people may end it."""
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
    rp_id: str = ""
    """The host name passkeys belong to (WebAuthn's relying-party id): the site's own name
    (``spiel.example``), so that its passkeys work on that name and every name below it; a
    page elsewhere cannot use them. Empty: the name each page was opened by."""

    def __post_init__(self) -> None:
        """Check (and write as it is compared) the relying-party id."""
        object.__setattr__(self, "rp_id", relying_party_id(self.rp_id))

    def database_url(self) -> str:
        """The database to use."""
        return self.database or default_database()


def relying_party_id(name: str) -> str:
    """``name`` as a relying-party id: a host name (lower case, without a trailing dot; empty
    stays empty: the request's name); :class:`SettingsError` for an IP address or anything
    that is not a host name, which no browser would accept."""
    if not isinstance(name, str):
        raise SettingsError("--rp-id takes a host name")
    clean = name.strip().lower().removesuffix(".")
    if not clean:
        return ""
    try:
        ipaddress.ip_address(clean.strip("[]"))
    except ValueError:
        pass
    else:
        raise SettingsError(f"--rp-id takes a host name, not an address: {name!r}")
    labels = clean.split(".")
    if len(clean) > MAX_HOST_NAME or not all(_LABEL.fullmatch(label) for label in labels):
        raise SettingsError(f"--rp-id takes a host name (such as spiel.example), not {name!r}")
    return clean
