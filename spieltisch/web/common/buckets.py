"""Allowances as token buckets: one for a connection, one per key (an address, a name) with
the least recently used forgotten, and a ceiling on how many of something a key holds at once.
The door (:mod:`~spieltisch.web.routes.limits`) and the sign-in attempts use them; the
allowances every server process counts together live in the database
(:mod:`~spieltisch.web.store.allowances`) and read their time from :func:`wall`."""

from __future__ import annotations

import time
from collections import OrderedDict

_WALL_OFFSET = time.time() - time.monotonic()


def wall() -> float:
    """Wall-clock seconds, as every process on the machine (and, with synchronised clocks,
    every machine) reads them, advancing as the monotonic clock does (a clock set back while
    the server runs does not hand out allowances again)."""
    return time.monotonic() + _WALL_OFFSET


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
