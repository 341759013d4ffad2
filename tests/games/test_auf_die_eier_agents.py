"""Auf die Eier agents: the exact expert, the heuristic, and the odds shown to players."""

from __future__ import annotations

import random
import statistics

import pytest

import spieltisch
from spieltisch.agents import agent_names, make_agent
from spieltisch.games.auf_die_eier import AufDieEier, EierView, Stage
from spieltisch.games.auf_die_eier.bots import ExpertAgent, HeuristicAgent, expert
from spieltisch.games.auf_die_eier.notation import STOP, Reroll, parse_dice


def test_every_level_is_offered_strongest_first() -> None:
    # As the bot ladder measured them: the search, playing out by the expert, above the
    # heuristic; the racer (native core only) heads two players and comes after the search at
    # more; the shipped policy (two players, the default game) beats the heuristic.
    game = spieltisch.load("auf-die-eier")
    offered = tuple(name for name in agent_names(game) if name != "racer")
    assert offered == ("expert", "ismcts", "learned", "heuristic", "random")
    for players in (3, 4, 5, 6):
        names = agent_names(spieltisch.load("auf-die-eier", players))
        rest = tuple(name for name in names if name != "racer")
        assert rest == ("expert", "ismcts", "heuristic", "random"), players
        assert "racer" not in names or names.index("racer") == 2


@pytest.mark.parametrize("need", [1, 2, 3, 4, 5, None])
def test_the_expert_expects_at_least_as_many_points_as_the_heuristic(need: int | None) -> None:
    best = expert.turn_value(need)
    heuristic = expert.policy_turn_value(HeuristicAgent.choose, need)
    always_stop = expert.policy_turn_value(lambda r, d, n: STOP, need)
    assert best >= heuristic >= always_stop
    assert best > heuristic + 1  # the heuristic leaves points on the table


def test_stopping_values_match_hand_computation() -> None:
    assert expert.stop_value(parse_dice("WPCFHHHFF"), 3) == 6 + 5 + 15
    # One Rotten Egg is re-thrown beside a pair and six whole eggs. Its face decides:
    # W, C, F or H leave the pair (5); R spoils it (0); P adds a Breakfast of seven dice (26).
    assert expert.stop_value(parse_dice("CFRWWWWWW"), None) == pytest.approx((4 * 5 + 0 + 26) / 6)


def test_the_expert_value_agrees_with_simulated_turns() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    assert isinstance(game, AufDieEier)
    agent = ExpertAgent(game, 0)
    rng = random.Random(4)
    points = []
    for _ in range(4000):
        state = game.initial_state()
        while state.player == 0:
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(agent.act(state.view(0), state.legal_actions()))
        assert state.last is not None
        points.append(state.last.points)
    mean = statistics.fmean(points)
    error = statistics.stdev(points) / len(points) ** 0.5
    assert abs(mean - expert.turn_value(1)) < 4 * error


def test_the_expert_shows_the_value_of_each_choice() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    state = game.initial_state().apply_text("roll RRCPPFFFH")
    agent = make_agent("expert", game, 0)
    assert isinstance(agent, ExpertAgent)
    view = state.view(0)
    assert isinstance(view, EierView)
    values = agent.values(view)
    assert {a for a, _ in values} == set(state.legal_actions())
    assert values == sorted(values, key=lambda item: -item[1])
    assert agent.act(view, state.legal_actions()) == values[0][0]
    text = agent.explain(view, state.legal_actions())
    assert "expected" in text and "stopping now" in text


def test_the_heuristic_keeps_pairs_breakfast_and_the_needed_chickens() -> None:
    assert HeuristicAgent.keep(parse_dice("WWPCFFHHH"), 2) == parse_dice("WWPCFHH")
    assert HeuristicAgent.keep(parse_dice("WPPCCRHHH"), None) == parse_dice("WPR")
    assert HeuristicAgent.choose(1, parse_dice("WPCFFFHPP"), 1) == Reroll.of("PPFF")
    assert HeuristicAgent.choose(1, parse_dice("WWPCFFHHH"), 2) == STOP  # two dice, 24 kept
    assert HeuristicAgent.choose(1, parse_dice("RRRWWPCFH"), 1) == STOP


def test_agents_refuse_views_of_other_games() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    with pytest.raises(TypeError):
        ExpertAgent(game, 0).act(object(), [STOP])  # type: ignore[arg-type]
    assert Stage.DECIDE  # the views above came from real states
