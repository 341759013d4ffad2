"""Awimbawé: the rulebook's three worked examples, every ruling and power, the end of a round
and of the match, hidden information, notation and rule errors, with dictated chance."""

from __future__ import annotations

import json
import math
import pickle
import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import TypedDict, Unpack

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.core.codec import from_jsonable, to_jsonable
from spieltisch.core.errors import (
    IllegalActionError,
    InvalidActionError,
    NotEnumerableError,
    OptionError,
)
from spieltisch.core.game import NodeKind
from spieltisch.games.awimbawe import (
    DECK,
    Animal,
    Awimbawe,
    AwimbaweState,
    AwimbaweView,
    Block,
    Card,
    Deal,
    Heir,
    Land,
    Lead,
    Pick,
    Play,
    Rhino,
    Side,
    SideView,
    Stage,
    Stance,
    TieBreak,
)
from spieltisch.games.awimbawe import rules as rules_module
from spieltisch.games.awimbawe.belief import redeal_hidden
from spieltisch.games.awimbawe.model import Config, RoundResult
from spieltisch.games.awimbawe.notation import (
    ACTIONS,
    DECLINE,
    LEAD_ME,
    LEAD_OPPONENT,
    NUM_ACTIONS,
    parse_move,
)
from spieltisch.games.awimbawe.rules import Match, Tally, random_order
from tests.conformance.checks import PlayoutStats, check_views

C = Card.of


class Options(TypedDict, total=False):
    """The game's options, as keyword arguments to the helpers that build positions."""

    tie_break: str
    rhino_to_empty_pile: bool
    leader_choice_after_deal: bool
    blind_pick_shown: bool
    blocked_duties: str


def new(**options: Unpack[Options]) -> AwimbaweState:
    return Awimbawe(2, **options).initial_state()


def drive(state: AwimbaweState, *moves: str) -> AwimbaweState:
    for text in moves:
        state = state.apply(state.parse(text))
    return state


def legal(state: AwimbaweState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def deal_text(up0: str, hand0: str, up1: str, hand1: str, down0: str = "", down1: str = "") -> str:
    """A deal giving these face-up pile cards (piles 1-4) and hands; the face-down cards are
    the ones given, then the remaining cards in card order (seat 0's first)."""
    named = {C(w) for text in (up0, hand0, up1, hand1, down0, down1) for w in text.split()}
    rest = [str(c) for c in DECK if c not in named]
    down = [down0.split(), down1.split()]
    for p in (0, 1):
        while len(down[p]) < 4:
            down[p].append(rest.pop(0))
    return f"deal {' '.join(down[0])} / {up0} / {hand0} | {' '.join(down[1])} / {up1} / {hand1}"


def start(
    up0: str,
    hand0: str,
    up1: str,
    hand1: str,
    down0: str = "",
    down1: str = "",
    **options: Unpack[Options],
) -> AwimbaweState:
    return drive(new(**options), deal_text(up0, hand0, up1, hand1, down0, down1))


def side(hand: str = "", piles: tuple[str, ...] = ("", "", "", ""), blocked: str = "") -> Side:
    """A side from text: piles bottom first, ``~`` before a face-down card."""
    cards = tuple(tuple(C(w.lstrip("~")) for w in pile.split()) for pile in piles)
    down = frozenset(C(w[1:]) for pile in piles for w in pile.split() if w.startswith("~"))
    hand_cards = tuple(sorted((C(w) for w in hand.split()), key=lambda c: c.code))
    return Side(hand_cards, cards, down, frozenset(C(w) for w in blocked.split()))


def table(
    side0: Side,
    side1: Side,
    leader: int,
    *,
    hyenas: tuple[int, int] = (0, 0),
    crowns: tuple[int, int] = (0, 0),
    wins: tuple[int, int] = (0, 0),
    **options: Unpack[Options],
) -> AwimbaweState:
    """A trick about to be led by ``leader``, the rest of the 28 cards in the scoring piles."""
    game = Awimbawe(2, **options)
    on_table = side0.count() + side1.count()
    taken = (28 - on_table) // 2
    tallies = tuple(Tally(taken, crowns[p], hyenas[p]) for p in (0, 1))
    match = Match(game.config, 1, wins, (), leader)
    return AwimbaweState(match, (side0, side1), tallies, Stage.PLAY, leader, (), None, None)


# --- The cards (ruling 1) --------------------------------------------------------------------


def test_the_deck_has_28_cards_and_only_eagles_carry_crossed_out_crowns() -> None:
    assert len(DECK) == len(set(DECK)) == 28
    crowns = {c.animal: c.crowns for c in DECK if not c.is_eagle}
    assert crowns == {
        Animal.MOUSE: 3,
        Animal.RHINOCEROS: 2,
        Animal.CHEETAH: 2,
        Animal.HYENA: 3,
        Animal.SNAKE: 1,
        Animal.ELEPHANT: 1,
    }
    assert all(c.crowns > 0 for c in DECK if not c.is_eagle)
    assert [C(f"S{v}").crowns for v in (7, 8, 9, 10)] == [0, 0, -1, -2]
    assert sum(c.crowns for c in DECK) == 45  # odd: a round played out cannot tie
    for land in (Land.GRASSLAND, Land.DESERT, Land.MOUNTAIN, Land.PLAIN):
        assert sorted(c.value for c in DECK if c.land is land) == [1, 2, 3, 4, 5, 6]


def test_cards_are_single_objects_that_survive_json_and_pickling() -> None:

    card = Card(Land.DESERT, 5)
    assert card is C("D5") is C("desert snake") is C("snake of the desert")
    assert from_jsonable(Card, to_jsonable(card)) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert Play(card) is Play.of("D5")
    with pytest.raises(ValueError):
        Card(Land.SKY, 3)
    with pytest.raises(ValueError):
        Card(Land.DESERT, 7)


# --- The deal and the first leader (ruling 2) -------------------------------------------------


def test_the_deal_is_a_chance_step_too_big_to_list_but_sampled_and_dictated() -> None:
    state = new()
    assert state.is_chance() and state.node is NodeKind.CHANCE
    with pytest.raises(NotEnumerableError):
        state.chance_outcomes()
    deal = state.sample_chance(random.Random(3))
    assert isinstance(deal, Deal) and deal.is_complete()
    assert state.parse(str(deal)) == deal
    assert deal == state.sample_chance(random.Random(3))
    after = state.apply(deal)
    for p in (0, 1):
        assert after.sides[p].hand == tuple(sorted(deal.hands[p], key=lambda c: c.code))
        assert [pile[-1] for pile in after.sides[p].piles] == list(deal.up[p])
        assert after.sides[p].down == frozenset(deal.down[p])


class FixedRandom(random.Random):
    """A generator whose ``randrange`` returns a chosen number."""

    def __init__(self, number: int) -> None:
        super().__init__(0)
        self.number = number

    def randrange(self, *args: object, **kwargs: object) -> int:
        return self.number


@given(st.integers(0, math.factorial(28) - 1), st.integers(0, math.factorial(28) - 1))
def test_the_deal_order_is_a_bijection_from_one_uniform_number(a: int, b: int) -> None:
    first, second = random_order(FixedRandom(a)), random_order(FixedRandom(b))
    assert sorted(first, key=lambda c: c.code) == list(DECK)
    assert (first == second) == (a == b)


def test_the_deal_order_covers_the_extremes() -> None:
    assert random_order(FixedRandom(0)) == list(DECK)
    assert random_order(FixedRandom(math.factorial(28) - 1)) == list(reversed(DECK))


def test_first_leader_has_fewer_net_crowns_on_the_face_up_cards() -> None:
    # seat 0: S10 S9 M5 P5 = -2 -1 +1 +1 = -1; seat 1: G1 = 3 and more
    state = start("S10 S9 M5 P5", "D1 D2 D3 D4 D5 D6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    assert state.stage is Stage.PLAY and state.current_player() == 0
    state = start("G1 G2 G3 G4", "D1 D2 D3 D4 D5 D6", "S10 S9 M5 P5", "P1 P2 P3 P4 P6 M1")
    assert state.current_player() == 1 and state.match.round_leader == 1


def test_a_tie_of_face_up_crowns_is_broken_by_chance() -> None:
    state = start("G1 G2 G3 G4", "D1 D2 D3 D4 D5 D6", "M1 M2 M3 M4", "P1 P2 P3 P4 P6 S7")
    assert state.stage is Stage.TIE_BREAK and state.is_chance()
    assert state.chance_outcomes() == [
        (TieBreak(0), Fraction(1, 2)),
        (TieBreak(1), Fraction(1, 2)),
    ]
    assert drive(state, "tiebreak 1").current_player() == 1
    with pytest.raises(IllegalActionError, match="seat 0 or seat 1"):
        state.apply(TieBreak(2))


def test_option_tie_break_names_the_youngest_instead_of_chance() -> None:
    deal = ("G1 G2 G3 G4", "D1 D2 D3 D4 D5 D6", "M1 M2 M3 M4", "P1 P2 P3 P4 P6 S7")
    state = start(*deal, tie_break="seat1")
    assert state.stage is Stage.PLAY and state.current_player() == 1
    assert start(*deal, tie_break="seat0").current_player() == 0
    assert start(*deal, tie_break="chance").stage is Stage.TIE_BREAK
    assert Awimbawe().config.tie_break_seat is None  # chance by default, with no sentinel
    assert Awimbawe(2, tie_break="seat1").config.tie_break_seat == 1


@pytest.mark.parametrize("value", [-1, 0, "1", "youngest", None])
def test_option_tie_break_takes_only_its_named_choices(value: object) -> None:
    with pytest.raises(OptionError):
        Awimbawe(2, tie_break=value)


# --- Following (ruling 3) and the rulebook's eagle example ------------------------------------

# Guillaume (seat 0) has the fewest face-up crowns (M4 S10 S9 P5: +1); Anne (seat 1) holds no
# mountain card she can play, and the eagle 8.
EAGLE_DEAL = ("M4 S10 S9 P5", "M1 M2 M3 M5 M6 G1", "G2 G3 D2 D3", "S8 P1 P2 P3 P4 P6")


def test_rulebook_eagle_example_anne_must_play_her_eagle_and_may_flee() -> None:
    state = drive(start(*EAGLE_DEAL), "play M4")
    assert legal(state) == ["play S8 fight", "play S8 flee"]
    fled = drive(state, "play S8 flee")
    assert fled.last_trick is not None and fled.last_trick.winner == 0
    assert fled.tallies[0] == Tally(1, 3, 1)  # the hyena goes to Guillaume, face up
    assert fled.tallies[1] == Tally(1, 0, 0)  # the eagle goes to Anne's own pile
    assert fled.current_player() == 0  # Guillaume won: he leads
    assert fled.view(1).sides[0].hyenas == 1


def test_rulebook_eagle_example_anne_may_fight_and_take_both_cards() -> None:
    fought = drive(start(*EAGLE_DEAL), "play M4", "play S8 fight")
    assert fought.last_trick is not None and fought.last_trick.winner == 1
    assert fought.tallies[1] == Tally(2, 3, 1) and fought.tallies[0] == Tally(0, 0, 0)
    assert fought.current_player() == 1
    assert fought.view(0).sides[1].hyenas == 1


def test_an_eagle_must_flee_or_fight_and_a_land_card_cannot() -> None:
    state = drive(start(*EAGLE_DEAL), "play M4")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="must flee or fight"):
        state.apply(Play.of("S8"))
    with pytest.raises(IllegalActionError, match="must play an eagle"):
        state.apply(Play.of("P1"))
    with pytest.raises(IllegalActionError, match="only an available card"):
        state.apply(Play.of("M5"))
    with pytest.raises(InvalidActionError, match="only with an eagle"):
        Play(C("P1"), Stance.FLEE)  # no such play: only eagles flee or fight
    with pytest.raises(InvalidActionError):
        state.parse("play P1 flee")
    assert state.to_json() == before


def test_following_suit_is_compulsory_and_the_higher_card_wins() -> None:
    state = start("S10 S9 M5 P5", "D2 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 D1")
    state = drive(state, "play D4")
    assert legal(state) == ["play D1"]
    with pytest.raises(IllegalActionError, match="led land must be followed"):
        state.apply(Play.of("P1"))
    state = drive(state, "play D1")
    assert state.last_trick is not None and state.last_trick.winner == 0


def test_who_can_neither_follow_nor_play_an_eagle_discards_and_loses() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    state = drive(state, "play D1")
    assert len(legal(state)) == 10  # anything goes
    state = drive(state, "play P6")  # the elephant is higher, but a discard loses
    assert state.last_trick is not None and state.last_trick.winner == 0
    assert state.tallies[0].size == 2


def test_an_eagle_lead_must_be_answered_by_an_eagle_and_the_higher_one_wins() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 S7 S8 M1")
    state = drive(state, "play S9")
    assert legal(state) == ["play S7", "play S8"]  # both fight: no choice to make
    with pytest.raises(IllegalActionError, match="always fights"):
        state.apply(Play(C("S8"), Stance.FLEE))
    state = drive(state, "play S8")
    assert state.last_trick is not None and state.last_trick.winner == 0


def test_an_eagle_lead_answered_by_a_player_without_eagles() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    state = drive(state, "play S9")
    assert len(legal(state)) == 10 and all(" f" not in m for m in legal(state))
    state = drive(state, "play G1")  # a mouse worth 3 crowns, discarded
    assert state.last_trick is not None and state.last_trick.winner == 0
    assert state.tallies[0] == Tally(2, 3 - 1, 0)


def test_a_leading_eagle_never_flees() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    assert "play S9 flee" not in legal(state)
    with pytest.raises(IllegalActionError, match="always fights"):
        state.apply(Play(C("S9"), Stance.FIGHT))


@pytest.mark.parametrize(("lead", "answer", "winner"), [("D1", "D6", 0), ("D6", "D1", 1)])
def test_the_mouse_beats_the_elephant_of_its_land(lead: str, answer: str, winner: int) -> None:
    hand0, hand1 = "D2 D3 D4 D5 G5 G6", "P1 P2 P3 P4 P6 M1"
    hand0 = f"{hand0.replace('D2', lead)}"
    hand1 = f"{hand1.replace('M1', answer)}"
    state = start("S10 S9 M5 P5", hand0, "G1 G2 G3 G4", hand1)
    state = drive(state, f"play {lead}", f"play {answer}")
    assert state.last_trick is not None and state.last_trick.winner == winner


def test_the_mouse_does_not_beat_an_elephant_of_another_land() -> None:
    # The desert elephant leads; the follower has no desert card and no eagle, so the
    # mountain mouse can only be discarded, and a discard loses.
    state = start("S10 S9 M5 P5", "D6 D3 D4 D5 G5 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    state = drive(state, "play D6", "play M1")
    assert state.last_trick is not None and state.last_trick.winner == 0


# --- Powers (ruling 4) ------------------------------------------------------------------------

# Anne (seat 0) leads; Guillaume's eagle 8 lies on his pile 3, over the face-down M6.
RHINO_DEAL = ("D2 S10 S9 P5", "D1 D3 D4 D5 D6 G1", "G2 G3 S8 G4", "P1 P2 P3 P4 P6 M1")


def test_rulebook_rhinoceros_example() -> None:
    state = start(*RHINO_DEAL)
    assert state.sides[1].piles[2] == (C("M6"), C("S8")) and C("M6") in state.sides[1].down
    state = drive(state, "play D2")
    assert state.stage is Stage.RHINOCEROS and state.current_player() == 0
    assert len(state.legal_actions()) == 12 + 1 and state.legal_actions()[-1] == DECLINE
    state = drive(state, "move 3 under 1")  # the eagle goes under Guillaume's first pile
    assert state.sides[1].piles[0] == (C("S8"), C("M4"), C("G2"))
    assert state.sides[1].piles[2] == (C("M6"),)
    # Guillaume cannot reveal the uncovered card yet, nor play it; no eagle is left to play.
    for viewer in (0, 1, None):
        assert state.view(viewer).sides[1].piles[2] == (None,)
        assert state.view(viewer).sides[1].piles[0] == (C("S8"), None, C("G2"))
    assert "play M6" not in legal(state) and "play S8 fight" not in legal(state)
    assert legal(state) == [
        "play G2", "play G3", "play G4", "play M1", "play P1", "play P2", "play P3", "play P4",
        "play P6",
    ]  # fmt: skip
    state = drive(state, "play P1")  # the end of the trick turns the uncovered card up
    assert state.view(0).sides[1].piles[2] == (C("M6"),)
    assert state.view(1).sides[1].piles[0] == (C("S8"), None, C("G2"))  # still covered
    assert "play M6" in legal(drive(state, "play D1"))


def test_the_rhinoceros_may_be_declined() -> None:
    state = drive(start(*RHINO_DEAL), "play D2", "decline")
    assert state.stage is Stage.PLAY and state.current_player() == 1
    assert "play S8 fight" in legal(state)


def test_the_rhinoceros_moves_a_card_only_under_another_non_empty_pile() -> None:
    state = table(
        side("D2 D3", ("", "~G5 G6", "", "")),
        side("P1 P2", ("~M5 M6", "P6", "", "")),
        leader=0,
    )
    state = drive(state, "play D2")
    assert legal(state) == ["move 1 under 2", "move 2 under 1", "decline"]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="another of the opponent's non-empty piles"):
        state.apply(Rhino(0, 2))
    with pytest.raises(IllegalActionError, match="non-empty piles"):
        state.apply(Rhino(2, 0))
    with pytest.raises(IllegalActionError, match="non-empty piles"):
        state.apply(Rhino(0, 0))
    assert state.to_json() == before


def test_option_rhino_to_empty_pile_lets_the_card_start_a_new_pile() -> None:
    state = table(
        side("D2 D3", ("", "~G5 G6", "", "")),
        side("P1 P2", ("~M5 M6", "P6", "", "")),
        leader=0,
        rhino_to_empty_pile=True,
    )
    state = drive(state, "play D2")
    assert "move 1 under 3" in legal(state) and len(state.legal_actions()) == 6 + 1
    state = drive(state, "move 1 under 3")
    assert state.sides[1].piles == ((C("M5"),), (C("P6"),), (C("M6"),), ())
    assert "play M6" in legal(state)  # it lies on top, face up: available at once


def test_no_rhinoceros_step_when_the_opponent_has_one_pile_at_most() -> None:
    state = table(side("D2 D3", ("G6", "", "", "")), side("P1 P2", ("S8", "", "", "")), 0)
    state = drive(state, "play D2")
    assert state.stage is Stage.PLAY and state.current_player() == 1


def test_the_rhinoceros_moves_a_face_down_top_card_and_it_stays_face_down() -> None:
    # Guillaume (seat 1) leads M6 from his pile 1, uncovering the face-down M5; Anne's
    # rhinoceros moves that face-down card under his pile 2, where it stays face down.
    state = table(
        side("D2 D3", ("~G5 G6", "", "", "")),
        side("P1 P2", ("~M5 M6", "~G4 S8", "", "")),
        leader=1,
    )
    state = drive(state, "play M6")
    assert state.view(0).sides[1].piles[0] == (None,)
    state = drive(state, "play D2")
    assert legal(state) == ["move 1 under 2", "move 2 under 1", "decline"]
    state = drive(state, "move 1 under 2")
    assert state.sides[1].piles[0] == () and state.sides[1].piles[1] == (
        C("M5"),
        C("G4"),
        C("S8"),
    )
    assert C("M5") in state.sides[1].down  # kept face down, and it is covered now
    for viewer in (0, 1, None):
        assert state.view(viewer).sides[1].piles[1] == (None, None, C("S8"))


def test_the_snake_blocks_a_face_up_card_and_lifts_when_the_owner_plays() -> None:
    # The rulebook's snake example: Anne (seat 0) leads the desert snake and blocks
    # Guillaume's desert hyena; he must follow with the cheetah and names himself to lead.
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1")
    state = drive(state, "play D5")
    assert state.stage is Stage.SNAKE
    assert legal(state) == ["block 1", "block 2", "block 3", "block 4", "block hand", "decline"]
    state = drive(state, "block 1")
    assert state.sides[1].blocked == {C("D4")}
    assert state.view(0).sides[1].blocked == (C("D4"),)
    assert legal(state) == ["play D3"]  # the hyena may not be played
    with pytest.raises(IllegalActionError, match="blocked by the snake"):
        state.apply(Play.of("D4"))
    state = drive(state, "play D3")
    assert state.stage is Stage.CHEETAH and state.current_player() == 1
    state = drive(state, "lead me")
    assert state.last_trick is not None and state.last_trick.winner == 0  # Anne wins the trick
    assert state.tallies[0] == Tally(2, 3, 0)
    assert state.current_player() == 1 and state.leader == 1  # ... but Guillaume leads
    assert state.sides[1].blocked == frozenset()
    assert "play D4" in legal(state)


def test_the_snake_may_block_a_hand_card_picked_blind_by_chance() -> None:
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1")
    state = drive(state, "play D5", "block hand")
    assert state.stage is Stage.BLIND_PICK and state.is_chance()
    outcomes = state.chance_outcomes()
    assert [str(m) for m, _ in outcomes] == [
        "pick M1", "pick P2", "pick P3", "pick P4", "pick P5", "pick P6",
    ]  # fmt: skip
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    pick = Pick(C("P4"))
    assert str(state.seen_move(pick, 1)) == "pick P4"
    assert str(state.seen_move(pick, 0)) == "pick ??"
    assert str(state.seen_move(pick, None)) == "pick ??"
    with pytest.raises(IllegalActionError, match="unblocked hand cards"):
        state.apply(Pick(C("D4")))
    state = state.apply(pick)
    assert state.view(1).sides[1].blocked == (C("P4"),)
    assert state.view(0).sides[1].blocked == () and state.view(0).sides[1].blocked_unseen == 1
    assert state.view(None).sides[1].blocked_unseen == 1
    assert "play P4" not in legal(state) and state.current_player() == 1


def test_option_blind_pick_shown_shows_the_blocked_hand_card_to_both() -> None:
    state = start(
        "D5 S10 S9 P1",
        "D1 D2 D6 G1 G4 G5",
        "D4 D3 G2 G3",
        "P2 P3 P4 P5 P6 M1",
        blind_pick_shown=True,
    )
    state = drive(state, "play D5", "block hand")
    assert str(state.seen_move(Pick(C("P4")), 0)) == "pick P4"
    state = drive(state, "pick P4")
    assert state.view(0).sides[1].blocked == (C("P4"),)
    assert state.view(0).sides[1].blocked_unseen == 0
    other = redeal_hidden(state, 0, random.Random(1))
    assert C("P4") in other.sides[1].hand and other.view(0) == state.view(0)


def test_the_snake_may_be_declined_and_never_blocks_the_last_available_card() -> None:
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1")
    assert drive(state, "play D5", "decline").stage is Stage.PLAY
    # The opponent has one available card only: no snake step at all.
    state = table(side("D5 D3", ("", "", "", "")), side("", ("~G5 P6", "", "", "")), 0)
    assert drive(state, "play D5").stage is Stage.PLAY
    # Two unblocked available cards: the snake may block one of them, never both.
    state = table(side("D5 D3 G1", ("", "", "", "")), side("P1", ("~G5 P6", "", "", "")), 0)
    state = drive(state, "play D5")
    assert legal(state) == ["block 1", "block hand", "decline"]


def test_a_blocked_card_that_was_the_only_one_of_the_led_land_forces_the_eagle() -> None:
    # Anne leads the desert snake and blocks Guillaume's only desert card (pile 1): he must
    # now play his eagle (flee or fight), as if he had no desert card.
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 G2 G3 S8", "P2 P3 P4 P5 P6 M1")
    state = drive(state, "play D5", "block 1")
    assert legal(state) == ["play S8 fight", "play S8 flee"]
    with pytest.raises(IllegalActionError, match="blocked by the snake"):
        state.apply(Play.of("D4"))


def test_a_blocked_only_card_of_the_led_land_without_an_eagle_means_a_free_discard() -> None:
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 G2 G3 P6", "P2 P3 P4 P5 M2 M1")
    state = drive(state, "play D5", "block 1")
    assert len(legal(state)) == 9 and "play D4" not in legal(state)
    state = drive(state, "play P4")
    assert state.last_trick is not None and state.last_trick.winner == 0


def test_a_blocked_eagle_does_not_have_to_be_played() -> None:
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "S8 G2 G3 P6", "P2 P3 P4 P5 M2 M1")
    state = drive(state, "play D5", "block 1")
    assert "play S8 fight" not in legal(state) and len(legal(state)) == 9


def test_every_available_card_blocked_after_a_rhinoceros_move_lifts_the_blocks() -> None:
    # Guillaume (seat 1) has two cards: G6 on pile 1 (blocked by Anne's snake in the last
    # trick) and P6 on pile 2 over a face-down card. Anne's rhinoceros moves P6 under pile 1.
    state = table(
        side("D2 D3", ("", "", "", "")),
        side("", ("G6", "~M5 P6", "", ""), blocked="G6"),
        leader=0,
    )
    assert state.sides[1].playable() == [C("P6")]
    state = drive(state, "play D2", "move 2 under 1")
    assert state.sides[1].piles[0] == (C("P6"), C("G6"))
    assert legal(state) == ["play G6"]  # the block is lifted for this play
    state = drive(state, "play G6")
    assert state.sides[1].blocked == frozenset()


def test_cheetah_choice_is_compulsory_and_the_second_cheetah_decides() -> None:
    # Anne (seat 0) leads the grassland cheetah and names herself; Guillaume has no
    # grassland card and no eagle, discards his desert cheetah and names himself.
    state = start("S10 S9 M5 G3", "D1 D2 D4 D5 D6 G1", "P1 P2 P3 P4", "D3 P5 P6 M1 M2 M3")
    state = drive(state, "play G3")
    assert state.stage is Stage.CHEETAH and legal(state) == ["lead me", "lead opponent"]
    with pytest.raises(IllegalActionError, match="names who leads the next trick"):
        state.apply(DECLINE)
    state = drive(state, "lead me")
    assert state.next_leader == 0 and state.current_player() == 1
    state = drive(state, "play D3", "lead me")
    assert state.last_trick is not None and state.last_trick.winner == 0
    assert state.current_player() == 1 and state.leader == 1


def test_a_single_cheetah_can_hand_the_lead_to_the_opponent() -> None:
    state = start("S10 S9 M5 G3", "D1 D2 D4 D5 D6 G2", "P1 P2 P3 P4", "G1 P5 P6 M1 M2 M3")
    state = drive(state, "play G3", "lead opponent", "play G1")
    assert state.last_trick is not None and state.last_trick.winner == 0
    assert state.current_player() == 1


def test_the_cheetah_choice_is_made_even_in_the_last_trick_of_a_round() -> None:
    state = table(side("G3"), side("G2"), leader=0, crowns=(20, 20))
    state = drive(state, "play G3")
    assert state.stage is Stage.CHEETAH and legal(state) == ["lead me", "lead opponent"]
    state = drive(state, "lead opponent", "play G2")
    assert state.stage is Stage.CHOOSE_LEADER and state.match.results[-1].winner == 0


# --- Face-down cards, the end of a round and of the match (ruling 5) --------------------------


def test_a_face_down_card_is_turned_up_only_at_the_end_of_the_trick() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    hidden = state.sides[0].piles[2][0]
    state = drive(state, "play M5", "decline")  # the snake's power is not used
    for viewer in (0, 1, None):
        assert state.view(viewer).sides[0].piles[2] == (None,)
    state = drive(state, "play M1")
    for viewer in (0, 1, None):
        assert state.view(viewer).sides[0].piles[2] == (hidden,)


def test_the_fourth_hyena_ends_the_round_and_its_taker_loses_despite_crowns() -> None:
    state = table(
        side("G4 G6", ("", "", "", "")),
        side("G1 P6", ("", "", "", "")),
        leader=0,
        hyenas=(3, 0),
        crowns=(30, 5),
    )
    state = drive(state, "play G4", "play G1")  # the mouse is lower: seat 0 takes the hyena
    assert state.stage is Stage.CHOOSE_LEADER and state.current_player() == 0
    result = state.match.results[-1]
    assert result == RoundResult(1, 1, (36, 5), (4, 0), fourth_hyena=True)
    assert state.match.wins == (0, 1) and state.match.round == 2


def test_the_fourth_hyena_taken_through_a_fleeing_eagle() -> None:
    state = table(
        side("G4 G6", ("", "", "", "")),
        side("S8 P6", ("", "", "", "")),
        leader=0,
        hyenas=(3, 0),
        crowns=(30, 5),
    )
    state = drive(state, "play G4", "play S8 flee")
    result = state.match.results[-1]
    assert result.fourth_hyena and result.winner == 1 and result.hyenas == (4, 0)


def test_a_round_played_out_is_won_by_the_most_crowns() -> None:
    state = table(side("G5"), side("G6"), leader=0, crowns=(22, 21))
    state = drive(state, "play G5", "play G6")
    assert state.match.results[-1] == RoundResult(1, 1, (22, 23), (0, 0), fourth_hyena=False)


def test_the_loser_names_the_leader_of_the_next_round_before_the_deal() -> None:
    state = table(side("G5"), side("G6"), leader=0, crowns=(22, 21))
    state = drive(state, "play G5", "play G6")
    assert state.stage is Stage.CHOOSE_LEADER and state.current_player() == 0
    assert state.view(0).sides[0].heir is Heir.SILVER and state.view(0).sides[1].heir is Heir.GOLD
    state = drive(state, "lead opponent")
    assert state.stage is Stage.DEAL and state.match.round_leader == 1
    state = drive(
        state, deal_text("G1 G2 G3 G4", "D1 D2 D3 D4 D5 D6", "S10 S9 M5 P5", "P1 P2 P3 P4 P6 M1")
    )
    assert state.stage is Stage.PLAY and state.current_player() == 1


def test_option_leader_choice_after_deal_lets_the_loser_see_the_new_hand_first() -> None:
    state = table(side("G5"), side("G6"), leader=0, crowns=(22, 21), leader_choice_after_deal=True)
    state = drive(state, "play G5", "play G6")
    assert state.stage is Stage.DEAL
    state = drive(
        state, deal_text("G1 G2 G3 G4", "D1 D2 D3 D4 D5 D6", "S10 S9 M5 P5", "P1 P2 P3 P4 P6 M1")
    )
    assert state.stage is Stage.CHOOSE_LEADER and state.current_player() == 0
    assert state.view(0).sides[0].hand is not None and len(state.view(0).sides[0].hand or ()) == 6
    state = drive(state, "lead me")
    assert state.stage is Stage.PLAY and state.current_player() == 0


def test_two_round_wins_take_the_match() -> None:
    state = table(side("G5"), side("G6"), leader=0, crowns=(22, 21), wins=(1, 1))
    state = drive(state, "play G5", "play G6")
    assert state.is_terminal() and state.winners() == {1}
    assert state.scores() == (1, 2) and state.returns() == (0.0, 1.0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(LEAD_ME)
    assert state.legal_actions() == () and state.chance_outcomes() == []


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_random_matches_keep_every_card_and_score_rounds_by_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    state = new()
    rounds = 0
    while not state.is_terminal():
        if state.stage is Stage.PLAY:
            on_table = sum(s.count() for s in state.sides) + len(state.trick)
            assert on_table + sum(t.size for t in state.tallies) == 28
            for s in state.sides:  # the cache of available cards is always right
                assert s.available_bits == Side(s.hand, s.piles, s.down, s.blocked).available_bits
        move = (
            state.sample_chance(rng)
            if state.is_chance()
            else rng.choice(list(state.legal_actions()))
        )
        before = state
        state = state.apply(move)
        if len(state.match.results) > rounds:
            rounds += 1
            result = state.match.results[-1]
            if result.fourth_hyena:
                assert result.hyenas[1 - result.winner] == 4
            else:
                assert sum(result.crowns) == 45
                assert result.crowns[result.winner] > result.crowns[1 - result.winner]
            assert before.stage in {Stage.PLAY, Stage.CHEETAH, Stage.RHINOCEROS, Stage.SNAKE,
                                    Stage.BLIND_PICK}  # fmt: skip
    assert max(state.match.wins) == 2 and len(state.match.results) in {2, 3}


# --- Hidden information ----------------------------------------------------------------------


def test_views_show_own_hand_and_face_up_cards_but_never_hidden_ones() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    mine, theirs = state.view(0).sides
    assert mine.hand == state.sides[0].hand and theirs.hand is None and theirs.hand_size == 6
    assert all(pile[0] is None for pile in mine.piles + theirs.piles)
    assert [pile[1] for pile in theirs.piles] == [C(x) for x in ["G1", "G2", "G3", "G4"]]
    spectator = state.view(None)
    assert spectator.sides[0].hand is None and spectator.sides[1].hand is None
    text = json.dumps(to_jsonable(state.view(1)))
    hidden = {str(c) for c in state.sides[0].hand} | {str(c) for c in state.sides[0].down}
    for card in hidden:
        land, value = C(card).land.value, C(card).value
        assert f'{{"land": "{land}", "value": {value}}}' not in text


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    shown=st.booleans(),
    anywhere=st.booleans(),
    choice=st.booleans(),
)
def test_views_made_of_kept_parts_equal_views_built_afresh(
    seed: int, shown: bool, anywhere: bool, choice: bool
) -> None:
    # Sides and tallies keep the parts of views they decide; a pickled copy keeps none of
    # them, so its views are built from nothing. Every viewer, in a changing order.
    rng = random.Random(seed)
    state = new(
        blind_pick_shown=shown, rhino_to_empty_pile=anywhere, leader_choice_after_deal=choice
    )
    viewers: list[int | None] = [None, 0, 1]
    while True:
        rng.shuffle(viewers)
        for viewer in viewers:
            warm = state.view(viewer)
            cold = rebuilt(state).view(viewer)
            assert warm == cold and hash(warm) == hash(cold)
            assert json.dumps(to_jsonable(warm)) == json.dumps(to_jsonable(cold))
        if state.is_terminal():
            break
        move = state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_actions())
        state = state.apply(move)


def rebuilt(state: AwimbaweState) -> AwimbaweState:
    """A copy of ``state`` made of new objects (that keep nothing a view worked out)."""
    copy: AwimbaweState = pickle.loads(pickle.dumps(state))
    return copy


def test_a_view_uses_again_the_side_that_did_not_change() -> None:
    state = start("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")
    first = state.view(None)
    mover = state.current_player()
    assert mover is not None
    after = state.apply(state.legal_actions()[0])
    second = after.view(None)
    assert second.sides[1 - mover] is first.sides[1 - mover]
    assert second.sides[mover] != first.sides[mover]
    assert second == rebuilt(after).view(None)


def test_legal_actions_are_the_action_tables_own_objects() -> None:
    rng = random.Random(2)
    for options in ({}, {"rhino_to_empty_pile": True}):
        game = Awimbawe(2, **options)
        table = game.action_table()
        for _ in range(3):
            state = game.initial_state()
            while not state.is_terminal():
                if state.is_chance():
                    state = state.apply(state.sample_chance(rng))
                    continue
                legal = state.legal_actions()
                assert all(table.actions[table.id_of(action)] is action for action in legal)
                state = state.apply(rng.choice(legal))


def test_the_deal_is_shown_to_each_player_as_they_see_it() -> None:
    state = new()
    deal = Deal.of(
        deal_text("S10 S9 M5 P5", "D1 D3 D4 D5 D6 G6", "G1 G2 G3 G4", "P1 P2 P3 P4 P6 M1")[5:]
    )
    mine = str(state.seen_move(deal, 0))
    assert "G6 D1 D3 D4 D5 D6" in mine and "P1 P2" not in mine and "G1 G2 G3 G4" in mine
    assert mine.startswith("deal ?? ?? ?? ?? / S10 S9 M5 P5 /")
    spectator = str(state.seen_move(deal, None))
    assert "D1" not in spectator and "M1" not in spectator and "S10 S9 M5 P5" in spectator


def test_redealing_hidden_cards_keeps_every_view() -> None:
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1")
    state = drive(state, "play D5", "block hand", "pick P4")
    for viewer in (0, 1, None):
        other = redeal_hidden(state, viewer, random.Random(7))
        assert other.view(viewer) == state.view(viewer)
        assert other != state
    other = redeal_hidden(state, 0, random.Random(7))
    assert len(other.sides[1].blocked & frozenset(other.sides[1].hand)) == 1
    assert other.sides[0].hand == state.sides[0].hand


Leak = Callable[[AwimbaweState, int, SideView], SideView]
LEAKS: dict[str, Leak] = {
    "every hand": lambda state, p, seen: replace(seen, hand=state.sides[p].hand),
    "the face-down cards": lambda state, p, seen: replace(seen, piles=state.sides[p].piles),
    "a blind pick": lambda state, p, seen: replace(
        seen,
        blocked=tuple(sorted(state.sides[p].blocked, key=lambda c: c.code)),
        blocked_unseen=0,
    ),
}


def blind_pick_position() -> AwimbaweState:
    """Seat 1's hand card P4 is blocked by a blind pick that seat 0 did not see."""
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1")
    return drive(state, "play D5", "block hand", "pick P4")


@pytest.mark.parametrize("leak", list(LEAKS))
def test_the_conformance_check_catches_a_view_that_leaks(
    leak: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The redeal works from the state, not from the view: what a view wrongly shows is
    # redrawn like any hidden card, so the view changes and the check fails.
    state = blind_pick_position()
    check_views(state, random.Random(0), PlayoutStats())  # the real views pass
    real = rules_module.view_of

    def leaky_view_of(state: AwimbaweState, viewer: int | None) -> AwimbaweView:
        view = real(state, viewer)
        sides = tuple(LEAKS[leak](state, p, seen) for p, seen in enumerate(view.sides))
        return replace(view, sides=sides)

    monkeypatch.setattr(rules_module, "view_of", leaky_view_of)
    assert state.view(0).sides[1] != real(state, 0).sides[1]  # the patch does leak
    with pytest.raises(AssertionError, match="shows hidden information"):
        check_views(state, random.Random(0), PlayoutStats())


# --- Notation, ids and rule errors ------------------------------------------------------------


@given(st.integers(0, NUM_ACTIONS - 1))
def test_every_action_has_an_id_and_a_text_that_round_trip(action_id: int) -> None:
    game = Awimbawe()
    action = game.action_from_id(action_id)
    assert game.action_id(action) == action_id
    assert parse_move(str(action)) == action
    names = {"Play": Play, "Rhino": Rhino, "Block": Block, "Decline": type(DECLINE), "Lead": Lead}
    assert eval(repr(action), names) == action


@given(st.permutations(list(DECK)))
def test_deal_text_round_trips(order: list[Card]) -> None:
    deal = Deal.from_order(order)
    assert Deal.of(str(deal)[5:]) == deal and new().parse(str(deal)) == deal
    assert eval(repr(deal), {"Deal": Deal}) == deal


def test_parsing_takes_words_and_aliases() -> None:
    assert parse_move("D5") == parse_move("play desert snake") == Play.of("D5")
    assert parse_move("snake of the desert") == Play.of("D5")
    assert parse_move("eagle 9 flee") == Play(C("S9"), Stance.FLEE)
    assert parse_move("rhino 1 3") == parse_move("move 1 under 3") == Rhino(0, 2)
    assert parse_move("block pile 2") == Block(1)
    assert parse_move("pass") == DECLINE
    cheetah = drive(
        start("S10 S9 M5 G3", "D1 D2 D4 D5 D6 G1", "P1 P2 P3 P4", "D3 P5 P6 M1 M2 M3"),
        "play G3",
    )
    assert cheetah.parse("lead 0") == LEAD_ME and cheetah.parse("lead 1") == LEAD_OPPONENT
    assert cheetah.parse("me") == LEAD_ME and cheetah.parse("opponent") == LEAD_OPPONENT
    for bad in ("play X9", "move 1 under 5", "block 0", "deal G1", "tiebreak 2", "", "hop"):
        with pytest.raises(InvalidActionError):
            cheetah.parse(bad)


def test_action_ids_cover_every_action_once() -> None:
    game = Awimbawe()
    assert len(set(ACTIONS)) == game.num_distinct_actions == 56
    assert all(isinstance(a.id, int) and ACTIONS[a.id] is a for a in ACTIONS if isinstance(a, Play))
    assert game.action_from_id(IntId(54)) == LEAD_ME  # any integer type will do


class IntId(int):
    """An integer of another type, as array libraries hand out."""


@pytest.mark.parametrize("bad", [56, -1, True, False, 3.0, "3", None])
def test_an_unknown_action_id_is_malformed(bad: object) -> None:
    with pytest.raises(InvalidActionError, match=r"is no action id \(0 to 55\) of Awimbawé"):
        Awimbawe().action_from_id(bad)


@pytest.mark.parametrize(
    "make",
    [
        object,
        lambda: "play D5",
        lambda: [1],
        lambda: Deal.from_order(list(DECK)),
        lambda: TieBreak(0),
        lambda: Rhino(1, 1),
        lambda: Rhino("a", 0),  # type: ignore[arg-type]
        lambda: Block("x"),  # type: ignore[arg-type]
        lambda: Lead(None),  # type: ignore[arg-type]
    ],
)
def test_only_player_actions_have_ids(make: Callable[[], object]) -> None:
    bad = make()
    with pytest.raises(InvalidActionError, match="is no player action of Awimbawé"):
        Awimbawe().action_id(bad)


STAGES: dict[str, Callable[[], AwimbaweState]] = {  # a state at each kind of step
    "deal": new,
    "tie-break": lambda: start(
        "G1 G2 G3 G4", "D1 D2 D3 D4 D5 D6", "M1 M2 M3 M4", "P1 P2 P3 P4 P6 S7"
    ),
    "play": lambda: start(*RHINO_DEAL),
    "rhinoceros": lambda: drive(start(*RHINO_DEAL), "play D2"),
    "blind-pick": lambda: drive(
        start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1"),
        "play D5",
        "block hand",
    ),
    "over": lambda: drive(
        table(side("G5"), side("G6"), leader=0, crowns=(22, 21), wins=(1, 1)), "play G5", "play G6"
    ),
}


@pytest.mark.parametrize("stage", ["deal", "tie-break", "play", "rhinoceros", "blind-pick", "over"])
@pytest.mark.parametrize("foreign", [object(), "play D5", 3, None, ("play", "D5")])
def test_a_value_that_is_no_move_of_the_game_is_malformed(stage: str, foreign: object) -> None:
    state = STAGES[stage]()
    before = state.to_json()
    with pytest.raises(InvalidActionError, match="is no move of Awimbawé"):
        state.apply(foreign)
    assert state.to_json() == before


def test_moves_of_the_wrong_kind_are_refused_by_rule() -> None:
    state = new()
    with pytest.raises(IllegalActionError, match="cards must be dealt"):
        state.apply(Play.of("D5"))
    incomplete = Deal(((C("D5"),) * 4,) * 2, ((C("D5"),) * 4,) * 2, ((C("D5"),) * 6,) * 2)
    with pytest.raises(IllegalActionError, match="hands out all 28 cards"):
        state.apply(incomplete)
    state = start(*RHINO_DEAL)
    for move, rule in [
        (DECLINE, "a card must be played"),
        (Rhino(0, 1), "a card must be played"),
        (Lead(me=True), "a card must be played"),
        (Pick(C("D1")), "a card must be played"),
    ]:
        with pytest.raises(IllegalActionError, match=rule):
            state.apply(move)
    state = drive(state, "play D2")
    with pytest.raises(IllegalActionError, match="rhinoceros's power"):
        state.apply(Block(0))
    with pytest.raises(IllegalActionError, match="chance"):
        state.sample_chance(random.Random(0))


def test_illegal_snake_targets_name_their_rule() -> None:
    # Guillaume (seat 1) leads M6 and uncovers a face-down card; Anne discards her snake.
    state = table(
        side("D5 D3", ("G6", "", "", "")),
        side("P1 P2", ("P6", "~M5 M6", "", "")),
        leader=1,
    )
    state = drive(state, "play M6", "play D5")
    assert legal(state) == ["block 1", "block hand", "decline"]
    before = state.to_json()
    for target in (1, 2):  # a face-down top card, an empty pile
        with pytest.raises(IllegalActionError, match="face-up top card of a pile"):
            state.apply(Block(target))
    assert state.to_json() == before
    # A card blocked already (by the same player's snake in the trick before) is no target.
    state = table(
        side("D5 D3", ("G6", "", "", "")),
        side("P1 P2", ("P6", "", "", ""), blocked="P6"),
        leader=0,
    )
    state = drive(state, "play D5")
    assert legal(state) == ["block hand", "decline"]
    with pytest.raises(IllegalActionError, match="blocked already"):
        state.apply(Block(0))
    with pytest.raises(IllegalActionError, match="face-up top card of a pile"):
        state.apply(Block(7))  # no such pile


def test_config_round_trips_through_json() -> None:
    state = drive(start(*EAGLE_DEAL, rhino_to_empty_pile=True), "play M4")
    data = json.loads(json.dumps(state.to_json()))
    again = Awimbawe(2, rhino_to_empty_pile=True).state_from_json(data)
    assert again == state and again.config == Config(2, "chance", True, False, False)
    assert again.sides[1].available_bits == state.sides[1].available_bits


# --- The terminal and the command line ---------------------------------------------------------


def render(view: AwimbaweView) -> str:
    from rich.console import Console

    from spieltisch.terminal.draw.awimbawe import DRAWER
    from spieltisch.terminal.draw.base import TableInfo

    console = Console(width=120, record=True, color_system=None)
    console.print(DRAWER.table(view, TableInfo(("Anne", "Guillaume"), ())))
    return console.export_text()


def test_the_table_shows_piles_as_they_lie_the_hand_blocks_and_scores() -> None:
    state = start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1")
    state = drive(state, "play D5", "block 1")
    text = render(state.view(1))
    assert "▒▒" in text  # face-down cards as backs
    assert "D4 hyena" in text and "⊘" in text  # the blocked card, marked
    assert "P2 rhinoceros" in text  # Guillaume's own hand
    assert "D1 mouse" not in text  # not Anne's
    assert "hyenas 0/4" in text and "rounds won 0" in text and "heir card silver" in text
    assert "Trick: Anne led" in text and "D5 snake" in text


def test_power_choices_and_events_are_told_in_plain_words() -> None:
    from spieltisch.games.awimbawe.words import WORDS

    names = ("Anne", "Guillaume")
    state = drive(start(*RHINO_DEAL), "play D2")
    view = state.view(0)
    labels = [WORDS.move_label(view, m) for m in state.legal_actions()]
    assert (
        labels[0]
        == "rhinoceros: move their pile 1 top (G2 grassland rhinoceros) under their pile 2"
    )
    assert labels[-1] == "decline: do not use the rhinoceros's power"
    assert "moves the top card of Guillaume's pile 3 under pile 1" in WORDS.event(
        view, Rhino(2, 0), names, "Anne"
    )
    eagle = drive(start(*EAGLE_DEAL), "play M4")
    labels = [WORDS.move_label(eagle.view(1), m) for m in eagle.legal_actions()]
    assert "fight (you take the trick)" in labels[0] and "flee" in labels[1]
    snake = drive(start("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 D3 G2 G3", "P2 P3 P4 P5 P6 M1"),
                  "play D5")  # fmt: skip
    labels = [WORDS.move_label(snake.view(0), m) for m in snake.legal_actions()]
    assert labels[0] == "snake: block their pile 1 top card (D4 desert hyena)"
    assert labels[4] == "snake: block one of their hand cards, picked blind"
    picking = drive(snake, "block hand")
    line = WORDS.event(picking.view(0), picking.seen_move(Pick(C("P4")), 0), names, "")
    assert line == "The snake's blind pick blocks one of Guillaume's hand cards."
    done = drive(picking, "pick P4", "play D3", "lead me")
    after = WORDS.aftermath(picking.view(0), done.view(0), names)
    assert after == "Anne wins the trick (D5 desert snake and D3 desert cheetah)."
    cheetah = drive(snake, "decline", "play D3")
    labels = [WORDS.move_label(cheetah.view(1), m) for m in cheetah.legal_actions()]
    assert labels == ["you lead the next trick", "your opponent leads the next trick"]


def test_a_whole_match_plays_in_the_terminal_and_replays(tmp_path: object) -> None:
    from pathlib import Path

    from typer.testing import CliRunner

    from spieltisch.cli import app

    assert isinstance(tmp_path, Path)
    runner = CliRunner(env={"SPIELTISCH_HOME": str(tmp_path / "home"), "COLUMNS": "120"})
    record = tmp_path / "match.json"
    commands = "help\nmoves\nplay Z9\nlead me\n" + "1\n" * 400
    result = runner.invoke(
        app,
        ["play", "awimbawe", "--seats", "human,random", "--seed", "5", "--record", str(record)],
        input=commands,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "move 1 under 3" in out  # the help
    assert "cannot read 'play Z9'" in out
    assert "a card must be played now" in out
    assert "The cards are dealt for round 1." in out and "Bot 2 (random) plays" in out
    assert "Final result" in out and "winner" in out
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.output)["terminal"] is True
    rules = runner.invoke(app, ["rules", "awimbawe"])
    assert rules.exit_code == 0 and "Rulings" in rules.output


def test_simulate_plays_whole_matches() -> None:
    from typer.testing import CliRunner

    from spieltisch.cli import app

    result = CliRunner().invoke(app, ["simulate", "awimbawe", "--games", "20", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 20 and data["unfinished"] == 0
    assert sum(data["wins"]) == 20
