"""Auf die Nüsse!: where search and the heuristic disagree on a dice decision, who is right?

Samples dice decisions (which white die, whether to roll again) that search has to think about
from games of the heuristic against itself (one move in twenty at random), asks the search and
the heuristic for their choice at each, and plays every disagreement out from both choices
with the heuristic on both sides: the same chance seeds for both choices, so much of the luck
is shared. Prints each disagreement and the mean gain of the search's choice in win chance,
with a 95% interval. This is the study behind the disagreement figures in docs/results.md.

Usage: .venv/bin/python scripts/nuesse_decision_study.py [SETTING] [POSITIONS] [SEED] [ROLLOUTS]
[TREE-DEPTH]   (ismcts:1000 60 3 200 and the game's own depth by default; some minutes.)
"""

from __future__ import annotations

import random
import statistics
import sys
from collections.abc import Callable
from typing import Any

import spieltisch
from spieltisch.agents import Agent, IsmctsAgent, make_agent
from spieltisch.core.game import Game, Move, State
from spieltisch.games.auf_die_nuesse.bots import book
from spieltisch.games.auf_die_nuesse.model import Stage
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from spieltisch.lab.play import play_on

GAME = "auf-die-nuesse"
RANDOM_MOVES = 0.05
PER_GAME = 3
"""Decisions taken from each sampled game at most."""
DICE_DECISIONS = (Stage.PLACE, Stage.AGAIN)
DEFAULTS = ["ismcts:1000", "60", "3", "200"]
"""The search setting, decisions sampled, seed and playouts per choice, unless given."""


def searched(state: State) -> bool:
    """Whether ``state`` is a dice decision that search, not the book, answers."""
    if not isinstance(state, NuesseState) or state.is_chance():
        return False
    if state.stage not in DICE_DECISIONS:
        return False
    legal = state.legal_actions()
    return len(legal) > 1 and book(state.view(state.player), legal) is None


def one_game(
    game: Game, agents: list[Agent[Any]], rng: random.Random, wanted: Callable[[State], bool]
) -> list[State]:
    """The ``wanted`` decisions of one heuristic game."""
    return [s for s in play_on(game.initial_state(), agents, rng, RANDOM_MOVES) if wanted(s)]


def positions(
    game: Game,
    agents: list[Agent[Any]],
    seed: int,
    count: int,
    wanted: Callable[[State], bool] = searched,
) -> list[State]:
    """``count`` ``wanted`` decisions (by default: searched ones), at most :data:`PER_GAME`
    from each game."""
    pool: list[State] = []
    rng, number = random.Random(seed), 0
    while len(pool) < count:
        found = one_game(game, agents, random.Random(seed * 1000 + number), wanted)
        pool += rng.sample(found, min(PER_GAME, len(found)))
        number += 1
    return pool[:count]


def finish(state: State, agents: list[Agent[Any]], rng: random.Random) -> tuple[float, ...]:
    """The returns when ``agents`` play ``state`` to its end."""
    *_, end = play_on(state, agents, rng)
    return end.returns()


def worth(state: State, move: Move, agents: list[Agent[Any]], rollouts: int) -> float:
    """The mover's mean return after ``move`` when the heuristic plays on (seeds 0, 1, ...)."""
    player = state.current_player()
    assert player is not None
    after = state.apply(move)
    returns = (finish(after, agents, random.Random(r))[player] for r in range(rollouts))
    return statistics.fmean(returns)


def main() -> None:
    """Sample, compare, play out, and print the disagreements and their mean gain."""
    args = sys.argv[1:]
    setting, *numbers = (args + DEFAULTS[len(args) :])[: len(DEFAULTS)]
    count, seed, rollouts = (int(n) for n in numbers)
    game = spieltisch.load(GAME, 2)
    agents = [make_agent("heuristic", game, 1), make_agent("heuristic", game, 2)]
    search = make_agent(setting, game, seed)
    if len(args) > 4 and isinstance(search, IsmctsAgent):
        search.tree_depth = int(args[4])
    gains = []
    for number, state in enumerate(positions(game, agents, seed, count)):
        player = state.current_player()
        assert player is not None
        view, legal = state.view(player), state.legal_actions()
        chosen, usual = search.act(view, legal), agents[player].act(view, legal)
        if chosen == usual:
            continue
        mine, theirs = (worth(state, m, agents, rollouts) for m in (chosen, usual))
        gains.append(mine - theirs)
        print(f"{number}: search {chosen} {mine:.3f}, heuristic {usual} {theirs:.3f}", flush=True)
    mean = statistics.fmean(gains) if gains else 0.0
    half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
    print(f"{setting}: {len(gains)} of {count} decisions differ from the heuristic's; ", end="")
    print(f"the search's choice gains {100 * mean:+.1f} ± {100 * half:.1f} percentage points")


if __name__ == "__main__":
    main()
