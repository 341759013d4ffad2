"""Awimbawé in the native core agrees with the Python engine, step by step.

The agreement walk runs on every option value and parameter bound
(:func:`~tests.native.agreement.configs`); the test of the test breaks one rule natively (the
mouse no longer beats the elephant of its land) and the walk must catch it. Then what a random
walk reaches only by luck: the rulebook's three worked examples replayed natively, every
refused action id naming the Python engine's rule, malformed chance codes, and playouts inside
Rust.
"""

from __future__ import annotations

import random

import pytest

from spieltisch import native
from spieltisch.core.errors import IllegalActionError, InvalidActionError, OptionError
from spieltisch.core.game import Move, OptionValue, State
from spieltisch.games.awimbawe import AwimbaweState, Rule, Stage
from spieltisch.native import NativeGame, NativeState
from tests.native.agreement import Config, DisagreementError, configs, require_native, walk

GAME = "awimbawe"
MUTATION = "awimbawe:mouse"
"""The native rule broken for the test of the test: the mouse no longer beats the elephant of
its own land (the higher value takes the trick)."""
STEPS = 8000
"""Steps walked per config: 9 configs, about 72,000 steps in all."""

require_native(GAME)


@pytest.mark.parametrize("config", configs(GAME), ids=str)
def test_the_engines_agree(config: Config) -> None:
    walked = walk(GAME, config, seed=49, steps=STEPS)
    assert walked.games >= 1
    assert walked.refusals > 0


@pytest.mark.parametrize("lands", [1, 2, 3])
def test_the_engines_agree_on_fewer_lands_with_the_other_options_changed(lands: int) -> None:
    # every size of the smaller deck, with the options that touch it (a rhinoceros moving a
    # card to an empty place of fewer piles, blocks, the next leader after the deal)
    options: dict[str, OptionValue] = {
        "lands": lands,
        "rhino_to_empty_pile": True,
        "leader_choice_after_deal": True,
        "blind_pick_shown": True,
        "blocked_duties": "bound",
        "rounds_to_win": 3,
    }
    walked = walk(GAME, Config(2, options), seed=53 + lands, steps=STEPS // 2)
    assert walked.games >= 1
    assert walked.refusals > 0


def test_the_walk_catches_a_broken_rule() -> None:
    with pytest.raises(DisagreementError):
        walk(GAME, Config(2), seed=1, steps=5000, mutation=MUTATION)


class _Both:
    """A Python and a native state stepped together by move text, compared at every step."""

    def __init__(self, game: NativeGame) -> None:
        self.game = game
        self.python: State = game.python.initial_state()
        self.native: NativeState = game.initial_state()

    def play(self, *texts: str) -> None:
        for text in texts:
            move: Move = self.python.parse(text)
            step = self.game.step_of(self.python, move)
            self.python = self.python.apply(move)
            native.apply_step(self.native, step)
            self.check()

    def check(self) -> None:
        assert tuple(self.native.canonical()) == self.game.convert.canonical(self.python)
        expected = [self.game.python.action_id(a) for a in self.python.legal_actions()]
        assert self.native.legal_actions() == expected

    def ids(self, *texts: str) -> list[int]:
        return [self.game.python.action_id(self.python.parse(text)) for text in texts]

    @property
    def state(self) -> AwimbaweState:
        assert isinstance(self.python, AwimbaweState)
        return self.python


def test_the_eagle_flees_or_fights() -> None:
    """Guillaume (seat 0, fewer face-up crowns) leads the mountain hyena; Anne has no mountain
    card but eagles: she must play one, fleeing or fighting."""
    deal = "deal G1 G2 G3 G4 / G5 G6 D1 D2 / M1 M2 M3 M4 M5 M6 | D3 D4 D5 D6 / P1 P2 P3 P4 / "
    deal += "P5 P6 S7 S8 S9 S10"
    for stance, winner, crowns in (("flee", 0, (3, 0)), ("fight", 1, (0, 3))):
        both = _Both(native.load(GAME))
        both.play(deal, "play M4")
        eagles = [f"play S{v} {s}" for s in ("fight", "flee") for v in (7, 8, 9, 10)]
        assert both.native.legal_actions() == both.ids(*eagles)
        both.play(f"play S7 {stance}")
        state = both.state
        assert state.last_trick is not None and state.last_trick.winner == winner
        assert tuple(t.crowns for t in state.tallies) == crowns
        assert state.tallies[winner].hyenas == 1


def test_the_rhinoceros_moves_a_card_and_uncovers_one_face_down() -> None:
    """Anne (seat 0) leads the grassland rhinoceros and moves Guillaume's eagle 9 under his
    first pile; the mountain snake it uncovers stays face down until the trick ends."""
    deal = "deal D1 D2 D3 D4 / S7 S8 D5 D6 / G1 G2 G3 G4 G5 G6 | M1 M2 M3 M4 / P1 S9 P2 P3 / "
    deal += "M5 M6 P4 P5 P6 S10"
    both = _Both(native.load(GAME))
    both.play(deal, "play G2", "move 2 under 1")
    uncovered = both.state.sides[1].piles[1][-1]
    assert uncovered in both.state.sides[1].down
    assert both.native.legal_actions() == both.ids("play S10 fight", "play S10 flee")
    both.play("play S10 flee")
    assert both.state.sides[1].piles[0][0].code == 24 + 9 - 7
    assert uncovered not in both.state.sides[1].down


def test_the_snake_blocks_until_its_victim_plays_again() -> None:
    """Anne (seat 0) leads the desert snake and blocks Guillaume's desert hyena; he cannot
    play it, answers with the desert cheetah and names himself to lead; the block is gone."""
    deal = "deal G1 G2 G3 G4 / G5 G6 M5 M6 / D5 D6 M1 M2 M3 M4 | P1 P2 P3 P4 / D4 D1 S8 P5 / "
    deal += "D2 D3 P6 S7 S9 S10"
    both = _Both(native.load(GAME))
    both.play(deal, "play D5", "block 1")
    assert both.native.legal_actions() == both.ids("play D1", "play D2", "play D3")
    both.play("play D3", "lead me")
    assert both.state.last_trick is not None and both.state.last_trick.winner == 0
    assert both.native.current_player() == 1
    assert both.ids("play D4")[0] in both.native.legal_actions()


@pytest.mark.parametrize("bound", [False, True])
def test_every_refused_action_names_the_python_rule(bound: bool) -> None:
    """Along random games, every action id that is not legal is refused by both engines with
    the same rule, and the native state does not change."""
    duties = "bound" if bound else "excused"
    game = native.load(GAME, blocked_duties=duties, rhino_to_empty_pile=bound)
    rng = random.Random(7)
    steps = 0
    while steps < 1500:
        python: State = game.python.initial_state()
        state = game.initial_state()
        while not python.is_terminal():
            if python.is_chance():
                move = python.sample_chance(rng)
                state.apply_chance(game.convert.chance_code(python, move))
                python = python.apply(move)
                continue
            legal = state.legal_actions()
            before = state.canonical()
            for action_id in range(game.num_distinct_actions):
                if action_id in legal:
                    continue
                with pytest.raises(IllegalActionError) as expected:
                    python.apply(game.python.action_from_id(action_id))
                with pytest.raises(IllegalActionError) as got:
                    state.apply(action_id)
                assert got.value.rule == expected.value.rule, (action_id, python)
                assert state.canonical() == before
            action_id = rng.choice(legal)
            state.apply(action_id)
            python = python.apply(game.python.action_from_id(action_id))
            steps += 1


def test_malformed_chance_codes_are_invalid_and_impossible_ones_illegal() -> None:
    game = native.load(GAME, tie_break="chance")
    state = game.initial_state()
    python = game.python.initial_state()
    for code in [(), (0,) * 27, (*range(27), 28), (-1, *range(1, 28)), (0, 1)]:
        with pytest.raises(InvalidActionError):
            state.apply_chance(code)
        with pytest.raises(InvalidActionError):
            game.convert.chance_move(python, code)
    twice = (0, *range(27))
    with pytest.raises(IllegalActionError) as refused:
        state.apply_chance(twice)
    assert refused.value.rule == Rule.DEAL_COMPLETE.value
    assert len(state) == 0
    # a tie of face-up crowns (mouse, mouse, rhino, rhino each): chance names the leader
    tied = "G1 G2 G3 G4 / G5 G6 D1 D2 / D3 D4 D5 D6 M1 M2 | P2 P3 P4 P5 / M3 M4 M5 M6 / "
    both = _Both(game)
    both.play("deal " + tied + "P1 P6 S7 S8 S9 S10")
    assert both.state.stage is Stage.TIE_BREAK
    assert both.native.exact_chance_outcomes() == [((0,), 1, 2), ((1,), 1, 2)]
    for code in [(2,), (0, 0), ()]:
        with pytest.raises(InvalidActionError):
            both.native.apply_chance(code)
    both.play("tiebreak 1")


def test_a_blind_pick_lists_the_unblocked_hand_cards() -> None:
    """Anne's desert snake blocks a hand card of Guillaume's blind: chance picks one of his six
    hand cards; a card not in his hand is refused."""
    deal = "deal G1 G2 G3 G4 / G5 G6 M5 M6 / D5 D6 M1 M2 M3 M4 | P1 P2 P3 P4 / D4 D1 S8 P5 / "
    deal += "D2 D3 P6 S7 S9 S10"
    for shown in (False, True):
        both = _Both(native.load(GAME, blind_pick_shown=shown))
        both.play(deal, "play D5", "block hand")
        hand = [7, 8, 23, 24, 26, 27]
        assert both.native.exact_chance_outcomes() == [((c,), 1, 6) for c in hand]
        with pytest.raises(IllegalActionError) as refused:
            both.native.apply_chance((0,))
        assert refused.value.rule == Rule.PICK_HAND.value
        both.play("pick D2")
        assert both.native.legal_actions() == both.ids("play D1", "play D3", "play D4")


def test_options_are_checked_as_python_checks_them() -> None:
    with pytest.raises(OptionError):
        native.load(GAME, 3)
    with pytest.raises(OptionError):
        native.load(GAME, rounds_to_win=6)
    with pytest.raises(OptionError):
        native.load(GAME, blocked_duties="lifted")


def test_playouts_inside_rust_end_with_one_winner() -> None:
    for rounds in (1, 5):
        game = native.load(GAME, rounds_to_win=rounds)
        played = game.playouts(500, seed=3, records=True)
        assert (played.returns.sum(axis=1) == 1.0).all()
        assert played.steps.min() > 0
        assert played.records is not None
        python = game.replay(played.records[0])
        assert python.is_terminal()
        assert max(python.scores()) == rounds
