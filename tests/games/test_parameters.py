"""Rule parameters do what they say: each tested on played games against the rule it changes
(the conformance suite plays every parameter at both bounds for the invariants)."""

from __future__ import annotations

import itertools
import random

import pytest

import spieltisch
from spieltisch.core.game import OptionValue, State
from spieltisch.games.auf_die_nuesse.model import EMPTY_STORE, STORE_SIZES, Store, points
from spieltisch.games.auweier.rules import AuweierState


def playout(game_id: str, players: int, seed: int, **options: OptionValue) -> list[State]:
    """Every state of a game played at random (chance drawn from the same seed)."""
    rng = random.Random(seed)
    state = spieltisch.load(game_id, players, **options).initial_state()
    states = [state]
    while not state.is_terminal():
        move = state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_actions())
        state = state.apply(move)
        states.append(state)
    return states


@pytest.mark.parametrize("goal", [20, 60, 300])
def test_the_eier_goal_starts_the_last_round(goal: int) -> None:
    players = 3
    for seed in range(4):
        states = playout("auf-die-eier", players, seed, goal=goal)
        assert max(states[-1].scores()) >= goal
        # Each turn's end leaves a new score on the sheet; once a score reaches the goal, the
        # round is played out (at most two more turns) and tie turns follow (at most three).
        ends = [b for a, b in itertools.pairwise(states) if b.sheet.last is not a.sheet.last]  # type: ignore[attr-defined]
        first = next(i for i, s in enumerate(ends) if max(s.scores()) >= goal)
        assert len(ends) - 1 - first <= (players - 1) + players


def test_the_eier_dice_are_thrown_at_the_start_of_every_turn() -> None:
    for dice in (5, 10):
        states = playout("auf-die-eier", 2, 1, dice=dice)
        starts = [s for s in states if s.view(None).rolls == 0 and s.is_chance()]  # type: ignore[attr-defined]
        assert starts and all(s.view(None).to_throw == dice for s in starts)  # type: ignore[attr-defined]


@pytest.mark.parametrize("rounds", [1, 3])
def test_awimbawe_is_won_by_the_rounds_it_asks_for(rounds: int) -> None:
    for seed in range(3):
        final = playout("awimbawe", 2, seed, rounds_to_win=rounds)[-1]
        assert max(final.scores()) == rounds and min(final.scores()) < rounds
        assert final.winners() == {final.scores().index(rounds)}


def test_nuesse_scores_full_stores_at_their_parameter_values() -> None:
    game = spieltisch.load("auf-die-nuesse", 2, store_value_6=40, store_value_3=1)
    values = game.config.store_values
    assert values == (5, 5, 1, 1, 15, 15, 20, 40)
    full_six = Store(None, STORE_SIZES[7], 0, True)
    stores = (EMPTY_STORE,) * 7 + (full_six,)
    assert points(stores, values) == 40
    # A store worth less than it holds: a partly filled one counts its nuts, a full one its value.
    three = (
        (EMPTY_STORE,) * 2
        + (Store(None, 2, 0, False), Store(None, 3, 0, True))
        + (EMPTY_STORE,) * 4
    )
    assert points(three, values) == 2 + 1
    assert game.score_bounds == (0, 5 + 5 + 2 + 2 + 15 + 15 + 20 + 40)


@pytest.mark.parametrize(("nuts", "jokers"), [(6, 0), (20, 4)])
def test_the_nuesse_deck_has_the_nuts_and_jokers_asked_for(nuts: int, jokers: int) -> None:
    for players in (2, 4):
        state = spieltisch.load(
            "auf-die-nuesse", players, nuts_per_kind=nuts, jokers_per_pair=jokers
        ).initial_state()
        market = state.board.market  # type: ignore[attr-defined]
        assert sum(market.unseen) == 4 * (nuts - (4 - players)) + 6 * jokers
        assert market.pile + market.set_aside == sum(market.unseen)


def test_auweier_totals_add_the_worm_values_asked_for() -> None:
    options: dict[str, OptionValue] = {"worm_value_7": 20, "worm_value_1": 0, "worm_value_2": 9}
    for seed in range(3):
        for state in playout("auweier", 3, seed, **options):
            assert isinstance(state, AuweierState)
            worth = state.nests.config.worm_values
            for p, seat in enumerate(state.seats):
                for f, stack in enumerate(seat.stacks):
                    assert state.totals[f][p] == sum(worth[c] for c in stack)


PLAY_STAGES = {"play", "weddings", "worms"}


@pytest.mark.parametrize("hand", [3, 10])
def test_auweier_hands_are_dealt_and_refilled_to_the_size_asked_for(hand: int) -> None:
    states = playout("auweier", 2, 5, hand_size=hand)
    dealt = next(
        s
        for s in states
        if isinstance(s, AuweierState)
        and any(sum(x.hand) for x in s.seats)
        and s.stage.value == "play"
    )
    assert all(sum(seat.hand) == hand for seat in dealt.seats)
    played = [s for s in states if isinstance(s, AuweierState) and s.stage.value in PLAY_STAGES]
    assert played and all(sum(seat.hand) <= hand for s in played for seat in s.seats)
