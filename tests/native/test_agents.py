"""Native agents agree with the Python agents, and games between them replay in Python.

On states from random walks of every Auf die Eier and Awimbawé config (:func:`~tests.native.
agreement.configs`), the native heuristics (and Auf die Eier's expert) pick exactly the Python
agent's move; the expert's table the native core works out is the Python expert's, every
choice and every value to the bit, for every dice count but the slowest in Python (ten dice);
the native random agent picks uniformly among the legal moves (a chi-square test, every game).
Games played end to end natively, between every pair of agents, replay in the Python engine to
the same scores, winners and end (Awimbawé's heuristic seats making the Python heuristic's
moves), and the runner gives the same games for a seed whatever the threads.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.errors import NativeError
from spieltisch.core.game import Game, State
from spieltisch.games.auf_die_eier.bots import expert
from spieltisch.native import agents as native_agents
from spieltisch.native.build import extension
from spieltisch.native.face import Step
from tests.native.agreement import REQUIRE_VARIABLE, Config, configs, require_native

EIER = "auf-die-eier"
GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
CHI_SQUARE_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32}
"""The 99.9% points of chi-square by degrees of freedom."""
DECISIONS = 120
"""Decisions compared per config and agent."""

require_native()
if not native_agents.supported():  # an older build of the native core
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail("the native core is built without native agents", pytrace=False)
    pytest.skip("the native core is built without native agents", allow_module_level=True)


def _game(game_id: str, config: Config) -> Game:
    return spieltisch.load(game_id, config.players, **config.options)


def _roster(game: Game, *names: str) -> Any:
    return native_agents.roster(native_agents.native_game(game), names)


def decisions(game: Game, seed: int, count: int) -> list[tuple[State, list[Step]]]:
    """``count`` decision states of random walks (random moves, chance drawn in Python), each
    with the native steps that lead to it."""
    rng = random.Random(seed)
    native = native_agents.native_game(game)
    found: list[tuple[State, list[Step]]] = []
    state, steps = game.initial_state(), list[Step]()
    while len(found) < count:
        if state.is_terminal():
            state, steps = game.initial_state(), list[Step]()
            continue
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            found.append((state, list(steps)))
            move = rng.choice(state.legal_actions())
        steps.append(native.step_of(state, move))
        state = state.apply(move)
    return found


@pytest.mark.parametrize("name", ["heuristic", "expert"])
@pytest.mark.parametrize("config", configs(EIER), ids=str)
def test_the_native_eier_agents_play_the_python_move(config: Config, name: str) -> None:
    game = _game(EIER, config)
    roster = _roster(game, name)
    python = make_agent(name, game, 0)
    for state, steps in decisions(game, seed=len(str(config)), count=DECISIONS):
        player = state.current_player()
        assert player is not None
        expected = game.action_id(python.act(state.view(player), state.legal_actions()))
        assert roster.act(name, steps, 0) == expected, (config, steps)


@pytest.mark.parametrize("dice", [5, 6, 7, 8, 9])
def test_the_native_expert_table_is_the_python_experts(dice: int) -> None:
    """Every choice of the native table is the Python table's, and its value is the Python
    expert's ``best_choice`` value exactly (the same floats summed in the same order)."""
    if not native_agents.computes_expert_table():
        pytest.skip("the native core is built without the expert's table")
    native = native_agents.native_expert_table(dice)
    assert [entry for entry, _ in native] == list(native_agents.python_expert_table(dice))
    for (need, rolls, counts, _), value in native:
        assert value == expert.best_choice(rolls, counts, need or None)[1], (need, rolls, counts)
    assert native_agents.expert_table(dice) == native_agents.python_expert_table(dice)


def test_a_handed_over_expert_table_is_played_by() -> None:
    """A native core may be handed a table (as a build without its own was): it plays by it."""
    game = spieltisch.load(EIER)
    stops = [(need, rolls, counts, 0) for need, rolls, counts, _ in native_agents.expert_table(9)]
    roster = extension().NativeRoster(native_agents.native_game(game).native, ["expert"], stops)
    own = _roster(game, "expert")
    acted = [
        (roster.act("expert", steps, 0), own.act("expert", steps, 0))
        for _, steps in decisions(game, seed=4, count=40)
    ]
    assert all(mine == 0 for mine, _ in acted) and any(theirs != 0 for _, theirs in acted)


def test_the_native_expert_table_refuses_a_dice_count_the_game_does_not_allow() -> None:
    if not native_agents.computes_expert_table():
        pytest.skip("the native core is built without the expert's table")
    with pytest.raises(ValueError, match="5 to 10 dice"):
        extension().NativeRoster.expert_table(4)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_native_random_agent_picks_uniformly_among_the_legal_moves(game_id: str) -> None:
    game = spieltisch.load(game_id)
    roster = _roster(game, "random")
    small = [(s, steps) for s, steps in decisions(game, 5, 400) if 2 <= len(s.legal_actions()) <= 8]
    state, steps = small[0]
    legal = {game.action_id(move) for move in state.legal_actions()}
    picks = Counter(roster.act("random", steps, seed) for seed in range(4000))
    assert set(picks) == legal
    expected = 4000 / len(legal)
    statistic = sum((picks[a] - expected) ** 2 / expected for a in legal)
    assert statistic < CHI_SQUARE_999[len(legal) - 1]


def _matches(game: Game, count: int, seed: int) -> list[native_agents.Match]:
    names = sorted(native_agents.native_agents(game.info.id))
    rng = random.Random(seed)
    return [
        native_agents.Match(
            rng.getrandbits(64),
            tuple(rng.choice(names) for _ in range(game.players)),
            tuple(rng.getrandbits(64) for _ in range(game.players)),
            keyed=bool(i % 2),
        )
        for i in range(count)
    ]


@pytest.mark.parametrize(
    ("game_id", "config"),
    [(EIER, c) for c in configs(EIER)] + [(g, Config(2)) for g in GAMES[1:]],
    ids=str,
)
def test_native_games_replay_in_python_to_the_same_end(game_id: str, config: Config) -> None:
    game = _game(game_id, config)
    played = native_agents.play_games(game, _matches(game, 12, 3), records=True)
    for one in played:
        assert one.finished
        moves, states = native_agents.replay(game, one)  # raises on another end
        assert len(moves) == one.moves == len(one.steps or ())
        assert sum(1 for s in states[:-1] if not s.is_chance()) == one.actions
        assert tuple(states[-1].returns()) == one.returns


def test_a_replay_that_ends_otherwise_is_refused() -> None:
    game = spieltisch.load(EIER)
    one = native_agents.play_games(game, _matches(game, 1, 4), records=True)[0]
    other = type(one)(one.steps, one.moves, (0,) * game.players, one.winners, one.returns, 0, True)
    with pytest.raises(NativeError, match="replays in Python"):
        native_agents.replay(game, other)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_games_depend_on_the_seeds_only(game_id: str) -> None:
    game = spieltisch.load(game_id)
    matches = _matches(game, 30, 6)
    one = native_agents.play_games(game, matches, records=True)
    three = native_agents.play_games(game, matches, threads=3, records=True)
    assert one == three
    assert one != native_agents.play_games(game, _matches(game, 30, 7), records=True)


def test_keyed_chance_meets_the_same_throws_at_the_same_place() -> None:
    """Two variants of a game meet the same throws where they stand at the same place."""
    match = _matches(spieltisch.load(EIER), 1, 8)[0]
    match = native_agents.Match(match.seed, ("expert", "expert"), match.seat_seeds, keyed=True)
    short = native_agents.play_games(spieltisch.load(EIER, goal=20), [match], records=True)[0]
    long = native_agents.play_games(spieltisch.load(EIER, goal=40), [match], records=True)[0]
    assert short.steps is not None and long.steps is not None
    assert len(long.steps) > len(short.steps)
    assert long.steps[: len(short.steps)] == short.steps


def test_an_agent_without_a_native_counterpart_is_refused() -> None:
    game = spieltisch.load(EIER)
    assert not native_agents.plays_natively(EIER, ["expert", "ismcts"])
    assert native_agents.plays_natively(EIER, ["expert", "heuristic"])
    with pytest.raises(NativeError, match="no native agent 'ismcts'"):
        native_agents.play_games(game, [native_agents.Match(1, ("ismcts", "expert"), (1, 2))])


AWIMBAWE = "awimbawe"
AWIMBAWE_DECISIONS = 400
"""Decisions compared per Awimbawé config (the heuristic has many kinds of decision)."""
AWIMBAWE_CONFIGS = configs(AWIMBAWE) + [Config(2, {"lands": lands}) for lands in (2, 3)]
"""Every option value and parameter bound, and the deck sizes between (the reading of the
cards in play and of the hyenas that lose)."""


@pytest.mark.parametrize("config", AWIMBAWE_CONFIGS, ids=str)
def test_the_native_awimbawe_heuristic_plays_the_python_move(config: Config) -> None:
    """The heuristic is deterministic: on states of random walks the native one plays the
    Python one's move (ties to the first legal move in both)."""
    game = _game(AWIMBAWE, config)
    roster = _roster(game, "heuristic")
    python = make_agent("heuristic", game, 0)
    for state, steps in decisions(game, seed=7 + len(str(config)), count=AWIMBAWE_DECISIONS):
        player = state.current_player()
        assert player is not None
        expected = game.action_id(python.act(state.view(player), state.legal_actions()))
        assert roster.act("heuristic", steps, 0) == expected, (config, steps)


@pytest.mark.parametrize("config", AWIMBAWE_CONFIGS, ids=str)
def test_native_awimbawe_heuristic_games_replay_with_the_python_heuristics_moves(
    config: Config,
) -> None:
    """Heuristic against random and against itself, played natively: each game replays in
    Python to the same end, and every move of a heuristic seat is the Python heuristic's."""
    game = _game(AWIMBAWE, config)
    python = make_agent("heuristic", game, 0)
    rng = random.Random(len(str(config)))
    pairs = [("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic")]
    matches = [
        native_agents.Match(
            rng.getrandbits(64),
            pairs[i % 3],
            (rng.getrandbits(64), rng.getrandbits(64)),
            keyed=bool(i % 2),
        )
        for i in range(6)
    ]
    checked = 0
    played = native_agents.play_games(game, matches, records=True)
    for match, one in zip(matches, played, strict=True):
        assert one.finished
        moves, states = native_agents.replay(game, one)
        for state, move in zip(states[:-1], moves, strict=True):
            player = state.current_player()
            if player is None or match.seats[player] != "heuristic":
                continue
            chosen = python.act(state.view(player), state.legal_actions())
            assert game.action_id(chosen) == game.action_id(move), (config, match)
            checked += 1
    assert checked > 0
