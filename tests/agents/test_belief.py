"""Belief sampling, for every game that has it: a state drawn from a player's view shows that
player exactly the same view, and offers the same legal actions when it is their turn."""

from __future__ import annotations

import random

import pytest

import spieltisch
from spieltisch.agents import agent_names
from spieltisch.games import REGISTRY, kit_of

POSITIONS = 1500


def sampled_games() -> list[str]:
    return [g for g in REGISTRY.implemented() if "ismcts" in agent_names(spieltisch.load(g))]


@pytest.mark.parametrize("game_id", sampled_games())
def test_a_sampled_state_shows_the_same_view(game_id: str) -> None:
    info = REGISTRY.game_class(game_id).info
    rng, draw = random.Random(1), random.Random(2)
    checked = seed = 0
    while checked < POSITIONS:
        game = spieltisch.load(
            game_id, info.min_players + seed % (info.max_players - info.min_players + 1)
        )
        state = game.initial_state()
        belief = kit_of(game).belief
        assert belief is not None
        seed += 1
        while not state.is_terminal() and checked < POSITIONS:
            for viewer in range(game.players):
                view = state.view(viewer)
                sampled = belief.sample(game, view, draw)
                assert sampled.view(viewer) == view
                if state.current_player() == viewer:
                    assert list(sampled.legal_actions()) == list(state.legal_actions())
                checked += 1
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state = state.apply(legal[rng.randrange(len(legal))])
