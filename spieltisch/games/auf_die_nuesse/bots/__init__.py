"""Auf die Nüsse! agents, from views only: a heuristic that plays like a careful human
(:mod:`.heuristic`), an expert that plays the same way but plans its dice to the end of
each turn (:mod:`.expert`), and the rollout agent, the strongest, which checks the
heuristic's dice, nut and theft choices by playing each on in many shared futures
(:mod:`.rollout`).

Both choose by the prices of :class:`~.judge.Judge`, in expected points. The heuristic looks
one roll ahead; the expert values the rest of the turn exactly (:class:`~.plan.TurnPlan`).

For search agents the package offers :data:`SEARCH`: ISMCTS plays its playouts by quick rules
of thumb (its dice by the plan) and stops them at the next turn start, where a fitted estimate
of each player's chance to win replaces the rest of the game (:mod:`.search`); the book plays
the nut-handling choices as the heuristic does, without searching, and says why (what ``hint``
shows for them; :mod:`.book`); and the search runs with an exploration constant suited to
those estimates and a tree of depth 1.
"""

from __future__ import annotations

from spieltisch.core.kit import AgentFactory, SearchHints
from spieltisch.games.auf_die_nuesse.bots import rollout
from spieltisch.games.auf_die_nuesse.bots.book import book, book_reason
from spieltisch.games.auf_die_nuesse.bots.expert import ExpertAgent
from spieltisch.games.auf_die_nuesse.bots.heuristic import HeuristicAgent, Judgement
from spieltisch.games.auf_die_nuesse.bots.judge import Judge, Weights
from spieltisch.games.auf_die_nuesse.bots.rollout import RolloutAgent
from spieltisch.games.auf_die_nuesse.bots.search import evaluate, playout

AGENTS: dict[str, AgentFactory] = {
    "expert": ExpertAgent,
    "heuristic": HeuristicAgent,
    "rollout": RolloutAgent,
}


def strength_order(players: int) -> tuple[str, ...]:
    """How the agents rank, strongest first (what ``play`` sets against a newcomer and
    ``hint`` asks), at every table size as the bot ladder measured them (``docs/ladder.md``,
    300 games a pairing, 2026-12-06): the rollout agent on top, then the search, the expert,
    the heuristic and random. The ladder's intervals of the middle three overlap at three and
    four players; head to head the search at 500 iterations finished ahead of the expert in
    55.3% (49.7-60.9%) and 55.7% (50.0-61.2%) of their meetings there; the rollout agent
    finished ahead of the search's strongest level in 61.7% (two players, 500 iterations),
    56.0% and 53.5% (three and four, 2,000 iterations)."""
    del players
    return ("rollout", "ismcts", "expert", "heuristic", "random")


SEARCH = SearchHints(
    book=book,
    book_reason=book_reason,
    # ISMCTS playouts stop at the next turn start, valued by the fitted win chances there.
    evaluate=evaluate,
    # ISMCTS playouts follow the quick rules of thumb of .search, not random moves.
    playout=playout,
    # The exploration constant. ISMCTS's default (0.7) suits playouts that end in a win or a
    # loss; this game's playouts end in win chances that a single choice moves by a few points
    # at most, so with the default every choice keeps being tried alike and the choice made is
    # all but random. A smaller constant lets the better one be tried more often, and so be
    # chosen.
    exploration=0.15,
    # The tree holds the choices at hand only; every playout goes on by the playout policy.
    # Each choice is then rated by what it leads to when the quick policy finishes the turn: a
    # one-step lookahead over that policy. In a deeper tree the later choices of the turn
    # (where to place, whether to roll again) are tried almost alike, as their values differ
    # by a point or two, so rolling on is rated by a mix of good and poor continuations and
    # can be undervalued. Against the heuristic at 250 iterations, on the same 200 games (100
    # deals), the capped tree won 53.5% where the full one won 50.2% (a gain within the noise
    # of so few games; see docs/results.md).
    tree_depth=1,
)
"""What the game tells ISMCTS about itself."""

__all__ = [
    "AGENTS",
    "SEARCH",
    "ExpertAgent",
    "HeuristicAgent",
    "Judge",
    "Judgement",
    "RolloutAgent",
    "Weights",
    "book",
    "book_reason",
    "rollout",
    "strength_order",
]
