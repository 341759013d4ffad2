"""The Awimbawé lesson: it holds against the engine and both languages of its rules page,
teaches every rule of the page, walks to its end with each power played as the words say; a
tempting move is answered by the step's own words, a move the rules forbid is refused with the
engine's reason and changes nothing; the finale is a live deciding round."""

from __future__ import annotations

import pytest

from spieltisch.games.awimbawe import AwimbaweState, Card, Stage, Stance
from spieltisch.session.lesson import (
    Lesson,
    LessonRun,
    StepKind,
    Verdict,
    load_lesson,
)

GAME = "awimbawe"


@pytest.fixture(scope="module")
def lesson() -> Lesson:
    return load_lesson(GAME)


def state_of(run: LessonRun) -> AwimbaweState:
    state = run.table.state
    assert isinstance(state, AwimbaweState)
    return state


def at_step(lesson: Lesson, move: str) -> LessonRun:
    """A run that has followed the lesson up to the step whose move is ``move``."""
    run = LessonRun(lesson)
    run.follow(next(step.number for step in lesson.steps if step.move_text == move))
    return run


def test_the_lesson_walks_to_its_end_playing_each_power(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    seen: dict[str, list[AwimbaweState]] = {}  # by move, in the order played
    while (step := run.step) is not None:
        version = run.table.version
        if step.kind is StepKind.MOVE:
            assert step.expect is not None
            attempt = run.try_move(step.expect)
            assert attempt.verdict is Verdict.ACCEPTED, (step.number, attempt)
            after = run.table.state_at(version + 1)  # before the next step's scripted move
            assert isinstance(after, AwimbaweState)
            seen.setdefault(step.expect, []).append(after)
        else:
            if step.move_text is not None:  # played as the step began
                seen.setdefault(step.move_text, []).append(state_of(run))
            assert run.try_move("play G1").verdict is Verdict.REFUSED  # no move is asked here
            assert run.table.version == version
            run.advance()
    assert run.done
    mouse = seen["play G1"][0].last_trick  # the mouse beats the elephant of its land
    assert mouse is not None and mouse.winner == 0 and mouse.leader == 1
    blocked = seen["block 2"][0].sides[1].blocked  # the snake blocks the opponent's pile 2
    assert blocked == frozenset({Card.of("D6")})
    theirs, mine = seen["lead me"]  # the opponent's cheetah: the learner won, the opponent leads
    assert theirs.last_trick is not None and theirs.last_trick.winner == 0
    assert theirs.last_trick.cards == (Card.of("D5"), Card.of("D3"))
    assert theirs.stage is Stage.PLAY and theirs.actor == 1 and not theirs.trick
    assert theirs.sides[1].blocked == frozenset()  # the block ended with the opponent's card
    assert mine.next_leader == 0 and mine.trick == (Card.of("P3"),)  # the learner's cheetah
    eagles = seen["play S7"][0].last_trick  # a led eagle answered by a lower eagle
    assert eagles is not None and eagles.winner == 1
    assert seen["pick M6"][0].sides[0].blocked == frozenset({Card.of("M6")})
    fight = seen["play S10 fight"][0].last_trick
    assert fight is not None and fight.winner == 0 and fight.stance is Stance.FIGHT
    rhino = seen["move 1 under 3"][0]
    moved = rhino.sides[1].piles  # the eagle 9 under pile 3, pile 1 face down
    assert moved[2][0] == Card.of("S9") and moved[0] == (Card.of("P1"),)
    assert Card.of("P1") in rhino.sides[1].down
    end = state_of(run)  # the opponent discarded its hyena; its pile 1 is turned up now
    assert end.last_trick is not None and end.last_trick.winner == 0
    assert end.last_trick.cards == (Card.of("P2"), Card.of("M4"))
    assert end.tallies[0].hyenas == 1 and end.tallies[0].crowns == 11
    assert Card.of("P1") not in end.sides[1].down and end.stage is Stage.PLAY


def test_a_tempting_move_is_answered_by_the_steps_own_words(lesson: Lesson) -> None:
    run = at_step(lesson, "play S10 fight")
    step, version = run.step, run.table.version
    assert step is not None
    attempt = run.try_move("play S10 flee")
    assert attempt.verdict is Verdict.OTHER
    assert attempt.message.startswith(dict(step.why_not)["play S10 flee"])
    assert attempt.message.endswith(f"`{step.expect}`.")  # then what the step asks for
    assert "−2" in attempt.message
    assert run.table.version == version and run.step == step


def test_a_move_the_rules_forbid_is_refused_with_the_reason(lesson: Lesson) -> None:
    run = at_step(lesson, "play G1")
    step, version = run.step, run.table.version
    attempt = run.try_move("play D5")  # the grassland is led and the learner holds grassland
    assert attempt.verdict is Verdict.REFUSED
    assert "the led land must be followed" in attempt.message
    assert run.table.version == version and run.step == step
    run = at_step(lesson, "play S10 fight")
    blocked = run.try_move("play M6")  # the blind pick blocked it
    assert blocked.verdict is Verdict.REFUSED and "blocked" in blocked.message
    duty = run.try_move("play G4")  # no mountain to play: an eagle is a duty
    assert duty.verdict is Verdict.REFUSED and "must play an eagle" in duty.message
    stance = at_step(lesson, "play S7").try_move("play S7 flee")
    assert stance.verdict is Verdict.REFUSED and "always fights" in stance.message


def test_the_finale_is_a_live_deciding_round_the_learner_opens(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    finale = run.finale_table(seed=3)
    state = finale.state
    assert isinstance(state, AwimbaweState)
    assert not finale.over and state.scores() == (1, 1)
    assert state.stage is Stage.CHOOSE_LEADER and finale.to_act() == lesson.learner
    assert {str(move) for move in finale.legal()} == {"lead me", "lead opponent"}
