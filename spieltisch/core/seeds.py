"""Seeds for the parts of a run (a game, a seat, a bot's move), the same on every machine.

Pure: a hash of the run's seed and the part's name, never the clock or the operating system.
"""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for a part of a run (a game, a seat), the same on every machine and run."""
    text = ":".join(str(x) for x in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
