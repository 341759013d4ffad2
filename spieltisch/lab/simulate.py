"""Simulate many games between agents and summarise who wins, by how much, and how long.

``simulate`` is the arena's engine with a schedule that keeps the seats where they are: game
``i`` of a run with seed ``s`` uses chance seed ``derive_seed(s, "game", i)`` and fresh agents
seeded from it, so a run is reproducible and any one game of it can be replayed alone. Its
games are played natively where every agent has a native counterpart and the core is built
(``engine="auto"``, see :mod:`spieltisch.lab.native`): then a run is reproducible per engine,
and a kept record is the native game's Python replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spieltisch.core.game import Game
from spieltisch.core.record import Record
from spieltisch.lab import native
from spieltisch.lab.engine import Task, derive_seed, run_tasks, runner_for
from spieltisch.lab.summary import SeatSummary

Progress = Callable[[int], None]
"""Called with the number of games finished so far."""

Summary = SeatSummary


def schedule(
    game: Game, agents: Sequence[str], games: int, seed: int, *, keep_records: bool = False
) -> list[Task]:
    """The games of a run: the named agents in seat order, a chance seed per game."""
    options = tuple(sorted(game.options.items()))
    tasks = []
    for index in range(games):
        game_seed = derive_seed(seed, "game", index)
        tasks.append(
            Task(
                game.info.id,
                game.players,
                options,
                index,
                0,
                tuple(agents),
                game_seed,
                agent_seed=game_seed,
                keep_record=keep_records,
            )
        )
    return tasks


def simulate(
    game: Game,
    agents: Sequence[str],
    games: int,
    seed: int,
    *,
    on_record: Callable[[int, Record], None] | None = None,
    progress: Progress | None = None,
    workers: int = 1,
    engine: str = "auto",
) -> SeatSummary:
    """Play ``games`` games of ``game`` with the named agents in seat order, with the
    ``engine`` asked for (see :func:`~spieltisch.lab.native.resolve_engine`)."""
    tasks = schedule(game, agents, games, seed, keep_records=on_record is not None)
    play = native.play_of(native.resolve_engine(engine, {game.info.id: agents}))
    results = run_tasks(tasks, play, runner_for(workers), progress)
    if on_record is not None:
        for index, result in enumerate(results):
            if result.record is not None:
                on_record(index, result.record)
    return SeatSummary.of(results, game.info.id, game.players, agents, seed)
