"""A study's games played by the native core, where every agent of the study has a native
counterpart (see :mod:`spieltisch.native.agents`) and the native core is built.

:func:`play_native` is a drop-in :data:`~spieltisch.lab.engine.Play`: it plays one scheduled
game end to end in Rust (chance keyed like the Python table's when the task asks for it, each
seat's agent seeded from the task as :func:`~spieltisch.lab.engine.seat_agents` seeds it) and
returns the same :class:`~spieltisch.lab.engine.GameResult` as :func:`play_task`, so the
journal, results.csv and the report are written as before. Native chance is another sample
than Python's from the same seed (Rust's generator), with the same distribution; common random
numbers between a study's variants hold as before (both key chance by the event's place).
So a study's numbers are reproducible per engine: the same seed gives the same games natively
on every machine, backend and worker count, but not the games the Python path gives; a journal
resumed on the other engine mixes two samples of the same distribution.

The Python engine checks the native games: every game of each :data:`REPLAY_EVERY`-th deal
(deal 0 of every cell, so a sample of every study) is replayed in Python, and a replay that
ends with other scores or winners raises :class:`NativeError`, stopping the study.

What the lab needs per decision stays on the Python path: a traced task (game-quality
measures from per-decision estimates) and a task that keeps its record have their game
replayed in Python, where the estimator reads each decision's Python state and the record is
written in the Python engine's move texts (the native game supplies only the steps); so every
such game is checked too. :func:`choose_play` falls back to :func:`play_task` when any agent
of a schedule has no native counterpart or the native core is missing.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import State
from spieltisch.core.record import Record
from spieltisch.lab import quality
from spieltisch.lab.engine import (
    MEASURE_DIGITS,
    GameResult,
    Play,
    Task,
    derive_seed,
    load_game,
    play_task,
)
from spieltisch.native import agents as native_agents

REPLAY_EVERY = 50
"""Every game of one deal in this many is replayed in the Python engine (deal 0 always)."""


def plays_natively(tasks: Sequence[Task]) -> bool:
    """Whether every task of a schedule can be played by native agents here."""
    return bool(tasks) and all(
        native_agents.plays_natively(task.game, task.seats) for task in tasks
    )


def choose_play(tasks: Sequence[Task]) -> Play:
    """:func:`play_native` for a schedule the native core can play entirely, else the Python
    :func:`~spieltisch.lab.engine.play_task`."""
    return play_native if plays_natively(tasks) else play_task


def play_for(game: str, agents: Sequence[str]) -> Play:
    """:func:`play_native` where every one of ``agents`` has a native counterpart in ``game``
    (and the native core is built), else :func:`~spieltisch.lab.engine.play_task`: for a run
    that schedules its games as it goes (``lab tune``)."""
    return play_native if native_agents.plays_natively(game, agents) else play_task


def replayed(task: Task) -> bool:
    """Whether the native game of ``task`` is replayed in the Python engine (sampled by deal,
    or needed for its trace or record)."""
    return task.trace or task.keep_record or task.deal % REPLAY_EVERY == 0


def match_of(task: Task) -> native_agents.Match:
    """The native match of a task: its chance seed and each seat's seed, as the Python table
    and :func:`~spieltisch.lab.engine.seat_agents` derive them."""
    agents_seed = task.agents_seed()
    seeds = tuple(derive_seed(agents_seed, "seat", seat) for seat in range(task.players))
    return native_agents.Match(task.seed, task.seats, seeds, keyed=task.keyed)


def play_native(task: Task, max_moves: int = 1_000_000) -> GameResult:
    """Play one scheduled game natively (see the module docstring)."""
    game = load_game(task.game, task.players, task.options)
    check = replayed(task)
    played = native_agents.play_games(game, [match_of(task)], max_moves=max_moves, records=check)[0]
    record = None
    measures: tuple[tuple[str, float | None], ...] = ()
    if check:
        moves, states = native_agents.replay(game, played)
        if task.keep_record:
            record = Record(
                game=task.game,
                players=task.players,
                options=dict(game.options),
                moves=tuple(str(move) for move in moves),
                seats=task.seats,
            )
        if task.trace:
            measures = _measures(task, states, played.winners)
    return GameResult(
        task.deal,
        task.rotation,
        task.seats,
        played.scores,
        played.returns,
        played.actions,
        played.moves,
        played.finished,
        record,
        measures,
    )


def _measures(
    task: Task, states: Sequence[State], winners: frozenset[int]
) -> tuple[tuple[str, float | None], ...]:
    """The game-quality measures of a traced game, from its Python states (as ``play_task``)."""
    estimates = quality.trace(states, quality.estimator(task.game))
    return tuple(
        (key, None if value is None else round(value, MEASURE_DIGITS))
        for key, value in sorted(quality.measures(estimates, winners))
    )


__all__ = [
    "REPLAY_EVERY",
    "choose_play",
    "match_of",
    "play_for",
    "play_native",
    "plays_natively",
    "replayed",
]
