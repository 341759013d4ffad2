"""The agent protocol: given a player's view and the legal actions, choose an action.

Agents never see the true state: they get the view the rules made for their seat and the legal
actions, which are the player's own knowledge. ``Agent`` is generic over the view type, so a
game's agents read their own game's view without narrowing. Each agent owns its random
generator, seeded when it is made, so a game played by agents replays from its seeds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move

View = TypeVar("View")
"""The view type of a game (a frozen dataclass)."""


@dataclass(frozen=True, slots=True)
class Rated:
    """One legal move as an agent rates it."""

    move: Move
    value: float
    samples: int | None = None
    """How many simulated games the value rests on (``None``: worked out exactly)."""


@dataclass(frozen=True, slots=True)
class Ratings:
    """How an agent rates every legal move of a position, best first, in one unit."""

    unit: str
    """What a value is, in words: ``expected points this turn``, ``win chance``."""
    choices: tuple[Rated, ...]

    def of(self, move: Move) -> Rated | None:
        """The rating of ``move`` (``None`` if it was not rated)."""
        return next((rated for rated in self.choices if rated.move == move), None)


class Agent(ABC, Generic[View]):
    """A player that chooses actions from views."""

    name: ClassVar[str] = "agent"
    reads_views: ClassVar[bool] = True
    """False for agents that never look at the view, so a play loop need not build one."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)

    def configure(self, setting: str) -> None:
        """Apply a strength setting given as ``name:setting``; plain agents take none."""
        raise OptionError(f"agent {self.name!r} takes no setting (got {setting!r})")

    @abstractmethod
    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """Choose one of ``legal`` (never empty) for the player whose ``view`` this is."""

    def explain(self, view: View, legal: Sequence[Move]) -> str:
        """Why this agent would pick its move here, in one line (agents may say more)."""
        return f"{self.name} picks {self.act(view, legal)}"

    def rate(self, view: View, legal: Sequence[Move]) -> Ratings | None:
        """Every legal move rated, best first (for analysing a game), or ``None`` for an agent
        that only picks."""
        del view, legal
        return None
