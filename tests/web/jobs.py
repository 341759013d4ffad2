"""Jobs for the bot pool's tests, importable by its worker processes."""

from __future__ import annotations

import os
import time
from pathlib import Path


def die_once(flag: str) -> str:
    """The first call kills its worker (as an out-of-memory kill would); later calls answer."""
    path = Path(flag)
    if not path.exists():
        path.write_text("died")
        os._exit(1)
    return "answered"


def nap(seconds: float) -> float:
    """Sleep, then say when the nap ended (the pool's fairness test orders jobs by it)."""
    time.sleep(seconds)
    return time.monotonic()
