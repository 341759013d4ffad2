"""Auf die Nüsse!: is there anything to gain in the heuristic's nut handling?

The search leaves filing, taking and stealing nuts to the heuristic's book, so any edge it has
comes from the dice. This study asks whether better nut choices exist to be found. It samples
nut decisions with more than one choice from games of the heuristic against itself (one move
in twenty at random, as the dice study beside it samples), plays every choice out with the
heuristic on both sides, and compares the heuristic's own choice with the best other one:

* every choice is played out from the same chance seeds, so much of the luck is shared;
* the best other choice is picked on the first half of the seeds and scored on the second
  half, so the gain is not the winner's curse of picking the luckiest of many.

Prints, per kind of decision, how often another choice looked better and the mean gain of the
best other choice in win chance with a 95% interval. Positive gains mean the heuristic leaves
win chance on the table at that kind of decision.

Usage: .venv/bin/python scripts/nuesse_nut_study.py [POSITIONS] [SEED] [ROLLOUTS]
(60 3 200 by default; about a minute of one core per position at 100 playouts per choice.)
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import defaultdict
from typing import Any

from nuesse_decision_study import positions  # the script beside this one

import spieltisch
from spieltisch.agents import Agent, make_agent
from spieltisch.core.game import Move, State
from spieltisch.games.auf_die_nuesse.model import Stage
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from spieltisch.lab.play import play_on

GAME = "auf-die-nuesse"
NUT_DECISIONS = (Stage.PUT, Stage.TAKE, Stage.STEAL)
DEFAULTS = ["60", "3", "200"]
"""Decisions sampled, seed and playouts per choice, unless given."""


def nut_decision(state: State) -> bool:
    """Whether ``state`` is a nut decision with a choice to make."""
    if not isinstance(state, NuesseState) or state.is_chance():
        return False
    return state.stage in NUT_DECISIONS and len(state.legal_actions()) > 1


def returns(state: State, move: Move, agents: list[Agent[Any]], seeds: range) -> list[float]:
    """The mover's return after ``move`` for each seed, the heuristic playing on."""
    player = state.current_player()
    assert player is not None
    after = state.apply(move)
    results = []
    for seed in seeds:
        *_, end = play_on(after, agents, random.Random(seed))
        results.append(end.returns()[player])
    return results


def main() -> None:
    """Sample, play every choice out, and print the gain of the best other choice per stage."""
    args = sys.argv[1:]
    count, seed, rollouts = (int(n) for n in (args + DEFAULTS[len(args) :])[: len(DEFAULTS)])
    game = spieltisch.load(GAME, 2)
    agents = [make_agent("heuristic", game, 1), make_agent("heuristic", game, 2)]
    pick, score = range(rollouts // 2), range(rollouts // 2, rollouts)
    gains: dict[Stage, list[float]] = defaultdict(list)
    for number, state in enumerate(positions(game, agents, seed, count, nut_decision)):
        assert isinstance(state, NuesseState)
        player = state.current_player()
        assert player is not None
        legal = state.legal_actions()
        usual = agents[player].act(state.view(player), legal)
        others = [m for m in legal if m != usual]
        best = max(others, key=lambda m: statistics.fmean(returns(state, m, agents, pick)))
        theirs = statistics.fmean(returns(state, usual, agents, score))
        mine = statistics.fmean(returns(state, best, agents, score))
        gains[state.stage].append(mine - theirs)
        print(
            f"{number} {state.stage.name}: heuristic {usual} {theirs:.3f}, "
            f"best other {best} {mine:.3f} (of {len(legal)})",
            flush=True,
        )
    for stage, found in gains.items():
        mean = statistics.fmean(found)
        half = 1.96 * statistics.stdev(found) / len(found) ** 0.5 if len(found) > 1 else 0.0
        better = sum(g > 0 for g in found)
        print(
            f"{stage.name}: {len(found)} decisions, another choice better in {better}; "
            f"best other gains {100 * mean:+.1f} ± {100 * half:.1f} percentage points"
        )


if __name__ == "__main__":
    main()
