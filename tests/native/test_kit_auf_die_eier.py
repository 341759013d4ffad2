"""Auf die Eier's native search hints agree with the Python ones.

The Python side is the reference: ``bots.SEARCH`` (``bots/search.py``): the expert as playout
policy, and the cut-off at the next turn start that turns the scores into chances to win.
Games are walked in both engines at once on every configuration the agreement test walks
(:func:`~tests.native.agreement.configs`), the moves mostly the expert's (so the states are
those a search's playouts meet) and now and then a random one, chance drawn by Python; each
step goes to both engines as the same record step. At every state visited:

* the cut-off: the native one stops exactly where Python's does, with the same chances to
  win (to 1e-9);
* the playout policy: at every decision the native move is Python's (the expert's; it draws
  nothing, so any seed gives it);
* the candidates: at every decision the native search weighs the choices Python's does.

The native answers come through the extension's test hooks, ``evaluate(state, depth)``,
``kit_playout(belief_code, seed)`` and ``kit_candidates(belief_code, seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

import spieltisch
from spieltisch.core.errors import IllegalActionError, InvalidActionError, NativeError
from spieltisch.games import REGISTRY
from spieltisch.games.auf_die_eier import EierState
from spieltisch.games.auf_die_eier.bots import SEARCH
from spieltisch.games.auf_die_eier.bots.search import (
    END_TURNS,
    MEAN_PER_DIE,
    candidates,
    evaluate,
    playout,
)
from spieltisch.lab import arena
from spieltisch.lab.stats import wilson_interval
from spieltisch.native import NativeGame, NativeState
from tests.native.agreement import Config, configs, policy_walk, require_native

GAME = "auf-die-eier"
RANDOM_MOVES = 0.15
"""How often a walk makes a random move instead of the expert's (to leave its beaten path)."""
TOLERANCE = 1e-9
GAMES = 3
"""Games walked per configuration."""

require_native(GAME)


@dataclass
class Visited:
    """What a walk checked."""

    decisions: int = 0
    narrowed: int = 0
    cut_offs: int = 0
    played_on: int = 0


def _game(config: Config) -> NativeGame:
    return NativeGame(REGISTRY.game_class(GAME)(config.players, **config.options))


def _walk(both: NativeGame, seed: int) -> Iterator[tuple[EierState, NativeState]]:
    """One game in both engines, the moves mostly the expert's (:func:`policy_walk`)."""
    for python, nat in policy_walk(both, seed, playout, RANDOM_MOVES):
        assert isinstance(python, EierState)
        yield python, nat


def _check(both: NativeGame, state: EierState, nat: NativeState, visited: Visited) -> None:
    expected = evaluate(state, 0)
    got = both.native.evaluate(nat, 0)
    if expected is None or got is None:
        assert expected is None and got is None, f"cut-off: Python {expected}, native {got}"
        visited.played_on += state.rolls == 0 and not state.is_terminal()
    else:
        assert got == pytest.approx(expected, abs=TOLERANCE, rel=0)
        visited.cut_offs += 1
    if state.is_chance() or state.is_terminal():
        return
    code = list(both.convert.canonical(state))
    want = both.python.action_id(playout(state, random.Random(0)))
    assert both.native.kit_playout(code, visited.decisions) == want, f"playout at {state}"
    legal = state.legal_actions()
    if len(legal) > 1:
        weighed = [both.python.action_id(move) for move in candidates(state, legal)]
        assert both.native.kit_candidates(code, 0) == weighed, f"candidates at {state}"
        visited.narrowed += len(weighed) < len(legal)
    visited.decisions += 1


@pytest.mark.parametrize("config", configs(GAME), ids=str)
def test_the_hints_agree(config: Config) -> None:
    both = _game(config)
    visited = Visited()
    for game in range(GAMES):
        for state, nat in _walk(both, seed=70 + 10 * game + config.players):
            _check(both, state, nat, visited)
    assert visited.decisions >= 10
    assert visited.narrowed > 0
    assert visited.played_on > 0, "no turn start near the end was met"
    rules = both.python.initial_state()
    assert isinstance(rules, EierState)
    turn = MEAN_PER_DIE * rules.config.dice
    if rules.config.goal > (END_TURNS + 1) * turn:  # else the end is near from the start
        assert visited.cut_offs > 3


def test_the_search_settings_are_pythons() -> None:
    """The constants the native hints mirror are still Python's (the Rust side states the
    default exploration and a depth of 1)."""
    assert SEARCH.exploration is None
    assert SEARCH.tree_depth == 1
    assert SEARCH.playout is playout
    assert SEARCH.evaluate is evaluate
    assert SEARCH.candidates is candidates


def test_the_search_with_these_hints_beats_the_heuristic() -> None:
    """With random playouts the search lost to the heuristic at two players (ismcts:2000
    won 42.8% of 200 games, seed 61); with the expert's playouts and the cut-off it won 65.0%
    (58.2-71.3), and weighing only the expert's two best choices 74.5% (68.0-80.0) of these
    200 games. The native search is seeded, so the games are the same every run."""
    game = spieltisch.load(GAME, 2)
    tasks = arena.schedule(game, ["ismcts:2000", "heuristic"], 200, seed=61)
    results = arena.run(tasks)
    wins = sum(
        share
        for result in results
        for seat, share in enumerate(result.returns)
        if result.seats[seat] == "ismcts:2000"
    )
    low, _ = wilson_interval(wins, len(results))
    assert low > 0.65, f"ismcts:2000 won {wins} of {len(results)} against the heuristic"


def test_a_changed_code_outside_the_experts_tables_is_searched_or_refused() -> None:
    """A belief code can describe a decision no play reaches (no throw made yet, a third
    throw made, dice missing), which the expert's tables do not hold: the native search
    weighs every choice there or refuses the code, and never fails (the hypothesis test of
    ``tests/native/test_search.py`` once found such codes failing)."""
    both = _game(Config(2))
    for state, _ in _walk(both, seed=5):
        if not state.is_chance() and not state.is_terminal() and len(state.legal_actions()) > 2:
            break
    code = list(both.convert.canonical(state))
    ids = [both.python.action_id(move) for move in state.legal_actions()]
    searched = 0
    for at in range(len(code)):
        for value in range(-3, 4):
            changed = [*code[:at], value, *code[at + 1 :]]
            try:
                both.native.search(changed, ids, seed=1, iterations=20)
            except NativeError:
                raise
            except (InvalidActionError, IllegalActionError, ValueError):
                continue
            searched += 1
    assert searched > 0
