"""Allowances: how often a connection may send a message or a chat line, how often an address
may make tables or ask for heavy answers, and how many sockets a link or an address may hold."""

from __future__ import annotations

from spieltisch.locale import translation
from spieltisch.web.common.buckets import Buckets, Counter
from spieltisch.web.common.settings import Settings
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
