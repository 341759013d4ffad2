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
    """How the agents rank for ``players``, strongest first (what ``play`` sets against a
    newcomer and ``hint`` asks). The rollout agent leads at every table size: against
    heuristics on shared deals (``docs/lab/nuesse-rollout.toml``, 200 games a table size,
    ``docs/results.md``, 2026-12-06) it finished ahead of a heuristic in 69.8% (64.0-75.0%) of
    the meetings with two players, 65.9% (59.8-71.5%) with three and 65.3% (60.3-69.9%) with
    four, where the native search at 10,000 iterations reached 64.5%, 56.8% and 56.8%. Below
    it, with two players the search beat the heuristic by more than the expert did (60.0%
    against 52.6% of 400 or 1000 games); with three and four players the search at 250
    iterations per move was level with the expert (41.9% against 38.9% of 600 three-player
    games, 34.8% against 31.5% of 300 four-player games), and the expert, as strong as
    measured and instant, comes second."""
    if players == 2:
        return ("rollout", "ismcts", "expert", "heuristic", "random")
    return ("rollout", "expert", "ismcts", "heuristic", "random")


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
