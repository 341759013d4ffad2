"""Auweier with a smaller deck (the rule parameter ``deck_cards``) and the False Worm's limit in
normal play (the option ``false_worm_limit``): which cards a deck holds, the deck steps, the
starters, Lucky Eggs, every card accounted for, games that end, and 22 cards being the
rulebook's game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.core.errors import IllegalActionError, OptionError
from spieltisch.games.auweier.model import FALSE_WORM_ALWAYS, FALSE_WORM_PHASE
from spieltisch.games.auweier.notation import (
    CROW_FOOD,
    DECK,
    DECK_BOUNDS,
    DECK_SIZE,
    KINDS,
    Card,
    Colour,
    PlayWorm,
    Starter,
    deck_of,
)
from spieltisch.games.auweier.rules import Auweier, AuweierState, new_state

SIZES = range(DECK_BOUNDS[0], DECK_BOUNDS[1] + 1)


def test_twenty_two_cards_are_the_rulebook_deck() -> None:
    assert deck_of(DECK_SIZE) == DECK
    assert Auweier(3).config.deck_cards == DECK_SIZE
    assert Auweier(3).config.deck == DECK
    assert Auweier(3).config.false_worm_limit == FALSE_WORM_PHASE


@pytest.mark.parametrize("cards", SIZES)
def test_a_deck_has_its_size_and_every_card_a_game_needs(cards: int) -> None:
    deck = deck_of(cards)
    assert sum(deck) == cards
    assert all(0 <= n <= full for n, full in zip(deck, DECK, strict=True))
    assert deck[Card.WEDDING] >= 1  # a wedding phase can open
    assert deck[Card.CROW] >= 1
    assert any(n and CROW_FOOD[kind] for kind, n in enumerate(deck))  # and a Crow can eat
    assert deck[Card.FALSE_WORM] == (cards >= 4)


@pytest.mark.parametrize("cards", SIZES[:-1])
def test_a_larger_deck_adds_one_card(cards: int) -> None:
    smaller, larger = deck_of(cards), deck_of(cards + 1)
    added = [b - a for a, b in zip(smaller, larger, strict=True)]
    assert sorted(added) == [0] * (KINDS - 1) + [1]


@pytest.mark.parametrize("cards", [DECK_BOUNDS[0] - 1, DECK_BOUNDS[1] + 1])
def test_a_deck_outside_the_bounds_is_refused(cards: int) -> None:
    with pytest.raises(OptionError):
        Auweier(2, deck_cards=cards)
    with pytest.raises(ValueError):
        deck_of(cards)


@pytest.mark.parametrize("cards", SIZES)
def test_the_cards_to_place_are_the_deck_in_play(cards: int) -> None:
    state = new_state(2, deck_cards=cards)
    assert state.view(0).hand == deck_of(cards)
    assert all(seat.hand == deck_of(cards) for seat in state.seats)


@pytest.mark.parametrize("cards", SIZES)
def test_starters_are_offered_only_with_their_six_cards_in_the_deck(cards: int) -> None:
    deck = deck_of(cards)
    offered = {a for a in new_state(2, deck_cards=cards).legal_actions() if isinstance(a, Starter)}
    every = {a for a in new_state(2).legal_actions() if isinstance(a, Starter)}
    assert len(every) == 8
    for starter in every:
        counts = [starter.hand().count(Card(k)) for k in range(KINDS)]
        fits = all(n <= have for n, have in zip(counts, deck, strict=True))
        assert (starter in offered) == fits
        if not fits:
            with pytest.raises(IllegalActionError):
                new_state(2, deck_cards=cards).apply(starter)


def test_lucky_eggs_without_a_false_worm_starts_with_the_wedding_alone() -> None:
    state = new_state(2, deck_cards=3, hand_size=3, lucky_eggs=True)
    rng = random.Random(1)
    while state.is_chance():
        state = state.apply(state.sample_chance(rng))
    shown = state.view(1).players[0].shown
    assert shown[Card.WEDDING] == 1 and sum(shown) == 1
    assert state.view(0).hand == deck_of(3)  # three cards, all in hand
    four = new_state(2, deck_cards=4, hand_size=3, lucky_eggs=True)
    while four.is_chance():
        four = four.apply(four.sample_chance(rng))
    shown = four.view(1).players[0].shown
    assert shown[Card.WEDDING] == 1 and shown[Card.FALSE_WORM] == 1 and sum(shown) == 2


def _accounted(state: AuweierState, player: int) -> list[int]:
    """Every card of ``player``'s deck as their own view counts it: hand, pile, stacks, gone."""
    view = state.view(player)
    counts = list(view.my_hand)
    for card in view.pile_known:
        counts[card] += 1
    counts = [a + b for a, b in zip(counts, view.pile_unknown, strict=True)]
    for female in view.females:
        for card in female.stacks[player].cards:
            counts[card] += 1
    gone = view.players[player].discarded
    return [a + b for a, b in zip(counts, gone, strict=True)]


@settings(max_examples=40, deadline=None)
@given(
    cards=st.sampled_from(list(SIZES)),
    players=st.integers(2, 4),
    hand=st.integers(3, 10),
    lucky=st.booleans(),
    limit=st.sampled_from([FALSE_WORM_PHASE, FALSE_WORM_ALWAYS]),
    seed=st.integers(0, 2**16),
)
def test_random_games_keep_every_card_and_end(
    cards: int, players: int, hand: int, lucky: bool, limit: str, seed: int
) -> None:
    state = new_state(
        players, deck_cards=cards, hand_size=hand, lucky_eggs=lucky, false_worm_limit=limit
    )
    rng = random.Random(seed)
    deck = list(deck_of(cards))
    for _ in range(2000):
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        state = state.apply(rng.choice(state.legal_actions()))
        if state.stage.value in ("play", "weddings", "worms", "over"):
            for p in range(players):
                assert _accounted(state, p) == deck
    if limit == FALSE_WORM_ALWAYS:
        assert state.is_terminal()


def _exchanged_back(limit: str) -> AuweierState:
    """Red has played the False Worm before the red female and exchanged it for a 3."""
    state = new_state(2, deck_cards=4, hand_size=3, false_worm_limit=limit)
    for text in ("deck F 3 K H", "deck 3 K H F", "worm F R", "worm 3 B", "swap R#1 3", "worm F G"):
        state = state.apply_text(text)
    return state


def test_by_default_the_false_worm_comes_back_in_normal_play() -> None:
    state = _exchanged_back(FALSE_WORM_PHASE)
    assert state.current_player() == 0
    assert PlayWorm(Card.FALSE_WORM, Colour.RED) in state.legal_actions()
    assert state.view(1).players[0].false_worm_seen == ()


def test_with_the_limit_always_the_false_worm_does_not_come_back() -> None:
    state = _exchanged_back(FALSE_WORM_ALWAYS)
    legal = state.legal_actions()
    assert PlayWorm(Card.FALSE_WORM, Colour.RED) not in legal
    assert PlayWorm(Card.FALSE_WORM, Colour.BLUE) in legal
    assert state.view(1).players[0].false_worm_seen == (Colour.RED,)
    with pytest.raises(IllegalActionError):
        state.apply(PlayWorm(Card.FALSE_WORM, Colour.RED))
    after = state.apply(PlayWorm(Card.FALSE_WORM, Colour.BLUE))
    assert after.view(0).players[0].false_worm_seen == (Colour.RED, Colour.BLUE)


def test_the_smallest_game_for_two_is_finite_and_small() -> None:
    """Three cards each, all in hand: every line of play ends, and few positions exist."""
    seen: set[AuweierState] = set()
    stack = [new_state(2, deck_cards=3, hand_size=3)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        if state.is_terminal():
            continue
        if state.is_chance():
            stack += [state.apply(move) for move, _ in state.chance_outcomes()]
        else:
            stack += [state.apply(move) for move in state.legal_actions()]
    assert any(state.is_terminal() and state.scores() != (0, 0) for state in seen)
    assert len(seen) < 5000
