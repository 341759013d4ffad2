"""Auf die Nüsse!: the rulebook's worked examples, every ruling, every rule error, the end.

Positions are built directly (nothing in the game is secret) and every die and card is dictated.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TypedDict, Unpack

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from spieltisch.core.codec import to_jsonable
from spieltisch.core.errors import IllegalActionError, InvalidActionError
from spieltisch.core.game import Move, NodeKind
from spieltisch.games.auf_die_nuesse import (
    KEEP,
    PASS,
    ROLL_AGAIN,
    STOP,
    AufDieNuesse,
    Board,
    Card,
    Dice,
    Draw,
    Ending,
    Event,
    EventKind,
    Lay,
    Market,
    NuesseState,
    Nut,
    Place,
    Put,
    Rule,
    Setup,
    Slot,
    Space,
    Stage,
    Steal,
    Store,
    Take,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.belief import redeal_hidden
from spieltisch.games.auf_die_nuesse.model import (
    EMPTY_STORE,
    MAX_SCORE,
    NEED,
    SET_ASIDE,
    SQUIRRELS,
    STORE_SIZES,
    STORE_VALUES,
    deck,
    points,
)
from spieltisch.games.auf_die_nuesse.notation import CARDS, DICE, action_table, parse_move
from spieltisch.games.auf_die_nuesse.words import WORDS, event_text
from spieltisch.terminal.draw.auf_die_nuesse import DRAWER
from spieltisch.terminal.draw.base import TableInfo

W, H, B, A = Card.WALNUT, Card.HAZELNUT, Card.BEECHNUT, Card.ACORN
WH, WB, WA = Card.WALNUT_HAZELNUT, Card.WALNUT_BEECHNUT, Card.WALNUT_ACORN
ROW = (A, W, B, H)
"""A face-up row: acorn under 2-4, walnut under 5-6, beechnut under 8-9, hazelnut under 10-12."""


class Options(TypedDict, total=False):
    """The game's options, as keyword arguments to the helpers that build positions."""

    late_jokers: bool
    collect_order: str
    double_collect_upper: bool
    optional_setup: bool
    store_table: str
    raccoon_optional: bool
    empty_supply: str


def new(players: int = 3, **options: Unpack[Options]) -> NuesseState:
    return AufDieNuesse(players, **options).initial_state()


def drive(state: NuesseState, *moves: str) -> NuesseState:
    for text in moves:
        state = state.apply(state.parse(text))
    return state


def refused(state: NuesseState, move: str | Move, rule: Rule) -> None:
    """Applying ``move`` raises the error for ``rule`` and leaves the state as it was."""
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=rule.value) as error:
        state.apply(state.parse(move) if isinstance(move, str) else move)
    assert error.value.rule == rule.value
    assert state.to_json() == before


def store(kind: Nut | None, nuts: int = 0, jokers: int = 0, *, full: bool = False) -> Store:
    return Store(kind, nuts, jokers, full)


def full(kind: Nut = Nut.WALNUT) -> Store:
    return Store(kind, 0, 0, True)


def stores(**by_index: Store) -> tuple[Store, ...]:
    """Eight stores, empty except those given as ``s1=...`` to ``s8=...``."""
    result = [EMPTY_STORE] * 8
    for name, value in by_index.items():
        result[int(name[1:]) - 1] = value
    return tuple(result)


def table(
    players: int = 3,
    *,
    player: int = 0,
    areas: dict[Space, Sequence[int]] | None = None,
    face_up: Sequence[Card | None] = ROW,
    holdings: dict[int, tuple[Store, ...]] | None = None,
    jokers: dict[int, tuple[Card, ...]] | None = None,
    david: int | None = None,
    supply: Sequence[int] | None = None,
    unseen: Sequence[int] | None = None,
    pile: int | None = None,
    set_aside: int = SET_ASIDE,
    **options: Unpack[Options],
) -> NuesseState:
    """The start of ``player``'s turn in a position built from the given parts (and options).

    Squirrels not on the board are in supply; the unseen cards are the deck without the face-up
    row unless given, and the pile is what is unseen besides the set-aside cards.
    """
    config = AufDieNuesse(players, **options).initial_state().board.config
    rows = [tuple(areas.get(space, (0,) * players)) if areas else (0,) * players for space in Space]
    on_board = [sum(row[p] for row in rows) for p in range(players)]
    if supply is None:
        supply = [SQUIRRELS - n for n in on_board]
    if unseen is None:
        counts = list(deck(players))
        for card in face_up:
            if card is not None:
                counts[CARDS.index(card)] -= 1
        unseen = counts
    if pile is None:
        pile = sum(unseen) - set_aside
    market = Market(tuple(face_up), tuple(unseen), pile, set_aside, Ending.NOT_YET)
    board = Board(
        config=config,
        areas=tuple(rows),
        supply=tuple(supply),
        market=market,
        stores=tuple((holdings or {}).get(p, stores()) for p in range(players)),
        jokers=tuple((jokers or {}).get(p, ()) for p in range(players)),
        david=david,
    )
    return NuesseState(board, Stage.ROLL, player, 0, None, None)


def track(*spaces: int) -> int:
    return sum(1 << n for n in spaces)


def placed(state: NuesseState, *spaces: int) -> NuesseState:
    """The player has squirrels on these start-track spaces and may roll again or stop."""
    return replace(state, stage=Stage.AGAIN, track=track(*spaces))


def area(state: NuesseState, space: Space) -> tuple[int, ...]:
    return state.board.areas[space]


def kinds(state: NuesseState) -> list[EventKind]:
    return [event.kind for event in state.events]


Chooser = Callable[[NuesseState], Move]


Step = tuple[Stage, int | None, str]


def settle(
    state: NuesseState,
    choose: Chooser,
    until: Callable[[NuesseState], bool] = lambda s: s.stage in {Stage.ROLL, Stage.OVER},
) -> tuple[NuesseState, list[Step], list[Event]]:
    """Play on until ``until`` holds (by default: a turn starts or the game ends).

    Decisions go to ``choose``; chance draws the first card still unseen. Returns the state, each
    step as (stage, actor, move text), and every event on the way.
    """
    log: list[Step] = []
    events: list[Event] = []
    while not until(state):
        if state.is_chance():
            unseen = state.board.market.unseen
            move: Move = Draw(next(c for c, n in zip(CARDS, unseen, strict=True) if n))
        else:
            move = choose(state)
        log.append((state.stage, state.current_player(), str(move)))
        state = state.apply(move)
        events += state.events
    return state, log, events


def takers(log: list[Step]) -> list[int | None]:
    return [actor for stage, actor, _ in log if stage is Stage.TAKE]


def first_choice(state: NuesseState) -> Move:
    first: Move = state.legal_actions()[0]
    return first


# --- Setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "plain"), [(2, 10), (3, 11), (4, 12)])
def test_the_deck_loses_plain_nuts_with_fewer_players_but_keeps_twelve_jokers(
    players: int, plain: int
) -> None:
    counts = deck(players)
    assert counts[:4] == (plain,) * 4
    assert counts[4:] == (2,) * 6  # every pair of kinds twice
    assert sum(counts) == 4 * plain + 12
    assert {frozenset(card.kinds) for card in CARDS[4:]} == {
        frozenset({a, b}) for a in Nut for b in Nut if a != b
    }


def test_setup_lays_four_nuts_face_up_then_deals_one_nut_to_each_player() -> None:
    state = new(4)
    assert state.stage is Stage.FACE_UP and state.is_chance()
    assert dict(state.chance_outcomes())[Draw(W)] == Fraction(12, 60)
    assert dict(state.chance_outcomes())[Draw(WH)] == Fraction(2, 60)
    state = drive(state, "draw acorn", "draw walnut", "draw beechnut", "draw walnut/hazelnut")
    assert state.board.market.face_up == (A, W, B, WH)
    assert state.stage is Stage.DEAL and state.view(None).receiver == 0
    assert dict(state.chance_outcomes())[Draw(W)] == Fraction(11, 56)


def test_the_dealt_nut_is_stored_at_once_and_only_a_joker_may_be_kept() -> None:
    state = drive(new(2), "draw acorn", "draw walnut", "draw beechnut", "draw hazelnut")
    state = drive(state, "draw walnut")
    assert state.stage is Stage.PUT and state.current_player() == 0
    assert state.legal_actions() == tuple(Put(Nut.WALNUT, i) for i in range(8))
    refused(state, "keep", Rule.KEEP_JOKERS)
    refused(state, "put acorn S1", Rule.CARD_KIND)
    state = drive(state, "put walnut S8", "draw walnut/acorn")
    assert state.current_player() == 1 and KEEP in state.legal_actions()
    assert len(state.legal_actions()) == 1 + 8 * 2
    state = drive(state, "keep")
    assert state.board.stores[0][7] == store(Nut.WALNUT, 1)
    assert state.board.jokers == ((), (WA,))


def test_eight_nuts_are_set_aside_and_the_rest_is_the_draw_pile() -> None:
    state = drive(new(4), *["draw walnut"] * 5, "put walnut S1")
    state = drive(state, "draw acorn", "put acorn S1", "draw acorn", "put acorn S1")
    state = drive(state, "draw acorn", "put acorn S1")
    market = state.board.market
    assert (market.pile, market.set_aside) == (60 - 4 - 4 - SET_ASIDE, SET_ASIDE)
    assert sum(market.unseen) == market.pile + market.set_aside


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_players_after_the_starter_place_one_two_and_three_squirrels(players: int) -> None:
    state = drive(new(players), "draw acorn", "draw walnut", "draw beechnut", "draw hazelnut")
    for _ in range(players):
        state = drive(state, "draw walnut", "put walnut S1")
    for seat in range(1, players):
        for placed_before in range(seat):
            assert state.stage is Stage.SETUP and state.current_player() == seat
            assert len(state.legal_actions()) == 4 - placed_before
            state = state.apply(state.legal_actions()[0])
    assert state.stage is Stage.ROLL and state.player == 0
    assert state.board.supply == tuple(SQUIRRELS - seat for seat in range(players))


def test_setup_squirrels_never_share_a_space_with_their_own_and_never_sit_on_the_raccoon() -> None:
    state = drive(new(4), "draw acorn", "draw walnut", "draw beechnut", "draw hazelnut")
    for _ in range(4):
        state = drive(state, "draw walnut", "put walnut S1")
    state = drive(state, "setup 2-4", "setup 2-4")  # seats 1 and 2 may share a space
    assert area(state, Space.TWO_FOUR) == (0, 1, 1, 0)
    refused(state, "setup 2-4", Rule.SETUP_ONE_PER_SPACE)
    refused(state, "setup 7", Rule.SETUP_NOT_RACCOON)
    refused(state, Setup(Space.LEFT_3), Rule.SETUP_TWO_AREA)
    refused(state, "roll", Rule.OTHER_DECISION)
    assert Setup(Space.RACCOON_2) not in state.legal_actions()


# --- Dice and the start track ----------------------------------------------------------------


def test_a_roll_is_three_distinguishable_dice_each_outcome_one_in_216() -> None:
    state = table()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 216 and {p for _, p in outcomes} == {Fraction(1, 216)}
    assert {m for m, _ in outcomes} == set(DICE)
    assert state.sample_chance(random.Random(3)) in set(DICE)


def test_annas_roll_allows_space_3_or_space_8() -> None:
    state = drive(table(), "dice G2 W1 W6")  # the rulebook's first example
    assert state.stage is Stage.PLACE
    assert state.legal_actions() == (Place(3), Place(8))
    assert state.view(0).placements == (3, 8)
    refused(state, "place 7", Rule.GREEN_PLUS_WHITE)
    refused(state, "stop", Rule.OTHER_DECISION)
    assert state.parse("white 2") == Place(8)
    state = drive(state, "place 8")
    assert state.stage is Stage.AGAIN and state.view(0).track == (8,)
    assert state.legal_actions() == (ROLL_AGAIN, STOP)


def test_marlenes_roll_fails_and_her_start_track_goes_home() -> None:
    before = placed(table(3, areas={Space.LEFT_3: (1, 0, 0)}), 9, 10)
    state = drive(before, "roll", "dice G4 W5 W6")  # the rulebook's failed roll
    assert state.stage is Stage.ROLL and state.player == 1 and state.track == 0
    assert state.board == before.board  # nothing reached the 2-area; the supply is whole
    assert kinds(state) == [EventKind.FAILED] and state.events[0].number == 2


def test_a_start_track_space_takes_one_squirrel_and_equal_white_dice_leave_no_choice() -> None:
    state = drive(placed(table(), 5), "roll", "dice G3 W2 W4")
    assert state.stage is Stage.AGAIN  # 5 was taken, so the squirrel went on 7 by itself
    assert state.view(0).track == (5, 7) and kinds(state) == [EventKind.PLACED]
    state = drive(placed(table(), 5), "roll", "dice G2 W4 W4")
    assert state.view(0).track == (5, 6)
    state = drive(placed(table(), 5), "roll", "dice G1 W2 W6")
    assert state.legal_actions() == (Place(3), Place(7))
    refused(state, Place(5), Rule.GREEN_PLUS_WHITE)
    refused(replace(state, track=track(5, 7)), Place(7), Rule.ONE_PER_TRACK_SPACE)


def test_stopping_moves_each_start_track_squirrel_into_the_2_area_space_above() -> None:
    state = drive(placed(table(), 2, 5, 7, 8, 11), "stop")
    assert [area(state, s)[0] for s in Space][:5] == [1, 1, 1, 1, 1]
    assert state.board.supply[0] == SQUIRRELS - 5 and state.player == 1
    state = drive(placed(table(), 3, 4, 12), "stop")
    assert area(state, Space.TWO_FOUR)[0] == 0  # two arrived and were collected at once


def brute_fail_chance(spaces: frozenset[int]) -> Fraction:
    """Roll every outcome at a real state and count the failed rolls."""
    state = placed(table(), *spaces)
    state = state.apply(ROLL_AGAIN)
    fails = sum(1 for dice in DICE if kinds(state.apply(dice))[:1] == [EventKind.FAILED])
    return Fraction(fails, 216)


def test_the_chance_of_failing_is_exact() -> None:
    assert fail_chance(track(9, 10)) == Fraction(13, 216)
    assert fail_chance(track(9)) == Fraction(1, 54)
    assert fail_chance(0) == 0
    assert fail_chance(track(*range(2, 13))) == 1


@settings(max_examples=25, deadline=None)
@given(st.frozensets(st.integers(2, 12), max_size=10))
def test_the_failure_chance_matches_rolling_every_outcome(spaces: frozenset[int]) -> None:
    assert fail_chance(track(*spaces)) == brute_fail_chance(spaces)


def test_a_player_out_of_squirrels_ends_the_turn_and_cannot_roll_again() -> None:
    state = drive(table(supply=(2, 15, 15)), "dice G1 W1 W1")
    assert state.stage is Stage.AGAIN
    state = drive(state, "roll", "dice G2 W1 W1")
    assert kinds(state)[:3] == [EventKind.PLACED, EventKind.OUT_OF_SQUIRRELS, EventKind.MOVED_UP]
    assert area(state, Space.TWO_FOUR)[0] == 0  # 2 and 3 moved up and were collected
    held = table(supply=(1, 15, 15), jokers={0: (WH,)})
    state = drive(held, "dice G1 W1 W1")
    assert state.stage is Stage.AGAIN and state.legal_actions()[0] == STOP
    assert ROLL_AGAIN not in state.legal_actions()
    refused(state, "roll", Rule.NO_SUPPLY)


# --- Collecting: the 2-area -----------------------------------------------------------------


def test_two_squirrels_in_a_2_area_space_take_its_nut_and_push_the_others_up() -> None:
    start = table(3, areas={Space.FIVE_SIX: (1, 1, 1)})
    state = drive(placed(start, 6), "stop")
    assert area(state, Space.FIVE_SIX) == (0, 0, 0)
    assert area(state, Space.LEFT_3) == (0, 1, 1)
    assert state.board.supply[0] == SQUIRRELS  # the two collected squirrels are home again
    assert kinds(state) == [
        EventKind.MOVED_UP,
        EventKind.COLLECTED,
        EventKind.PUSHED,
        EventKind.PUSHED,
        EventKind.TOOK,
    ]
    assert state.stage is Stage.PUT and state.step is not None and state.step.pending is W
    state = drive(state, "put walnut S3")
    assert state.stage is Stage.REFILL and state.step is not None
    assert state.step.refill is Slot.FIVE_SIX
    state = drive(state, "draw acorn")
    assert state.board.market.face_up == (A, A, B, H) and state.player == 1


def test_own_squirrels_are_never_pushed_on() -> None:
    start = table(2, areas={Space.TWO_FOUR: (1, 1)})
    state = drive(placed(start, 2, 3), "stop", "put acorn S1", "draw acorn")
    assert area(state, Space.TWO_FOUR) == (1, 0)
    assert area(state, Space.LEFT_3) == (0, 1)


def test_four_squirrels_in_the_2_4_space_collect_twice_the_second_time_the_new_nut() -> None:
    start = table(3, areas={Space.TWO_FOUR: (1, 0, 0)})
    state = drive(placed(start, 2, 3, 4), "stop")
    assert state.step is not None and state.step.pending is A
    state = drive(state, "put acorn S1", "draw hazelnut")
    assert kinds(state) == [EventKind.COLLECTED, EventKind.TOOK]
    assert state.step is not None and state.step.pending is H
    state = drive(state, "put hazelnut S2", "draw beechnut")
    assert area(state, Space.TWO_FOUR) == (0, 0, 0) and state.player == 1
    assert state.board.stores[0][:2] == (store(Nut.ACORN, 1), store(Nut.HAZELNUT, 1))
    assert state.board.market.face_up[Slot.TWO_FOUR] is B


def test_four_squirrels_in_the_10_12_space_collect_twice_too() -> None:
    start = table(2, areas={Space.TEN_TWELVE: (1, 0)})
    state = drive(placed(start, 10, 11, 12), "stop", "put hazelnut S1", "draw walnut")
    state = drive(state, "put walnut S2", "draw walnut")
    assert area(state, Space.TEN_TWELVE) == (0, 0)
    assert [s.kind for s in state.board.stores[0][:2]] == [Nut.HAZELNUT, Nut.WALNUT]


# --- The rulebook's chain of collections -----------------------------------------------------

MARLENE, CHRISTINE, ANNA, BLACK = 0, 1, 2, 3


def test_marlene_christine_and_anna_collect_one_after_the_other() -> None:
    start = table(
        4,
        player=MARLENE,
        areas={
            Space.TWO_FOUR: (1, 1, 0, 0),  # Marlene's red squirrel and Christine's blue one
            Space.LEFT_3: (1, 2, 1, 1),  # Christine two; red, white and black one each
            Space.AREA_4: (0, 0, 3, 1),  # Anna (white) three
        },
        face_up=(A, W, B, H),
    )
    state = drive(placed(start, 2, 4), "stop")
    # Marlene has three in the 2-4 space: two go home, Christine's is pushed up, one stays.
    assert area(state, Space.TWO_FOUR) == (1, 0, 0, 0)
    assert state.current_player() == MARLENE and state.step is not None
    assert state.step.pending is A  # she takes the acorn
    state = drive(state, "put acorn S1", "draw beechnut")  # and a new nut is laid
    # Christine now has three in the 3-area: she picks the walnut over the new beechnut.
    assert state.stage is Stage.TAKE and state.current_player() == CHRISTINE
    assert state.legal_actions() == (Take(Slot.TWO_FOUR), Take(Slot.FIVE_SIX))
    assert area(state, Space.LEFT_3) == (0, 0, 0, 0)
    assert area(state, Space.AREA_4) == (1, 0, 4, 2)  # red, white and black pushed on
    state = drive(state, "take 5-6", "put walnut S2", "draw hazelnut")
    # Anna now has four in the 4-area: she takes any of the four nuts.
    assert state.stage is Stage.TAKE and state.current_player() == ANNA
    assert len(state.legal_actions()) == 4
    state = drive(state, "take 10-12", "put hazelnut S8", "draw acorn")
    assert area(state, Space.AREA_4) == (1, 0, 0, 2)  # nobody is pushed on from the 4-area
    assert state.stage is Stage.ROLL and state.player == CHRISTINE
    assert state.board.stores[MARLENE][0] == store(Nut.ACORN, 1)
    assert state.board.stores[CHRISTINE][1] == store(Nut.WALNUT, 1)
    assert state.board.stores[ANNA][7] == store(Nut.HAZELNUT, 1)
    assert state.board.market.face_up == (B, H, B, A)


# --- Collecting: the 3- and 4-area, several players in one space -------------------------------


def test_several_players_in_one_3_area_space_collect_clockwise_from_the_active_player() -> None:
    start = table(
        4,
        player=1,
        areas={
            Space.TWO_FOUR: (1, 1, 1, 1),
            Space.FIVE_SIX: (0, 1, 0, 1),
            Space.LEFT_3: (2, 0, 0, 2),
        },
    )
    # Seat 1 collects on 2-4 and 5-6: everybody else's squirrels there are pushed up.
    state = drive(placed(start, 2, 5), "stop", "put acorn S1", "draw walnut")
    state = drive(state, "put walnut S2", "draw walnut")
    assert area(state, Space.TWO_FOUR) == area(state, Space.FIVE_SIX) == (0, 0, 0, 0)
    # Seats 3 (four squirrels) and 0 (three) can both collect; clockwise from seat 1, seat 3
    # goes first, and only seat 2's single squirrel is pushed on, not seat 0's three.
    assert state.stage is Stage.TAKE and state.current_player() == 3
    assert area(state, Space.LEFT_3) == (3, 0, 0, 1)
    assert area(state, Space.AREA_4) == (0, 0, 1, 0)
    state, log, _ = settle(state, first_choice)
    assert takers(log) == [3, 0]
    assert area(state, Space.LEFT_3) == (0, 0, 0, 0)
    assert area(state, Space.AREA_4) == (0, 0, 1, 1)  # seat 3's leftover, pushed by seat 0


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("active_first", [0, 1, 3]),  # in the 4-area the active seat 1 goes first
        ("next_first", [0, 3, 1]),  # seats 2, 3, 0, then the active seat 1 last
    ],
)
def test_several_players_in_the_4_area_collect_in_the_collect_order(
    order: str, expected: list[int]
) -> None:
    start = table(
        4,
        player=1,
        areas={
            Space.TWO_FOUR: (1, 1, 0, 0),
            Space.LEFT_3: (2, 1, 0, 1),
            Space.AREA_4: (0, 3, 0, 3),
        },
        collect_order=order,
    )
    state = drive(placed(start, 2), "stop", "put acorn S1", "draw walnut")
    # Seat 0, pushed up to three, collects in the 3-area and pushes seats 1 and 3 on.
    assert state.current_player() == 0 and area(state, Space.AREA_4) == (0, 4, 0, 4)
    state, log, _ = settle(state, first_choice)
    assert takers(log) == expected
    assert area(state, Space.AREA_4) == (0, 0, 0, 0)


def test_six_squirrels_in_a_3_area_space_would_collect_twice() -> None:
    # Play never gathers six of one player in a 3-area space in one round of checks (pushes
    # add at most two to the two left there), but the rule is the one for four on 2-4.
    state, log = surplus_in_the_3_area()
    assert takers(log) == [0, 0]
    assert area(state, Space.RIGHT_3) == (0, 0) and area(state, Space.AREA_4) == (0, 1)


def surplus_in_the_3_area(**options: Unpack[Options]) -> tuple[NuesseState, list[Step]]:
    """Seat 0 has six squirrels in the right 3-area space when its own checks reach it."""
    start = table(2, areas={Space.TWO_FOUR: (1, 0), Space.RIGHT_3: (6, 1)}, **options)
    state = drive(placed(start, 2), "stop", "put acorn S1", "draw walnut")
    state, log, _ = settle(state, first_choice)
    return state, log


def test_option_double_collect_upper_off_pays_a_3_area_surplus_at_the_next_checks() -> None:
    state, log = surplus_in_the_3_area(double_collect_upper=False)
    assert takers(log) == [0]  # once, not twice
    assert area(state, Space.RIGHT_3) == (3, 0) and state.player == 1
    # Seat 1's next roll fails (space 2 is taken twice): the checks run and seat 0 collects.
    state = drive(state, "dice G1 W1 W1", "roll", "dice G1 W1 W1")
    assert EventKind.FAILED in kinds(state)
    assert state.stage is Stage.TAKE and state.current_player() == 0
    state, log, _ = settle(state, first_choice)
    assert takers(log) == [0] and area(state, Space.RIGHT_3) == (0, 0) and state.player == 0


def test_option_double_collect_upper_off_pays_after_a_turn_that_moved_squirrels_too() -> None:
    state, _ = surplus_in_the_3_area(double_collect_upper=False)
    state = drive(state, "dice G1 W1 W1", "stop")  # seat 1 moves one squirrel onto 2-4
    assert state.stage is Stage.TAKE and state.current_player() == 0


@pytest.mark.parametrize(("double", "first_pass"), [(True, [0, 0]), (False, [0])])
def test_eight_squirrels_in_the_4_area_collect_twice_unless_the_option_is_off(
    double: bool, first_pass: list[int]
) -> None:
    start = table(
        2, areas={Space.TWO_FOUR: (1, 0), Space.AREA_4: (8, 0)}, double_collect_upper=double
    )
    state = drive(placed(start, 2), "stop", "put acorn S1", "draw walnut")
    state, log, _ = settle(state, first_choice)
    assert takers(log) == first_pass
    assert area(state, Space.AREA_4) == (8 - 4 * len(first_pass), 0)


def setup_stage(**options: Unpack[Options]) -> NuesseState:
    """Seat 1 is due to place the first squirrel before the first turn (3 players)."""
    state = drive(new(3, **options), "draw acorn", "draw walnut", "draw beechnut", "draw hazelnut")
    for _ in range(3):
        state = drive(state, "draw walnut", "put walnut S1")
    assert state.stage is Stage.SETUP and state.current_player() == 1
    return state


def test_setup_squirrels_must_all_be_placed_by_default() -> None:
    state = setup_stage()
    assert PASS not in state.legal_actions()
    refused(state, PASS, Rule.SETUP_ALL)


def test_option_optional_setup_lets_a_player_stop_placing_early() -> None:
    state = setup_stage(optional_setup=True)
    assert state.legal_actions()[0] == PASS and len(state.legal_actions()) == 5
    state = drive(state, "pass")  # seat 1 places none
    assert state.stage is Stage.SETUP and state.current_player() == 2
    state = drive(state, "setup 2-4", "pass")  # seat 2 places one of its two
    assert state.stage is Stage.ROLL and state.player == 0
    assert state.board.supply == (SQUIRRELS, SQUIRRELS, SQUIRRELS - 1)
    assert area(state, Space.TWO_FOUR) == (0, 0, 1)


def side_space_take(face_up: Sequence[Card | None] = ROW) -> NuesseState:
    """Seat 0 collects on 8-9 and pushes seat 1 up to three in the right 3-area space."""
    start = table(2, areas={Space.EIGHT_NINE: (1, 1), Space.RIGHT_3: (0, 2)}, face_up=face_up)
    return drive(placed(start, 8), "stop")


def test_a_3_area_side_space_offers_only_the_two_nuts_under_it() -> None:
    state = drive(side_space_take(), "put beechnut S1", "draw walnut")
    assert state.current_player() == 1
    assert state.legal_actions() == (Take(Slot.EIGHT_NINE), Take(Slot.TEN_TWELVE))
    refused(state, "take 2-4", Rule.TAKE_OFFERED)
    refused(state, "pass", Rule.PASS_RACCOON)


def test_a_space_whose_nuts_are_gone_still_pays_squirrels_and_a_lone_nut_is_taken() -> None:
    # An empty place only happens once the cards run out; here it is built directly.
    state = side_space_take(face_up=(A, W, None, H))
    assert EventKind.NO_NUT in kinds(state)  # 8-9 pays out, but nothing lies under it
    assert area(state, Space.EIGHT_NINE) == (0, 0)
    assert state.current_player() == 1 and state.step is not None
    assert state.step.pending is H  # the right 3-area space has one nut left: no choice


# --- The raccoon ------------------------------------------------------------------------------


def raccoon_table(david: int | None = None) -> NuesseState:
    """Seat 0 completes the raccoon space of the 2-area; seats 1 and 2 have stores to rob."""
    holdings = {
        1: stores(
            s1=full(),
            s3=store(Nut.WALNUT, 2),
            s4=store(Nut.HAZELNUT, 0, 2),
            s5=store(Nut.ACORN, 1, 1),
        ),
        2: stores(s3=store(Nut.BEECHNUT, 2)),
    }
    position = table(3, areas={Space.RACCOON_2: (1, 1, 0)}, holdings=holdings, david=david)
    return drive(placed(position, 7), "stop")


def test_the_raccoon_space_offers_any_face_up_nut_or_none_then_a_theft() -> None:
    state = raccoon_table()
    assert state.stage is Stage.TAKE and area(state, Space.RACCOON_3) == (0, 1, 0)
    assert state.legal_actions() == (PASS, *[Take(slot) for slot in Slot])
    state = drive(state, "take 8-9", "put beechnut S1", "draw walnut")
    assert state.stage is Stage.STEAL and state.current_player() == 0
    assert set(state.legal_actions()) == {
        PASS,
        Steal(1, 2),
        Steal(1, 4),
        Steal(2, 2),
    }


def test_the_raccoon_may_take_no_nut_and_steal_nothing() -> None:
    state = drive(raccoon_table(), "pass")
    assert state.stage is Stage.STEAL  # refusing the nut still leaves the theft
    assert state.board.market.face_up == ROW
    state = drive(state, "pass")
    assert state.stage is Stage.ROLL and state.board.david is None


def test_a_theft_takes_a_real_nut_moves_david_and_the_thief_stores_it() -> None:
    state = drive(raccoon_table(), "pass", "steal P2 S5")
    assert state.board.stores[1][4] == store(Nut.ACORN, 0, 1)  # the joker stays
    assert state.board.david == 1
    assert state.stage is Stage.PUT and state.step is not None and state.step.pending is A
    state = drive(state, "put acorn S6")
    assert state.board.stores[0][5] == store(Nut.ACORN, 1)
    assert state.stage is Stage.ROLL


def test_a_theft_is_refused_from_a_full_store_a_joker_david_oneself_and_an_empty_store() -> None:
    state = drive(raccoon_table(david=2), "pass")
    refused(state, "steal P2 S1", Rule.STEAL_FULL)
    refused(state, "steal P2 S4", Rule.STEAL_JOKERS)
    refused(state, "steal P3 S3", Rule.STEAL_DAVID)
    refused(state, "steal P1 S3", Rule.STEAL_OTHERS)
    refused(state, "steal P2 S2", Rule.STEAL_EMPTY)
    refused(state, "steal P4 S1", Rule.NO_SUCH_PLAYER)
    assert set(state.legal_actions()) == {PASS, Steal(1, 2), Steal(1, 4)}


def test_david_protects_only_until_he_moves_on() -> None:
    state = drive(raccoon_table(david=1), "pass")
    assert Steal(1, 2) not in state.legal_actions()
    state = drive(state, "steal P3 S3", "put beechnut S1")
    assert state.board.david == 2
    assert state.board.stores[2][2] == store(Nut.BEECHNUT, 1)


def test_a_store_robbed_of_its_last_nut_takes_any_kind_again() -> None:
    position = table(
        2, areas={Space.RACCOON_2: (1, 0)}, holdings={1: stores(s1=store(Nut.WALNUT, 1))}
    )
    state = drive(placed(position, 7), "stop", "pass", "steal P2 S1", "put walnut S1")
    assert state.board.stores[1][0] == EMPTY_STORE


def test_with_nothing_to_steal_the_raccoon_only_offers_the_nut() -> None:
    position = table(2, areas={Space.RACCOON_2: (1, 0)})
    state = drive(placed(position, 7), "stop", "take 2-4", "put acorn S1", "draw walnut")
    assert state.stage is Stage.ROLL and state.player == 1


def test_the_raccoon_space_of_the_3_area_pays_three_squirrels_a_nut_and_a_theft() -> None:
    position = table(
        2,
        areas={Space.RACCOON_2: (1, 1), Space.RACCOON_3: (0, 2)},
        holdings={
            0: stores(s2=store(Nut.WALNUT, 1), s3=store(Nut.ACORN, 1)),
            1: stores(s2=store(Nut.WALNUT, 1)),
        },
    )
    state = drive(placed(position, 7), "stop", "pass", "steal P2 S2", "put walnut S2")
    assert state.board.david == 1 and state.board.stores[0][1] == full(Nut.WALNUT)
    # Seat 0's collection pushed seat 1 into the raccoon space above: three there now.
    assert state.stage is Stage.TAKE and state.current_player() == 1
    assert area(state, Space.RACCOON_3) == (0, 0)
    assert state.legal_actions() == (PASS, *[Take(slot) for slot in Slot])
    state = drive(state, "pass")
    assert state.stage is Stage.STEAL and state.legal_actions() == (PASS, Steal(0, 2))
    state = drive(state, "steal P1 S3", "put acorn S1")
    assert state.board.david == 0 and state.board.stores[1][0] == store(Nut.ACORN, 1)
    assert state.stage is Stage.ROLL and state.player == 1


# --- Nut stores and jokers -------------------------------------------------------------------


def put_state(holdings: tuple[Store, ...], card: Card = W) -> NuesseState:
    """Seat 0 collects the nut under 5-6, ``card``, and must store it."""
    position = table(2, areas={Space.FIVE_SIX: (1, 0)}, face_up=(A, card, B, H),
                     holdings={0: holdings})  # fmt: skip
    return drive(placed(position, 5), "stop")


def test_a_store_holds_one_kind_and_a_full_store_takes_nothing_more() -> None:
    state = put_state(stores(s1=full(), s2=store(Nut.HAZELNUT, 1), s3=store(Nut.WALNUT, 1)))
    assert state.stage is Stage.PUT
    assert [a.store for a in state.legal_actions() if isinstance(a, Put)] == [2, 3, 4, 5, 6, 7]
    refused(state, "put walnut S1", Rule.STORE_FULL)
    refused(state, "put walnut S2", Rule.ONE_KIND)
    refused(state, Put(Nut.WALNUT, 8), Rule.NO_SUCH_STORE)
    assert state.parse("put S3") == Put(Nut.WALNUT, 2)


def test_a_filled_store_is_turned_over_and_scores_its_value() -> None:
    state = put_state(stores(s5=store(Nut.WALNUT, 3)))
    state = drive(state, "put walnut S5")
    assert state.board.stores[0][4] == full(Nut.WALNUT)
    assert EventKind.FILLED in kinds(state)
    assert state.scores()[0] == 15


def test_a_nut_that_fits_no_store_goes_back_to_the_box() -> None:
    others = (*[store(Nut.HAZELNUT, 1)] * 7, full())
    state = put_state(others)
    assert state.stage is Stage.REFILL  # nothing to decide: the walnut is gone
    assert EventKind.BOXED in kinds(state) and state.board.stores[0] == others
    assert sum(state.board.market.unseen) == state.board.market.pile + SET_ASIDE


def test_with_one_store_that_fits_the_nut_goes_there_by_itself() -> None:
    others = (*[store(Nut.HAZELNUT, 1)] * 7, store(Nut.WALNUT, 1))
    state = put_state(others)
    assert state.stage is Stage.REFILL and EventKind.STORED in kinds(state)
    assert state.board.stores[0][7] == store(Nut.WALNUT, 2)


def test_a_joker_counts_as_one_of_its_two_kinds_or_is_kept() -> None:
    state = put_state(stores(s3=store(Nut.HAZELNUT, 1), s4=store(Nut.ACORN, 1)), card=WH)
    assert KEEP in state.legal_actions()
    assert Put(Nut.HAZELNUT, 2) in state.legal_actions()
    refused(state, "put acorn S4", Rule.CARD_KIND)
    refused(state, "put walnut S3", Rule.ONE_KIND)
    stored = drive(state, "put hazelnut S3")
    assert stored.board.stores[0][2] == store(Nut.HAZELNUT, 1, 1)
    assert stored.scores()[0] == 3
    kept = drive(state, "keep")
    assert kept.board.jokers[0] == (WH,) and kept.scores()[0] == 2


def test_a_joker_that_fits_no_store_is_kept_by_itself() -> None:
    state = put_state(tuple(store(Nut.ACORN, 1) for _ in range(8)), card=WH)
    assert EventKind.KEPT in kinds(state) and state.board.jokers[0] == (WH,)


def test_a_kept_joker_can_be_laid_at_the_roll_or_stop_choice() -> None:
    position = table(2, jokers={0: (WH, WB)}, holdings={0: stores(s1=store(Nut.WALNUT, 1))})
    state = placed(position, 5)
    lays = [a for a in state.legal_actions() if isinstance(a, Lay)]
    assert Lay(WH, Nut.WALNUT, 0) in lays and Lay(WB, Nut.BEECHNUT, 7) in lays
    assert Lay(WH, Nut.HAZELNUT, 0) not in lays
    state = drive(state, "lay walnut/hazelnut as walnut S1")
    assert state.board.stores[0][0] == full(Nut.WALNUT)  # the joker filled the 2-store
    assert state.board.jokers[0] == (WB,) and state.stage is Stage.AGAIN
    assert EventKind.FILLED in kinds(state)
    refused(state, "lay walnut/hazelnut as walnut S2", Rule.LAY_HELD)
    refused(state, "lay walnut/beechnut as acorn S2", Rule.CARD_KIND)
    refused(placed(position, 5).apply(ROLL_AGAIN), Lay(WH, Nut.WALNUT, 1), Rule.CHANCE_ACTS)


def test_option_late_jokers_off_keeps_jokers_until_the_end() -> None:
    position = table(2, jokers={0: (WH,)}, late_jokers=False)
    state = placed(position, 5)
    assert state.legal_actions() == (ROLL_AGAIN, STOP)
    refused(state, "lay walnut/hazelnut as walnut S1", Rule.LAY_LATE_OFF)


def test_scoring_counts_full_stores_at_their_value_and_other_nuts_one_each() -> None:
    uwe = stores(s1=full(), s3=full(), s5=full(), s7=store(Nut.ACORN, 1, 1),
                 s8=store(Nut.WALNUT, 1))  # fmt: skip
    assert points(uwe) == 5 + 10 + 15 + 2 + 1 == 33  # the rulebook's example
    assert points(tuple(full() for _ in range(8))) == sum(STORE_VALUES) == 110
    assert MAX_SCORE == 115  # every store full with store_table=five_25
    assert STORE_SIZES == (2, 2, 3, 3, 4, 4, 5, 6)


# --- The end -----------------------------------------------------------------------------------


def ending_table(**options: Unpack[Options]) -> NuesseState:
    """One card left in the pile: seat 0's collection at 2-4 draws it, and the end comes."""
    unseen = [0] * 10
    unseen[CARDS.index(W)] = 5
    unseen[CARDS.index(WH)] = 4
    return table(
        3,
        areas={
            Space.TWO_FOUR: (1, 1, 0),
            Space.LEFT_3: (0, 2, 0),
            Space.RACCOON_3: (2, 0, 0),
            Space.AREA_4: (3, 0, 3),
            Space.RIGHT_3: (0, 0, 2),
            Space.EIGHT_NINE: (0, 0, 1),
            Space.TEN_TWELVE: (0, 0, 1),
            Space.RACCOON_2: (0, 0, 1),
        },
        unseen=unseen,
        pile=1,
        jokers={1: (WB,)},
        **options,
    )


def test_the_last_card_of_the_pile_brings_in_the_set_aside_nuts_and_the_checks_finish() -> None:
    state = drive(placed(ending_table(), 3), "stop", "put acorn S1", "draw walnut")
    market = state.board.market
    assert EventKind.LAST_CARD in kinds(state)
    assert (market.pile, market.set_aside, market.ending) == (8, 0, Ending.TRIGGERED)
    # Seat 1 was pushed up to three in the 3-area: that check is still made.
    assert state.stage is Stage.TAKE and state.current_player() == 1


def test_at_the_end_every_squirrel_moves_up_and_each_four_buy_a_nut() -> None:
    state = drive(placed(ending_table(), 3), "stop", "put acorn S1", "draw walnut")
    state = drive(state, "take 2-4", "put walnut S1", "draw walnut")
    assert EventKind.ALL_UP in kinds(state)
    assert state.board.market.ending is Ending.FINAL
    # Seat 0: 1 + 2 + 3 = 5 squirrels (one nut); seat 1: none; seat 2: 8 (two nuts).
    assert area(state, Space.AREA_4)[0] == 5 - 4
    assert all(area(state, space) == (0, 0, 0) for space in list(Space)[:8])
    state, log, _ = settle(state, first_choice)
    assert takers(log) == [0, 2, 2]  # the active player first, then clockwise


def test_option_next_first_also_orders_the_nuts_bought_at_the_end() -> None:
    state = drive(placed(ending_table(collect_order="next_first"), 3), "stop", "put acorn S1")
    state = drive(state, "draw walnut", "take 2-4", "put walnut S1", "draw walnut")
    assert state.board.market.ending is Ending.FINAL
    state, log, _ = settle(state, first_choice)
    assert takers(log) == [2, 2, 0]  # the next seat first, taking all its nuts; the active last
    assert area(state, Space.AREA_4) == (1, 0, 0)
    # Then seat 1's kept joker is stored (the first choice: with the walnut in S1).
    assert log[-1] == (Stage.PUT, 1, "put walnut S1")
    assert state.board.stores[1][0] == full(Nut.WALNUT)  # the joker filled the 2-store
    assert state.is_terminal() and state.board.jokers == ((), (), ())
    assert state.winners()


def test_a_kept_joker_must_be_stored_at_the_end() -> None:
    state = drive(placed(ending_table(), 3), "stop", "put acorn S1", "draw walnut")
    state = drive(state, "take 2-4", "put walnut S1", "draw walnut")
    state, _, _ = settle(state, first_choice, lambda s: s.view(None).pending is WB)
    assert state.stage is Stage.PUT and state.current_player() == 1
    assert KEEP not in state.legal_actions()
    refused(state, "keep", Rule.KEEP_AT_END)


def test_claims_that_no_nut_can_meet_are_lost() -> None:
    unseen = [0] * 10
    unseen[CARDS.index(W)] = 2
    everywhere = {Space.FIVE_SIX: (1, 1), Space.LEFT_3: (2, 2), Space.RACCOON_3: (2, 2),
                  Space.RIGHT_3: (2, 2), Space.EIGHT_NINE: (1, 1), Space.TEN_TWELVE: (1, 1),
                  Space.AREA_4: (3, 3)}  # fmt: skip
    # A short set-aside pile (one card) makes the nuts run out: five nuts for six claims.
    position = table(2, areas={**everywhere, Space.TWO_FOUR: (1, 0)}, unseen=unseen, pile=1,
                     set_aside=1)  # fmt: skip
    state = drive(placed(position, 2, 3), "stop", "put acorn S1", "draw walnut")
    assert state.board.market.ending is Ending.FINAL
    # 13 and 12 squirrels moved up: three claims each; seat 0 is choosing the first nut.
    assert area(state, Space.AREA_4) == (13 - 4, 12)
    assert state.stage is Stage.TAKE and state.current_player() == 0
    state, settle_log, events = settle(state, first_choice)
    got = [e.player for e in events if e.kind is EventKind.TOOK]
    lost = [e.player for e in events if e.kind is EventKind.NO_NUT]
    chosen = [actor for stage, actor, _ in settle_log if stage is Stage.TAKE]
    assert Counter(got + chosen) == {0: 3, 1: 2} and lost == [1]  # five nuts, six claims
    assert state.is_terminal() and state.board.market.face_up == (None,) * 4
    assert area(state, Space.AREA_4) == (1, 0)


def ended(holdings: dict[int, tuple[Store, ...]]) -> NuesseState:
    return replace(table(len(holdings), holdings=holdings), stage=Stage.OVER)


def test_the_most_points_win_then_the_most_valuable_full_store_then_a_shared_win() -> None:
    assert ended({0: stores(s8=full()), 1: stores(s1=full())}).winners() == {0}
    a = stores(s5=full(), s8=store(Nut.ACORN, 5))  # 15 + 5 = 20
    b = stores(s3=full(), s4=full())  # 10 + 10 = 20
    state = ended({0: a, 1: b})
    assert state.scores() == (20, 20) and state.winners() == {0}
    c = stores(s5=full(), s7=store(Nut.WALNUT, 4), s8=store(Nut.ACORN, 1))  # 15 + 4 + 1
    state = ended({0: a, 1: c})
    assert state.scores() == (20, 20) and state.winners() == {0, 1}
    assert state.returns() == (0.5, 0.5)


# --- Notation, ids, legality --------------------------------------------------------------------

ALL_MOVES: list[Move] = [*action_table(), *DICE, *(Draw(card) for card in CARDS)]


@given(st.sampled_from(ALL_MOVES))
def test_every_move_reads_back_from_its_text_and_its_repr(move: Move) -> None:
    assert parse_move(str(move)) == move
    namespace: dict[str, type] = {cls.__name__: cls for cls in (Card, Nut, Slot, Space, Dice, Draw)}
    namespace.update({type(a).__name__: type(a) for a in action_table()})
    assert eval(repr(move), namespace) == move


def test_parsing_takes_aliases_and_refuses_nonsense() -> None:
    state = table()
    assert state.parse("dice 2 1 6") == Dice(2, 1, 6)
    assert state.parse("DICE g2 w1 w6") == Dice(2, 1, 6)
    assert state.parse("draw W/H") == Draw(WH) == state.parse("draw hazelnut/walnut")
    assert state.parse("draw joker walnut/acorn") == Draw(WA)
    assert state.parse("steal 2 5") == Steal(1, 4)
    assert state.parse("put walnut 3") == Put(Nut.WALNUT, 2)
    assert state.parse("end") == STOP
    assert state.parse("take 5") == Take(Slot.FIVE_SIX)
    assert state.parse("setup 11") == Setup(Space.TEN_TWELVE)
    for bad in ("dice 7 1 1", "draw peanut", "draw walnut/walnut", "steal P2", "put S9",
                "lay walnut as walnut S1", "place x", "take 7", "hop", "", "roll now"):  # fmt: skip
        with pytest.raises(InvalidActionError):
            state.parse(bad)


def test_action_ids_cover_every_player_action_once() -> None:
    game = AufDieNuesse(3)
    actions = [game.action_from_id(i) for i in range(game.num_distinct_actions)]
    assert len(set(actions)) == game.num_distinct_actions == len(action_table())
    assert [game.action_id(a) for a in actions] == list(range(len(actions)))
    with pytest.raises(InvalidActionError, match="is no action id"):
        game.action_from_id(len(actions))
    with pytest.raises(InvalidActionError, match="is no player action"):
        game.action_id(Dice(1, 1, 1))


def playout(seed: int, players: int, late_jokers: bool = True) -> list[NuesseState]:
    """Every state of one random game."""
    rng = random.Random(seed)
    state = new(players, late_jokers=late_jokers)
    states = [state]
    while not state.is_terminal():
        if state.is_chance():
            move: Move = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            move = legal[rng.randrange(len(legal))]
        state = state.apply(move)
        states.append(state)
    return states


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.booleans())
def test_legal_actions_are_exactly_the_actions_apply_accepts(
    seed: int, players: int, late_jokers: bool
) -> None:
    states = playout(seed, players, late_jokers)
    for state in states[::7]:
        legal = set(state.legal_actions())
        assert {a for a in action_table() if state.fault(a) is None} == legal
        assert {a for a in action_table() if applies(state, a)} == legal
        assert state.node is not NodeKind.DECISION or len(legal) >= 2  # no forced choices


def applies(state: NuesseState, action: Move) -> bool:
    try:
        state.apply(action)
    except IllegalActionError:
        return False
    return True


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]))
def test_random_games_keep_the_invariants(seed: int, players: int) -> None:
    states = playout(seed, players)
    for state in states:
        board = board_of(state)
        market = board.market
        assert sum(market.unseen) == market.pile + market.set_aside
        on_board = [sum(row[p] for row in board.areas) for p in range(players)]
        assert all(n + s == SQUIRRELS for n, s in zip(on_board, board.supply, strict=True))
        if state.stage is Stage.ROLL and state.track == 0:
            assert state.available >= 1  # a turn never starts with an empty supply
            # ... nor with a space that could pay out (the turn-end checks rely on this)
            assert all(max(row) < need for row, need in zip(board.areas, NEED, strict=True))
        if state.stage is Stage.REFILL:
            total = sum(market.unseen)
            assert dict(state.chance_outcomes()) == {
                Draw(c): Fraction(n, total) for c, n in zip(CARDS, market.unseen, strict=True) if n
            }
    last = states[-1]
    assert last.is_terminal() and last.winners() and last.board.jokers == ((),) * players


def board_of(state: NuesseState) -> Board:
    return state.board


# --- Views and the terminal --------------------------------------------------------------------


def test_every_player_sees_the_whole_table_and_no_order_of_cards() -> None:
    state = raccoon_table(david=2)
    assert not AufDieNuesse.info.hidden_information
    views = [state.view(p) for p in (None, 0, 1, 2)]
    assert all(replace(v, viewer=None) == views[0] for v in views)
    view = views[1]
    assert view.david == 2 and view.stores == state.board.stores
    assert view.face_up == ROW and view.raccoon and view.offer == tuple(Slot)
    data = json.dumps(to_jsonable(view))
    assert "set_aside" in data and "order" not in data.replace('"collect_order"', "")
    assert redeal_hidden(state, 0, random.Random(1)) is state


def render(state: NuesseState) -> str:
    console = Console(width=110, record=True, color_system=None)
    names = TableInfo(tuple(f"P{p + 1}" for p in range(state.num_players)), ())
    console.print(DRAWER.table(state.view(0), names))
    return console.export_text()


def test_the_terminal_draws_the_board_and_the_chance_of_failing_beside_roll_again() -> None:
    state = placed(table(3, areas={Space.RACCOON_3: (1, 2, 0)}), 9, 10)
    text = render(state)
    for label in ("4-area", "raccoon", "2-4", "10-12", "acorn", "hazelnut", "S8"):
        assert label in text
    assert "13/216" in text
    assert "13/216" in WORDS.move_label(state.view(0), ROLL_AGAIN)
    names = ("A", "B", "C")
    assert "green 4" in WORDS.event(state.view(0), parse_move("dice G4 W5 W6"), names, "A")
    theft = drive(raccoon_table(), "pass")
    said = WORDS.event(theft.view(0), parse_move("steal P2 S5"), names, "A")
    assert said == "A's raccoon steals an acorn from B's S5."
    before = placed(table(2, areas={Space.FIVE_SIX: (1, 1)}), 6)
    sample = drive(before, "stop")
    assert "pushed up" in (WORDS.aftermath(before.view(0), sample.view(0), names) or "")


@pytest.mark.parametrize("kind", list(EventKind))
def test_every_event_has_words(kind: EventKind) -> None:
    event = Event(kind, 0, Space.TWO_FOUR, 2, W, 1, Slot.TWO_FOUR)
    assert event_text(event, ("A", "B"))
