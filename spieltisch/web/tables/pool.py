"""The bot pool: worker processes that think for bots, give hints and analyse, shared fairly.

Every job names the table it is for. The pool runs as many jobs at once as it has workers,
and when a worker is free it takes the oldest job of the table served longest ago, round
robin: however many jobs a table with a slow bot or a long analysis queues, every other table
with a job waiting gets its turn before that table's next one. Levels are a fixed menu of
bounded cost (:func:`level_menu`), so no job runs long.

A worker that dies (killed, out of memory) breaks a ``ProcessPoolExecutor`` for good; the pool
then builds a new one, runs the failed job once more, and says so in the log.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import itertools
import logging
import multiprocessing
import os
from collections.abc import Callable
from typing import Any, TypeVar

from spieltisch.agents import agent_names
from spieltisch.core.game import Game
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.tables.bots import start_worker

LOG = logging.getLogger("spieltisch.web")
_Result = TypeVar("_Result")

SEARCH_TIMES = ("0.25s", "1s", "2s", "5s")
SEARCH_ITERATIONS = ("50", "500", "2000")
STRENGTHS = {"ismcts": [*SEARCH_TIMES, *SEARCH_ITERATIONS]}
"""The search's strengths a table may choose (each bounded: at most five seconds a move, or
2,000 iterations)."""
MAX_REMEMBERED = 4_096
"""Tables whose last turn the pool remembers (a forgotten one counts as never served)."""
ITERATION_PACE = 1.0
"""Seconds a move of an iteration-budget search is padded to."""
BOT_NICENESS = 5
"""Bots think at a lower priority than the server's loop: on a busy machine a search gets a
little less time, and no table's move waits behind one."""


def level_menu(game: Game) -> list[str]:
    """Every bot level a table of ``game`` may seat: the game's agents, strongest first, and
    the search's bounded strengths."""
    menu = []
    for name in agent_names(game):
        menu.append(name)
        menu += [f"{name}:{strength}" for strength in STRENGTHS.get(name, [])]
    return menu


def level_pace(level: str, pause: float) -> float:
    """The least seconds a move of ``level`` takes to arrive (its budget, or the server's
    pause between moves): a quick answer waits that long, so how long a bot took never tells
    how many moves it had to choose from."""
    _, _, strength = level.partition(":")
    if level.startswith("ismcts"):
        if not strength:
            return max(pause, 1.0)
        if strength.endswith("s"):
            return max(pause, float(strength[:-1]))
        return max(pause, ITERATION_PACE)
    return pause


class FairPool:
    """Worker processes shared round robin among tables (see the module docstring)."""

    def __init__(self, workers: int, kind: str = "bot", niceness: int = BOT_NICENESS) -> None:
        self.workers = workers
        self.kind = kind
        """What the workers do, as the log names them."""
        self.niceness = niceness
        """How far the workers yield the processor to the server (``os.nice``)."""
        self.executor = self._executor()
        self.queues: collections.OrderedDict[str, collections.deque[asyncio.Future[None]]] = (
            collections.OrderedDict()
        )
        self.running = 0
        self.rebuilt = 0
        self._turns = itertools.count()
        self.served: dict[str, int] = {}
        """When each table last had a job started (its place in the round robin)."""

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        """Workers are spawned, never forked: a forked worker would inherit every connection
        the server had open at that moment and keep it open after the server let it go, so
        the browser's next request on it would never be read."""
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
            initargs=(os.getpid(), self.niceness),
        )

    async def run(self, table: str, function: Callable[[Any], _Result], job: Any) -> _Result:
        """Run ``function(job)`` in a worker when ``table``'s turn comes."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queues.setdefault(table, collections.deque()).append(turn)
        self._next()
        try:
            await turn
        except asyncio.CancelledError:
            self._drop(table, turn)
            raise
        try:
            return await self._submit(function, job)
        finally:
            self.running -= 1
            self._next()

    def _next(self) -> None:
        """Start the waiting jobs that free workers can take: each time, the next job of the
        table served longest ago (a table never served first)."""
        while self.running < self.workers and self.queues:
            table = min(self.queues, key=lambda t: self.served.get(t, -1))
            queue = self.queues[table]
            turn = queue.popleft()
            if not queue:
                del self.queues[table]
            if turn.done():
                continue
            self.running += 1
            self.served[table] = next(self._turns)
            if len(self.served) > MAX_REMEMBERED:
                oldest = min(self.served, key=self.served.__getitem__)
                del self.served[oldest]
            turn.set_result(None)

    def _drop(self, table: str, turn: asyncio.Future[None]) -> None:
        queue = self.queues.get(table)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self.queues[table]
        elif turn.done() and not turn.cancelled():
            self.running -= 1
            self._next()

    async def _submit(self, function: Callable[[Any], _Result], job: Any) -> _Result:
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            return await loop.run_in_executor(executor, function, job)
        except concurrent.futures.process.BrokenProcessPool:
            if self.executor is executor:
                self.rebuilt += 1
                LOG.warning(
                    "a %s worker died: the pool is built again and the job retried", self.kind
                )
                executor.shutdown(wait=False, cancel_futures=True)
                self.executor = self._executor()
            return await loop.run_in_executor(self.executor, function, job)

    def shutdown(self) -> None:
        """Stop the workers."""
        self.executor.shutdown(wait=False, cancel_futures=True)


def check_level(game: Game, level: str) -> None:
    """Refuse a bot level that is not on the game's menu (with the menu)."""
    menu = level_menu(game)
    if not isinstance(level, str) or level not in menu:
        raise RefusedError(
            "no bot level {level} here (levels: {menu})",
            params={"level": repr(str(level)[:40]), "menu": ", ".join(menu)},
        )
