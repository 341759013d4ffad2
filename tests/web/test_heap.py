"""The server's event loop stays free: the stall watch says where it was held, the served
process's heap is collected in full only on the server's schedule, and workers yield the
processor to the loop."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable

import pytest

from spieltisch.web.routes import stalls
from spieltisch.web.tables.checks import CHECK_NICENESS
from spieltisch.web.tables.pool import BOT_NICENESS, FairPool

from .apart import run_apart

pytestmark = pytest.mark.timeout(120)


HELD_AT_MOST = 5.0
"""Seconds a test holds the loop at most while waiting for the watch to look."""


def hold_the_loop_for_a_while(seen: Callable[[], bool]) -> None:
    """A callback that keeps every other one waiting: 0.3 s, and on until ``seen()`` (the
    watching thread has looked; on a busy machine it may wake late), at most
    :data:`HELD_AT_MOST`."""
    start = time.monotonic()
    while (held := time.monotonic() - start) < 0.3 or (not seen() and held < HELD_AT_MOST):
        time.sleep(0.01)


def test_the_stall_watch_says_how_long_the_loop_was_held_and_where(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> stalls.StallWatch | None:
        async with stalls.watched(threshold_ms=100) as watch:
            await asyncio.sleep(0.05)
            hold_the_loop_for_a_while(lambda: "the event loop is held" in caplog.text)
            await asyncio.sleep(0.05)
        return watch

    with caplog.at_level(logging.WARNING, logger="spieltisch.web.routes.stalls"):
        watch = run_apart(main())
    assert watch is not None and watch.stalls == 1 and watch.worst >= 0.25
    text = caplog.text
    assert "the event loop was held" in text
    assert "hold_the_loop_for_a_while" in text  # the stack of the loop while it was held
    assert "stalls over 100 ms: 1" in text


def test_the_stall_watch_is_off_unless_asked() -> None:
    async def main() -> stalls.StallWatch | None:
        async with stalls.watched(threshold_ms=0) as watch:
            return watch

    assert run_apart(main()) is None


def test_a_served_process_collects_in_full_only_on_its_schedule() -> None:
    """In a process of its own: the process's collector is changed for good."""
    script = textwrap.dedent(
        """
        import gc, time
        from spieltisch.web.routes.heap import NEVER, manage_heap, settle_heap
        full = []
        gc.callbacks.append(lambda phase, info: phase == "stop" and info["generation"] == 2
                            and full.append(time.monotonic()))
        settle_heap()
        assert gc.get_threshold()[2] == NEVER, gc.get_threshold()
        assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()
        junk = [[i] for i in range(2_000_000)]  # would start full collections by default
        del junk
        unasked = len(full) - 1  # the one before the freeze
        stop = manage_heap(every=0.2)
        settled = len(full)
        deadline = time.monotonic() + 30
        while len(full) < settled + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()
        print(unasked, len(full) - settled)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=90, check=True
    )
    unasked, scheduled = map(int, done.stdout.split())
    assert unasked == 0
    assert scheduled >= 2


def test_workers_think_below_the_loop() -> None:
    async def niceness_of_a_worker(pool: FairPool) -> int:
        try:
            return await pool.run("t", os.nice, 0)
        finally:
            pool.shutdown()

    own = os.nice(0)
    bots = run_apart(niceness_of_a_worker(FairPool(1)))
    checks = run_apart(niceness_of_a_worker(FairPool(1, kind="check", niceness=CHECK_NICENESS)))
    assert bots == min(own + BOT_NICENESS, 19)
    assert checks == min(own + CHECK_NICENESS, 19)
    assert checks > bots > own or own >= 19 - BOT_NICENESS
