"""Auf die Eier's players: the exact expert and a rule-of-thumb heuristic. Both read views only.

``AGENTS`` are the game's own agents by name; ``SEARCH`` tells a search about the game (its
playouts follow the expert and stop at the next turn start with an estimate of the race:
:mod:`.search`); :func:`strength_order` ranks them as the bot ladder measured.
"""

from __future__ import annotations

from spieltisch.core.kit import AgentFactory, SearchHints
from spieltisch.games.auf_die_eier.bots.expert import ExpertAgent
from spieltisch.games.auf_die_eier.bots.heuristic import HeuristicAgent
from spieltisch.games.auf_die_eier.bots.search import (
    TREE_DEPTH,
    candidates,
    evaluate,
    playout,
)

AGENTS: dict[str, AgentFactory] = {"expert": ExpertAgent, "heuristic": HeuristicAgent}
SEARCH = SearchHints(
    # ISMCTS playouts follow the expert, not random moves.
    playout=playout,
    # They stop at the next turn start, valued by an estimate of the race from there.
    evaluate=evaluate,
    # Each choice at hand is rated by the expert finishing the turn from it.
    tree_depth=TREE_DEPTH,
    # Of a throw's many choices, only the expert's best few are weighed.
    candidates=candidates,
)


def strength_order(players: int) -> tuple[str, ...]:
    """How the agents rank for ``players``, strongest first, as the bot ladder measured them
    (``docs/ladder.md``, 300 games a pairing, 2026-12-06). The search, which plays out by the
    expert (:mod:`.search`), rates six to nine mu above the heuristic at every table size (its
    50 iterations finished ahead of the heuristic in 73.7%, 70.3% and 70.6% of their games at
    two, three and five players), and at the top the expert, the search at 2,000 iterations and
    the native ``racer`` lie within a mu or so of each other, as the best response says they
    must (no bot can beat the expert by more than 1.3 points at two players:
    ``docs/results.md``). At two players the racer, which plays for the chance to win a duel,
    leads (29.2 against the expert's 28.8); with more players it rates below the expert and the
    search at 2,000 iterations (at four players 28.3 against 29.6 and 29.4, the intervals
    apart)."""
    if players == 2:
        return ("racer", "expert", "ismcts", "heuristic", "random")
    return ("expert", "ismcts", "racer", "heuristic", "random")


__all__ = ["AGENTS", "SEARCH", "ExpertAgent", "HeuristicAgent", "strength_order"]
