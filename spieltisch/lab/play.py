"""Play one game between agents, with chance drawn from a seeded generator.

Every agent is asked with its own seat's view and the legal actions only; chance outcomes come
from one generator seeded for the game, so the same seeds give the same game move for move.
The result carries the game record.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from spieltisch.agents import Agent, make_agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, State
from spieltisch.core.record import Record


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for a part of a run (a game, a seat), the same on every machine and run."""
    text = ":".join(str(x) for x in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished (or abandoned) game: its last state and its record."""

    state: State
    record: Record
    actions: int
    """Player actions made (chance outcomes not counted)."""


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    *,
    seats: Sequence[str] = (),
    max_moves: int = 1_000_000,
) -> PlayedGame:
    """Play ``game`` from the start with ``agents[p]`` in seat ``p`` and chance from ``seed``."""
    if len(agents) != game.players:
        raise OptionError(
            f"{game.info.name} with {game.players} players needs {game.players} agents"
        )
    chance = random.Random(seed)
    state = game.initial_state()
    moves: list[str] = []
    actions = 0
    while not state.is_terminal() and len(moves) < max_moves:
        player = state.current_player()
        if player is None:
            move = state.sample_chance(chance)
        else:
            move = agents[player].act(state.view(player), state.legal_actions())
            actions += 1
        moves.append(str(move))
        state = state.apply(move)
    record = Record(
        game=game.info.id,
        players=game.players,
        options=dict(game.options),
        moves=tuple(moves),
        seed=seed,
        seats=tuple(seats),
    )
    return PlayedGame(state, record, actions)


def seat_agents(game: Game, names: Sequence[str], seed: int) -> list[Agent]:
    """Agents by name, one per seat, each with its own seed derived from ``seed``."""
    return [
        make_agent(name, game, derive_seed(seed, "seat", seat)) for seat, name in enumerate(names)
    ]


def pick_seed() -> int:
    """A fresh seed for a run that was given none (drawn from the operating system)."""
    return random.SystemRandom().randrange(2**31)


def play_on(
    state: State, agents: Sequence[Agent], rng: random.Random, random_share: float = 0.0
) -> Iterator[State]:
    """Every state from ``state`` (first) to the end of its game, for studies that look at the
    positions of play: chance drawn from ``rng``, and each decision made by its player's agent
    from their view, or, for a ``random_share`` of them (decided by ``rng``), uniformly at
    random so that the positions vary."""
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
