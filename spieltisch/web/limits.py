"""Allowances: how often a connection may send a message or a chat line, how often an address
may make tables or ask for heavy answers, and how many sockets a link or an address may hold."""

from __future__ import annotations

import time
from collections import OrderedDict

from spieltisch.locale import translation
from spieltisch.web.settings import Settings
from spieltisch.web.tables import LiveTable, token_key


class TokenBucket:
    """An allowance of ``burst`` at once and ``rate`` a second after."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        """True if one more may pass now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """A :class:`TokenBucket` per key (a client's address), the least recently used keys
    forgotten beyond ``keys``, so that no flood of addresses can grow it without bound."""

    def __init__(self, rate: float, burst: int, keys: int = 10_000) -> None:
        self.rate, self.burst, self.keys = rate, burst, keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str) -> bool:
        """True if one more may pass for ``key`` now."""
        bucket = self._buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
        self._buckets[key] = bucket
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return bucket.take()


class Counter:
    """How many of something (open sockets) each key holds now, with a ceiling."""

    def __init__(self, ceiling: int) -> None:
        self.ceiling = ceiling
        self._held: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        """Hold one more for ``key`` if it is under the ceiling; True if so."""
        held = self._held.get(key, 0)
        if held >= self.ceiling:
            return False
        self._held[key] = held + 1
        return True

    def release(self, key: str) -> None:
        """Give one back."""
        held = self._held.get(key, 0) - 1
        if held > 0:
            self._held[key] = held
        else:
            self._held.pop(key, None)


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
