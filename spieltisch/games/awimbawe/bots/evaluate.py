"""Where a search's playout of Awimbawé may stop, and what the match is worth there.

Between rounds the rounds still to come start from fresh deals, so the match is valued as a
run of coin tosses (read from a state inside a search's own sampled world). Pure: no I/O.
"""

from __future__ import annotations

from spieltisch.core.game import State
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.rules import AwimbaweState


def match_odds(needed: tuple[int, int]) -> float:
    """Seat 0's chance to take the match when the seats still need ``needed`` round wins and
    every round left is a coin toss."""
    if needed[0] == 0 or needed[1] == 0:
        return 1.0 if needed[0] == 0 else 0.0
    return (match_odds((needed[0] - 1, needed[1])) + match_odds((needed[0], needed[1] - 1))) / 2


def evaluate(state: State, depth: int = 0) -> tuple[float, float] | None:
    """Where a search's playout may stop: once a round is over and the next is not dealt yet.

    The rounds still to come start from fresh deals that no decision of this round can shape,
    so the match is valued as if each were a coin toss, instead of playing them out at random.
    (``depth``, the moves played out so far, does not matter here.)
    """
    del depth
    if not isinstance(state, AwimbaweState) or state.stage not in BETWEEN_ROUNDS:
        return None
    wins = state.match.wins
    if not any(wins):
        return None
    needed = state.match.config.rounds_to_win
    odds = match_odds((needed - wins[0], needed - wins[1]))
    return (odds, 1.0 - odds)


BETWEEN_ROUNDS = frozenset({Stage.DEAL, Stage.CHOOSE_LEADER})


__all__ = ["BETWEEN_ROUNDS", "evaluate", "match_odds"]
