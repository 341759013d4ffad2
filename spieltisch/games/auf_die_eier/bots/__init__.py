"""Auf die Eier's players: the exact expert and a rule-of-thumb heuristic. Both read views only.

``AGENTS`` are the game's own agents by name; ``SEARCH`` tells a search about the game (it
needs no hints: random playouts end every turn within three throws).
"""

from __future__ import annotations

from spieltisch.core.kit import AgentFactory, SearchHints
from spieltisch.games.auf_die_eier.bots.expert import ExpertAgent
from spieltisch.games.auf_die_eier.bots.heuristic import HeuristicAgent

AGENTS: dict[str, AgentFactory] = {"expert": ExpertAgent, "heuristic": HeuristicAgent}
SEARCH = SearchHints()

__all__ = ["AGENTS", "SEARCH", "ExpertAgent", "HeuristicAgent"]
