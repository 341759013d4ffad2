"""Agents by name: the game-independent ones here, each game's own in its ``bots`` module.

``make_agent("random", game, seed)`` builds an agent; :func:`agent_names` lists what a game
offers, strongest first. A game adds agents by defining ``AGENTS`` in its ``bots`` module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

from spieltisch.agents.base import Agent, RandomAgent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game

AgentFactory = Callable[[Game, int], Agent]

GENERIC_AGENTS: dict[str, AgentFactory] = {"random": RandomAgent}


def _game_agents(game: Game) -> Mapping[str, AgentFactory]:
    """The agents a game's ``bots`` module offers, strongest first (none if it has none)."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        bots = importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError:
        return {}
    agents: Mapping[str, AgentFactory] = bots.AGENTS
    return agents


def agent_names(game: Game) -> tuple[str, ...]:
    """Every agent name usable in ``game``, strongest first."""
    return (*_game_agents(game), *GENERIC_AGENTS)


def make_agent(name: str, game: Game, seed: int = 0) -> Agent:
    """The agent called ``name`` for ``game``; :class:`OptionError` for an unknown name."""
    factories = {**GENERIC_AGENTS, **_game_agents(game)}
    if name not in factories:
        known = ", ".join(agent_names(game))
        raise OptionError(f"unknown agent {name!r} for {game.info.id} (agents: {known})")
    return factories[name](game, seed)


def strongest_agent(game: Game) -> str:
    """The name of the strongest agent ``game`` offers (what a newcomer plays against)."""
    return agent_names(game)[0]


__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "strongest_agent"]
