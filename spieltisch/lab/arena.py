"""The arena: agents play many games with seats rotated on the same deals, and are rated.

Games come in *deals*: for each deal the agents play one game per rotation of the seats, every
rotation with the same chance seed, so each agent meets the same first deal, roll or draw from
every seat and much of the luck cancels out. Each game's seeds derive from the run's seed, the
deal and the rotation only, so results do not depend on how many worker processes play them.
The games are played by the lab's engine (:mod:`spieltisch.lab.engine`), which also keeps the
run's journal: natively where every agent has a native counterpart and the core is built
(``engine="auto"``, see :mod:`spieltisch.lab.native`), else in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game
from spieltisch.lab import native
from spieltisch.lab.engine import (
    GameResult,
    Play,
    Task,
    derive_seed,
    play_task,
    read_journal,
    run_tasks,
    runner_for,
)
from spieltisch.lab.summary import ArenaSummary, summarise

__all__ = [
    "ArenaSummary",
    "GameResult",
    "Task",
    "play_for",
    "play_task",
    "read_journal",
    "run",
    "schedule",
    "summarise",
]


def schedule(game: Game, agents: Sequence[str], games: int, seed: int) -> list[Task]:
    """The games to play: ``games`` rounded up to whole deals of one game per rotation."""
    players = game.players
    if len(agents) > players:
        raise OptionError(f"{len(agents)} agents for {players} seats")
    lineup = [agents[i % len(agents)] for i in range(players)]
    deals = -(-games // players)
    options = tuple(sorted(game.options.items()))
    tasks = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        for rotation in range(players):
            seats = tuple(lineup[(seat - rotation) % players] for seat in range(players))
            tasks.append(Task(game.info.id, players, options, deal, rotation, seats, deal_seed))
    return tasks


def run(
    tasks: Sequence[Task],
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    journal: Path | None = None,
    engine: str = "auto",
) -> list[GameResult]:
    """Play every task, in ``workers`` processes, with the ``engine`` asked for (see
    :func:`~spieltisch.lab.native.resolve_engine`); results come back in schedule order, and a
    ``journal`` keeps every game played and resumes a run (see :mod:`.engine`; a journal of
    the other engine is refused)."""
    return run_tasks(tasks, play_for(tasks, engine), runner_for(workers), progress, journal)


def play_for(tasks: Sequence[Task], engine: str = "auto") -> Play:
    """The play function of the engine a schedule's games are played with."""
    used = native.resolve_engine(engine, native.lineups_of(tasks))
    # ``play_task`` is looked up here at each run, so a test can count the games played.
    return play_task if used == "python" else native.play_native
