"""Allowances: how often a connection may send a message or a chat line, how often an address
may make tables or ask for heavy answers, and how many sockets a link or an address may hold.

The door (:mod:`~spieltisch.web.routes.gate`) counts in this process's memory, at the cost of a
few comparisons, so that a flood is refused before anything is read. The allowances that must
hold across server processes (new tables here; sign-in and sign-up attempts in
:mod:`~spieltisch.web.routes.signed`) are counted again in the database
(:func:`take_shared`), so that N processes give an address its allowance once, not N times.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.locale import translation
from spieltisch.web.common.buckets import Buckets, Counter, wall
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.settings import Settings
from spieltisch.web.store.allowances import Bucket, take
from spieltisch.web.store.database import Database
from spieltisch.web.tables.table import LiveTable, token_key


class ServerLimits:
    """The limits one server keeps for everyone who talks to it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tables = Buckets(settings.tables_per_minute / 60.0, settings.tables_burst)
        self.heavy = Buckets(settings.heavy_per_second, settings.heavy_burst)
        self.replays = Buckets(settings.replay_per_second, settings.replay_burst)
        self.lessons = Buckets(settings.lesson_per_second, settings.lesson_burst)
        self.sockets = Counter(settings.sockets_per_address)
        self.opens = Buckets(settings.opens_per_second, settings.opens_burst)

    def too_many_sockets(self, live: LiveTable, token: object, language: str) -> str | None:
        """Why one more page with ``token`` may not open at ``live``, said in ``language``
        (``None``: it may)."""
        hashed = token_key(token)
        if hashed is None:
            return None
        open_now = sum(1 for c in live.connections if c.token_hash == hashed and not c.closed)
        if open_now >= self.settings.sockets_per_token:
            said = translation(language).ngettext(
                "this link is open in %(pages)d page already: close it first",
                "this link is open in %(pages)d pages already: close one first",
                open_now,
            )
            return said % {"pages": open_now}
        return None


async def take_shared(database: Database, buckets: Sequence[Bucket]) -> float:
    """Take one of each of ``buckets`` as every process sharing ``database`` counts them; 0 if
    all had one, else the seconds until the longest-waited-for has one again."""
    wait: float = await database.write(take, database.engine, buckets, wall())
    return wait


async def take_table_allowance(database: Database, settings: Settings, address: str) -> None:
    """Count one new table from ``address`` against its allowance shared by every process
    (429 when it ran out)."""
    bucket = Bucket(f"tables:{address}", settings.tables_per_minute / 60.0, settings.tables_burst)
    if await take_shared(database, [bucket]) > 0:
        raise RefusedError("too many new tables from here: wait a minute", 429)
