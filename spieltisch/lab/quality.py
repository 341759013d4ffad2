"""Game-quality measures over one game: who looked ahead at each decision, and what that says.

At every decision of a played game (a player to move, not chance) an *estimate* gives each player
a chance to win, the chances summing to one. From that sequence and the game's winners come the
measures Browne proposed for judging games automatically (C. Browne, *Automatic Generation and
Evaluation of Recombination Games*, PhD thesis, QUT 2008, chapter 5), computed as the Ludii
system computes them (``metrics.single.stateEvaluation`` and ``metrics.multiple.metrics.Drama``
of Ludii's evaluation module):

* **lead changes**: how often the set of leaders (the players with the highest estimate) differs
  from the one at the decision before, divided by the number of decisions;
* **drama**: the mean, over all decisions, of how far the eventual winner's estimate lies below
  the leader's (0 at a decision where the winner leads; averaged over several winners);
* **decisiveness**: the highest estimate any loser ever reached is the threshold; the share of
  the game (decision index over decisions) played before a winner's estimate first rises above it,
  1 when it never does (lower: the winner was clear earlier);
* **uncertainty**: the mean, over all decisions, of the estimate's entropy divided by
  ``log(players)`` (1: anyone may still win; 0: the winner is certain); and **uncertainty over
  time**, the same mean within each tenth of the game's decisions (``uncertainty-at:10`` for
  the first tenth ... ``uncertainty-at:100`` for the last), the curve Browne plots.

A game without winners (nobody scored a win) has no drama or decisiveness (``None``).

The estimate comes from the game (:func:`estimator`), each a quick evaluation of the true state
as chances to win: Auf die Eier's race worked out exactly under the expert's play
(:mod:`.eier_race`; natively when the native core is built, :mod:`spieltisch.native`'s
``auf_die_eier.win_chances``); Auf die Nüsse!'s fitted model of a position; Auweier's reading
of the table by its heuristic, with a fitted spread (:mod:`.auweier_odds`); Awimbawé's match
odds from the rounds won, the round in play read from the table by a fitted logistic model and
each later round a coin toss (:mod:`.awimbawe_odds`), so the measures vary inside a round too.
A game without one would fall back on the
players' shares of the points so far (:func:`score_shares`: each score less the lowest, plus
one, over their sum), a proxy that ranks the players by score but is not calibrated. The lab
reads the true state, as a spectator who saw every card would: these measures describe the game,
and no agent ever sees them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence

from spieltisch.core.game import State
from spieltisch.games.auf_die_eier.rules import EierState
from spieltisch.games.auf_die_nuesse.bots.search import win_chances
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from spieltisch.games.auweier.rules import AuweierState
from spieltisch.games.awimbawe.rules import AwimbaweState
from spieltisch.lab import awimbawe_odds
from spieltisch.native import auf_die_eier as native_eier

Estimate = tuple[float, ...]
"""Each player's chance to win at one decision, summing to one."""
Estimator = Callable[[State], Estimate]

QUALITY_KEYS = ("lead-changes", "drama", "decisiveness", "uncertainty")
"""The game-quality measures, one figure a game each."""
TENTHS = 10
CURVE_KEYS = tuple(f"uncertainty-at:{10 * (k + 1)}" for k in range(TENTHS))
"""Uncertainty over time: the mean uncertainty in each tenth of the game, by where it ends."""
MEASURE_KEYS = QUALITY_KEYS + CURVE_KEYS
"""Every measure :func:`measures` returns, in order."""


def score_shares(state: State) -> Estimate:
    """Each player's share of the points so far, shifted so the lowest score counts one."""
    scores = state.scores()
    low = min(scores)
    shifted = [s - low + 1 for s in scores]
    total = sum(shifted)
    return tuple(s / total for s in shifted)


def _eier(state: State) -> Estimate:
    if isinstance(state, EierState):
        if native_eier.has_race():
            return native_eier.win_chances(state)
        # numpy loads only for traced games: the command line starts without it
        from spieltisch.lab import eier_race  # noqa: PLC0415 - lazy: numpy

        return eier_race.win_chances(state)
    return score_shares(state)


def _auweier(state: State) -> Estimate:
    if isinstance(state, AuweierState):
        from spieltisch.lab import auweier_odds  # noqa: PLC0415 - lazy: numpy, as above

        return auweier_odds.win_chances(state)
    return score_shares(state)


def _nuesse(state: State) -> Estimate:
    if isinstance(state, NuesseState):
        return tuple(win_chances(state))
    return score_shares(state)


def _awimbawe(state: State) -> Estimate:
    if isinstance(state, AwimbaweState):
        return awimbawe_odds.win_chances(state)
    return score_shares(state)


ESTIMATORS: dict[str, Estimator] = {
    "auf-die-eier": _eier,
    "auf-die-nuesse": _nuesse,
    "auweier": _auweier,
    "awimbawe": _awimbawe,
}


def estimator(game: str) -> Estimator:
    """The estimate the lab uses for ``game`` (see the module docstring)."""
    return ESTIMATORS.get(game, score_shares)


def trace(states: Iterable[State], estimate: Estimator) -> list[Estimate]:
    """The estimate at every decision among ``states`` (chance and the end are skipped)."""
    return [estimate(s) for s in states if not s.is_terminal() and not s.is_chance()]


def leaders(estimate: Estimate) -> frozenset[int]:
    """The players with the highest chance."""
    top = max(estimate)
    return frozenset(p for p, x in enumerate(estimate) if x == top)


def lead_changes(estimates: Sequence[Estimate]) -> float | None:
    """Changes of the leading set between consecutive decisions, over the decisions."""
    if not estimates:
        return None
    changes = sum(1 for a, b in itertools.pairwise(estimates) if leaders(a) != leaders(b))
    return changes / len(estimates)


def drama(estimates: Sequence[Estimate], winners: frozenset[int]) -> float | None:
    """Mean over decisions of the leader's chance less the winners' (averaged over winners)."""
    if not estimates or not winners:
        return None
    gaps = [sum(max(e) - e[w] for w in winners) / len(winners) for e in estimates]
    return sum(gaps) / len(gaps)


def decisiveness(estimates: Sequence[Estimate], winners: frozenset[int]) -> float | None:
    """The share of the game before a winner first passes every loser's best chance."""
    if not estimates or not winners:
        return None
    losers = [p for p in range(len(estimates[0])) if p not in winners]
    threshold = max((e[p] for e in estimates for p in losers), default=-1.0)
    for index, e in enumerate(estimates):
        if any(e[w] > threshold for w in winners):
            return index / len(estimates)
    return 1.0


def entropy(estimate: Estimate) -> float:
    """The estimate's entropy over its largest possible value, ``log(players)``."""
    return -sum(x * math.log(x) for x in estimate if x > 0) / math.log(len(estimate))


def uncertainty(estimates: Sequence[Estimate]) -> float | None:
    """Mean over decisions of the estimate's entropy over its largest possible value."""
    if not estimates or len(estimates[0]) < 2:
        return None
    return sum(entropy(e) for e in estimates) / len(estimates)


def uncertainty_curve(estimates: Sequence[Estimate]) -> tuple[float, ...] | None:
    """The uncertainty within each tenth of the decisions (decision ``i`` of ``n`` lies in
    tenth ``floor(10 i / n)``); a tenth holding no decision (a game of fewer than ten) takes
    the decision nearest its middle."""
    if not estimates or len(estimates[0]) < 2:
        return None
    n = len(estimates)
    tenths: list[list[float]] = [[] for _ in range(TENTHS)]
    for i, e in enumerate(estimates):
        tenths[TENTHS * i // n].append(entropy(e))
    curve = []
    for k, values in enumerate(tenths):
        held = values or [entropy(estimates[min(n - 1, int((k + 0.5) * n / TENTHS))])]
        curve.append(sum(held) / len(held))
    return tuple(curve)


def measures(
    estimates: Sequence[Estimate], winners: frozenset[int]
) -> tuple[tuple[str, float | None], ...]:
    """Every measure of :data:`MEASURE_KEYS` for one game."""
    curve = uncertainty_curve(estimates)
    return (
        ("lead-changes", lead_changes(estimates)),
        ("drama", drama(estimates, winners)),
        ("decisiveness", decisiveness(estimates, winners)),
        ("uncertainty", uncertainty(estimates)),
        *zip(CURVE_KEYS, curve or (None,) * TENTHS, strict=True),
    )
