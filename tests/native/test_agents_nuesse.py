"""The native Auf die Nüsse! heuristic and expert play the Python agents' moves.

For every config of the game (:func:`~tests.native.agreement.configs`: two to four players and
each option), a game is played in Python between the Python heuristic, expert and random
agents, and at every decision of a heuristic or expert seat the native agent of the same name,
asked through the native roster at the same point of the same game, picks exactly the Python
agent's move. Both agents are deterministic (neither draws from its generator), so any seed
gives the same move. The Python expert is slow (it plans each turn's dice in Python), so an
expert seat hands over to the heuristic after :data:`EXPERT_DECISIONS` of its decisions.

Games played end to end natively, with both agents against each other and against random
seats, replay in the Python engine to the same end, and every move a heuristic seat made there
is the Python heuristic's.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.game import Game
from spieltisch.native import agents as native_agents
from spieltisch.native.face import Step
from tests.native.agreement import REQUIRE_VARIABLE, Config, configs, require_native

NUESSE = "auf-die-nuesse"
AGENTS = ("heuristic", "expert")
EXPERT_DECISIONS = 45
"""Decisions an expert seat makes per game before the heuristic takes over its seat."""

require_native()
if not native_agents.supported() or "expert" not in native_agents.native_agents(NUESSE):
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail("the native core is built without Auf die Nüsse!'s agents", pytrace=False)
    pytest.skip("the native core is built without Auf die Nüsse!'s agents", allow_module_level=True)

CONFIGS = configs(NUESSE)


def _game(config: Config) -> Game:
    return spieltisch.load(NUESSE, config.players, **config.options)


def _seats(index: int, players: int) -> list[str]:
    """The agents of a config's game, both agents in each: with two players each leads in
    turn; with more, a random seat makes some positions come from careless play."""
    lineup = AGENTS if players == 2 else ("heuristic", "expert", "random", "heuristic")
    return [lineup[(index + seat) % len(lineup)] for seat in range(players)]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_native_agents_play_the_python_move_at_every_decision(config: Config) -> None:
    index = CONFIGS.index(config)
    game = _game(config)
    native = native_agents.native_game(game)
    roster = native_agents.roster(native, AGENTS)
    python: dict[str, Agent[Any]] = {name: make_agent(name, game, 0) for name in AGENTS}
    seats = _seats(index, config.players)
    rng = random.Random(index)
    compared: Counter[str] = Counter()
    state, steps = game.initial_state(), list[Step]()
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            player = state.current_player()
            assert player is not None
            legal = state.legal_actions()
            name = seats[player]
            if name == "random":
                move = rng.choice(legal)
            else:
                move = python[name].act(state.view(player), legal)
                native_move = roster.act(name, steps, index)
                assert native_move == game.action_id(move), (name, config, len(steps))
                compared[name] += 1
                if name == "expert" and compared[name] >= EXPERT_DECISIONS:
                    seats = ["heuristic" if seat == "expert" else seat for seat in seats]
        steps.append(native.step_of(state, move))
        state = state.apply(move)
    assert compared["heuristic"] > 0 and compared["expert"] > 0, compared


def _matches(config: Config, count: int) -> list[native_agents.Match]:
    rng = random.Random(len(str(config)))
    lineups = [AGENTS, ("expert", "random"), ("heuristic", "random")]
    matches = []
    for i in range(count):
        lineup = lineups[i % len(lineups)]
        matches.append(
            native_agents.Match(
                rng.getrandbits(64),
                tuple(lineup[(i + seat) % len(lineup)] for seat in range(config.players)),
                tuple(rng.getrandbits(64) for _ in range(config.players)),
                keyed=bool(i % 2),
            )
        )
    return matches


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_native_games_replay_with_the_python_heuristics_moves(config: Config) -> None:
    """Whole native games, each agent against the other and against random: each replays in
    Python to the same scores, winners and end, and every heuristic seat's move is the Python
    heuristic's (the expert's moves are the previous test's)."""
    game = _game(config)
    heuristic = make_agent("heuristic", game, 0)
    matches = _matches(config, 2)
    checked = 0
    played = native_agents.play_games(game, matches, records=True)
    for match, one in zip(matches, played, strict=True):
        assert one.finished
        moves, states = native_agents.replay(game, one)  # raises on another end
        assert tuple(states[-1].returns()) == one.returns
        for state, move in zip(states[:-1], moves, strict=True):
            player = state.current_player()
            if player is None or match.seats[player] != "heuristic":
                continue
            chosen = heuristic.act(state.view(player), state.legal_actions())
            assert game.action_id(chosen) == game.action_id(move), (config, match)
            checked += 1
    assert checked > 0


def test_the_agents_draw_nothing_from_their_generators() -> None:
    """A seat's seed changes nothing: the same chance seed plays the same game."""
    game = spieltisch.load(NUESSE, 3)
    seats = ("expert", "heuristic", "expert")
    games = [native_agents.Match(11, seats, seeds, keyed=True) for seeds in ((1, 2, 3), (7, 8, 9))]
    one, other = native_agents.play_games(game, games, records=True)
    assert one.steps == other.steps and one.finished


def test_the_native_expert_and_heuristic_play_differently() -> None:
    """The expert plans its dice where the heuristic looks one roll ahead: on the same chance
    the two lineups' games part."""
    game = spieltisch.load(NUESSE, 2)
    played = native_agents.play_games(
        game,
        [native_agents.Match(5, (name, name), (0, 0)) for name in AGENTS],
        records=True,
    )
    assert played[0].steps != played[1].steps
