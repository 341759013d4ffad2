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


def open_sockets(_: object) -> list[int]:
    """The inodes of the sockets this worker holds open."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            held.append(int(target[len("socket:[") : -1]))
    return held
