"""Playing a table to its end with agents: the one loop every unattended game runs.

Each agent is asked with its own seat's view (built only for agents that read views) and the
legal actions; chance comes from the table's own generator. ``agents[p]`` sits in seat ``p``;
one agent may sit in several seats (a shared chooser, as the conformance checks use).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.session.table import Table


def play_out(table: Table, agents: Sequence[Agent[Any]], max_moves: int = 1_000_000) -> int:
    """Play ``table`` until the game ends (or ``max_moves`` moves in all are on it) and
    return how many player actions were made."""
    players = table.game.players
    if len(agents) != players:
        raise OptionError(f"{table.game.info.name} with {players} players needs {players} agents")
    return table.play_out(agents, max_moves)
