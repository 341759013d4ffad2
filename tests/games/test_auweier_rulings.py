"""Auweier: the options behind the CHOSEN rulings (issue 22), each value tested for what it
changes. Ruling 9's default (``stuck_player=passes``) is tested with the end in
test_auweier.py; here are the turn cost of an exchange, the order of the wedding phase, the
neutral female as a colour and the Lucky Eggs Crows."""

from __future__ import annotations

import random

import pytest

from spieltisch.core.errors import IllegalActionError
from spieltisch.games.auweier import (
    PASS,
    Auweier,
    AuweierState,
    Colour,
    Egg,
    PlayCrow,
    Rule,
    Stage,
    score_eggs,
)
from spieltisch.games.auweier.bots.heuristic import HeuristicAgent
from spieltisch.games.auweier.model import uncounted_colour
from spieltisch.games.auweier.notation import card_counts
from tests.games.test_auweier import cards, drive, hand_sizes, position, rule, stack

R, B, G = Colour.RED, Colour.BLUE, Colour.GREEN


def test_every_new_option_defaults_to_the_rulings() -> None:
    config = Auweier(3).config
    assert config.exchange_cost == "turn"
    assert config.wedding_order == "opener"
    assert config.neutral_colour is True
    assert config.lucky_crows == "worm_stage"
    assert config.stuck_player == "passes"


# --- exchange_cost (ruling 7) ----------------------------------------------------------------


@pytest.mark.parametrize("cost", ["turn", "draws"])
def test_an_exchange_takes_the_turn_and_draws_only_with_exchange_cost_draws(cost: str) -> None:
    state = position(["F 1", "1"], {R: ["3 4", ""]}, piles=["7 6", ""], exchange_cost=cost)
    after = drive(state, "swap R#1 F")
    assert after.player == 1 and stack(after, R, 0) == "F 4"  # the turn is over either way
    if cost == "draws":
        assert after.seats[0].hand == card_counts(cards("3 1 7"))
        assert after.seats[0].pile == cards("6") and hand_sizes(after) == [3, 1]
    else:
        assert after.seats[0].hand == card_counts(cards("3 1"))
        assert after.seats[0].pile == cards("7 6") and hand_sizes(after) == [2, 1]


@pytest.mark.parametrize("cost", ["turn", "draws"])
def test_an_exchange_in_the_worm_stage_never_draws(cost: str) -> None:
    state = position(["H 1", "H 4"], {R: ["3", "F 2"]}, piles=["7", "6"], exchange_cost=cost)
    state = drive(state, "wedding R", "wedding B", "pass", "pass", "pass")
    assert state.stage is Stage.WORMS and state.player == 1
    after = drive(state, "swap R 4")
    assert stack(after, R, 1) == "4 2" and after.seats[1].hand == card_counts(cards("F"))
    assert [seat.pile for seat in after.seats] == [cards("7"), cards("6")]


def test_a_hand_of_seven_draws_nothing_at_the_refill() -> None:
    """Issue 27: a False Worm exchange that draws leaves Blue with seven cards; the refill
    after the wedding phase is to six, so Blue keeps seven and the pile stays whole (the
    refill used to draw all but one card of Blue's pile)."""
    state = Auweier(2, exchange_cost="draws").initial_state()
    state = drive(
        state,
        "deck 1 H 1 1 2 2 2* 3 3 4 4 5* 6 7 F K K H H H H H",
        "deck F 2 1 1 1 2 2* 3 3 4 4 5* 6 7 K K H H H H H H",
        "worm 1 R",
        "worm F B",
        "worm 1 G",
        "swap B#1 2",
    )
    assert hand_sizes(state) == [6, 7]
    state = drive(state, "wedding R", "pass", "pass", "pass")
    assert state.stage is Stage.PLAY and state.player == 0
    assert hand_sizes(state) == [6, 7]
    assert [len(seat.pile) for seat in state.seats] == [13, 14]


# --- wedding_order (ruling 5) ----------------------------------------------------------------


def _wedding_stage_ending_with_the_opener(order: str) -> AuweierState:
    """Seat 2 opens; seat 3 weds; seats 0 and 1 pass; seat 2 weds again; seat 3 passes;
    seat 2 passes last."""
    state = position(
        ["1 2", "1 2", "H H 1 2", "H 1 2"], {R: ["", "", "3", ""]}, player=2, wedding_order=order
    )
    state = drive(state, "wedding R", "wedding G", "pass", "pass", "wedding B", "pass")
    assert state.stage is Stage.WEDDINGS and state.player == 2
    return drive(state, "pass")


@pytest.mark.parametrize(("order", "first"), [("opener", 2), ("onward", 3)])
def test_the_worm_stage_starts_with_the_opener_or_goes_on_clockwise(order: str, first: int) -> None:
    state = _wedding_stage_ending_with_the_opener(order)
    assert state.stage is Stage.WORMS and state.player == first


def test_with_wedding_order_onward_the_first_go_skips_players_without_a_wedding() -> None:
    state = position(
        ["1 2", "1 2", "H 1 2", "H 1 2"], {R: ["", "", "3", ""]}, player=2, wedding_order="onward"
    )
    state = drive(state, "wedding R", "wedding G", "pass", "pass", "pass", "pass")
    # seat 3 passed last; seats 0 and 1 have no Wedding, so seat 2 (the opener) goes first
    assert state.stage is Stage.WORMS and state.player == 2
    state = drive(state, "worm 1 B")
    assert state.player == 3  # then clockwise among the Wedding holders, as always


# --- neutral_colour (ruling 3) ----------------------------------------------------------------


@pytest.mark.parametrize(("neutral", "score"), [(True, 1 + 2 + 1 + 2), (False, 1 + 2 + 1)])
def test_the_neutral_females_eggs_count_as_a_colour_only_with_neutral_colour(
    neutral: bool, score: int
) -> None:
    won = [[Egg(G, 1), Egg(R, 2)], []]
    state = position(["1", "1"], won=won, neutral_colour=neutral)
    assert state.scores() == (score, 0)
    assert state.view(1).players[0].score == score
    assert uncounted_colour(state.config) == (-1 if neutral else G)


def test_neutral_colour_changes_nothing_with_three_or_more_players() -> None:
    won = [[Egg(G, 1), Egg(R, 2)], [], []]
    plain = position(["1", "1", "1"], won=won)
    switched = position(["1", "1", "1"], won=won, neutral_colour=False)
    assert plain.scores() == switched.scores() == (score_eggs(0, won[0]), 0, 0) == (6, 0, 0)


# --- lucky_crows -----------------------------------------------------------------------------


@pytest.mark.parametrize("crows", ["worm_stage", "both_stages"])
def test_lucky_eggs_crows_in_the_wedding_stage_only_with_both_stages(crows: str) -> None:
    hands, stacks = ["H K 1", "H K 1"], {R: ["3", "2"], B: ["", "4"]}
    state = position(hands, stacks, piles=["", ""], lucky_eggs=True, lucky_crows=crows)
    state = drive(state, "wedding R")
    assert state.stage is Stage.WEDDINGS and state.player == 1
    crow = PlayCrow(R, R)
    if crows == "worm_stage":
        assert crow not in state.legal_actions()
        with pytest.raises(IllegalActionError, match=rule(Rule.WEDDING_STAGE)):
            state.apply(crow)
        return
    legal = state.legal_actions()
    assert crow in legal and legal[-1] == PASS
    after = state.apply(crow)
    assert after.stage is Stage.WEDDINGS and after.player == 0  # a go, not a pass
    assert stack(after, R, 0) == "" and hand_sizes(after) == [2, 2]  # nothing drawn
    after = drive(after, "pass", "wedding B", "pass")
    assert after.stage is Stage.WORMS and after.player == 0


def test_lucky_crows_changes_nothing_without_lucky_eggs() -> None:
    hands, stacks = ["H K 1", "H K 1"], {R: ["3", "2"], B: ["", "4"]}
    state = drive(position(hands, stacks, piles=["", ""], lucky_crows="both_stages"), "wedding R")
    with pytest.raises(IllegalActionError, match=rule(Rule.CROW_PHASE)):
        state.apply(PlayCrow(R, R))


# --- seeded agents play every new value legally ----------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"exchange_cost": "draws"},
        {"wedding_order": "onward"},
        {"neutral_colour": False},
        {"lucky_eggs": True, "lucky_crows": "both_stages"},
        {"stuck_player": "ends_game"},
    ],
)
def test_the_seeded_agents_play_whole_games_with_each_new_value(
    options: dict[str, bool | str],
) -> None:
    for players in (2, 3):
        game = Auweier(players, **options)
        agents = [HeuristicAgent(game, seed=p) for p in range(players)]
        rng = random.Random(players)
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            player = state.player
            move = agents[player].act(state.view(player), state.legal_actions())
            assert move in state.legal_actions()
            state = state.apply(move)
        assert state.nests.end is not None
