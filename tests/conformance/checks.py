"""The conformance checks every registered game must pass, written once for all games.

``check_playouts`` plays seeded random games and checks the protocol's invariants at every
step, and each game's own step check (``holdings.py``: hands, draws, dice) on every transition
it walks; the test module runs it for every implemented game and player count, and for every
option value.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction

import numpy
import pytest

import spieltisch
from spieltisch.agents import RandomAgent
from spieltisch.core.codec import to_jsonable
from spieltisch.core.errors import InvalidActionError, NotEnumerableError
from spieltisch.core.game import Game, NodeKind, State
from spieltisch.games import kit_of
from spieltisch.session import Table, play_out
from tests.conformance.holdings import check_step

MAX_MOVES = 200_000
APPLY_SAMPLE = 8
"""How many listed actions are applied at each decision besides the one played."""


@dataclass
class PlayoutStats:
    """What a run of playouts went through, so tests can check they covered something."""

    games: int = 0
    decisions: int = 0
    chance_nodes: int = 0
    hidden_differences: int = 0


def check_playouts(game: Game, seeds: range) -> PlayoutStats:
    """Play one random game per seed, checking every state on the way."""
    stats = PlayoutStats()
    check_action_ids(game)
    for seed in seeds:
        first = _play_checked(game, seed, stats)
        again = _play_quiet(game, seed)
        assert first == again, f"seed {seed}: the same seed gave a different game"
        stats.games += 1
    return stats


def _table(game: Game, seed: int) -> tuple[Table, RandomAgent]:
    """A table whose chance is seeded ``seed`` and the uniform chooser of every seat."""
    return Table(game, seed=seed), RandomAgent(game, seed + 1)


def _play_quiet(game: Game, seed: int) -> list[str]:
    table, chooser = _table(game, seed)
    play_out(table, [chooser] * game.players)
    return list(table.record().moves)


def _play_checked(game: Game, seed: int, stats: PlayoutStats) -> list[str]:
    table, chooser = _table(game, seed)
    probe = random.Random(seed + 2)
    while not table.over:
        assert table.version < MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"
        state = table.state
        check_state(state, probe, stats)
        if state.is_chance():
            table.advance_chance()
        else:
            table.play(chooser.act(None, state.legal_actions()))
        check_step(state, table.moves[-1], table.state)
    check_state(table.state, probe, stats)
    check_terminal(table.state)
    check_table_replays(table)
    return list(table.record().moves)


def check_table_replays(table: Table) -> None:
    """A table rebuilt from its record is the same table: state, moves and every viewer's
    events."""
    again = Table.from_record(table.game, table.record())
    assert again.state == table.state and again.moves == table.moves
    for viewer in [None, *range(table.game.players)]:
        assert again.events(viewer) == table.events(viewer)


def check_state(state: State, probe: random.Random, stats: PlayoutStats) -> None:
    """Every invariant of one state."""
    check_node(state)
    check_serialisation(state)
    check_views(state, probe, stats)
    check_scores(state)
    check_foreign_moves(state)
    if state.node is NodeKind.DECISION:
        stats.decisions += 1
        check_decision(state, probe)
    elif state.node is NodeKind.CHANCE:
        stats.chance_nodes += 1
        check_chance(state, probe)


def check_node(state: State) -> None:
    """Who acts agrees with the node kind, and nothing acts at the end."""
    player = state.current_player()
    if state.node is NodeKind.DECISION:
        assert player is not None and 0 <= player < state.num_players
        assert state.legal_actions(), "a decision node must have legal actions"
    else:
        assert player is None
        assert not state.legal_actions()
    if state.node is NodeKind.TERMINAL:
        assert not state.chance_outcomes()
    assert state.is_terminal() == (state.node is NodeKind.TERMINAL)
    assert state.is_chance() == (state.node is NodeKind.CHANCE)


def check_decision(state: State, probe: random.Random) -> None:
    """Legal actions: distinct, round-tripping text and ids, each one applies."""
    legal = list(state.legal_actions())
    assert len(set(legal)) == len(legal), "legal actions must be distinct"
    game = state.game
    ids = [game.action_id(action) for action in legal]
    assert len(set(ids)) == len(ids)
    for action, action_id in zip(legal, ids, strict=True):
        assert state.parse(str(action)) == action, f"text of {action!r} does not round-trip"
        assert 0 <= action_id < game.num_distinct_actions
        assert game.action_from_id(action_id) == action
    assert ids == sorted(ids), "legal actions must come in increasing order of their ids"
    rebuilt = spieltisch.state_from_json(json.loads(json.dumps(state.to_json())))
    assert list(rebuilt.legal_actions()) == legal, "the same state must list the same actions"
    for action in probe.sample(legal, min(APPLY_SAMPLE, len(legal))):
        after = state.apply(action)
        assert after is not state
        check_step(state, action, after)


def check_chance(state: State, probe: random.Random) -> None:
    """Chance outcomes: positive probabilities summing to exactly 1; samples are outcomes."""
    sample = state.sample_chance(probe)
    assert state.parse(str(sample)) == sample
    check_step(state, sample, state.apply(sample))
    try:
        outcomes = state.chance_outcomes()
    except NotEnumerableError:
        return
    assert outcomes, "a chance node must have outcomes"
    probabilities = [p for _, p in outcomes]
    assert all(isinstance(p, Fraction) and p > 0 for p in probabilities)
    assert sum(probabilities) == 1, "chance probabilities must sum to exactly 1"
    moves = [m for m, _ in outcomes]
    assert len(set(moves)) == len(moves)
    assert sample in set(moves), f"sampled {sample} is not a listed outcome"
    for move, _ in probe.sample(list(outcomes), min(APPLY_SAMPLE, len(outcomes))):
        assert state.parse(str(move)) == move
        check_step(state, move, state.apply(move))


def check_serialisation(state: State) -> None:
    """Clone and JSON round-trips give an equal state."""
    assert state.clone() == state
    text = json.dumps(state.to_json())
    again = spieltisch.state_from_json(json.loads(text))
    assert again == state, "state JSON does not round-trip"
    assert hash(again) == hash(state)


def check_views(state: State, probe: random.Random, stats: PlayoutStats) -> None:
    """Views are JSON, and a redeal of what a viewer cannot see leaves their view unchanged."""
    viewers: list[int | None] = [None, *range(state.num_players)]
    belief = kit_of(state.game).belief
    redeal = (lambda s, o, r: s) if belief is None else belief.redeal
    for viewer in viewers:
        view = state.view(viewer)
        json.dumps(to_jsonable(view))
        other = redeal(state, viewer, probe)
        assert other.view(viewer) == view, f"player {viewer}'s view shows hidden information"
        if other != state:
            stats.hidden_differences += 1
            assert state.game.info.hidden_information


def check_scores(state: State) -> None:
    """Scores stay within the declared bounds (the game's own, which its parameters may move)."""
    low, high = state.game.score_bounds
    assert low <= high
    scores = state.scores()
    assert len(scores) == state.num_players
    assert all(low <= s <= high for s in scores), scores


def check_foreign_moves(state: State) -> None:
    """A value that is no move of this game is refused as malformed, and ids are checked."""
    with pytest.raises(InvalidActionError):
        state.apply(object())
    game = state.game
    with pytest.raises(InvalidActionError):
        game.action_from_id(game.num_distinct_actions)
    with pytest.raises(InvalidActionError):
        game.action_id(object())


def check_action_ids(game: Game) -> None:
    """Ids of any integer type (numpy's too) name actions; anything else is malformed."""
    last = game.num_distinct_actions - 1
    for bad in (-1, last + 1, True, float(last), str(last), None):
        with pytest.raises(InvalidActionError):
            game.action_from_id(bad)
    assert game.action_from_id(numpy.int64(last)) == game.action_from_id(last)


def check_terminal(state: State) -> None:
    """A finished game has winners, and returns that share the win."""
    winners = state.winners()
    assert winners and all(0 <= p < state.num_players for p in winners)
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9
    assert all(returns[p] > 0 for p in winners)
