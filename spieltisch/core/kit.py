"""The game kit: one typed record with everything a game plugs into the rest of the system.

Each game package declares ``KIT = GameKit(...)`` in its ``__init__``; the registry reads that
one name, and the agents, the session and every surface read kits, never a game's modules by
name. What a surface draws per game lives in that surface, keyed by game id, so a kit never
names a surface.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from spieltisch.core.agent import Agent
from spieltisch.core.game import Game, Move, PlayerId, State
from spieltisch.core.words import Words

View = TypeVar("View")

AgentFactory = Callable[[Game, int], Agent[Any]]
"""Builds an agent for a game from its seed."""

Evaluator = Callable[[State, int], tuple[float, ...] | None]
"""A playout cut-off: for a state reached inside a search's own sampled world after the given
number of playout moves, each player's expected return if the simulation can stop there, or
``None`` to play on."""

PlayoutPolicy = Callable[[State, random.Random], Move]
"""A quick choice of action at a decision inside a search's own sampled world (what random
playouts would otherwise pick uniformly)."""

Book = Callable[[Any, Sequence[Move], random.Random], Move | None]
"""Set moves: given a view, the legal actions and the agent's own generator (so that set moves
need not be predictable), a move to play without thinking, or ``None`` when the position is
one to think about."""

Candidates = Callable[[State, Sequence[Move]], Sequence[Move]]
"""The choices worth searching at a decision inside a search's own sampled world: given the
state and its legal actions (more than one), some of them (at least two, in legal order);
the search tries no other."""

BookReason = Callable[[Any, Sequence[Move]], str | None]
"""Why the book plays its set move for a view and the legal actions (``None``: no reason to
give), so that an agent can explain a move it did not think about."""


@dataclass(frozen=True, slots=True)
class SearchHints:
    """What a game tells a search about itself; every hint is optional."""

    book: Book | None = None
    book_reason: BookReason | None = None
    evaluate: Evaluator | None = None
    playout: PlayoutPolicy | None = None
    exploration: float | None = None
    """The exploration constant, where the game's values call for another than the default."""
    tree_depth: int | None = None
    """How many decisions deep the search tree may grow (unlimited if ``None``)."""
    margin: float | None = None
    """The points of a clear lead, where a playout's final score lead should count besides the
    win (see :func:`spieltisch.agents.ismcts.end_value`); ``None``: the win alone counts."""
    candidates: Candidates | None = None
    """The choices worth searching at each decision (``None``: every legal one), where a game
    knows that most of a wide choice is not worth a search's iterations."""


@dataclass(frozen=True, slots=True)
class Belief(Generic[View]):
    """A game's belief sampling, for search and for the hidden-information tests.

    ``sample(game, view, rng)`` draws a complete state that shows ``view`` to its viewer;
    ``redeal(state, observer, rng)`` draws a state ``observer`` cannot tell from ``state``.
    """

    sample: Callable[[Game, View, random.Random], State]
    redeal: Callable[[State, PlayerId | None, random.Random], State]


def _no_order(players: int) -> tuple[str, ...] | None:
    del players
    return None


RoundResult = Mapping[str, object]
"""One finished round's result as plain data (what a game keeps of it: the winner, the
points), for studies that look at a match's rounds in order."""


def _no_rounds(state: State) -> tuple[RoundResult, ...]:
    del state
    return ()


@dataclass(frozen=True, slots=True)
class GameKit(Generic[View]):
    """Everything of one game that the rest of spieltisch plugs into."""

    game: type[Game]
    view: type[View]
    words: Words[View]
    belief: Belief[View] | None = None
    """``None`` for a game without a belief sampler (search cannot play it)."""
    agents: Mapping[str, AgentFactory] = field(default_factory=dict)
    """The game's own agents by name (the generic ones come from the agents package)."""
    strength_order: Callable[[int], tuple[str, ...] | None] = _no_order
    """How the agents rank for a player count, strongest first; ``None``: the default order."""
    search: SearchHints = SearchHints()
    adviser: str | None = None
    """The level whose ratings hints and the analysis of a finished game read (``None``: the
    strongest), where another one's unit teaches better (Auf die Eier's expert speaks in
    points a player can check; the racer, which plays for the win, differs only late)."""
    rounds: Callable[[State], tuple[RoundResult, ...]] = _no_rounds
    """The results of the rounds ``state``'s game has finished, in order (none for a game
    that is not played in rounds)."""

    @property
    def id(self) -> str:
        """The game's id."""
        return self.game.info.id
