"""Auweier: the rulebook's examples, every ruling, the deck orders, the wedding phase, the end."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import spieltisch
from spieltisch.core.errors import (
    IllegalActionError,
    InvalidActionError,
    NotEnumerableError,
    OptionError,
)
from spieltisch.core.game import Hidden, OptionValue
from spieltisch.games.auweier import (
    PASS,
    Arrange,
    Auweier,
    AuweierState,
    Card,
    Colour,
    Egg,
    End,
    PlayCrow,
    PlayWedding,
    PlayWorm,
    Rule,
    Shuffled,
    ShuffleRest,
    Stage,
    Starter,
    Swap,
    score_eggs,
)
from spieltisch.games.auweier.belief import redeal_hidden, sample_state
from spieltisch.games.auweier.bots.reading import read
from spieltisch.games.auweier.model import MAX_SCORE, Config
from spieltisch.games.auweier.notation import (
    CROW_FOOD,
    DECK,
    WORM_VALUE,
    card_counts,
    parse_cards,
    parse_move,
)
from spieltisch.games.auweier.rules import (
    Nests,
    Phase,
    Seat,
    _leader,
    _next_after_pass,
    _next_go,
    _played,
    _seat,
)
from spieltisch.games.auweier.words import WORDS
from spieltisch.terminal.draw.auweier import DRAWER
from spieltisch.terminal.draw.base import TableInfo

R, B, G, Y = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW
ORDER = "7 K H F 5* 4 1 1 1 2 2 2* 3 3 4 6 H H H H H K"
"""A whole deck order: the first six are the starting hand."""


def new(players: int = 3, **options: bool | str) -> AuweierState:
    return Auweier(players, **options).initial_state()


def drive(state: AuweierState, *moves: str) -> AuweierState:
    for text in moves:
        state = state.apply_text(text)
    return state


def rule(which: Rule) -> str:
    """A regex matching the error message of ``which``."""
    return which.value.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text) if text.strip() else ()


def dealt(players: int = 3, *orders: str, **options: bool | str) -> AuweierState:
    """Every deck arranged with a whole-order line (``ORDER`` for any not given)."""
    state = new(players, **options)
    for seat in range(players):
        state = state.apply_text("deck " + (orders[seat] if seat < len(orders) else ORDER))
    return state


def position(
    hands: Sequence[str],
    stacks: Mapping[Colour, Sequence[str]] = {},
    *,
    laid: Sequence[int] | None = None,
    won: Sequence[Sequence[Egg]] | None = None,
    piles: Sequence[str] | None = None,
    player: int = 0,
    **options: OptionValue,
) -> AuweierState:
    """A normal turn of ``player`` with these hands and cards before the females.

    ``stacks[female][seat]`` lists that player's cards there, bottom first. Unless given, each
    pile holds the rest of the player's deck in notation order.
    """
    config = Auweier(len(hands), **options).config
    players, females = config.players, config.females
    table = [[cards(stacks.get(Colour(f), [""] * players)[p]) for f in range(females)]
             for p in range(players)]  # fmt: skip
    seats = []
    for p, hand_text in enumerate(hands):
        hand = card_counts(cards(hand_text))
        used = card_counts(tuple(c for stack in table[p] for c in stack))
        if piles is not None:
            pile = cards(piles[p])
        else:
            rest = [d - h - u for d, h, u in zip(DECK, hand, used, strict=True)]
            assert min(rest) >= 0, f"seat {p} uses more cards than a deck holds"
            pile = tuple(Card(k) for k, n in enumerate(rest) for _ in range(n))
        seats.append(Seat(hand, pile, len(pile), (0,) * len(DECK), tuple(table[p])))
    totals = tuple(
        tuple(sum(config.worm_values[c] for c in table[p][f]) for p in range(players))
        for f in range(females)
    )
    nests = Nests(
        config,
        tuple(laid) if laid is not None else (0,) * females,
        tuple(tuple(w) for w in won) if won is not None else ((),) * players,
        None,
        None,
    )
    return AuweierState(nests, Stage.PLAY, player, tuple(seats), totals, None)


def hand_sizes(state: AuweierState) -> list[int]:
    return [sum(seat.hand) for seat in state.seats]


def stack(state: AuweierState, female: Colour, seat: int) -> str:
    return " ".join(c.text for c in state.seats[seat].stacks[female])


# --- The rulebook's examples ------------------------------------------------------------------


def test_the_rulebooks_scoring_example_gives_yellow_14_points() -> None:
    eggs = [Egg(Y, 1), Egg(R, 1), Egg(Y, 2), Egg(G, 3)]
    assert score_eggs(Y, eggs) == 14
    state = position(["1", "1", "1", "1"], won=[[], [], [], eggs])
    assert state.scores() == (0, 0, 0, 14)
    assert state.view(0).players[Y].score == 14


def test_the_rulebooks_three_player_wedding_phase() -> None:
    """The rulebook's layout, with its yellow female played by our blue one: A, B and C are
    seats 0, 1 and 2; blue and red have each given one egg before."""
    state = position(
        ["H 1 1 2 2 7", "H H 1 2 4 7", "H 1 3 4 6 7"],
        {B: ["3 4", "6", "1"], G: ["1", "", "2 2"], R: ["", "3", "5*"]},
        laid=[1, 1, 0],
        won=[[Egg(R, 1)], [Egg(B, 1)], []],
    )
    # A leads before blue only, so that is the one place A can open a wedding phase.
    openings = [a for a in state.legal_actions() if isinstance(a, PlayWedding)]
    assert openings == [PlayWedding(B)]
    state = drive(state, "wedding B")  # A opens
    assert state.stage is Stage.WEDDINGS and state.player == 1
    state = drive(state, "wedding B", "wedding G", "pass", "wedding R", "pass", "pass")
    assert state.stage is Stage.WORMS and state.player == 0
    assert hand_sizes(state) == [5, 4, 5]  # nobody drew a card
    state = drive(state, "pass", "pass", "pass")  # nobody plays a worm any more

    mating = state.nests.last
    assert mating is not None
    awards = {(a.player, a.female, a.eggs) for a in mating.awards}
    assert awards == {(0, B, 2), (2, G, 1)}  # B wins nothing; C has no Wedding at red
    assert state.nests.won == ((Egg(R, 1), Egg(B, 2)), (Egg(B, 1),), (Egg(G, 1),))
    assert state.nests.laid == (1, 2, 1)
    assert set(mating.cleared) == {(B, 0), (B, 1), (R, 1), (G, 2)}
    assert [stack(state, B, p) for p in range(3)] == ["", "", "1"]
    assert [stack(state, G, p) for p in range(3)] == ["1", "", ""]
    assert [stack(state, R, p) for p in range(3)] == ["", "", "5*"]
    assert state.totals == ((0, 0, 5), (0, 0, 1), (1, 0, 0))
    assert hand_sizes(state) == [6, 6, 6]
    assert state.stage is Stage.PLAY and state.player == 0  # A starts again
    assert state.view(1).start_player == 0


# --- Cards and table (ruling 1, ruling 3) -------------------------------------------------------


def test_a_deck_holds_the_22_cards_of_the_rulings() -> None:
    assert sum(DECK) == 22
    worms = [Card(k) for k, n in enumerate(DECK) for _ in range(n) if WORM_VALUE[k]]
    assert sorted(WORM_VALUE[c] for c in worms) == [1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7]
    assert (DECK[Card.FALSE_WORM], DECK[Card.CROW], DECK[Card.WEDDING]) == (1, 2, 6)
    assert WORM_VALUE[Card.FALSE_WORM] == 0
    assert [c for c in Card if c in worms and not CROW_FOOD[c]] == [Card.TWO_STAR, Card.FIVE_STAR]


@pytest.mark.parametrize(("players", "females"), [(2, 3), (3, 3), (4, 4)])
def test_one_female_per_player_and_a_neutral_third_with_two(players: int, females: int) -> None:
    view = dealt(players).view(0)
    assert [f.colour for f in view.females] == list(Colour)[:females]
    assert [f.neutral for f in view.females] == [f >= players for f in range(females)]
    assert all(f.eggs_left == (1, 2, 3) for f in view.females)


def test_the_neutral_female_gives_no_own_colour_bonus_but_counts_as_a_colour() -> None:
    assert score_eggs(0, [Egg(G, 1)]) == 1
    assert score_eggs(1, [Egg(G, 1)]) == 1
    assert score_eggs(0, [Egg(G, 1), Egg(R, 2)]) == 1 + 2 + 1 + 2
    assert score_eggs(0, [Egg(G, 1), Egg(R, 2), Egg(B, 3)]) == 6 + 1 + 5


def test_no_player_can_score_more_than_the_declared_maximum() -> None:
    every_egg = [Egg(c, n) for c in Colour for n in (1, 2, 3)]
    assert score_eggs(0, every_egg) == MAX_SCORE == Auweier.info.max_score == 37


# --- Arranging the decks (ruling 2) -----------------------------------------------------------


def test_a_deck_built_card_by_card_is_drawn_in_that_order() -> None:
    state = new(2)
    order = ORDER.split()
    for text in order:
        assert state.player == 0 and state.stage is Stage.ORDER
        state = state.apply_text(f"deck {text}")
    state = drive(state, "deck " + ORDER)
    assert state.stage is Stage.PLAY and state.player == 0
    seat = state.seats[0]
    assert seat.hand == card_counts(cards("7 K H F 5* 4"))
    assert state.view(0).pile_known == cards(" ".join(order[6:]))
    state = drive(state, "worm 7 R")
    assert state.seats[0].hand == card_counts(cards("1 K H F 5* 4"))  # drew the seventh card


def test_deck_steps_list_the_kinds_left_and_ready_orders_only_at_first() -> None:
    state = new(3)
    legal = state.legal_actions()
    assert legal[:11] == tuple(Arrange((c,)) for c in Card)
    assert ShuffleRest(False) in legal and ShuffleRest(True) in legal
    assert sum(isinstance(a, Starter) for a in legal) == 8 and len(legal) == 21
    state = drive(state, "deck 7")
    assert Arrange((Card.SEVEN,)) not in state.legal_actions()
    assert not any(isinstance(a, Starter) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match=rule(Rule.STARTER_FIRST)):
        state.apply_text("deck starter 1 2* 3")
    with pytest.raises(IllegalActionError, match=rule(Rule.DECK_CARDS)):
        state.apply_text("deck 7")
    state = drive(state, "deck " + " ".join(ORDER.split()[1:-1]))
    assert state.legal_actions() == (Arrange((Card.CROW,)),)  # one card left: no shuffle


def test_a_whole_order_line_is_one_move_with_no_id_and_must_fit_the_deck() -> None:
    state = new(3)
    move = state.parse("deck " + ORDER.replace(" ", ""))
    assert isinstance(move, Arrange) and len(move.cards) == 22
    assert move not in state.legal_actions()
    with pytest.raises(InvalidActionError, match=r"typing aid.*one listed 'deck <card>' step"):
        state.game.action_id(move)
    after = state.apply(move)
    assert after.player == 1 and after.seats[0].pile == cards(ORDER)
    with pytest.raises(IllegalActionError, match=rule(Rule.DECK_CARDS)):
        state.apply_text("deck 7 7")
    with pytest.raises(IllegalActionError, match=rule(Rule.DECK_CARDS)):
        after.apply_text("deck " + ORDER + " H")


def test_deck_steps_and_shuffles_are_hidden_from_others() -> None:
    state = drive(new(3), "deck 7 K H")
    step = Arrange((Card.FALSE_WORM,))
    assert state.seen_move(step, 0) == step and str(state.seen_move(step, 0)) == "deck F"
    assert str(state.seen_move(step, 1)) == str(state.seen_move(step, None)) == "deck (hidden)"
    assert isinstance(state.seen_move(step, 1), Hidden)
    view = state.view(1)
    assert view.players[0].pile_size is None and view.pile_known == ()
    assert view.hand == DECK  # seat 1 has not placed anything yet
    assert "7" not in json.dumps(spieltisch.to_jsonable(view.players))
    assert state.view(0).players[0].pile_size == 3  # the owner knows their own progress
    state = drive(state, "deck shuffle")
    outcome = state.sample_chance(random.Random(1))
    assert all(str(state.seen_move(outcome, v)) == "shuffled (hidden)" for v in (0, 1, None))


SETUPS = (
    ("deck 7",),
    ("deck 7 K H F 5*",),
    ("deck starter 1 2* 3",),
    ("deck starter 7 5* 4",),
    ("deck shuffle",),
    ("deck 7", "deck spread"),
    ("deck " + " ".join(ORDER.split()[:-2]),),
)
"""Ways red can be part way through setting up a deck (maybe waiting for a shuffle)."""


@pytest.mark.parametrize("viewer", [1, 2, None])
def test_others_see_only_that_a_deck_is_being_set_up_or_ready(viewer: int | None) -> None:
    fresh = new(3).view(viewer)
    for setup in SETUPS:
        state = drive(new(3), *setup)
        assert state.view(viewer) == fresh, setup  # not the stage, not the cards placed
        info = state.view(viewer).players[0]
        assert (info.hand_size, info.pile_size, info.ready) == (None, None, False)
        assert state.view(viewer).stage is Stage.ORDER
    assert drive(new(3), "deck shuffle").view(0).stage is Stage.SHUFFLE  # the owner knows
    rng = random.Random(5)
    readies = []
    for setup in SETUPS:
        state = drive(new(3), *setup)
        while state.player == 0:
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(
                    Arrange((next(Card(k) for k, n in enumerate(state.seats[0].hand) if n),))
                )
        readies.append(state.view(viewer))
    assert all(view == readies[0] for view in readies)  # a ready deck is just ready
    players = readies[0].players
    assert (
        players[0].ready
        and not players[1].ready
        and players[1].pile_size == (0 if viewer == 1 else None)
    )
    state = dealt(3)
    assert [(p.hand_size, p.pile_size, p.ready) for p in state.view(viewer).players] == [
        (6, 16, True)
    ] * 3  # once play starts, everyone sees the sizes


def test_a_shuffled_pile_is_unknown_to_its_owner() -> None:
    state = drive(new(2), "deck 7 K H F 5* 4 1", "deck shuffle")
    assert state.is_chance() and state.current_player() is None
    state = state.apply(state.sample_chance(random.Random(3)))
    state = drive(state, "deck " + ORDER)
    view = state.view(0)
    assert view.hand == card_counts(cards("7 K H F 5* 4"))
    assert view.pile_known == cards("1")  # the one card placed by hand after the hand
    assert sum(view.pile_unknown) == 15
    assert state.view(1).pile_known == cards(" ".join(ORDER.split()[6:]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_starter_hand_and_its_spread_pile(seed: int) -> None:
    state = drive(new(2), "deck starter 7 5* 3")
    assert state.stage is Stage.SPREAD
    with pytest.raises(NotEnumerableError):
        state.chance_outcomes()
    outcome = state.sample_chance(random.Random(seed))
    weddings = [i for i, card in enumerate(outcome.cards) if card is Card.WEDDING]
    parts = [(0, 3), (3, 6), (6, 9), (9, 12), (12, 16)]
    assert len(weddings) == 5
    assert all(lo <= i < hi for i, (lo, hi) in zip(weddings, parts, strict=True))
    state = drive(state.apply(outcome), "deck " + ORDER)
    assert state.seats[0].hand == card_counts(cards("K H F 7 5* 3"))
    assert state.view(0).pile_known == ()


def test_a_shuffle_outcome_must_be_the_cards_left_in_a_possible_order() -> None:
    state = drive(new(2), "deck starter 1 2* 3")
    rest = "H 1 2 H 4 4 H 5* 6 H 7 1 H 2 3 K"
    state.apply_text("shuffled " + rest)  # one Wedding in each part: fine
    with pytest.raises(IllegalActionError, match=rule(Rule.SPREAD_EVEN)):
        state.apply_text("shuffled H H 1 2 4 4 5* 6 H 7 1 H 2 3 K H")
    with pytest.raises(IllegalActionError, match=rule(Rule.SHUFFLE_CARDS)):
        state.apply_text("shuffled " + rest.replace("K", "7"))
    with pytest.raises(IllegalActionError, match=rule(Rule.PLAYER_NOW)):
        dealt(2).apply_text("shuffled " + rest)


def test_small_shuffles_list_every_order_with_its_exact_chance() -> None:
    state = drive(new(2), "deck 7 K H F 5* 4 1 1 1 2 2 2* 3 3 4 6 H H H", "deck shuffle")
    outcomes = dict(state.chance_outcomes())  # K H H: three orders
    assert outcomes == {Shuffled(cards(o)): Fraction(1, 3) for o in ("K H H", "H K H", "H H K")}
    state = drive(new(2), "deck 7 K H F 5* 4 1 1 1 2 2 2* 3 3 4 6 H H H", "deck spread")
    outcomes = dict(state.chance_outcomes())  # parts of 1 and 2 cards: H first, then K/H
    assert outcomes == {Shuffled(cards(o)): Fraction(1, 2) for o in ("H K H", "H H K")}


def test_shuffles_need_cards_to_shuffle() -> None:
    state = drive(new(2), "deck " + " ".join(ORDER.split()[:-1]))
    with pytest.raises(IllegalActionError, match=rule(Rule.SHUFFLE_SIZE)):
        state.apply(ShuffleRest(False))
    state = drive(new(2), "deck 7 K H H H H H H F 5* 4 1 1 1 2 2 2* 3 3 4")
    with pytest.raises(IllegalActionError, match=rule(Rule.SPREAD_MIX)):
        state.apply(ShuffleRest(True))  # no Wedding left to spread


def test_lucky_eggs_starts_with_a_wedding_and_the_false_worm_known_to_all() -> None:
    state = new(3, lucky_eggs=True)
    rng = random.Random(4)
    for _ in range(3):
        assert state.stage is Stage.SHUFFLE and not state.legal_actions()
        with pytest.raises(IllegalActionError, match=rule(Rule.CHANCE_NOW)):
            state.apply_text("deck 7")
        state = state.apply(state.sample_chance(rng))
    assert state.stage is Stage.PLAY
    for seat in state.seats:
        assert seat.hand[Card.WEDDING] >= 1 and seat.hand[Card.FALSE_WORM] == 1
    assert state.view(1).players[0].shown == card_counts(cards("F H"))
    assert state.view(0).pile_known == ()  # nobody knows a shuffled pile


# --- Normal turns ---------------------------------------------------------------------------


def test_a_played_card_is_replaced_from_the_pile_until_it_runs_out() -> None:
    state = position(["1 2 3", "1 2 3"], piles=["4", ""])
    state = drive(state, "worm 1 R")
    assert hand_sizes(state) == [3, 3] and state.seats[0].pile == ()
    state = drive(state, "worm 1 B", "worm 2 R")
    assert hand_sizes(state) == [2, 2]  # both play on with fewer cards
    assert stack(state, R, 0) == "1 2" and state.totals[R] == (3, 0)


def test_a_worm_goes_on_top_of_the_players_own_cards() -> None:
    state = position(["7 1", "1"], {R: ["3", ""]}, piles=["", ""])
    state = drive(state, "7r")
    assert stack(state, R, 0) == "3 7" and state.totals[R][0] == 10
    with pytest.raises(IllegalActionError, match=rule(Rule.IN_HAND)):
        state.apply_text("worm 7 R")
    with pytest.raises(IllegalActionError, match=rule(Rule.NO_FEMALE)):
        state.apply_text("worm 1 Y")
    with pytest.raises(IllegalActionError, match=rule(Rule.NOT_A_WORM)):
        position(["K H", "1"]).apply_text("worm K R")
    with pytest.raises(IllegalActionError, match=rule(Rule.PASS_PHASE)):
        state.apply(PASS)


def test_a_crow_eats_the_top_real_worm_and_both_are_discarded() -> None:
    state = position(["K 1", "1"], {R: ["", "3 4"]}, piles=["", ""])
    state = drive(state, "crow B@R")
    assert stack(state, R, 1) == "3" and state.totals[R][1] == 3
    assert state.seats[0].hand == card_counts(cards("1"))
    assert state.player == 1


@pytest.mark.parametrize("top", ["F", "2*", "5*"])
def test_a_crow_is_refused_on_a_false_worm_or_a_crow_proof_worm(top: str) -> None:
    state = position(["K", "1"], {R: ["", f"7 {top}"]})
    assert not any(isinstance(a, PlayCrow) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match=rule(Rule.CROW_TOP)):
        state.apply_text("crow B@R")


@pytest.mark.parametrize(
    ("cards_there", "left", "eaten"),
    [("7 3 F", "7 F", 3), ("7 5* 2*", "5* 2*", 7), ("1 4", "1", 4), ("6 F 2* 3", "6 F 2*", 3)],
)
def test_with_crow_digs_a_crow_eats_the_topmost_edible_worm_under_any_top(
    cards_there: str, left: str, eaten: int
) -> None:
    state = position(["K 1", "1"], {R: ["", cards_there]}, crow_digs=True)
    assert PlayCrow(B, R) in state.legal_actions()
    after = drive(state, "crow B@R")
    assert stack(after, R, 1) == left
    assert after.totals[R][1] == state.totals[R][1] - eaten
    assert after.view(0).players[1].discarded == card_counts(cards(str(eaten)))


@pytest.mark.parametrize("cards_there", ["F", "2* F 5*", ""])
def test_with_crow_digs_a_stack_without_edible_worms_is_still_safe(cards_there: str) -> None:
    state = position(["K 1", "1"], {R: ["", cards_there]}, crow_digs=True)
    assert not any(isinstance(a, PlayCrow) for a in state.legal_actions())
    broken = Rule.CROW_DIG if cards_there else Rule.CROW_NOTHING
    with pytest.raises(IllegalActionError, match=rule(broken)):
        state.apply_text("crow B@R")


def test_crow_digs_changes_what_a_crow_may_eat_and_nothing_else() -> None:
    hands, stacks = ["K 1", "1"], {R: ["", "7 F"], B: ["", "3"]}
    default = position(hands, stacks)
    digging = position(hands, stacks, crow_digs=True)
    crows = [a for a in default.legal_actions() if isinstance(a, PlayCrow)]
    assert crows == [PlayCrow(B, B)]  # the False Worm on top keeps the 7 safe
    assert [a for a in digging.legal_actions() if isinstance(a, PlayCrow)] == [
        PlayCrow(B, R),
        PlayCrow(B, B),
    ]
    said = WORDS.event(digging.view(0), PlayCrow(B, R), ("Ann", "Bob"), "Ann")
    assert said == "Ann's Crow eats Bob's 7 before the red female."
    assert "eats blue's 7" in WORDS.move_label(digging.view(0), PlayCrow(B, R))


def test_a_crow_needs_an_opponents_worm() -> None:
    state = position(["K 1", "1", "1"], {R: ["3", "", ""]})
    with pytest.raises(IllegalActionError, match=rule(Rule.CROW_OPPONENT)):
        state.apply_text("crow R@R")
    with pytest.raises(IllegalActionError, match=rule(Rule.CROW_NOTHING)):
        state.apply_text("crow B@R")  # blue has no card before red: nothing to eat
    with pytest.raises(IllegalActionError, match=rule(Rule.NO_PLAYER)):
        state.apply_text("crow Y@R")
    guarded = position(["K 1", "1", "1"], {R: ["3", "2*", ""]})
    with pytest.raises(IllegalActionError, match=rule(Rule.CROW_TOP)):
        guarded.apply_text("crow B@R")  # a worm is there, but one no Crow eats


def test_the_false_worm_exchange_works_both_ways_keeps_the_place_and_draws_nothing() -> None:
    state = position(["F 1", "1"], {R: ["3 4", ""]})
    assert Swap(R, 1, Card.FALSE_WORM) in state.legal_actions()
    state = drive(state, "swap R#1 F")
    assert stack(state, R, 0) == "F 4" and state.totals[R][0] == 4
    assert state.seats[0].hand == card_counts(cards("3 1"))  # no card drawn
    assert state.view(1).players[0].shown == card_counts(cards("3"))  # everyone saw the 3
    state = drive(state, "worm 1 B", "swap R 1")  # the short form finds the False Worm
    assert stack(state, R, 0) == "1 4" and state.seats[0].hand == card_counts(cards("3 F"))
    assert state.view(1).players[0].shown == card_counts(cards("3 F"))


def test_exchanges_pair_the_false_worm_with_a_real_worm_of_ones_own() -> None:
    state = position(["4 1", "1"], {R: ["3 F", "5*"]})
    with pytest.raises(IllegalActionError, match=rule(Rule.SWAP_PLACE)):
        state.apply_text("swap R#3 F")
    with pytest.raises(IllegalActionError, match=rule(Rule.SWAP_PAIR)):
        state.apply_text("swap R#2 F")  # False Worm for False Worm
    with pytest.raises(IllegalActionError, match=rule(Rule.SWAP_PAIR)):
        state.apply_text("swap R#1 4")  # real worm for real worm
    with pytest.raises(InvalidActionError, match="place"):
        state.parse("swap R F")
    with pytest.raises(IllegalActionError, match=rule(Rule.SWAP_PAIR)):
        position(["1", "1"], {R: ["3", ""]}).parse("swap R 7")


# --- The opening Wedding (ruling 4) ---------------------------------------------------------


def test_the_opening_wedding_is_refused_on_a_tied_total() -> None:
    state = position(["H 1", "1"], {R: ["3 2", "5*"]})
    assert not any(isinstance(a, PlayWedding) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match=rule(Rule.OPENING)):
        state.apply_text("wedding R")


def test_the_opening_wedding_needs_the_highest_total_alone_and_a_worm_card() -> None:
    state = position(["H 1", "1", "1"], {R: ["F", "", ""], B: ["2", "1", ""], G: ["", "4", "3"]})
    assert [a for a in state.legal_actions() if isinstance(a, PlayWedding)] == [PlayWedding(B)]
    for female in "RG":  # a lone False Worm is worth 0; green is led by seat 1
        with pytest.raises(IllegalActionError, match=rule(Rule.OPENING)):
            state.apply_text(f"wedding {female}")
    assert drive(state, "wedding B").stage is Stage.WEDDINGS


def test_with_opening_ties_a_shared_highest_total_may_open_but_wins_no_egg_alone() -> None:
    state = position(["H 1", "1"], {R: ["3 2", "5*"]}, piles=["", ""], opening_ties=True)
    assert [a for a in state.legal_actions() if isinstance(a, PlayWedding)] == [PlayWedding(R)]
    state = drive(state, "wedding R", "pass", "pass", "pass")
    mating = state.nests.last
    assert mating is not None and mating.awards == ()  # 5 against 5 at mating: no egg
    assert mating.cleared == ((R, 0),)


@pytest.mark.parametrize(
    ("stacks", "opens"),
    [
        (["3 2", "5*"], True),  # a tie for the highest total
        (["F", ""], True),  # a worm card, and nobody above its 0
        (["", ""], False),  # no worm card there
        (["3", "4"], False),  # somebody above
        (["4", "3"], True),  # alone on top, as without the option
    ],
)
def test_opening_ties_needs_a_worm_card_and_nobody_higher(stacks: list[str], opens: bool) -> None:
    state = position(["H 1", "1"], {R: stacks}, opening_ties=True)
    assert (PlayWedding(R) in state.legal_actions()) is opens
    if opens:
        assert drive(state, "wedding R").stage is Stage.WEDDINGS
    else:
        with pytest.raises(IllegalActionError, match=rule(Rule.OPENING_TIES)):
            state.apply_text("wedding R")
    default = position(["H 1", "1"], {R: stacks})
    assert (PlayWedding(R) in default.legal_actions()) is (stacks == ["4", "3"])


# --- The wedding phase (ruling 5, ruling 6) -------------------------------------------------


def test_the_wedding_stage_goes_clockwise_from_the_openers_left_and_passes_are_final() -> None:
    state = position(["1", "1", "H H 1", "H 1"], {R: ["", "", "3", ""]}, player=2)
    state = drive(state, "wedding R")
    assert state.player == 3
    state = drive(state, "wedding R")
    assert state.player == 0 and state.legal_actions() == (PASS,)  # no Wedding in hand
    with pytest.raises(IllegalActionError, match=rule(Rule.WEDDING_STAGE)):
        state.apply_text("worm 1 R")
    state = drive(state, "pass", "pass")
    assert state.player == 2  # the opener takes part too
    with pytest.raises(IllegalActionError, match=rule(Rule.ONE_WEDDING)):
        state.apply_text("wedding R")
    state = drive(state, "wedding B")
    assert state.player == 3  # seats 0 and 1 have passed for good
    state = drive(state, "pass", "pass")
    assert state.stage is Stage.WORMS and state.player == 2


def test_the_worm_stage_is_for_wedding_holders_from_the_opener_and_draws_nothing() -> None:
    state = position(["1 2", "1 2", "H 1 2", "H 1 2"], {R: ["", "", "3", ""]}, player=2)
    piles = [len(seat.pile) for seat in state.seats]
    state = drive(state, "wedding R", "wedding G", "pass", "pass", "pass", "pass")
    assert state.stage is Stage.WORMS and state.player == 2  # the opener starts
    with pytest.raises(IllegalActionError, match=rule(Rule.WORM_STAGE)):
        state.apply(PlayWedding(B))
    goes = []
    for move in ("worm 1 B", "worm 2 R", "pass", "pass"):
        goes.append(state.player)
        state = drive(state, move)
        assert [len(seat.pile) for seat in state.seats] == piles or state.stage is Stage.PLAY
    assert goes == [2, 3, 2, 3]  # seats 0 and 1 have no Wedding: they never go
    assert state.stage is Stage.PLAY and state.player == 2


def test_a_tie_for_the_most_worms_gives_no_egg_even_against_a_player_without_a_wedding() -> None:
    state = position(["H H 1", "1"], {R: ["4 2", "5*"], B: ["3", "3"]}, piles=["", ""])
    state = drive(state, "wedding R", "pass", "wedding B", "pass", "pass")
    mating = state.nests.last
    assert mating is not None and state.stage is Stage.PLAY
    assert [(a.player, a.female) for a in mating.awards] == [(0, R)]  # blue: 3 against 3
    assert set(mating.cleared) == {(R, 0), (B, 0)}
    assert stack(state, B, 1) == "3" and state.nests.laid == (1, 0, 0)


def test_the_highest_total_without_a_wedding_takes_the_egg_from_nobody() -> None:
    state = position(["H H 1", "H 1"], {R: ["4 2", "5*"], B: ["1", "7"]}, piles=["", ""])
    state = drive(state, "wedding R", "pass", "wedding B", "pass", "pass")
    mating = state.nests.last
    assert mating is not None
    assert [(a.player, a.female) for a in mating.awards] == [(0, R)]  # blue: seat 1 leads
    assert stack(state, B, 1) == "7" and state.nests.laid == (1, 0, 0)


def test_the_false_worm_cannot_come_back_to_a_female_in_the_same_phase() -> None:
    state = position(["H 1 1 2", "H 4 7"], {R: ["3", "F 2"]}, piles=["", ""])
    state = drive(state, "wedding R", "wedding B", "pass", "pass")
    assert state.stage is Stage.WORMS and state.player == 0
    state = drive(state, "pass", "swap R 4")  # seat 1 takes the False Worm back from red
    assert stack(state, R, 1) == "4 2" and state.player == 1
    with pytest.raises(IllegalActionError, match=rule(Rule.FALSE_WORM_ONCE)):
        state.apply_text("swap R#1 F")
    with pytest.raises(IllegalActionError, match=rule(Rule.FALSE_WORM_ONCE)):
        state.apply_text("worm F R")
    assert PlayWorm(Card.FALSE_WORM, R) not in state.legal_actions()
    assert PlayWorm(Card.FALSE_WORM, G) in state.legal_actions()
    state = drive(state, "worm F G", "pass")
    assert state.stage is Stage.PLAY and state.phase is None
    state = drive(state, "worm 1 B", "swap G#1 7", "worm 1 B")
    assert PlayWorm(Card.FALSE_WORM, R) in state.legal_actions()  # a new phase, a new count


def test_crows_are_refused_in_a_wedding_phase_and_allowed_in_lucky_eggs() -> None:
    hands, stacks = ["H K 1", "H K 1"], {R: ["3", "2"], B: ["", "4"]}
    for lucky in (False, True):
        state = position(hands, stacks, piles=["", ""], lucky_eggs=lucky)
        state = drive(state, "wedding R")
        with pytest.raises(IllegalActionError):
            state.apply_text("crow R@R")  # the wedding stage: Weddings and passes only
        state = drive(state, "wedding B", "pass", "pass")
        assert state.stage is Stage.WORMS
        crow = PlayCrow(Colour.BLUE, Colour.BLUE)
        if not lucky:
            assert crow not in state.legal_actions()
            with pytest.raises(IllegalActionError, match=rule(Rule.CROW_PHASE)):
                state.apply(crow)
        else:
            assert crow in state.legal_actions()
            after = state.apply(crow)
            assert stack(after, B, 1) == "" and hand_sizes(after) == [1, 2]


def test_the_cleanup_takes_the_false_worm_with_the_weddings_owners_cards() -> None:
    state = position(["H 1", "1"], {R: ["F 7", "1"], B: ["2", "1"]}, piles=["", ""])
    state = drive(state, "wedding R", "pass", "pass", "pass")
    assert state.stage is Stage.PLAY and state.nests.won[0] == (Egg(R, 1),)
    assert stack(state, R, 0) == "" and stack(state, R, 1) == "1"
    assert stack(state, B, 0) == "2"  # no Wedding there: the worms stay


# --- The end (ruling 9) ---------------------------------------------------------------------


def test_with_stuck_player_ends_game_a_hand_with_no_legal_use_ends_the_game() -> None:
    state = position(["F 1", "H K"], {R: ["", ""]}, piles=["", ""], stuck_player="ends_game")
    after = drive(state, "worm F R")  # a False Worm on top is no Crow's food
    assert after.is_terminal() and after.nests.end is End.NO_PLAY
    assert after.player == 1 and after.winners() == {0, 1}
    assert drive(state, "worm 1 R").stage is Stage.PLAY  # a 1 could be eaten: play goes on


STUCK_DECK = "H H H H K K 7 6 5* 4 4 3 3 2* 2 2 1 1 1 F H H"
"""A deck whose starting hand (four Weddings and both Crows) has no legal use on turn one."""


def test_with_stuck_player_ends_game_a_deck_with_no_first_play_ends_the_game_at_once() -> None:
    state = dealt(3, STUCK_DECK, stuck_player="ends_game")
    assert state.is_terminal() and state.nests.end is End.NO_PLAY
    assert state.scores() == (0, 0, 0) and state.winners() == {0, 1, 2}
    assert all(not stack for seat in state.seats for stack in seat.stacks)


def test_by_default_the_stuck_deck_waits_for_prey() -> None:
    state = dealt(3, STUCK_DECK)
    assert dealt(3, STUCK_DECK, stuck_player="passes") == state  # ruling 9: the default
    assert state.stage is Stage.PLAY and state.player == 1  # red is passed over
    assert hand_sizes(state) == [6, 6, 6] and len(state.seats[0].pile) == 16
    state = drive(state, "worm 7 R", "worm 7 B")
    assert state.player == 0 and hand_sizes(state)[0] == 6  # red drew nothing while stuck
    assert state.legal_actions() == (PlayCrow(B, R), PlayCrow(G, B))
    state = drive(state, "crow B@R")
    assert state.seats[0].hand == card_counts(cards("H H H H K 7"))  # drew its seventh card


def test_a_stuck_player_is_passed_over_unless_stuck_player_ends_game() -> None:
    hands, piles = ["1 F", "H K", "1 2"], ["", "7", ""]
    state = drive(position(hands, piles=piles, stuck_player="ends_game"), "worm F R")
    assert state.is_terminal() and state.nests.end is End.NO_PLAY and state.player == 1
    state = drive(position(hands, piles=piles, stuck_player="passes"), "worm F R")
    assert state.stage is Stage.PLAY and state.player == 2  # blue has no use for H or K
    assert state.seats[1].hand == card_counts(cards("H K")) and state.seats[1].pile == cards("7")
    state = drive(state, "worm 2 B", "worm 1 G")
    assert state.player == 1  # now blue's Crow has prey
    assert state.legal_actions() == (PlayCrow(R, G), PlayCrow(G, B))


def test_with_stuck_player_passes_the_game_ends_when_nobody_can_play() -> None:
    state = position(["F H", "H", "K"], piles=["", "", ""], stuck_player="passes")
    state = drive(state, "worm F R")  # red keeps a Wedding it cannot open with (0 at red)
    assert state.is_terminal() and state.nests.end is End.NOBODY_CAN_PLAY
    assert state.winners() == {0, 1, 2} and state.player == 1
    assert [sum(seat.hand) for seat in state.seats] == [1, 1, 1]  # nobody drew or played


def test_with_stuck_player_passes_an_empty_hand_still_ends_the_game() -> None:
    # Green plays its last card, red its last but one; then blue, holding only a Wedding
    # with no use, passes, and green is the player to move with an empty hand and nothing
    # to draw: the rulebook's end, even though the others still hold cards.
    state = position(["F 1", "H", "1"], piles=["", "", ""], player=2)
    state = drive(state, "worm 1 G", "worm F R")
    assert state.is_terminal() and state.nests.end is End.NO_PLAY and state.player == 2
    assert [sum(seat.hand) for seat in state.seats] == [1, 1, 0]


def test_the_stuck_player_option_defaults_to_passes_and_takes_only_its_two_settings() -> None:
    spec = Auweier.info.option("stuck_player")
    assert spec.default == "passes" and spec.choices == ("ends_game", "passes")
    assert Auweier(3).config.stuck_player == "passes"
    with pytest.raises(OptionError, match="must be one of"):
        Auweier(3, stuck_player="sometimes")


def test_the_game_ends_when_the_last_egg_is_won() -> None:
    eggs = [Egg(R, 1), Egg(R, 2), Egg(R, 3), Egg(B, 1), Egg(B, 2), Egg(B, 3), Egg(G, 1)]
    state = position(["H 1", "1"], {G: ["4", ""]}, laid=[3, 3, 2], won=[eggs, [Egg(G, 2)]])
    state = drive(state, "wedding G", "pass", "pass", "pass")
    assert state.is_terminal() and state.nests.end is End.LAST_EGG
    assert state.nests.won[0][-1] == Egg(G, 3)
    assert state.winners() == {0} and state.scores()[0] == score_eggs(0, [*eggs, Egg(G, 3)])


def test_equal_top_scores_share_the_win() -> None:
    state = position(["F", "H"], piles=["", ""], won=[[Egg(B, 1)], [Egg(R, 1)]])
    state = drive(state, "worm F R")
    assert state.is_terminal() and state.scores() == (1, 1) and state.winners() == {0, 1}
    assert state.returns() == (0.5, 0.5)


# --- Options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"stuck_player": "passes"},
        {"opening_ties": True},
        {"crow_digs": True},
        {"stuck_player": "passes", "opening_ties": True, "crow_digs": True, "closed_nests": True},
    ],
)
def test_options_live_in_the_state_and_survive_json(options: dict[str, bool | str]) -> None:
    game = Auweier(3, **options)
    state = drive(dealt(3, **options), "worm 7 R")
    assert state.game == game and state.config == game.config
    assert {name: getattr(state.config, name) for name in game.options} == dict(game.options)
    again = spieltisch.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.game == game
    assert state.view(1).config == game.config


def test_closed_nests_closes_a_female_without_eggs_only_with_the_option() -> None:
    hands, stacks = ["1 K F", "1"], {R: ["2", "3"]}
    open_state = position(hands, stacks, laid=[3, 0, 0])
    assert PlayWorm(Card.ONE, R) in open_state.legal_actions()
    closed = position(hands, stacks, laid=[3, 0, 0], closed_nests=True)
    legal = closed.legal_actions()
    assert all(getattr(a, "female", None) != R for a in legal)
    for text in ("worm 1 R", "crow B@R", "swap R#1 1"):
        with pytest.raises(IllegalActionError, match=rule(Rule.CLOSED_NEST)):
            closed.apply_text(text)
    assert closed.view(0).females[R].closed and not open_state.view(0).females[R].closed


# --- Views, secrets and the protocol --------------------------------------------------------


def test_a_view_shows_the_table_and_own_cards_but_no_other_hand() -> None:
    state = drive(dealt(3), "worm 7 R")
    view = state.view(1)
    assert view.hand == state.seats[1].hand
    assert view.females[R].stacks[0].cards == cards("7") and view.females[R].stacks[0].total == 7
    assert [p.hand_size for p in view.players] == [6, 6, 6]
    assert [p.pile_size for p in view.players] == [15, 16, 16]
    spectator = state.view(None)
    assert spectator.hand is None and spectator.pile_known == ()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 120))
def test_a_redeal_keeps_every_view_and_the_cards_known_in_hands(seed: int, moves: int) -> None:
    rng = random.Random(seed)
    state = Auweier(3, lucky_eggs=bool(seed % 2)).initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(legal))
    for observer in (None, 0, 1, 2):
        other = redeal_hidden(state, observer, rng)
        assert other.view(observer) == state.view(observer)
        for p, seat in enumerate(other.seats):
            assert all(h >= s for h, s in zip(seat.hand, seat.shown, strict=True))
            before = state.seats[p]
            counts = [a + b for a, b in zip(seat.hand, card_counts(seat.pile), strict=True)]
            assert counts == [
                a + b for a, b in zip(before.hand, card_counts(before.pile), strict=True)
            ]


OPTION_VALUES = st.fixed_dictionaries(
    {
        "stuck_player": st.sampled_from(["ends_game", "passes"]),
        "opening_ties": st.booleans(),
        "crow_digs": st.booleans(),
        "closed_nests": st.booleans(),
    }
)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), options=OPTION_VALUES)
def test_random_games_keep_every_card_and_total_consistent(
    seed: int, players: int, options: dict[str, bool | str]
) -> None:
    rng = random.Random(seed)
    state = new(players, **options)
    while not state.is_terminal():
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(legal))
        for p, seat in enumerate(state.seats):
            table = card_counts(tuple(c for s in seat.stacks for c in s))
            held = [h + pile + t for h, pile, t in
                    zip(seat.hand, card_counts(seat.pile), table, strict=True)]  # fmt: skip
            assert all(n <= d for n, d in zip(held, DECK, strict=True))
            for f, cards_there in enumerate(seat.stacks):
                assert state.totals[f][p] == sum(WORM_VALUE[c] for c in cards_there)
                assert Card.CROW not in cards_there and Card.WEDDING not in cards_there
            again = Seat(seat.hand, seat.pile, seat.known, seat.shown, seat.stacks)
            assert (seat.food, seat.false_worm) == (again.food, again.false_worm)
        if state.stage is Stage.PLAY:
            assert state.legal_actions(), "a normal turn always has a legal play"
        n = state.nests
        assert n.open == Nests(n.config, n.laid, n.won, n.last, n.end).open
    assert state.winners()


def test_fast_built_states_equal_normally_built_ones() -> None:
    state = drive(dealt(3), "worm 7 R", "worm 7 B")
    fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
    plain = AuweierState(**fields)
    assert plain == state and hash(plain) == hash(state)
    assert AuweierState(*fields.values()) == plain
    assert spieltisch.to_jsonable(state) == spieltisch.to_jsonable(plain)
    for seat in state.seats:
        parts = (seat.hand, seat.pile, seat.known, seat.shown, seat.stacks, seat.roamed)
        fast = _seat(*parts, seat.food, seat.false_worm)
        assert fast == Seat(*parts) and hash(fast) == hash(Seat(*parts))
        assert (fast.food, fast.false_worm) == (seat.food, seat.false_worm)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    lucky=st.booleans(),
    options=OPTION_VALUES,
)
def test_views_made_of_kept_parts_equal_views_built_afresh(
    seed: int, players: int, lucky: bool, options: dict[str, bool | str]
) -> None:
    # Seats and nests keep the parts of views they decide; a pickled copy keeps none of them,
    # so its views are built from nothing. Every viewer, in a changing order, at every step.
    rng = random.Random(seed)
    state = new(players, lucky_eggs=lucky, **options)
    viewers: list[int | None] = [None, *range(players)]
    while True:
        rng.shuffle(viewers)
        for viewer in viewers:
            warm = state.view(viewer)
            cold = pickle.loads(pickle.dumps(state)).view(viewer)
            assert warm == cold and hash(warm) == hash(cold)
            assert json.dumps(spieltisch.to_jsonable(warm)) == json.dumps(
                spieltisch.to_jsonable(cold)
            )
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(legal))


def test_a_view_uses_again_the_parts_of_what_did_not_change() -> None:
    state = drive(dealt(3), "worm 7 R")
    first = state.view(1)
    after = drive(state, "worm 7 B")  # player 1 plays before the blue female
    second = after.view(2)
    assert second.players[0] is first.players[0]  # seats 0 and 2 did not change
    assert second.players[2] is first.players[2]
    assert second.players[1] is not first.players[1]
    red, blue = Colour.RED, Colour.BLUE
    assert second.females[red] is first.females[red]  # nothing new before the red female
    assert second.females[blue] != first.females[blue]
    assert after.view(2) == pickle.loads(pickle.dumps(after)).view(2)


def test_legal_actions_are_the_action_tables_own_objects() -> None:
    rng = random.Random(4)
    for players in (2, 4):
        game = Auweier(players, lucky_eggs=players == 4)
        table = game.action_table()
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            assert all(table.actions[table.id_of(action)] is action for action in legal)
            state = state.apply(rng.choice(legal))


def test_illegal_moves_leave_the_state_unchanged() -> None:
    state = position(["H 1 K", "1"], {R: ["3", "3"]})
    before = state.to_json()
    for bad in ("wedding R", "crow R@R", "swap R#1 F", "pass", "deck 7", "shuffled 1"):
        with pytest.raises(IllegalActionError):
            state.apply_text(bad)
    assert state.to_json() == before


@pytest.mark.parametrize("stage", ["order", "shuffle", "play", "weddings", "over"])
def test_a_value_that_is_no_auweier_move_is_malformed_in_every_stage(stage: str) -> None:
    state = {
        "order": new(3),
        "shuffle": drive(new(3), "deck shuffle"),
        "play": dealt(3),
        "weddings": drive(position(["H 1", "1"], {R: ["3", ""]}), "wedding R"),
        "over": drive(position(["F", "H K"], {R: ["", ""]}, piles=["", ""]), "worm F R"),
    }[stage]
    assert state.stage.value == stage
    before = state.to_json()
    for foreign in (object(), "worm 3 R", 3, None, (Card.THREE, R)):
        with pytest.raises(InvalidActionError, match="move of Auweier"):
            state.apply(foreign)
    assert state.to_json() == before


def test_parsing_takes_short_forms_and_refuses_other_text() -> None:
    assert parse_move("3r") == PlayWorm(Card.THREE, R)
    assert parse_move("worm 2* g") == PlayWorm(Card.TWO_STAR, G)
    assert parse_move("FW B") == PlayWorm(Card.FALSE_WORM, B)
    assert parse_move("worm 5 Y") == PlayWorm(Card.FIVE_STAR, Y)
    assert parse_move("H R") == parse_move("hr") == PlayWedding(R)
    assert parse_move("k b@r") == PlayCrow(B, R)
    assert parse_move("P") == PASS
    assert parse_move("deck 1112*") == Arrange(cards("1 1 1 2*"))
    assert parse_move("deck starter 7 5 4") == Starter(Card.SEVEN, Card.FIVE_STAR, Card.FOUR)
    for bad in ("", "worm 8 R", "wedding X", "crow B", "deck starter 2 2* 3", "deck", "hello"):
        with pytest.raises(InvalidActionError):
            parse_move(bad)


def test_every_action_id_round_trips_through_its_text() -> None:
    game = Auweier(4)
    state = game.initial_state()
    actions = [game.action_from_id(i) for i in range(game.num_distinct_actions)]
    assert len(set(actions)) == game.num_distinct_actions == 582
    assert all(parse_move(str(a)) == a for a in actions)
    assert [game.action_id(a) for a in actions] == list(range(582))
    assert all(eval(repr(a), vars(spieltisch.games.auweier)) == a for a in actions[::7])
    del state


@pytest.mark.parametrize("bad", [582, -1, 10**9, "3", 3.0, True, None])
def test_an_unknown_action_id_is_malformed(bad: object) -> None:
    with pytest.raises(InvalidActionError, match=r"action id \(0 to 581\) of Auweier"):
        Auweier(3).action_from_id(bad)


def test_only_listable_actions_have_ids() -> None:
    game = Auweier(3)
    for foreign in (object(), "worm 3 R", Shuffled(cards("1 2")), Swap(R, 15, Card.ONE)):
        with pytest.raises(
            InvalidActionError, match=r"listable action \(one with an id\) of Auweier"
        ):
            game.action_id(foreign)
    with pytest.raises(InvalidActionError, match="typing aid"):
        game.action_id(Arrange(cards("7 H")))


def test_a_deck_line_is_the_same_as_its_one_card_steps() -> None:
    for line in ("7 K H", ORDER, "H H H H K K 1"):
        steps = new(3)
        for card in cards(line):
            assert Arrange((card,)) in steps.legal_actions()
            steps = steps.apply(Arrange((card,)))
        typed = new(3).apply_text("deck " + line)
        assert typed == steps and typed.view(0) == steps.view(0)


@given(st.lists(st.sampled_from(list(Card)), min_size=1, max_size=22))
def test_deck_lines_round_trip(deck: list[Card]) -> None:
    move = Arrange(tuple(deck))
    assert parse_move(str(move)) == move
    assert parse_move("deck " + str(move)[5:].replace(" ", "")) == move


def test_a_phase_starts_with_the_false_worms_where_they_lie() -> None:
    state = position(["H 1", "1"], {R: ["3", ""], B: ["", "F"]})
    state = drive(state, "wedding R")
    assert state.phase == Phase(0, (1, 0), 0, (0, 1 << B))


def test_the_terminal_draws_a_wedding_phase() -> None:
    state = drive(dealt(3), "worm 7 R", "worm 4 R", "worm 4 B", "wedding R")
    table = TableInfo(("Ann", "Bob", "Cy"), ())
    text = DRAWER.table(state.view(1), table)
    console = Console(width=120, record=True)
    console.print(text)
    out = console.export_text()
    assert "wedding stage" in out and "♥" in out and "7 = 7" in out
    assert "Your hand" in out and "Bob" in out
    assert WORDS.event(state.view(1), PASS, table.names, "Bob") == "Bob passes."
    assert Config(2).females == 3


def test_the_terminal_says_only_when_another_deck_is_ready() -> None:
    table = TableInfo(("Ann", "Bob", "Cy"), ())
    state = new(3)
    said = []
    for text in ["deck starter 1 2* 3", None, "deck " + ORDER, "deck 7", "deck shuffle", None]:
        move = state.sample_chance(random.Random(2)) if text is None else state.parse(text)
        shown = state.seen_move(move, 2)
        actor = "chance" if state.is_chance() else table.names[state.player]
        said.append(WORDS.event(state.view(2), shown, table.names, actor))
        before, state = state, state.apply(move)
        said.append(WORDS.aftermath(before.view(2), state.view(2), table.names) or "")
    assert [line for line in said if line] == [
        "Ann's deck is ready.",
        "Bob's deck is ready.",
        "Cy places 7 next in their deck.",  # Cy's own deck: no secret to Cy
        "Cy arranges their deck: deck shuffle.",
        "Cy's cards are shuffled face down.",
        "Cy's deck is ready. Every deck is ready; each player takes six cards.",
    ]
    console = Console(width=120, record=True)
    console.print(DRAWER.table(drive(new(3), "deck 7 K").view(1), table))
    out = console.export_text()
    assert "setting up" in out and "Ann sets up their deck." in out and "2 of 22" not in out
    console.print(DRAWER.table(drive(new(3), "deck 7 K").view(0), table))
    assert "2 of 22 placed" in console.export_text()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 150), lucky=st.booleans())
def test_a_sampled_state_shows_the_same_view_and_keeps_what_is_known(
    seed: int, moves: int, lucky: bool
) -> None:
    rng = random.Random(seed)
    game = Auweier(3, lucky_eggs=lucky)
    state = game.initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(legal))
    for viewer in (0, 1, 2):
        view = state.view(viewer)
        sampled = sample_state(game, view, rng)
        assert sampled.view(viewer) == view
        if state.current_player() == viewer:
            assert sampled.legal_actions() == state.legal_actions()
        for p, seat in enumerate(sampled.seats):
            assert all(h >= s for h, s in zip(seat.hand, seat.shown, strict=True))
            assert view.players[p].discarded == state.view(None).players[p].discarded
    with pytest.raises(TypeError):
        sample_state(game, object(), rng)


def test_sampling_deals_other_hands_afresh() -> None:
    state = drive(dealt(3), "worm 7 R", "crow R@R")
    view = state.view(2)
    assert view.players[1].discarded == card_counts(cards("K"))
    assert view.players[0].discarded == card_counts(cards("7"))
    rng = random.Random(0)
    hands = {sample_state(Auweier(3), view, rng).seats[0].hand for _ in range(20)}
    assert len(hands) > 1 and all(sum(hand) == 6 for hand in hands)


def test_nobody_is_none_never_a_minus_one_seat() -> None:
    assert _leader((3, 3, 1)) is None and _leader((1, 4, 2)) == 1
    assert _next_after_pass(3, 0b111, 0) is None and _next_after_pass(3, 0b011, 0) == 2
    assert _next_go(3, 0b110, 0) == 0 and _next_go(3, 0b010, 0) == 2
    seat = position(["1 K", "1"], {R: ["3", ""]}).seats[0]
    crowed = _played(seat, Card.CROW, False)  # a Crow lies before no female
    assert crowed.stacks == seat.stacks and crowed.hand == card_counts(cards("1"))
    reading = read(position(["1", "1", "1"], {R: ["3", "", ""], B: ["", "2", "2"]}).view(0))
    assert reading.best_other(R) == (0, None)  # nobody else has a worm before red
    assert reading.best_other(B) == (2, 1)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    lucky=st.booleans(),
    options=OPTION_VALUES,
)
def test_legal_actions_come_in_id_order(
    seed: int, players: int, lucky: bool, options: dict[str, bool | str]
) -> None:
    rng = random.Random(seed)
    game = Auweier(players, lucky_eggs=lucky, **options)
    state = game.initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        ids = [game.action_id(a) for a in legal]
        assert ids == sorted(ids)
        state = state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(legal))
