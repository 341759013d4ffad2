"""The agent interface: given a player's view and the legal actions, choose an action.

Agents never see the true state: they get the view the rules core made for their seat and the
legal actions, which are the player's own knowledge. Each agent owns its random generator,
seeded when it is made, so a game played by agents is reproducible from its seeds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move, State

Evaluator = Callable[[State, int], tuple[float, ...] | None]
"""A game's playout cut-off: for a state reached inside a search's own sampled world after the
given number of playout moves, each player's expected return if the simulation can stop there,
or ``None`` to play on."""

PlayoutPolicy = Callable[[State, random.Random], Move]
"""A game's quick choice of action at a decision inside a search's own sampled world (what
random playouts would otherwise pick uniformly)."""

Book = Callable[[object, Sequence[Move], random.Random], Move | None]
"""A game's set moves: given a view, the legal actions and the agent's own generator (so that
set moves need not be predictable), a move to play without thinking, or ``None`` when the
position is one to think about."""

BookReason = Callable[[object, Sequence[Move]], str | None]
"""Why a game's book plays its set move for a view and the legal actions (``None``: no reason
to give), so that an agent can explain a move it did not think about."""


class Agent(ABC):
    """A player that chooses actions from views."""

    name: str = "agent"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)

    def configure(self, setting: str) -> None:
        """Apply a strength setting given as ``name:setting``; plain agents take none."""
        raise OptionError(f"agent {self.name!r} takes no setting (got {setting!r})")

    @abstractmethod
    def act(self, view: object, legal: Sequence[Move]) -> Move:
        """Choose one of ``legal`` (never empty) for the player whose ``view`` this is."""

    def explain(self, view: object, legal: Sequence[Move]) -> str:
        """Why this agent would pick its move here, in one line (agents may say more)."""
        return f"{self.name} picks {self.act(view, legal)}"


class RandomAgent(Agent):
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        del view
        return legal[self.rng.randrange(len(legal))]
