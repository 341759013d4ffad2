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
SEARCH = SearchHints(book=BOOK)

__all__ = ["AGENTS", "SEARCH"]
