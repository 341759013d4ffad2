"""Auf die Nüsse!'s native belief and search hints agree with the Python ones.

The Python side is the reference: ``belief.state_of`` and ``bots.SEARCH`` (``bots/search.py``).
Games are walked in both engines at once on every configuration the agreement test walks
(:func:`~tests.native.agreement.configs`), the moves mostly the Python playout policy's (so the
states are those a search's playouts meet) and now and then a random one, chance drawn by
Python; each step goes to both engines as the same record step. At every state visited:

* the belief: every seat's view (and a spectator's) packs into the canonical state
  (``belief_code``), and the native belief read from that code gives it back;
* the evaluation: the native cut-off stops exactly where Python's does, with the same win
  chances (to 1e-9);
* the playout policy: the native move is Python's wherever Python's policy is deterministic;
  at a setup where it picks at random, every native pick is legal, and their counts fit the
  uniform choice Python makes (a chi-square test).

The native answers come through the extension's test hooks: the belief through
``sample_worlds`` (its one world's code), the cut-off through ``evaluate(state, depth)``, the
policy through :data:`POLICY_HOOK` where the build has it (its comparisons skip otherwise).
Codes that are no state are refused (wrong length, items out of range, broken invariants, and
a hypothesis fuzz of single changes to real codes), never answered with a panic.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.core.errors import InvalidActionError
from spieltisch.games import REGISTRY
from spieltisch.games.auf_die_nuesse import NuesseState, Stage
from spieltisch.games.auf_die_nuesse.bots import SEARCH
from spieltisch.games.auf_die_nuesse.bots.search import evaluate, playout
from spieltisch.native import NativeGame, NativeState
from spieltisch.native.auf_die_nuesse import belief_code
from tests.native.agreement import Config, configs, policy_walk, require_native

GAME = "auf-die-nuesse"
EVERY = 3
"""Check every third state of a walk (and every state near the end)."""
RANDOM_MOVES = 0.15
"""How often a walk makes a random move instead of the policy's (to leave its beaten path)."""
DRAWS = 300
"""Native picks per setup state where the policy picks at random."""
CHI2_CRITICAL = {1: 23.93, 2: 27.63, 3: 30.66, 4: 33.38}
"""Chi-square critical values at p = 1e-6 by degrees of freedom: a fair native pick fails
once in a million."""
TOLERANCE = 1e-9

require_native(GAME)


POLICY_HOOK = "kit_playout"
"""The native game's test hook of the playout policy: ``kit_playout(belief_code, seed)``, the
policy's action id at the state of the code, drawing from a generator seeded with ``seed``."""


def _has_policy(both: NativeGame) -> bool:
    return hasattr(both.native, POLICY_HOOK)


def _read_back(both: NativeGame, code: Sequence[int]) -> tuple[int, ...]:
    """The canonical code of the native belief read from ``code`` (its one world)."""
    (world,) = both.native.sample_worlds(list(code), 1, 0)
    return tuple(world)


@dataclass
class Visited:
    """What a walk checked."""

    states: int = 0
    policy: int = 0
    random_setups: int = 0
    cut_offs: int = 0


def _game(config: Config) -> NativeGame:
    return NativeGame(REGISTRY.game_class(GAME)(config.players, **config.options))


def _walk(both: NativeGame, seed: int) -> Iterator[tuple[NuesseState, NativeState]]:
    """One game in both engines, the moves mostly the Python policy's (:func:`policy_walk`)."""
    for python, nat in policy_walk(both, seed, playout, RANDOM_MOVES):
        assert isinstance(python, NuesseState)
        yield python, nat


def _random_setup(state: NuesseState) -> bool:
    """Whether the Python policy picks at random here (a setup without 5-6 or 8-9 free)."""
    if state.stage is not Stage.SETUP:
        return False
    texts = {str(move) for move in state.legal_actions()}
    return not texts & {"setup 5-6", "setup 8-9"}


def _check_belief(both: NativeGame, state: NuesseState, code: tuple[int, ...]) -> None:
    for seat in [*range(both.players), None]:
        assert belief_code(state.view(seat)) == code
    assert _read_back(both, code) == code


def _check_evaluate(both: NativeGame, state: NuesseState, nat: NativeState) -> bool:
    expected = evaluate(state, 0)
    got = both.native.evaluate(nat, 0)
    if expected is None or got is None:
        assert expected is None and got is None, f"cut-off: Python {expected}, native {got}"
        return False
    assert got == pytest.approx(expected, abs=TOLERANCE, rel=0)
    return True


def _check_random_setup(both: NativeGame, state: NuesseState, code: tuple[int, ...]) -> None:
    legal = [both.python.action_id(move) for move in state.legal_actions()]
    counts = dict.fromkeys(legal, 0)
    for seed in range(DRAWS):
        picked = both.native.kit_playout(list(code), seed)
        assert picked in counts, f"native setup pick {picked} is not legal: {legal}"
        counts[picked] += 1
    if len(legal) > 1:
        expected = DRAWS / len(legal)
        chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
        assert chi2 < CHI2_CRITICAL[len(legal) - 1], f"setup picks {counts} are not uniform"


def _check(both: NativeGame, state: NuesseState, nat: NativeState, visited: Visited) -> None:
    code = both.convert.canonical(state)
    visited.states += 1
    _check_belief(both, state, code)
    visited.cut_offs += _check_evaluate(both, state, nat)
    if state.is_chance() or state.is_terminal() or not _has_policy(both):
        return
    if _random_setup(state):
        visited.random_setups += 1
        _check_random_setup(both, state, code)
        return
    expected = both.python.action_id(playout(state, random.Random(0)))
    got = both.native.kit_playout(list(code), visited.states)
    assert got == expected, f"playout at {state.stage}: Python {expected}, native {got}"
    visited.policy += 1


_RARE = frozenset({Stage.SETUP, Stage.TAKE, Stage.PUT, Stage.STEAL})
"""Stages met seldom in a walk: checked wherever they come."""


def _worth_checking(index: int, state: NuesseState) -> bool:
    """Every third state, every state of a rare stage, and every state near the end."""
    return index % EVERY == 0 or state.stage in _RARE or state.board.market.pile <= 6


@pytest.mark.parametrize("config", configs(GAME), ids=str)
def test_the_hints_agree(config: Config) -> None:
    both = _game(config)
    visited = Visited()
    for index, (state, nat) in enumerate(_walk(both, seed=50 + config.players)):
        if _worth_checking(index, state):
            _check(both, state, nat, visited)
    assert visited.policy > 20 or not _has_policy(both)
    assert visited.cut_offs > 5


def test_the_policy_hook_is_there() -> None:
    """The extension carries the policy's test hook (an older build fails here, where the
    policy comparisons below would skip)."""
    assert _has_policy(_game(Config(2)))


def test_random_setups_agree() -> None:
    """Setups where the policy picks at random: reached by hand (5-6 and 8-9 taken first)."""
    both = _game(Config(4, {"optional_setup": True}))
    if not _has_policy(both):
        pytest.skip(f"this build of the native core has no {POLICY_HOOK} test hook")
    checked = 0
    for seed in range(30):
        for state, _ in _walk(both, seed):
            if _random_setup(state):
                _check_random_setup(both, state, both.convert.canonical(state))
                checked += 1
            if state.stage is Stage.ROLL:
                break
    assert checked > 0


def test_the_search_settings_are_pythons() -> None:
    """The constants the native hints mirror are still Python's (the Rust side states
    them as 0.15 and 1)."""
    assert SEARCH.exploration == 0.15
    assert SEARCH.tree_depth == 1
    assert SEARCH.playout is playout
    assert SEARCH.evaluate is evaluate


# --- Codes that are no state ---------------------------------------------------------------


@functools.cache
def _codes(players: int, moves: int = 400) -> list[tuple[int, ...]]:
    both = _game(Config(players))
    found = []
    for index, (state, _) in enumerate(_walk(both, seed=7)):
        if index % 20 == 0:
            found.append(both.convert.canonical(state))
        if index >= moves:
            break
    return found


def _refused_or_same(both: NativeGame, code: Sequence[int]) -> None:
    """The native belief refuses ``code`` as invalid, or reads a state whose code it is."""
    try:
        back = _read_back(both, code)
    except InvalidActionError:
        return
    assert back == tuple(code)


def test_bad_codes_are_refused() -> None:
    both = _game(Config(2))
    code = list(_codes(2)[3])
    refused = [
        [],
        code[:-1],
        [*code, 0],
        [-5, *code[1:]],
        [99, *code[1:]],
        [code[0], 7, *code[2:]],  # no seat 7 in a two-player game
        [*code[:2], 1, *code[3:]],  # a start track on space 0
        [*code[:3], 0, 3, 3, *code[6:]],  # a die showing 0
        [*code[:-1], 9],  # David with seat 9
        [*code[:-1], -2],
    ]
    supply = 3 + 3 + 7 + 9 * 2
    broken = list(code)
    broken[supply] -= 1  # a squirrel lost
    refused.append(broken)
    for bad in refused:
        with pytest.raises(InvalidActionError):
            _read_back(both, bad)
    if _has_policy(both):
        with pytest.raises(InvalidActionError):
            both.native.kit_playout(code[:-1], 0)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    pick=st.integers(0, 10**6),
    place=st.integers(0, 10**6),
    value=st.integers(-3, 300) | st.integers(-(2**62), 2**62),
)
def test_changed_codes_are_refused_or_read_back(
    players: int, pick: int, place: int, value: int
) -> None:
    both = _game(Config(players))
    codes = _codes(players)
    code = list(codes[pick % len(codes)])
    code[place % len(code)] = value
    _refused_or_same(both, code)
    if _has_policy(both):
        with contextlib.suppress(InvalidActionError):
            both.native.kit_playout(code, 0)


def test_canonical_of_the_view_is_the_state() -> None:
    """Pure Python (no native hooks needed): a view's belief code is its state's code."""
    both = _game(Config(3))
    for index, (state, nat) in enumerate(_walk(both, seed=3)):
        if index % 25 == 0:
            assert belief_code(state.view(index % 3)) == tuple(nat.canonical())
        if index > 600:
            break
