"""The game-independent plain agent, and the agent interface re-exported from core.

Agents never see the true state: they get the view the rules made for their seat and the
legal actions (see :class:`spieltisch.core.agent.Agent`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spieltisch.core.agent import Agent
from spieltisch.core.game import Move


class RandomAgent(Agent[Any]):
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"
    reads_views = False

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        del view
        return legal[self.rng.randrange(len(legal))]


__all__ = ["Agent", "RandomAgent"]
