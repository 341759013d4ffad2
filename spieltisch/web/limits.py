"""Allowances: how often a connection may send a message or a chat line."""

from __future__ import annotations

import time


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
