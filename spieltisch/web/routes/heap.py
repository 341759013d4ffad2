"""How the server's heap is collected: rarely in full, at a time of the server's choosing.

CPython's collector walks every tracked object in a full collection, and nothing else runs
meanwhile. With 200 tables in play the heap held about 350,000 tracked objects and 1.8
million references between them, most of them the games' states and views the tables kept
(64 each; now 16, :data:`spieltisch.web.tables.table.HISTORY`), and a full collection took 0.1-0.6
s (0.27 s with 16 kept). CPython starts one whenever the old generation has grown
by a quarter: in paced play every half minute or so (the paced tables' p99 was 147 ms over
four minutes), under floods of requests every few seconds (p99 200-255 ms). Here:

- everything the server holds once it has imported what it runs (modules, classes, the
  games' tables of moves: about 110,000 objects) is set aside for good (``gc.freeze``);
- the young generations are collected as CPython always does, but a full collection never
  starts on its own;
- a full collection runs every :data:`FULL_EVERY` seconds instead, so cyclic garbage that
  lived long enough to reach the old generation waits at most that long.

The price: that one collection holds the loop longer than CPython's own would (0.27 s after
150 s of paced play with 200 tables on a quiet machine; 0.37-0.48 s over half an hour of it,
with games finishing), and cyclic garbage waits for it: a closed socket's zlib state did, 45
KiB each, until :mod:`~spieltisch.web.routes.socket_memory` let it go at once (200 paced tables
now hold 204.4 MiB at ten minutes and 204.9 at half an hour: docs/web.md, "Memory under
load"). Shorter collections need fewer objects kept per table and per connection.

``spieltisch serve`` manages its process's heap this way (:func:`manage_heap`); an app made
by a test or another host keeps CPython's defaults (the collector is the process's, not the
app's).
"""

from __future__ import annotations

import gc
import logging
import threading
import time

from spieltisch.games import REGISTRY

LOG = logging.getLogger("spieltisch.web")
FULL_EVERY = 300.0
"""Seconds between two full collections."""
NEVER = 1 << 30
"""A threshold the old generation's count does not reach (collections of the middle
generation between two full collections)."""


def settle_heap() -> None:
    """Once the server has imported what it runs: freeze what it holds so far, and leave full
    collections to :func:`collect_in_full`."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)


def collect_in_full() -> float:
    """A full collection now; the seconds it took."""
    started = time.perf_counter()
    gc.collect()
    took = time.perf_counter() - started
    LOG.debug("a full garbage collection took %.0f ms", took * 1000)
    return took


def manage_heap(every: float = FULL_EVERY) -> threading.Event:
    """The server process's collection, from now on (see the module docstring): import the
    games, settle the heap, and start the thread that collects in full every ``every``
    seconds. Set the returned event to stop that thread."""
    for game_id in REGISTRY.implemented():
        REGISTRY.kit(game_id)
    settle_heap()
    stop = threading.Event()

    def collect() -> None:
        while not stop.wait(every):
            collect_in_full()

    threading.Thread(target=collect, name="full-collections", daemon=True).start()
    return stop
