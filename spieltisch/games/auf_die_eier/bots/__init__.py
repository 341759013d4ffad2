"""Auf die Eier's players: the exact expert and a rule-of-thumb heuristic. Both read views only.

``AGENTS`` are the game's own agents by name; ``SEARCH`` tells a search about the game (it
needs no hints: random playouts end every turn within three throws); :func:`strength_order`
ranks them as the bot ladder measured.
"""

from __future__ import annotations

from spieltisch.core.kit import AgentFactory, SearchHints
from spieltisch.games.auf_die_eier.bots.expert import ExpertAgent
from spieltisch.games.auf_die_eier.bots.heuristic import HeuristicAgent

AGENTS: dict[str, AgentFactory] = {"expert": ExpertAgent, "heuristic": HeuristicAgent}
SEARCH = SearchHints()


def strength_order(players: int) -> tuple[str, ...]:
    """How the agents rank, strongest first, at every number of players: the search's random
    playouts of a dice race play it worse than the rule of thumb, so unlike the default order
    the heuristic comes before ``ismcts``. On the bot ladder (``docs/ladder.md``) the heuristic
    is above every iteration budget of the search at two to six players; in a two-player run of
    100 games a pairing the heuristic finished ahead of ismcts:2000 in 52% of their games, the
    expert ahead of the heuristic in 77% and the native ``racer`` ahead of the expert in 54%
    (level within the noise)."""
    del players
    return ("racer", "expert", "heuristic", "ismcts", "random")


__all__ = ["AGENTS", "SEARCH", "ExpertAgent", "HeuristicAgent", "strength_order"]
