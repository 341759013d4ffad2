"""Any input from Python, on any game: a native state answers or refuses with the Python
engine's own errors, and never panics (a panic would arrive as ``NativeError``).

Hypothesis picks a game and one of its configurations and writes the inputs: action ids of
any size and sign, chance codes of any length and values, mixed with the legal steps that move
a game along, so the odd inputs land everywhere in a game. The crate's own proptests
(``cargo test``) do the same inside Rust.
"""

from __future__ import annotations

import contextlib

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch import native
from spieltisch.core.errors import IllegalActionError, InvalidActionError, NotEnumerableError
from tests.native.agreement import Config, configs, require_native

require_native()

LIMIT = 2**63 - 1
Steps = st.lists(
    st.one_of(
        st.just("legal"),
        st.just("legal"),
        st.integers(-LIMIT - 1, LIMIT),
        st.tuples(st.integers(-LIMIT - 1, LIMIT)),
        st.lists(st.integers(-(2**40), 2**40), max_size=40).map(tuple),
        st.lists(st.integers(0, 40), min_size=1, max_size=40).map(tuple),
    ),
    max_size=120,
)


GAMES = [(game_id, config) for game_id in native.games() for config in configs(game_id)]
"""Every game with every configuration the agreement walk takes (options change the paths)."""


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played=st.sampled_from(GAMES), steps=Steps, seed=st.integers(0, 2**32))
def test_any_input_is_answered_or_refused_never_a_panic(
    played: tuple[str, Config], steps: list[object], seed: int
) -> None:
    game_id, config = played
    game = native.load(game_id, config.players, **config.options)
    state = game.initial_state()
    rng = native.Rng(seed)
    for step in steps:
        if state.is_terminal():
            break
        before = state.canonical()
        try:
            if step == "legal":
                if state.is_chance():
                    state.apply_random_chance(rng)
                else:
                    legal = state.legal_actions()
                    state.apply(legal[seed % len(legal)])
                continue
            if isinstance(step, tuple):
                state.apply_chance(step)
            else:
                assert isinstance(step, int)
                state.apply(step)
        except (IllegalActionError, InvalidActionError):
            assert state.canonical() == before
        with contextlib.suppress(NotEnumerableError):
            state.chance_outcomes()
        seat = seed % (game.players + 1)
        observed = state.observation(None if seat == game.players else seat)
        assert observed.shape == (game.observation_size,) and np.isfinite(observed).all()
    assert len(state.history()) == len(state)
