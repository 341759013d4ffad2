"""Auweier's player side: the heuristic agent, and the book of deck orders for search.

:data:`AGENTS` lists the game's own agents by name; :data:`SEARCH` tells a search agent about
the game (the book plays the 22 deck-ordering steps without searching). The agents rank in
the default strength order, so there is no ``strength_order`` here.
"""

from __future__ import annotations

from spieltisch.core.kit import AgentFactory, SearchHints
from spieltisch.games.auweier.bots.book import BOOK
from spieltisch.games.auweier.bots.heuristic import HeuristicAgent

AGENTS: dict[str, AgentFactory] = {"heuristic": HeuristicAgent}
MARGIN = 4.0
"""Points of a clear lead: a search's finished playout is worth half its win and half its score
lead as ``tanh(lead / MARGIN)``, so few playouts already tell a wide win from a narrow one
(measured: at 20 iterations a move, 54% [50, 58] of 600 games against the win alone)."""
SEARCH = SearchHints(book=BOOK, margin=MARGIN)

__all__ = ["AGENTS", "MARGIN", "SEARCH"]
