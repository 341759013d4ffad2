"""Agents for the lab's studies, on top of the catalogue: the lab's own agents, keyed by game
id, come first; every other name goes to :func:`spieltisch.agents.make_agent`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.game import Game
from spieltisch.lab import auweier_decks

LAB_AGENTS: Mapping[str, Mapping[str, Callable[[Game, int], Agent[Any]]]] = {
    "auweier": {name: auweier_decks.factory(name) for name in auweier_decks.STRATEGIES},
}


def lab_agent(spec: str, game: Game, seed: int = 0) -> Agent[Any]:
    """The agent ``spec`` for ``game``: a lab agent of that game, or one of the catalogue's."""
    own = LAB_AGENTS.get(game.info.id, {})
    if spec in own:
        return own[spec](game, seed)
    return make_agent(spec, game, seed)
