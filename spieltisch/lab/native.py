"""A study's games played by the native core, where every agent of the study has a native
counterpart (see :mod:`spieltisch.native.agents`) and the native core is built; and the choice
of *engine* that decides it.

The engine is ``auto`` (the default: native where it can play every game, else Python),
``native`` (refused, naming the agents without a native counterpart, the missing core or a
core too old to seat them, where it cannot) or ``python``; :func:`resolve_engine` turns the
choice into the engine a run uses, and :func:`play_of` into its
:data:`~spieltisch.lab.engine.Play`.

:data:`play_native` is a drop-in :data:`~spieltisch.lab.engine.Play`: it plays one scheduled
game end to end in Rust (chance keyed like the Python table's when the task asks for it, each
seat's agent seeded from the task as :func:`~spieltisch.lab.engine.seat_agents` seeds it) and
returns the same :class:`~spieltisch.lab.engine.GameResult` as :func:`play_task`, so the
journal, results.csv and the report are written as before. Its ``many`` plays a runner's whole
chunk of games in one call of the native core per game and options (each game depends only on
its task, so the results are the ones game by game). Native chance is another sample than
Python's from the same seed (Rust's generator), with the same distribution; common random
numbers between a study's variants hold as before (both key chance by the event's place). So
a study's numbers are reproducible per engine: the same seed gives the same games natively on
every machine, backend and worker count, but not the games the Python path gives. Each
journaled game names the engine that drew it, and a run refuses to resume a journal drawn by
the other engine (:func:`~spieltisch.lab.engine.check_engine`), so no study mixes the two
samples (a journal written before games named their engine is resumed by either).

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

import functools
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import Literal, get_args

import spieltisch
from spieltisch.core.errors import NativeError
from spieltisch.core.game import Game
from spieltisch.core.kit import RoundResult
from spieltisch.core.record import Record
from spieltisch.lab.engine import (
    EngineError,
    GameResult,
    Play,
    Task,
    load_game,
    play_task,
    seat_seeds,
    traced_measures,
)
from spieltisch.native import agents as native_agents
from spieltisch.native import build as native_build

REPLAY_EVERY = 50
"""Every game of one deal in this many is replayed in the Python engine (deal 0 always)."""

Engine = Literal["auto", "native", "python"]
"""The engine a run asks for: ``auto`` (native where it can play every game), ``native`` or
``python``."""
ENGINES: tuple[Engine, ...] = get_args(Engine)
Used = Literal["native", "python"]
"""The engine a run plays with (what its ``run.json`` names)."""


def why_not_native(game_id: str, agents: Iterable[str]) -> str | None:
    """Why the native core cannot play games of ``game_id`` between ``agents`` here (the
    agents without a native counterpart, or the missing core), or ``None`` if it can."""
    if not native_build.available():
        return f"the native core is missing ({native_build.status()})"
    if not native_agents.supported():
        return "the installed native core is older than its native agents: rebuild it"
    if game_id not in native_build.games():
        return f"the native core does not carry {game_id}"
    missing = sorted(a for a in set(agents) if not native_agents.is_native(game_id, a))
    if missing:
        have = ", ".join(sorted(native_agents.native_agents(game_id))) or "none"
        return (
            f"{', '.join(missing)} {'has' if len(missing) == 1 else 'have'} no native "
            f"counterpart in {game_id} (native agents: {have})"
        )
    return _seats(game_id, tuple(sorted(set(agents))))


@functools.cache
def _seats(game_id: str, names: tuple[str, ...]) -> str | None:
    """Why the installed core cannot seat ``names`` (a build older than the Python side's list
    of native agents), or ``None``: a roster of them is built once for the game's default
    options (and kept, so a study of the default game does not build it twice)."""
    try:
        native_agents.roster(native_agents.native_game(spieltisch.load(game_id)), names)
    except (NativeError, ValueError) as error:
        return f"the installed native core cannot seat them ({error}): rebuild it"
    return None


def resolve_engine(engine: str, lineups: Mapping[str, Iterable[str]]) -> Used:
    """The engine a run plays with, asked for ``engine``, its games' agents by game id:
    ``native`` where every game's agents have native counterparts and the core is built (for
    ``auto`` and ``native``), else ``python``; :class:`EngineError` where ``native`` is asked
    for and cannot play them, naming why."""
    if engine not in ENGINES:
        raise EngineError(f"the engine is one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "python":
        return "python"
    reasons = [r for game, names in lineups.items() if (r := why_not_native(game, names))]
    if not reasons and lineups:
        return "native"
    if engine == "native":
        why = "; ".join(reasons) or "there are no games to play"
        raise EngineError(f"the native engine cannot play this run: {why}")
    return "python"


def lineups_of(tasks: Iterable[Task]) -> dict[str, set[str]]:
    """The agents of a schedule's games, by game id (what :func:`resolve_engine` reads)."""
    lineups: dict[str, set[str]] = {}
    for task in tasks:
        lineups.setdefault(task.game, set()).update(task.seats)
    return lineups


def play_of(engine: Used) -> Play:
    """The play function of an engine :func:`resolve_engine` chose."""
    return play_native if engine == "native" else play_task


def engine_of(play: Play) -> Used:
    """The engine a play function draws its games with (a function with no ``engine`` is the
    Python engine's)."""
    return "native" if getattr(play, "engine", "python") == "native" else "python"


def plays_natively(tasks: Sequence[Task]) -> bool:
    """Whether every task of a schedule can be played by native agents here."""
    return bool(tasks) and all(
        native_agents.plays_natively(task.game, task.seats) for task in tasks
    )


def choose_play(tasks: Sequence[Task]) -> Play:
    """:data:`play_native` for a schedule the native core can play entirely, else the Python
    :func:`~spieltisch.lab.engine.play_task`."""
    return play_native if plays_natively(tasks) else play_task


def play_for(game: str, agents: Sequence[str]) -> Play:
    """:data:`play_native` where every one of ``agents`` has a native counterpart in ``game``
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
    seeds = seat_seeds(task.agents_seed(), task.players)
    return native_agents.Match(task.seed, task.seats, seeds, keyed=task.keyed)


class NativePlay:
    """Plays scheduled games natively: one game (a :data:`~spieltisch.lab.engine.Play`) or a
    runner's chunk at once (:meth:`many`); see the module docstring."""

    engine = "native"

    def __call__(self, task: Task, max_moves: int = 1_000_000) -> GameResult:
        return self.many([task], max_moves)[0]

    def many(self, tasks: Sequence[Task], max_moves: int = 1_000_000) -> list[GameResult]:
        """Every task's result, in order: the games of one game and options (and one kind,
        replayed or not) go to the native core in one call."""
        results: list[GameResult] = []
        for (game_id, players, options, check), group in groupby(tasks, key=_batch_key):
            batch = list(group)
            game = load_game(game_id, players, options)
            matches = [match_of(task) for task in batch]
            played = native_agents.play_games(game, matches, max_moves=max_moves, records=check)
            results += [
                _result(game, task, one, check) for task, one in zip(batch, played, strict=True)
            ]
        return results

    def __reduce__(self) -> str:
        return "play_native"  # one instance per process: pickled by name, as a function is


play_native = NativePlay()
"""Plays scheduled games natively (see :class:`NativePlay`)."""


def _batch_key(task: Task) -> tuple[str, int, tuple[tuple[str, object], ...], bool]:
    return task.game, task.players, task.options, replayed(task)


def _result(game: Game, task: Task, played: native_agents.Played, check: bool) -> GameResult:
    """A native game's result; a game kept for checking is replayed in Python first."""
    record = None
    measures: tuple[tuple[str, float | None], ...] = ()
    rounds: tuple[RoundResult, ...] = ()
    if check:
        moves, states = native_agents.replay(game, played)
        replayed_record = Record(
            game=task.game,
            players=task.players,
            options=dict(game.options),
            moves=tuple(str(move) for move in moves),
            seats=task.seats,
        )
        if task.keep_record:
            record = replayed_record
        if task.trace:
            measures, rounds = traced_measures(task, game, states, replayed_record)
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
        engine="native",
        rounds=rounds,
    )


__all__ = [
    "ENGINES",
    "REPLAY_EVERY",
    "Engine",
    "EngineError",
    "NativePlay",
    "Used",
    "choose_play",
    "engine_of",
    "lineups_of",
    "match_of",
    "play_for",
    "play_native",
    "play_of",
    "plays_natively",
    "replayed",
    "resolve_engine",
    "why_not_native",
]
