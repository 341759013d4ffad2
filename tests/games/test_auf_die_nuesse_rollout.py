"""The Auf die Nüsse! rollout agent's Python reference: legal, seeded moves; worlds that hold
the unseen cards and key the dice by turn and roll; the heuristic's move where nothing is
weighed; the level offered first. (That the native agent weighs exactly as this reference,
and beats the heuristic, is ``tests/native/test_rollout_nuesse.py``'s.)"""

from __future__ import annotations

from collections import Counter

import pytest

from spieltisch.agents import agent_names, make_agent
from spieltisch.core.errors import OptionError
from spieltisch.games.auf_die_nuesse import AufDieNuesse
from spieltisch.games.auf_die_nuesse.bots import HeuristicAgent, RolloutAgent, rollout
from spieltisch.games.auf_die_nuesse.model import Stage
from spieltisch.games.auf_die_nuesse.notation import ROLL_AGAIN, STOP
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from tests.games.test_auf_die_nuesse_agents import random_positions


def decisions(players: int, seed: int) -> list[NuesseState]:
    return [s for s in random_positions(players, seed) if s.current_player() is not None]


def python_agent(game: AufDieNuesse, seed: int, rollouts: int = 2) -> RolloutAgent:
    agent = RolloutAgent(game, seed, native=False)
    agent.configure(str(rollouts))
    return agent


@pytest.mark.parametrize("players", [2, 3])
def test_the_reference_plays_legal_moves_and_the_same_ones_from_the_same_seed(
    players: int,
) -> None:
    states = [s for s in decisions(players, 5) if s.stage in (Stage.PLACE, Stage.AGAIN)][:6]
    assert states
    game = states[0].game
    moves = []
    for seed in (7, 7, 8):
        agent = python_agent(game, seed)
        played = []
        for state in states:
            player = state.current_player()
            assert player is not None
            legal = state.legal_actions()
            move = agent.act(state.view(player), legal)
            assert move in legal
            played.append(move)
        moves.append(played)
    assert moves[0] == moves[1]


def test_a_world_shuffles_exactly_the_unseen_cards_and_its_seed_decides_the_order() -> None:
    unseen = (3, 0, 2, 5, 1, 0, 0, 4, 0, 1)
    world = rollout.World.of(11, unseen)
    assert Counter(world.cards) == Counter({c: n for c, n in enumerate(unseen) if n})
    assert rollout.World.of(11, unseen) == world
    assert rollout.World.of(12, unseen).cards != world.cards


def test_the_stream_is_splitmix64() -> None:
    # SplitMix64's published first outputs for seed 0 (Vigna's reference implementation).
    stream = rollout.Stream(0)
    assert [stream.next() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_only_the_dice_nuts_and_thefts_are_weighed() -> None:
    states = decisions(2, 3)
    put = next(s for s in states if s.stage is Stage.PUT and len(s.legal_actions()) > 1)
    legal = put.legal_actions()
    assert rollout.candidates(put.stage, legal, legal[0]) == []
    again = next(s for s in states if s.stage is Stage.AGAIN and len(s.legal_actions()) > 1)
    weighed = rollout.candidates(again.stage, again.legal_actions(), STOP)
    assert set(weighed) <= {ROLL_AGAIN, STOP} and STOP in weighed
    # where nothing is weighed the heuristic's move stands, and no future is played
    player = put.current_player()
    assert player is not None
    move, means = rollout.weigh(put, player, legal, 50, 1)
    assert means == []
    assert move == HeuristicAgent(put.game, 0).act(put.view(player), legal)


def test_the_rollout_agent_is_offered_first_at_every_table_size() -> None:
    for players in (2, 3, 4):
        game = AufDieNuesse(players)
        assert agent_names(game)[0] == "rollout"
        assert isinstance(make_agent("rollout", game, 1), RolloutAgent)


def test_its_ratings_put_the_move_it_plays_first_as_win_chances_over_its_futures() -> None:
    state = next(s for s in decisions(2, 5) if s.stage is Stage.AGAIN)
    player = state.current_player()
    assert player is not None
    legal = state.legal_actions()
    ratings = python_agent(state.game, 4).rate(state.view(player), legal)
    assert ratings is not None and ratings.unit == "win chance"
    played = python_agent(state.game, 4).act(state.view(player), legal)
    assert ratings.choices[0].move == played
    assert all(r.samples == 2 and 0.0 <= r.value <= 1.0 for r in ratings.choices)


def test_a_setting_names_the_futures_and_after_a_slash_the_turn_that_ends_them() -> None:
    agent = python_agent(AufDieNuesse(2), 1)
    agent.configure("256/3")
    assert (agent.rollouts, agent.horizon) == (256, 3)
    agent.configure("64")
    assert (agent.rollouts, agent.horizon) == (64, rollout.HORIZON)
    bad_ones = ("0", "64/0", f"64/{rollout.MAX_HORIZON + 1}", "64/", "/3", "64/3/1", "६४", "-1")
    for bad in (*bad_ones, "+5", "64/+3", "1000000000"):
        with pytest.raises(OptionError, match="turns ahead"):
            agent.configure(bad)
    assert (agent.rollouts, agent.horizon) == (64, rollout.HORIZON)


def test_a_later_turn_lets_the_futures_run_on_and_changes_what_they_are_worth() -> None:
    state = next(s for s in decisions(2, 5) if s.stage is Stage.AGAIN)
    player = state.current_player()
    assert player is not None
    legal = state.legal_actions()
    near = rollout.weigh(state, player, legal, 2, 9, 1)[1]
    far = rollout.weigh(state, player, legal, 2, 9, 3)[1]
    assert [m for m, _ in near] == [m for m, _ in far]
    assert near != far
