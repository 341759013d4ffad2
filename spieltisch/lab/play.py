"""Playing one game between agents, and playing on from a state for the studies.

:func:`play_game` seats the agents at a :class:`~spieltisch.session.Table` seeded for the
game and plays it out; the result carries the game record. :func:`play_on` serves the studies
in ``scripts/``, which look at positions from the middle of a game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from spieltisch.core.agent import Agent
from spieltisch.core.game import Game, State
from spieltisch.core.record import Record
from spieltisch.lab.engine import derive_seed, seat_agents
from spieltisch.session import Table, play_out

__all__ = ["PlayedGame", "derive_seed", "pick_seed", "play_game", "play_on", "seat_agents"]


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished (or abandoned) game: its last state and its record."""

    state: State
    record: Record
    actions: int
    """Player actions made (chance outcomes not counted)."""


def play_game(
    game: Game,
    agents: Sequence[Agent[Any]],
    seed: int,
    *,
    seats: Sequence[str] = (),
    max_moves: int = 1_000_000,
) -> PlayedGame:
    """Play ``game`` from the start with ``agents[p]`` in seat ``p`` and chance from ``seed``."""
    table = Table(game, seats, seed)
    actions = play_out(table, agents, max_moves)
    record = table.record()
    if not seats:
        record = Record(record.game, record.players, record.options, record.moves, record.seed)
    return PlayedGame(table.state, record, actions)


def pick_seed() -> int:
    """A fresh seed for a run that was given none (drawn from the operating system)."""
    return random.SystemRandom().randrange(2**31)


def play_on(
    state: State, agents: Sequence[Agent[Any]], rng: random.Random, random_share: float = 0.0
) -> Iterator[State]:
    """Every state from ``state`` (first) to the end of its game, for studies that look at the
    positions of play: chance drawn from ``rng``, and each decision made by its player's agent
    from their view, or, for a ``random_share`` of them (decided by ``rng``), uniformly at
    random so that the positions vary. (A study's walk through positions, not a game at a
    table: it starts anywhere and keeps no record.)"""
    yield state
    while not state.is_terminal():
        player = state.current_player()
        if player is None:
            move = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if random_share and rng.random() <= random_share:
                move = legal[rng.randrange(len(legal))]
            else:
                move = agents[player].act(state.view(player), legal)
        state = state.apply(move)
        yield state
