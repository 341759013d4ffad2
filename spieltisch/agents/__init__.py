"""Agents by name: the game-independent ones here, each game's own in its ``bots`` module.

``make_agent("random", game, seed)`` builds an agent; :func:`agent_names` lists what a game
offers, strongest first. A game adds agents by defining ``AGENTS`` in its ``bots`` module, and
may define ``BOOK``: set moves for decisions that search should not spend time on (such as
arranging a deck before play), which search agents play without searching; ``BOOK_REASON``:
why the book plays what it plays, for ``hint``; ``EVALUATE``: where a search's playout may
stop, and what the position is worth there; ``PLAYOUT``: a quick policy for playouts, used
instead of uniformly random moves; ``EXPLORATION``: the search's exploration constant, where
the game's values call for another than the default; ``TREE_DEPTH``: how many decisions deep
the search tree may grow (unlimited if unset); and ``strength_order(players)``: how its agents
rank for that many players, strongest first, where measurements say otherwise than
:data:`STRENGTH_ORDER`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType

from spieltisch.agents.base import (
    Agent,
    Book,
    BookReason,
    Evaluator,
    PlayoutPolicy,
    RandomAgent,
)
from spieltisch.agents.ismcts import IsmctsAgent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game

AgentFactory = Callable[[Game, int], Agent]

GENERIC_AGENTS: dict[str, AgentFactory] = {"ismcts": IsmctsAgent, "random": RandomAgent}
STRENGTH_ORDER = ("expert", "ismcts", "heuristic", "random")
"""How agents rank when listed, strongest first, unless the game's ``bots.strength_order``
says otherwise; names not listed come after."""


def _bots_module(game: Game) -> ModuleType | None:
    """The game's ``bots`` module, if it has one."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError:
        return None


def _game_agents(game: Game) -> Mapping[str, AgentFactory]:
    """The agents a game's ``bots`` module offers (none if it has none)."""
    bots = _bots_module(game)
    agents: Mapping[str, AgentFactory] = getattr(bots, "AGENTS", {})
    return agents


def game_evaluator(game: Game) -> Evaluator | None:
    """The game's playout cut-off (its ``bots.EVALUATE``), if it has one."""
    evaluate: Evaluator | None = getattr(_bots_module(game), "EVALUATE", None)
    return evaluate


def game_playout_policy(game: Game) -> PlayoutPolicy | None:
    """The game's playout policy (its ``bots.PLAYOUT``), if it has one."""
    policy: PlayoutPolicy | None = getattr(_bots_module(game), "PLAYOUT", None)
    return policy


def game_exploration(game: Game) -> float | None:
    """The game's exploration constant for search (its ``bots.EXPLORATION``), if it sets one."""
    exploration: float | None = getattr(_bots_module(game), "EXPLORATION", None)
    return exploration


def game_tree_depth(game: Game) -> int | None:
    """How deep the game lets the search tree grow (its ``bots.TREE_DEPTH``), if it caps it."""
    depth: int | None = getattr(_bots_module(game), "TREE_DEPTH", None)
    return depth


def game_book(game: Game) -> Book | None:
    """The game's book of set moves (its ``bots.BOOK``), if it has one."""
    book: Book | None = getattr(_bots_module(game), "BOOK", None)
    return book


def game_book_reason(game: Game) -> BookReason | None:
    """Why the game's book plays its set moves (its ``bots.BOOK_REASON``), if it says."""
    reason: BookReason | None = getattr(_bots_module(game), "BOOK_REASON", None)
    return reason


def _factories(game: Game) -> dict[str, AgentFactory]:
    factories = {**GENERIC_AGENTS, **_game_agents(game)}
    if not _has_belief_sampler(game):
        del factories["ismcts"]
    return factories


def _has_belief_sampler(game: Game) -> bool:
    return type(game).sample_state is not Game.sample_state


def _strength_order(game: Game) -> Sequence[str]:
    """How ``game``'s agents rank for its number of players (its ``bots.strength_order``, or
    :data:`STRENGTH_ORDER`)."""
    order: Callable[[int], Sequence[str]] | None = getattr(
        _bots_module(game), "strength_order", None
    )
    return STRENGTH_ORDER if order is None else order(game.players)


def agent_names(game: Game) -> tuple[str, ...]:
    """Every agent name usable in ``game``, strongest first."""
    names = list(_factories(game))
    rank = {name: index for index, name in enumerate(_strength_order(game))}
    return tuple(sorted(names, key=lambda n: rank.get(n, len(rank))))


def make_agent(spec: str, game: Game, seed: int = 0) -> Agent:
    """The agent ``spec`` (a name, or ``name:setting`` such as ``ismcts:2s``) for ``game``.

    Raises :class:`OptionError` for an unknown name or a bad setting.
    """
    name, _, setting = spec.partition(":")
    factories = _factories(game)
    if name not in factories:
        known = ", ".join(agent_names(game))
        raise OptionError(f"unknown agent {name!r} for {game.info.id} (agents: {known})")
    agent = factories[name](game, seed)
    if setting:
        agent.configure(setting)
    return agent


def strongest_agent(game: Game) -> str:
    """The name of the strongest agent ``game`` offers (what a newcomer plays against)."""
    return agent_names(game)[0]


__all__ = [
    "Agent",
    "IsmctsAgent",
    "RandomAgent",
    "agent_names",
    "game_book",
    "game_book_reason",
    "game_evaluator",
    "game_playout_policy",
    "make_agent",
    "strongest_agent",
]
