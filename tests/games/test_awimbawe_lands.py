"""Awimbawé with fewer lands (the rule parameter ``lands``): the deck, the deal, the hyenas that
lose, the rhinoceros's pile places, and four lands being the rulebook's game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.core.errors import IllegalActionError, OptionError
from spieltisch.games.awimbawe import (
    DECK,
    Awimbawe,
    AwimbaweState,
    Deal,
    Land,
    Rhino,
    Stage,
    deck_of,
    hand_size_of,
)
from spieltisch.games.awimbawe.rules import random_order

SMALLER = [1, 2, 3]


def test_four_lands_are_the_rulebook_deck_and_deal() -> None:
    assert deck_of(4) == DECK
    assert hand_size_of(4) == 6
    assert Awimbawe(2).config.lands == 4
    assert Awimbawe(2).config.hyenas_to_lose == 4


@pytest.mark.parametrize("lands", [1, 2, 3, 4])
def test_the_deck_has_the_lands_in_play_and_a_pair_of_eagles_per_two_lands(lands: int) -> None:
    deck = deck_of(lands)
    in_play = {card.land for card in deck if not card.is_eagle}
    assert in_play == set(list(Land)[:lands])
    eagles = [card.value for card in deck if card.is_eagle]
    assert len(eagles) == lands // 2 * 2
    assert eagles == sorted(eagles) and all(value > 10 - len(eagles) for value in eagles)
    # two equal halves: one pile (face-down, face-up) per land and the rest in hand
    assert len(deck) == 2 * (2 * lands + hand_size_of(lands))
    total = sum(card.crowns for card in deck)
    hyenas = sum(card.value == 4 for card in deck)
    assert hyenas == lands
    # no round ties: an odd total of crowns, or (one land) a single hyena that ends it first
    assert total % 2 == 1 or hyenas == 1


def _deal(lands: int, seed: int) -> AwimbaweState:
    state = Awimbawe(2, lands=lands, tie_break="seat0").initial_state()
    return state.apply(state.sample_chance(random.Random(seed)))


@given(st.sampled_from(SMALLER), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_a_deal_gives_each_player_one_pile_per_land_and_the_rest_in_hand(
    lands: int, seed: int
) -> None:
    state = _deal(lands, seed)
    seen = []
    for side in state.sides:
        assert [len(pile) for pile in side.piles] == [2] * lands + [0] * (4 - lands)
        assert len(side.hand) == hand_size_of(lands)
        assert side.down == frozenset(pile[0] for pile in side.piles if pile)
        seen += [*side.hand, *(card for pile in side.piles for card in pile)]
    assert sorted(seen, key=lambda c: c.code) == list(deck_of(lands))


@pytest.mark.parametrize("lands", SMALLER)
def test_a_deal_of_another_size_is_refused(lands: int) -> None:
    state = Awimbawe(2, lands=lands).initial_state()
    with pytest.raises(IllegalActionError):
        state.apply(Deal.from_order(random_order(random.Random(1))))  # all 28 cards
    other = 1 if lands > 1 else 2
    with pytest.raises(IllegalActionError):
        state.apply(Deal.from_order(random_order(random.Random(1), other)))
    deal = Deal.from_order(random_order(random.Random(1), lands))
    assert deal.is_complete(lands) and Deal.of(str(deal)[5:]) == deal


def test_the_parameter_has_its_bounds() -> None:
    for lands in (0, 5):
        with pytest.raises(OptionError):
            Awimbawe(2, lands=lands)


def _play_out(state: AwimbaweState, rng: random.Random) -> list[AwimbaweState]:
    seen = [state]
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
        seen.append(state)
    return seen


@given(st.sampled_from(SMALLER), st.integers(0, 2**32), st.booleans())
@settings(max_examples=40, deadline=None)
def test_whoever_takes_every_hyena_in_play_loses_and_the_rest_by_crowns(
    lands: int, seed: int, anywhere: bool
) -> None:
    game = Awimbawe(2, lands=lands, rounds_to_win=2, rhino_to_empty_pile=anywhere)
    states = _play_out(game.initial_state(), random.Random(seed))
    final = states[-1]
    for result in final.match.results:
        if result.fourth_hyena:
            assert result.hyenas[1 - result.winner] == lands
        else:
            assert lands not in result.hyenas  # played to the last card
            assert sum(result.crowns) == sum(card.crowns for card in deck_of(lands))
            assert result.crowns[result.winner] > result.crowns[1 - result.winner]
        if lands == 1:  # the single hyena always ends the round
            assert result.fourth_hyena
    for state in states:
        if state.stage is Stage.RHINOCEROS:
            moves = [m for m in state.legal_actions() if isinstance(m, Rhino)]
            # only the places of the piles dealt take a card
            assert all(m.dest < lands and m.source < lands for m in moves)
