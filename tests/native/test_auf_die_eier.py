"""Auf die Eier in the native core agrees with the Python engine, step by step.

The agreement walk runs on every player count, option value and parameter bound
(:func:`~tests.native.agreement.configs`); the test of the test breaks one rule natively
(Chickens scoring whenever there are at least enough) and the walk must catch it. Then what a
random walk reaches only by luck: every throw's whole list of outcomes for every number of
dice, the rulebook's worked turn, the refusals by rule name, and playouts inside Rust.
"""

from __future__ import annotations

import pytest

from spieltisch import native
from spieltisch.core.errors import IllegalActionError, InvalidActionError, OptionError
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier import EierState, Reroll, Roll, Rule
from spieltisch.games.auf_die_eier.model import DICE_BOUNDS
from spieltisch.native import NativeGame
from spieltisch.native.build import extension
from tests.native.agreement import Config, DisagreementError, configs, require_native, walk

GAME = "auf-die-eier"
MUTATION = "auf-die-eier:chickens_at_least"
"""The native rule broken for the test of the test: Chickens score when there are at least
as many as the ladder asks for, not exactly as many."""
STEPS = 5000
"""Steps walked per config: 15 configs, about 75,000 steps in all."""
OUTCOMES_EVERY = 10
"""A throw lists up to 3,003 outcomes; the walk compares the lists at every tenth step (the
whole lists of every throw size are compared below)."""

require_native(GAME)


@pytest.mark.parametrize("config", configs(GAME), ids=str)
def test_the_engines_agree(config: Config) -> None:
    walked = walk(GAME, config, seed=49, steps=STEPS, outcomes_every=OUTCOMES_EVERY)
    assert walked.games >= 1
    assert walked.refusals > 0


def test_the_walk_catches_a_broken_rule() -> None:
    with pytest.raises(DisagreementError, match="state"):
        walk(GAME, Config(2), seed=1, steps=3000, mutation=MUTATION)


def _parsed(game: NativeGame, texts: list[str]) -> tuple[list[Move], EierState]:
    """The Python moves of ``texts`` from the start, and the Python state after them."""
    state = game.python.initial_state()
    moves = []
    for text in texts:
        move = state.parse(text)
        moves.append(move)
        state = state.apply(move)
    assert isinstance(state, EierState)
    return moves, state


@pytest.mark.parametrize("dice", range(DICE_BOUNDS[0], DICE_BOUNDS[1] + 1))
def test_every_throw_lists_its_outcomes_as_python_does(dice: int) -> None:
    """A throw of each number of dice, from all of them down to one (re-rolled Whole Eggs)."""
    game = native.load(GAME, 2, dice=dice)
    for thrown in range(dice, 0, -1):
        moves: list[Move] = []
        if thrown < dice:
            moves = [Roll((dice, 0, 0, 0, 0, 0)), Reroll((thrown, 0, 0, 0, 0, 0))]
        nat, python = game.from_moves(moves)
        expected = [
            (game.convert.chance_code(python, move), p.numerator, p.denominator)
            for move, p in python.chance_outcomes()
        ]
        got = [(tuple(code), num, den) for code, num, den in nat.exact_chance_outcomes()]
        assert got == expected
        assert len(got) == len(set(got))


def test_the_rulebook_turn_scores_21() -> None:
    """Stefan's turn from the rulebook, after two turns that cross off 1 and 2 on his ladder."""
    game = native.load(GAME, 2)
    moves = ["roll WWWWWWWWH", "stop", "roll WWWWWWWWW", "stop"]
    moves += ["roll WWWWWWWHH", "stop", "roll WWWWWWWWW", "stop"]
    moves += ["roll RRCPPFFFH", "reroll PFF", "roll PPH", "reroll PP", "roll RH", "roll WRF"]
    parsed, python = _parsed(game, moves)
    nat, _ = game.from_moves(parsed)
    assert python.last is not None
    assert python.last.points == 21
    assert nat.scores() == [36, 0]
    assert tuple(nat.canonical()) == game.convert.canonical(python)
    assert nat.current_player() is None
    assert nat.is_chance()


def test_refusals_name_the_python_rules() -> None:
    game = native.load(GAME, 3)
    nat, python = game.from_moves([Roll.of("WWRPPHHHH")])
    before = tuple(nat.canonical())
    pots = Reroll.of("PPP")
    with pytest.raises(IllegalActionError) as python_error:
        python.apply(pots)
    with pytest.raises(IllegalActionError) as native_error:
        nat.apply(game.python.action_id(pots))
    assert native_error.value.rule == python_error.value.rule == Rule.REROLL_OWN.value
    nat.apply(game.python.action_id(Reroll.of("WW")))
    python = python.apply(Reroll.of("WW"))
    for code in [(1, 0, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0), (300, 0, 0, 0, 0, 0)]:
        with pytest.raises(IllegalActionError) as python_error:
            python.apply(game.convert.chance_move(python, code))
        with pytest.raises(IllegalActionError) as native_error:
            nat.apply_chance(code)
        assert native_error.value.rule == python_error.value.rule == Rule.ROLL_SIZE.value
    for bad in [(), (2, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0, 0), (3, -1, 0, 0, 0, 0)]:
        with pytest.raises(InvalidActionError):
            game.convert.chance_move(python, bad)
        with pytest.raises(InvalidActionError):
            nat.apply_chance(bad)
    nat.apply_chance((1, 0, 0, 0, 0, 1))
    assert tuple(nat.canonical()) != before
    assert tuple(nat.canonical()) == game.convert.canonical(python.apply(Roll.of("WH")))


def test_the_native_core_refuses_what_the_python_game_refuses() -> None:
    module = extension()
    for players, options in [(1, []), (7, []), (2, [("dice", 11)]), (2, [("goal", 19)])]:
        with pytest.raises(OptionError):
            module.new_game(GAME, players, options)


@pytest.mark.parametrize("players", [2, 6])
def test_playouts_inside_rust_end_with_a_winner(players: int) -> None:
    game = native.load(GAME, players)
    played = game.playouts(2000, seed=11)
    assert played.returns.shape == (2000, players)
    assert (abs(played.returns.sum(axis=1) - 1.0) < 1e-9).all()
    assert abs(played.returns.mean(axis=0) - 1 / players).max() < 0.05
    again = game.playouts(2000, seed=11, threads=2)
    assert (again.returns == played.returns).all()
    assert (again.steps == played.steps).all()
