"""Auf die Nüsse! in the native core agrees with the Python engine, step by step.

The agreement walk runs on every player count, option value and parameter bound
(:func:`~tests.native.agreement.configs`); the test of the test lets the native raccoon rob
the player David sits with, and the walk must catch it. Then the rulebook's dice examples
replayed in both engines, the refusals by rule name, the chance lists of a throw and of a
draw, the options the native core refuses, and playouts inside Rust.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from spieltisch import native
from spieltisch.core.errors import IllegalActionError, InvalidActionError, OptionError
from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse import NuesseState, Rule
from spieltisch.native import NativeGame, NativeState
from spieltisch.native.build import extension
from spieltisch.rl.encode import encoder_for
from tests.native.agreement import Config, DisagreementError, configs, require_native, walk

GAME = "auf-die-nuesse"
MUTATION = "auf-die-nuesse:steal_from_david"
"""The native rule broken for the test of the test: the raccoon may rob the player who has
David (the Python rules protect that player)."""
STEPS = 1600
"""Steps walked per config: 45 configs, about 72,000 steps in all."""

require_native(GAME)

SETUP_3P = [
    "draw walnut",
    "draw walnut",
    "draw hazelnut",
    "draw acorn",
    "draw beechnut",
    "put beechnut S1",
    "draw walnut",
    "put walnut S1",
    "draw hazelnut",
    "put hazelnut S1",
    "setup 2-4",
    "setup 5-6",
    "setup 8-9",
]
"""Three players: four nuts face up, one dealt and stored each, then seat 1 puts one squirrel
on the 2-area and seat 2 two."""


@pytest.mark.parametrize("config", configs(GAME), ids=str)
def test_the_engines_agree(config: Config) -> None:
    walked = walk(GAME, config, seed=49, steps=STEPS)
    assert walked.games >= 1
    assert walked.refusals > 0


def test_the_walk_catches_a_broken_rule() -> None:
    with pytest.raises(DisagreementError, match="legal action ids"):
        walk(GAME, Config(3), seed=1, steps=3000, mutation=MUTATION)


def _played(game: NativeGame, texts: Sequence[str]) -> tuple[NativeState, NuesseState]:
    """Both engines' states after the moves ``texts`` from the start (parsed by Python)."""
    state = game.python.initial_state()
    moves: list[Move] = []
    for text in texts:
        move = state.parse(text)
        moves.append(move)
        state = state.apply(move)
    nat, python = game.from_moves(moves)
    assert isinstance(python, NuesseState)
    return nat, python


def _same(game: NativeGame, nat: NativeState, python: NuesseState) -> None:
    """The two states agree in everything the walk compares."""
    assert tuple(nat.canonical()) == game.convert.canonical(python)
    assert nat.current_player() == python.current_player()
    assert nat.legal_actions() == [game.python.action_id(a) for a in python.legal_actions()]
    encoder = encoder_for(GAME)
    for seat in [*range(game.players), None]:
        assert np.array_equal(nat.observation(seat), encoder.encode(python.view(seat)))


def test_the_rulebook_rolls() -> None:
    """Green 2 with whites 1 and 6 offers spaces 3 and 8; with 8 and 9 taken, green 3 with
    whites 5 and 6 fits nowhere and the start track goes home."""
    game = native.load(GAME, 3)
    nat, python = _played(game, [*SETUP_3P, "dice G2 W1 W6"])
    assert nat.legal_actions() == [
        game.python.action_id(python.parse(t)) for t in ("place 3", "place 8")
    ]
    _same(game, nat, python)
    nat, python = _played(
        game, [*SETUP_3P, "dice G2 W1 W6", "place 8", "roll", "dice G3 W6 W1", "place 9"]
    )
    assert python.track == 1 << 8 | 1 << 9
    _same(game, nat, python)
    nat, python = _played(
        game,
        [
            *SETUP_3P,
            "dice G2 W1 W6",
            "place 8",
            "roll",
            "dice G3 W6 W1",
            "place 9",
            "roll",
            "dice G3 W5 W6",
        ],
    )
    assert python.player == 1
    assert nat.is_chance()
    assert python.board.supply[0] == 15
    _same(game, nat, python)


def test_a_stop_moves_up_and_pays_out() -> None:
    """Seat 0 puts squirrels on 2 and 3 and stops: two in the 2-4 space collect its nut and
    push seat 1's squirrel into the 3-area."""
    game = native.load(GAME, 3)
    moves = [*SETUP_3P, "dice G1 W1 W2", "place 2", "roll", "dice G1 W2 W2", "stop"]
    nat, python = _played(game, moves)
    assert python.board.areas[5][1] == 1
    _same(game, nat, python)


def _both_refuse(
    game: NativeGame, nat: NativeState, python: NuesseState, text: str, rule: Rule
) -> None:
    move = python.parse(text)
    before = tuple(nat.canonical())
    with pytest.raises(IllegalActionError) as python_error:
        python.apply(move)
    with pytest.raises(IllegalActionError) as native_error:
        nat.apply(game.python.action_id(move))
    assert native_error.value.rule == python_error.value.rule == rule.value
    assert tuple(nat.canonical()) == before


def test_refusals_name_the_python_rules() -> None:
    game = native.load(GAME, 3)
    nat, python = _played(game, SETUP_3P[:5])
    _both_refuse(game, nat, python, "put walnut S1", Rule.CARD_KIND)
    _both_refuse(game, nat, python, "keep", Rule.KEEP_JOKERS)
    nat, python = _played(game, SETUP_3P[:11])
    _both_refuse(game, nat, python, "pass", Rule.SETUP_ALL)
    _both_refuse(game, nat, python, "setup 7", Rule.SETUP_NOT_RACCOON)
    nat, python = _played(game, SETUP_3P[:12])
    _both_refuse(game, nat, python, "setup 5-6", Rule.SETUP_ONE_PER_SPACE)
    nat, python = _played(game, [*SETUP_3P, "dice G2 W1 W6"])
    _both_refuse(game, nat, python, "place 4", Rule.GREEN_PLUS_WHITE)
    nat, python = _played(game, [*SETUP_3P, "dice G2 W1 W6", "place 8"])
    _both_refuse(game, nat, python, "lay walnut/hazelnut as walnut S2", Rule.LAY_HELD)
    _both_refuse(game, nat, python, "take 2-4", Rule.OTHER_DECISION)
    for bad in [(), (6, 0, 0), (0, 0), (10,), (-1,), (0, 0, 0, 0)]:
        with pytest.raises(InvalidActionError):
            game.convert.chance_move(python, bad)
    nat.apply(game.python.action_id(python.parse("roll")))
    for bad in [(), (6, 0, 0), (10,), (0, 0, 0, 0)]:
        with pytest.raises(InvalidActionError):
            nat.apply_chance(bad)
    with pytest.raises(IllegalActionError):
        nat.apply_chance((0,))


def test_chance_lists_agree() -> None:
    game = native.load(GAME, 2, nuts_per_kind=6, jokers_per_pair=4)
    for texts in (
        [],
        ["draw walnut/acorn"],
        [*SETUP_3P[:4], "draw acorn", "put acorn S8", "draw walnut"],
    ):
        nat, python = _played(game, texts)
        expected = [
            (game.convert.chance_code(python, move), p.numerator, p.denominator)
            for move, p in python.chance_outcomes()
        ]
        assert [
            (tuple(code), num, den) for code, num, den in nat.exact_chance_outcomes()
        ] == expected
    nat, python = _played(
        game,
        [*SETUP_3P[:4], "draw acorn", "put acorn S8", "draw walnut", "put walnut S2", "setup 2-4"],
    )
    assert nat.is_chance() and len(nat.exact_chance_outcomes()) == 216
    assert nat.exact_chance_outcomes()[0] == ((0, 0, 0), 1, 216)
    assert nat.exact_chance_outcomes()[-1] == ((5, 5, 5), 1, 216)


def test_the_native_core_refuses_what_the_python_game_refuses() -> None:
    module = extension()
    for players, options in [
        (1, []),
        (5, []),
        (2, [("nuts_per_kind", 5)]),
        (2, [("jokers_per_pair", 5)]),
        (3, [("store_value_5", 61)]),
        (3, [("store_table", "golden")]),
        (3, [("collect_order", "random")]),
        (3, [("colour", True)]),
    ]:
        with pytest.raises(OptionError):
            module.new_game(GAME, players, options)


@pytest.mark.parametrize("players", [2, 4])
def test_playouts_inside_rust_end_with_a_winner(players: int) -> None:
    game = native.load(GAME, players)
    played = game.playouts(1000, seed=11)
    assert played.returns.shape == (1000, players)
    assert (abs(played.returns.sum(axis=1) - 1.0) < 1e-9).all()
    assert abs(played.returns.mean(axis=0) - 1 / players).max() < 0.08
    again = game.playouts(1000, seed=11, threads=2)
    assert (again.returns == played.returns).all()
    assert (again.steps == played.steps).all()
    records = game.playouts(3, seed=5, records=True).records
    assert records is not None
    replayed = game.replay(records[2])
    assert replayed.is_terminal()
    assert tuple(replayed.returns()) == tuple(game.playouts(3, seed=5).returns[2])
