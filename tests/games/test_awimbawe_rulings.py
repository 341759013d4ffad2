"""Awimbawé: the option behind the CHOSEN blocked-card ruling (issue 22), each value tested for
what it changes: whether a card the snake blocked excuses its owner from the duty to follow
the led land or to play an eagle (ruling 4)."""

from __future__ import annotations

import random

import pytest

from spieltisch.core.errors import IllegalActionError
from spieltisch.games.awimbawe import Awimbawe, Card
from spieltisch.games.awimbawe.belief import sample_state
from spieltisch.games.awimbawe.bots.heuristic import HeuristicAgent
from tests.games.test_awimbawe import drive, legal, start

C = Card.of
DESERT_ONLY_BLOCKED = ("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 G2 G3 S8", "P2 P3 P4 P5 P6 M1")
"""Anne (seat 0) will lead the desert snake and block Guillaume's only desert card, D4 on his
pile 1; he also has the eagle S8 on pile 4."""


def test_the_option_defaults_to_the_ruling() -> None:
    assert Awimbawe(2).config.blocked_duties == "excused"


@pytest.mark.parametrize("duties", ["excused", "bound"])
def test_a_blocked_only_card_of_the_led_land(duties: str) -> None:
    state = start(*DESERT_ONLY_BLOCKED, blocked_duties=duties)
    state = drive(state, "play D5", "block 1")
    assert state.sides[1].blocked == {C("D4")}
    if duties == "excused":  # as if he had no desert card: the eagle duty applies
        assert legal(state) == ["play S8 fight", "play S8 flee"]
        with pytest.raises(IllegalActionError, match="blocked by the snake"):
            state.apply(state.parse("play D4"))
        return
    assert legal(state) == ["play D4"]  # the duty to follow lifts the block
    with pytest.raises(IllegalActionError, match="must be followed"):
        state.apply(state.parse("play S8 fight"))
    state = drive(state, "play D4")
    assert state.last_trick is not None and state.last_trick.winner == 0  # 5 beats 4
    assert state.sides[1].blocked == frozenset()


@pytest.mark.parametrize("duties", ["excused", "bound"])
def test_a_blocked_only_eagle_when_the_led_land_is_missing(duties: str) -> None:
    deal = ("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "S8 G2 G3 P6", "P2 P3 P4 P5 M2 M1")
    state = drive(start(*deal, blocked_duties=duties), "play D5", "block 1")
    if duties == "excused":  # a free discard: any of the nine unblocked cards
        assert "play S8 fight" not in legal(state) and len(legal(state)) == 9
        return
    assert legal(state) == ["play S8 fight", "play S8 flee"]
    with pytest.raises(IllegalActionError, match="must play an eagle"):
        state.apply(state.parse("play P4"))


@pytest.mark.parametrize("duties", ["excused", "bound"])
def test_a_block_still_binds_a_choice_among_cards_that_meet_the_duty(duties: str) -> None:
    # Guillaume has two desert cards, D4 on pile 1 (blocked) and D3 in hand: either way he
    # must follow with D3.
    deal = ("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "D4 G2 G3 S8", "P2 P3 P4 P5 D3 M1")
    state = drive(start(*deal, blocked_duties=duties), "play D5", "block 1")
    assert legal(state) == ["play D3"]
    with pytest.raises(IllegalActionError, match="blocked by the snake"):
        state.apply(state.parse("play D4"))


@pytest.mark.parametrize("duties", ["excused", "bound"])
def test_what_a_discard_over_a_blind_block_tells_the_sampler(duties: str) -> None:
    # Anne's snake blocks one of Guillaume's hand cards blind (she does not see which); he
    # then discards a plain. With excused duties the hidden blocked card may be a desert
    # card he could not play; with bound duties he would have had to play it, so his hand
    # holds no desert card in any world Anne's search samples.
    deal = ("D5 S10 S9 P1", "D1 D2 D6 G1 G4 G5", "G6 G2 G3 P6", "P2 P3 P4 P5 M2 M1")
    game = Awimbawe(2, blocked_duties=duties)
    state = drive(start(*deal, blocked_duties=duties), "play D5", "block hand", "pick P2")
    assert state.view(0).sides[1].blocked_unseen == 1
    state = drive(state, "play P3")
    view = state.view(0)
    rng = random.Random(3)
    desert = C("D1").land
    worlds = [sample_state(game, view, rng) for _ in range(200)]
    with_desert = [w for w in worlds if any(c.land is desert for c in w.sides[1].hand)]
    if duties == "bound":
        assert not with_desert
    else:
        assert with_desert and all(
            [c.land for c in w.sides[1].hand].count(desert) == 1 for w in with_desert
        )


@pytest.mark.parametrize("duties", ["excused", "bound"])
def test_the_heuristic_plays_whole_matches_legally(duties: str) -> None:
    game = Awimbawe(2, blocked_duties=duties)
    agents = [HeuristicAgent(game, seed=p) for p in (0, 1)]
    rng = random.Random(7)
    for _ in range(3):
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            player = state.current_player()
            assert player is not None
            move = agents[player].act(state.view(player), state.legal_actions())
            assert move in state.legal_actions()
            state = state.apply(move)
        assert state.winners()
