"""An operator's watch on the event loop: when one callback holds the loop longer than a
threshold (every table waits while it runs), the log says for how long and where it was.

A task on the loop notes the time every few milliseconds; a thread beside it wakes as often
and, when the note is older than the threshold, takes the loop thread's stack from
``sys._current_frames`` and logs its innermost frames once for that stall. Garbage
collections that take longer are logged too, and when the server stops, the number of stalls
and of full collections and the worst of each. Off unless
``stall_ms`` is set (``spieltisch serve --stall-ms 50`` or ``$SPIELTISCH_STALL_MS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator

LOG = logging.getLogger("spieltisch.web.routes.stalls")
BEAT = 0.005
"""Seconds between the loop's notes (and the watching thread's looks)."""
FRAMES = 8
"""Innermost frames a report shows."""


class StallWatch:
    """Notes the loop's beat and reports stalls longer than ``threshold`` seconds."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.last = time.monotonic()
        self.stalls = 0
        self.worst = 0.0
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()
        self._reported = False
        self._collecting = 0.0
        self.full_collections = 0
        self.full_seconds = 0.0
        self.worst_full = 0.0

    def collected(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` entry: count full collections and log one that held the loop
        past the threshold."""
        if phase == "start":
            self._collecting = time.perf_counter()
            return
        took = time.perf_counter() - self._collecting
        if info["generation"] == 2:
            self.full_collections += 1
            self.full_seconds += took
            self.worst_full = max(self.worst_full, took)
        if took > self.threshold:
            LOG.warning("a garbage collection (generation %d) took %.0f ms",
                        info["generation"], took * 1000)  # fmt: skip

    async def beat(self) -> None:
        """Run on the loop: note the time, forever."""
        self._loop_thread = threading.get_ident()
        while True:
            now = time.monotonic()
            held = now - self.last - BEAT
            if held > self.threshold:
                self.stalls += 1
                self.worst = max(self.worst, held)
                LOG.warning("the event loop was held %.0f ms", held * 1000)
            self.last = now
            self._reported = False
            await asyncio.sleep(BEAT)

    def watch(self) -> None:
        """Run on a thread: look at the loop's stack while it is held."""
        while not self._stop.wait(BEAT):
            held = time.monotonic() - self.last - BEAT
            if held > self.threshold and not self._reported:
                self._reported = True
                LOG.warning("the event loop is held (%.0f ms so far) in:\n%s", held * 1000,
                            self.where())  # fmt: skip

    def where(self) -> str:
        """The innermost frames the loop's thread is running now."""
        frame = sys._current_frames().get(self._loop_thread)
        if frame is None:
            return "(the loop's thread is gone)"
        return "".join(traceback.format_stack(frame)[-FRAMES:])

    def stop(self) -> None:
        """Let the watching thread end."""
        self._stop.set()


@contextlib.asynccontextmanager
async def watched(threshold_ms: float) -> AsyncIterator[StallWatch | None]:
    """Watch the running loop for as long as the context lasts (nothing if ``threshold_ms``
    is 0)."""
    if threshold_ms <= 0:
        yield None
        return
    watch = StallWatch(threshold_ms / 1000)
    beating = asyncio.create_task(watch.beat())
    thread = threading.Thread(target=watch.watch, name="stall-watch", daemon=True)
    thread.start()
    gc.callbacks.append(watch.collected)
    try:
        yield watch
    finally:
        gc.callbacks.remove(watch.collected)
        watch.stop()
        beating.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beating
        LOG.warning("event loop stalls over %.0f ms: %d (worst %.0f ms); full garbage "
                    "collections: %d, %.0f ms in all, worst %.0f ms", threshold_ms, watch.stalls,
                    watch.worst * 1000, watch.full_collections, watch.full_seconds * 1000,
                    watch.worst_full * 1000)  # fmt: skip
