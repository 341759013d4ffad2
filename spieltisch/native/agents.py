"""Games between native agents: which agents the native core has, and whole games played in Rust.

:data:`NATIVE_AGENTS` names, per game, the catalogue's agents (``make_agent`` names) that have a
native counterpart playing the same moves: ``random`` everywhere; Awimbawé's and Auweier's
``heuristic`` (ported rule for rule, reading only its seat's view; Auweier's draws its deck
order from the book's plan with Rust's generator: the same plan with the same chances, another
sample); Auf die Eier's ``racer``, which only the native core offers (:func:`native_levels`:
its Python reference needs a race model no game may compute itself); Auf die Nüsse!'s
``heuristic`` and ``expert`` at their default settings (ported rule
for rule with the judge's prices and the expert's turn plan, the same floats in the same
order); Auf die Eier's ``heuristic`` (ported rule for rule) and ``expert``, whose exact table
of choices the native core works out itself, bit for bit the Python expert's
(:func:`native_expert_table` against the reference :func:`python_expert_table`; a build
without it gets the Python table handed over). :func:`play_games` plays many games end to end
inside Rust (no Python per step, on as many threads as asked, each game depending only on its
:class:`Match`) and returns each game's steps and outcome;
:func:`replay` turns a game's steps into Python moves and states through the Python engine,
and refuses a game whose Python replay ends otherwise than the native game said.

Chance and the random agent draw from Rust's generator, not Python's: a native game is another
sample than the Python game of the same seed, with the same distribution.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from spieltisch.core.errors import NativeError
from spieltisch.core.game import Game, Move, State
from spieltisch.core.kit import AgentFactory
from spieltisch.games import REGISTRY
from spieltisch.games.auf_die_eier.bots import expert
from spieltisch.games.auf_die_eier.model import LADDER, MAX_ROLLS
from spieltisch.games.auf_die_eier.notation import Face
from spieltisch.native import auf_die_eier
from spieltisch.native.build import available, extension, games
from spieltisch.native.face import NativeGame, Step

NATIVE_AGENTS: dict[str, frozenset[str]] = {
    "auf-die-eier": frozenset({"random", "heuristic", "expert", "racer"}),
    "auf-die-nuesse": frozenset({"random", "heuristic", "expert", "rollout"}),
    "auweier": frozenset({"random", "heuristic"}),
    "awimbawe": frozenset({"random", "heuristic"}),
}
"""The agents with a native counterpart, by game id."""

NATIVE_SETTINGS: dict[str, frozenset[str]] = {"auf-die-nuesse": frozenset({"rollout"})}
"""The native agents that also take a setting (``rollout:128``: futures per move), by game id."""

SEED_MASK = 2**64 - 1
"""Seeds are taken modulo 2**64 (the native generators' seed)."""


def native_levels(game_id: str) -> dict[str, AgentFactory]:
    """The levels of ``game_id`` that only the native core offers, by name (none without it):
    Auf die Eier's ``racer``, which plays for the chance to win by the native race."""
    if game_id == "auf-die-eier" and auf_die_eier.has_racer():
        return {"racer": auf_die_eier.NativeRacerAgent}
    return {}


def native_agents(game_id: str) -> frozenset[str]:
    """The agent names of ``game_id`` that the native core can seat."""
    return NATIVE_AGENTS.get(game_id, frozenset())


def is_native(game_id: str, name: str) -> bool:
    """Whether the native core can seat agent ``name`` of ``game_id``: a name it has, or one
    of those with a setting (``rollout:128``; the core refuses a setting out of range)."""
    base, colon, _ = name.partition(":")
    if colon:
        return base in NATIVE_SETTINGS.get(game_id, frozenset())
    return name in native_agents(game_id)


def supported() -> bool:
    """Whether the installed native core plays games between native agents (a build older
    than them does not)."""
    return available() and hasattr(extension(), "NativeRoster")


def plays_natively(game_id: str, names: Iterable[str]) -> bool:
    """Whether a game of ``game_id`` between agents ``names`` can be played natively here: the
    native core is installed, plays native agents, carries the game, and has every agent."""
    wanted = set(names)
    return (
        bool(wanted)
        and all(is_native(game_id, name) for name in wanted)
        and supported()
        and game_id in games()
    )


@dataclass(frozen=True, slots=True)
class Match:
    """One game to play natively: the chance seed, each seat's agent and seed, and whether
    chance is keyed by each event's place (as a keyed table draws it)."""

    seed: int
    seats: tuple[str, ...]
    seat_seeds: tuple[int, ...]
    keyed: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """How one native game went: its steps (when asked for), moves in all (chance included),
    each player's points, the winners, each player's return, the player actions made and
    whether the game is over."""

    steps: list[Step] | None
    moves: int
    scores: tuple[int, ...]
    winners: frozenset[int]
    returns: tuple[float, ...]
    actions: int
    finished: bool


ExpertEntry = tuple[int, int, tuple[int, ...], int]
"""One decision of the expert's table: need (0: the ladder is used up), throws made, dice on
the table, action id."""


@functools.cache
def python_expert_table(dice: int) -> tuple[ExpertEntry, ...]:
    """The Auf die Eier expert's choice at every decision of a turn with ``dice`` dice, as
    ``(need, rolls, dice on the table, action id)`` (need 0: the ladder is used up), computed
    by the Python expert, the reference (seconds: about 5 for nine dice, 10 for ten)."""

    game = REGISTRY.game_class("auf-die-eier")(2, dice=dice)
    entries = []
    for need in (None, *sorted(set(LADDER))):
        for counts in expert.all_dice(dice):
            if counts[Face.ROTTEN] == dice:
                continue  # all Rotten Eggs: the turn ends without a decision
            for rolls in range(1, MAX_ROLLS):
                action, _ = expert.best_choice(rolls, counts, need)
                entries.append((need or 0, rolls, counts, game.action_id(action)))
    return tuple(entries)


def computes_expert_table() -> bool:
    """Whether the installed native core works the expert's table out itself (a build older
    than that needs it handed over)."""
    return supported() and hasattr(extension().NativeRoster, "expert_table")


@functools.cache
def native_expert_table(dice: int) -> tuple[tuple[ExpertEntry, float], ...]:
    """The expert's table as the native core computes it (a fraction of a second), each entry
    with the expected points of the choice for the rest of the turn; in
    :func:`python_expert_table`'s order and equal to it (values to the bit)."""
    raw = extension().NativeRoster.expert_table(dice)
    return tuple(
        ((need, rolls, tuple(counts), action), value) for need, rolls, counts, action, value in raw
    )


def expert_table(dice: int) -> tuple[ExpertEntry, ...]:
    """The expert's table for ``dice`` dice: the native core's where it computes one, else the
    Python expert's (both cached per dice count)."""
    if computes_expert_table():
        return tuple(entry for entry, _ in native_expert_table(dice))
    return python_expert_table(dice)


@functools.cache
def _expert_entries(dice: int) -> list[ExpertEntry]:
    """The expert's table for ``dice`` dice as a roster takes it (made once per dice count)."""
    return list(expert_table(dice))


@functools.lru_cache(maxsize=64)
def roster(native: NativeGame, names: tuple[str, ...]) -> Any:
    """The native agents ``names`` of ``native``'s game in one roster, built once per game and
    options. The expert's table is worked out once per dice count (by the native core where it
    can, else by the Python expert) and handed to every roster that seats the expert: a study
    of several player counts or variants solves it once, not once a roster."""
    game_id = native.python.info.id
    missing = [name for name in names if not is_native(game_id, name)]
    if missing:
        raise NativeError(f"{game_id} has no native agent {missing[0]!r}")
    table = None
    if game_id == "auf-die-eier" and "expert" in names:
        table = _expert_entries(int(native.python.options["dice"]))
    return extension().NativeRoster(native.native, list(names), table)


@functools.lru_cache(maxsize=64)
def native_game(game: Game) -> NativeGame:
    """The native game beside ``game`` (built once per game and options)."""
    return NativeGame(game)


def play_games(
    game: Game,
    matches: Sequence[Match],
    *,
    threads: int = 1,
    max_moves: int = 1_000_000,
    records: bool = False,
) -> list[Played]:
    """Play every match of ``game`` from the start between native agents inside Rust, on
    ``threads`` threads (the same games whatever the count); with ``records``, keep each
    game's steps (action ids and chance codes) for :func:`replay`. Raises
    :class:`NativeError` for an agent without a native counterpart."""
    names = tuple(sorted({name for match in matches for name in match.seats}))
    agents = roster(native_game(game), names)
    index = {name: i for i, name in enumerate(names)}
    packed = []
    for match in matches:
        packed.append(
            (
                match.seed & SEED_MASK,
                match.keyed,
                [index[name] for name in match.seats],
                [seed & SEED_MASK for seed in match.seat_seeds],
            )
        )
    raw = agents.play(packed, threads, max_moves, records)
    return [
        Played(
            steps,
            moves,
            tuple(scores),
            frozenset(winners),
            tuple(returns),
            actions,
            finished,
        )
        for steps, moves, scores, winners, returns, actions, finished in raw
    ]


def replay(game: Game, played: Played) -> tuple[list[Move], list[State]]:
    """The Python moves of a native game and every Python state from the start (the Python
    engine re-validates each step). Raises :class:`NativeError` when the game kept no steps
    or its Python replay ends with other scores, winners or end than the native game."""
    if played.steps is None:
        raise NativeError("the native game kept no steps to replay")
    native = native_game(game)
    state = game.initial_state()
    states = [state]
    moves: list[Move] = []
    for step in played.steps:
        move = native.move_of(state, step)
        state = state.apply(move)
        moves.append(move)
        states.append(state)
    winners = frozenset(state.winners()) if state.is_terminal() else frozenset()
    if (
        tuple(state.scores()) != played.scores
        or winners != played.winners
        or state.is_terminal() != played.finished
    ):
        raise NativeError(
            f"a native {game.info.id} game replays in Python to scores {state.scores()}, "
            f"winners {sorted(winners)} (over: {state.is_terminal()}), not "
            f"{played.scores}, {sorted(played.winners)} (over: {played.finished})"
        )
    return moves, states


__all__ = [
    "NATIVE_AGENTS",
    "NATIVE_SETTINGS",
    "ExpertEntry",
    "Match",
    "Played",
    "computes_expert_table",
    "expert_table",
    "is_native",
    "native_agents",
    "native_expert_table",
    "native_game",
    "play_games",
    "plays_natively",
    "python_expert_table",
    "replay",
    "roster",
    "supported",
]
