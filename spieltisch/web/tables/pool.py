"""The bot pool: worker processes that think for bots, give hints and analyse, shared fairly.

Every job names the table it is for and who made that table, its *owner* (the account of a
signed-in host, else the address it was made from; kept with the table in the database, so
every process and a restarted one agree). The pool runs as many jobs at once as it has
workers, and when a worker is free it serves the owner served longest ago, and of that
owner's tables the one served longest ago, round robin twice over: however many tables one
address makes and however many jobs they queue, every other owner with a job waiting gets
the next free worker, and one owner never holds more than all workers but one
(:attr:`Schedule.share`), so a worker is always left for the others. A table's think time is
budgeted (:meth:`FairPool.limit_think_time`: so many seconds a minute, after a burst): a table
that spent it waits, whatever else the pool has to do. Levels are a fixed menu of bounded cost
(:func:`level_menu`), so no job runs long; the heaviest (:data:`HEAVY_STRENGTHS`) are for
signed-in hosts unless the server lets everyone seat them (:func:`check_heavy`).

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
import time
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from spieltisch.agents import agent_names
from spieltisch.core.game import Game
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.tables.bots import start_worker

LOG = logging.getLogger("spieltisch.web")
_Result = TypeVar("_Result")
_Item = TypeVar("_Item")

SEARCH_TIMES = ("0.25s", "1s", "2s", "5s")
SEARCH_ITERATIONS = ("50", "500", "2000")
STRENGTHS = {"ismcts": [*SEARCH_TIMES, *SEARCH_ITERATIONS]}
"""The search's strengths a table may choose (each bounded: at most five seconds a move, or
2,000 iterations)."""
HEAVY_STRENGTHS = frozenset({"2s", "5s", "2000"})
"""The strengths that hold a worker longest: for signed-in hosts (or every host, when the
server says so)."""
MAX_REMEMBERED = 4_096
"""Tables (and owners) whose last turn, owner and think time the pool remembers (a forgotten
one counts as never served, with its whole budget)."""
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


def heavy(level: str) -> bool:
    """Whether ``level`` is one of the heaviest on the menu (:data:`HEAVY_STRENGTHS`)."""
    return level.partition(":")[2] in HEAVY_STRENGTHS


def check_heavy(levels: Iterable[str], allowed: bool) -> None:
    """Refuse (403) the heaviest levels among ``levels`` unless the host may seat them
    (``allowed``: signed in, or the server lets everyone)."""
    if allowed:
        return
    for level in levels:
        if isinstance(level, str) and heavy(level):
            raise RefusedError(
                "the bot level {level} is for signed-in hosts: sign in, or choose a lighter one",
                403,
                params={"level": level},
            )


class Schedule(Generic[_Item]):
    """Which waiting job a free worker takes (see the module docstring): the bookkeeping of
    the pool without its processes, so that its order can be followed step by step.

    ``clock`` reads the seconds the think-time budgets refill by; ``rate`` and ``burst`` are a
    table's budget (seconds of work a second, and at once; a rate of 0: unbounded).
    """

    def __init__(
        self, workers: int, rate: float = 0.0, burst: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.workers = workers
        self.share = max(1, workers - 1)
        """The most workers one owner holds at once: all but one, so one is left for others."""
        self.rate, self.burst, self.clock = rate, burst, clock
        self.queues: collections.OrderedDict[str, collections.deque[_Item]] = (
            collections.OrderedDict()
        )
        self.queued_owner: dict[str, str] = {}
        """The owner of each table with jobs waiting."""
        self.running = 0
        self.holding: dict[str, int] = {}
        """Jobs running now, by owner."""
        self._turns = itertools.count()
        self.served: dict[str, int] = {}
        """When each table last had a job started (its place in its owner's round)."""
        self.owner_served: dict[str, int] = {}
        """When each owner last had a job started (its place in the round of owners)."""
        self.spent: dict[str, tuple[float, float]] = {}
        """Each table's think time left, and as of when (absent: its whole burst)."""

    def add(self, table: str, owner: str, item: _Item) -> None:
        """Queue ``item`` for ``table`` of ``owner``."""
        self.queues.setdefault(table, collections.deque()).append(item)
        self.queued_owner[table] = owner

    def remove(self, table: str, item: _Item) -> bool:
        """Take a waiting ``item`` out of the queue; False if it was not waiting."""
        queue = self.queues.get(table)
        if queue is None or item not in queue:
            return False
        queue.remove(item)
        if not queue:
            del self.queues[table], self.queued_owner[table]
        return True

    def left(self, table: str, now: float) -> float:
        """The seconds of think time ``table`` has left now."""
        if self.rate <= 0:
            return float("inf")
        kept = self.spent.get(table)
        if kept is None:
            return self.burst
        seconds, stamp = kept
        return min(self.burst, seconds + (now - stamp) * self.rate)

    def pick(self) -> tuple[str, str, _Item] | None:
        """The table, owner and job a free worker takes now (counted as running), if any: the
        owner served longest ago among those under their share, and of its tables with think
        time left the one served longest ago."""
        if self.running >= self.workers:
            return None
        now, best = self.clock(), dict[str, str]()
        for table in self.queues:
            owner = self.queued_owner[table]
            if self.holding.get(owner, 0) >= self.share or self.left(table, now) < 0:
                continue
            current = best.get(owner)
            if current is None or self.served.get(table, -1) < self.served.get(current, -1):
                best[owner] = table
        if not best:
            return None
        owner = min(best, key=lambda o: self.owner_served.get(o, -1))
        table = best[owner]
        queue = self.queues[table]
        item = queue.popleft()
        if not queue:
            del self.queues[table], self.queued_owner[table]
        self.running += 1
        self.holding[owner] = self.holding.get(owner, 0) + 1
        turn = next(self._turns)
        self.served[table], self.owner_served[owner] = turn, turn
        for remembered in (self.served, self.owner_served):
            if len(remembered) > MAX_REMEMBERED:
                del remembered[min(remembered, key=remembered.__getitem__)]
        return table, owner, item

    def finished(self, table: str, owner: str, seconds: float) -> None:
        """A job of ``table`` (of ``owner``) that ran ``seconds`` is done: its worker is free,
        and the table's think time is charged."""
        self.running -= 1
        held = self.holding.get(owner, 0) - 1
        if held > 0:
            self.holding[owner] = held
        else:
            self.holding.pop(owner, None)
        if self.rate > 0 and seconds > 0:
            now = self.clock()
            self.spent[table] = (self.left(table, now) - seconds, now)
            if len(self.spent) > MAX_REMEMBERED:
                self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop the budgets that are whole again (then the oldest, if still too many)."""
        for table in [t for t in self.spent if self.left(t, now) >= self.burst]:
            del self.spent[table]
        while len(self.spent) > MAX_REMEMBERED:
            del self.spent[min(self.spent, key=lambda t: self.spent[t][1])]

    def ready_in(self) -> float | None:
        """Seconds until a waiting table that spent its think time may run again (``None``:
        none waits for that alone)."""
        if self.rate <= 0 or self.running >= self.workers:
            return None
        now, soonest = self.clock(), None
        for table, owner in self.queued_owner.items():
            if self.holding.get(owner, 0) >= self.share:
                continue
            wait = max(0.0, -self.left(table, now)) / self.rate
            soonest = wait if soonest is None else min(soonest, wait)
        return soonest


class FairPool:
    """Worker processes shared fairly among owners and their tables (see the module
    docstring)."""

    def __init__(self, workers: int, kind: str = "bot", niceness: int = BOT_NICENESS) -> None:
        self.workers = workers
        self.kind = kind
        """What the workers do, as the log names them."""
        self.niceness = niceness
        """How far the workers yield the processor to the server (``os.nice``)."""
        self.executor = self._executor()
        self.schedule: Schedule[asyncio.Future[None]] = Schedule(workers)
        self.owners: collections.OrderedDict[str, str] = collections.OrderedDict()
        """Who made each table the pool heard of (:meth:`own`), the least recent forgotten."""
        self.rebuilt = 0
        self._wake: asyncio.TimerHandle | None = None

    def limit_think_time(self, per_minute: float, burst: float) -> None:
        """Budget each table's think time: ``burst`` seconds at once, then ``per_minute`` a
        minute (0: unbounded)."""
        self.schedule.rate = max(0.0, per_minute) / 60.0
        self.schedule.burst = burst

    def own(self, table: str, owner: str) -> None:
        """Say who made ``table``: its jobs count as that owner's from now on."""
        self.owners.pop(table, None)
        self.owners[table] = owner
        while len(self.owners) > MAX_REMEMBERED:
            self.owners.popitem(last=False)

    @property
    def running(self) -> int:
        """Jobs running now."""
        return self.schedule.running

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

    async def run(
        self, table: str, function: Callable[[Any], _Result], job: Any, owner: str | None = None
    ) -> _Result:
        """Run ``function(job)`` in a worker when ``table``'s turn comes; ``owner``: who made
        the table (by default whom :meth:`own` named, else the table itself)."""
        if owner is None:
            owner = self.owners.get(table, table)
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.schedule.add(table, owner, turn)
        self._next()
        try:
            await turn
        except asyncio.CancelledError:
            if not self.schedule.remove(table, turn) and turn.done() and not turn.cancelled():
                self.schedule.finished(table, owner, 0.0)  # started just as it was cancelled
                self._next()
            raise
        started = time.monotonic()
        try:
            return await self._submit(function, job)
        finally:
            self.schedule.finished(table, owner, time.monotonic() - started)
            self._next()

    def _next(self) -> None:
        """Start the waiting jobs that free workers can take (:meth:`Schedule.pick`); if a
        table waits for its think time alone, look again when it has some."""
        while (picked := self.schedule.pick()) is not None:
            table, owner, turn = picked
            if turn.done():  # cancelled while it waited
                self.schedule.finished(table, owner, 0.0)
                continue
            turn.set_result(None)
        ready = self.schedule.ready_in()
        if ready is not None and self._wake is None:
            self._wake = asyncio.get_running_loop().call_later(ready + 0.01, self._woken)

    def _woken(self) -> None:
        self._wake = None
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
        if self._wake is not None:
            self._wake.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)


def check_level(game: Game, level: str) -> None:
    """Refuse a bot level that is not on the game's menu (with the menu)."""
    menu = level_menu(game)
    if not isinstance(level, str) or level not in menu:
        raise RefusedError(
            "no bot level {level} here (levels: {menu})",
            params={"level": repr(str(level)[:40]), "menu": ", ".join(menu)},
        )
