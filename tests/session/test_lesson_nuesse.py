"""The Auf die Nüsse! lesson: it holds against the engine and both rules pages, walks to its
end through the runner with the board as its words describe it (the acorn that fills S1, the
raccoon's nut and theft, the chain through the 3- and 4-area in the opponent's turn, the kept
joker laid into S5, the failed roll), answers a tempting move with the step's own words,
refuses what the rules forbid with the engine's reason, and ends in a finale the learner plays."""

from __future__ import annotations

import pytest

from spieltisch.games.auf_die_nuesse.notation import Nut, Space
from spieltisch.games.auf_die_nuesse.view import NuesseView
from spieltisch.session.lesson import (
    Lesson,
    LessonRun,
    StepKind,
    Verdict,
    load_lesson,
)

GAME = "auf-die-nuesse"
YOU, OPPONENT = 0, 1


@pytest.fixture(scope="module")
def lesson() -> Lesson:
    return load_lesson(GAME)


def view_of(run: LessonRun) -> NuesseView:
    view = run.table.view(YOU)
    assert isinstance(view, NuesseView)
    return view


def at_move(lesson: Lesson, expect: str) -> LessonRun:
    """A run at the first step that asks the learner for ``expect`` (every step before it
    done as the lesson says)."""
    run = LessonRun(lesson)
    run.follow(next(step.number for step in lesson.steps if step.expect == expect))
    return run


def test_every_move_step_names_the_move_to_type(lesson: Lesson) -> None:
    for step in lesson.steps:
        if step.expect is not None:
            assert f"`{step.expect}`" in step.say, step.number
        assert step.say.count(". ") + step.say.count("! ") <= 1, step.number  # two sentences


def test_the_lesson_walks_to_its_end_with_the_board_it_describes(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    start = view_of(run)
    assert start.areas[Space.TWO_FOUR] == (1, 1) and start.areas[Space.RACCOON_2] == (1, 0)
    assert start.areas[Space.LEFT_3] == (2, 1) and start.areas[Space.AREA_4] == (0, 2)
    assert start.stores[YOU][0].kind is Nut.ACORN and start.stores[YOU][0].nuts == 1
    moves = 0
    while (step := run.step) is not None:
        if step.kind is StepKind.MOVE:
            assert step.expect is not None
            attempt = run.try_move(step.expect)
            assert attempt.verdict is Verdict.ACCEPTED, (step.number, attempt)
            moves += 1
            view = view_of(run)
            if step.expect == "put acorn S1":  # two on 2-4 paid out; the acorn filled S1
                assert view.stores[YOU][0].full and view.scores[YOU] == start.scores[YOU] + 4
                assert view.areas[Space.TWO_FOUR] == (0, 0)
                assert view.areas[Space.LEFT_3] == (2, 2)  # the opponent's one pushed up
            elif step.expect == "keep":
                assert [card.value for card in view.jokers[YOU]] == ["walnut/hazelnut"]
            elif step.expect == "steal P2 S5":
                assert view.david == OPPONENT and view.stores[OPPONENT][4].nuts == 1
            elif step.expect == "take 2-4" and view.player == OPPONENT:
                # collected in the opponent's turn: the left 3-area space paid out to you
                # and pushed the opponent's two into the 4-area
                assert view.areas[Space.LEFT_3] == (0, 0)
                assert view.areas[Space.AREA_4] == (0, 4)
            elif step.expect.startswith("lay "):
                assert view.stores[YOU][4].full and not view.jokers[YOU]
        else:
            version = run.table.version
            assert run.try_move("stop").verdict is Verdict.REFUSED  # no move is asked here
            assert run.table.version == version
            run.advance()
    assert run.done and moves == sum(1 for s in lesson.steps if s.kind is StepKind.MOVE)
    end = view_of(run)
    assert end.scores == (23, 7)  # S1 5 + S5 15 + S3 2 + S8 1 for you
    assert end.areas[Space.AREA_4] == (0, 0)  # the opponent's four collected in the 4-area
    assert end.track == () and end.supply[YOU] == 15  # the failed roll sent the squirrel home
    assert end.player == OPPONENT and run.table.to_act() is None  # their roll comes next


def test_a_tempting_move_is_answered_by_the_steps_own_words(lesson: Lesson) -> None:
    run = at_move(lesson, "place 3")
    version, step = run.table.version, run.step
    assert step is not None
    attempt = run.try_move("place 8")
    assert attempt.verdict is Verdict.OTHER
    assert attempt.message.startswith(dict(step.why_not)["place 8"])
    assert attempt.message.endswith(f"`{step.expect}`.")  # then what the step asks for
    assert "8-9" in attempt.message
    assert run.table.version == version and run.step == step
    raccoon = at_move(lesson, "take 8-9")
    refused = raccoon.try_move("pass")
    assert refused.verdict is Verdict.OTHER and "free nut" in refused.message


def test_a_move_the_rules_forbid_is_refused_with_the_engines_reason(lesson: Lesson) -> None:
    run = at_move(lesson, "place 3")
    version, step = run.table.version, run.step
    attempt = run.try_move("place 7")
    assert attempt.verdict is Verdict.REFUSED
    assert "green die plus one of the white dice" in attempt.message
    assert "3 or 8" in attempt.message
    assert run.table.version == version and run.step == step
    theft = at_move(lesson, "steal P2 S5")
    version = theft.table.version
    own = theft.try_move("steal P1 S5")
    assert own.verdict is Verdict.REFUSED and "another player" in own.message
    assert theft.try_move("steal the walnuts").verdict is Verdict.REFUSED
    assert theft.table.version == version and view_of(theft).david is None


def test_the_finale_is_a_game_near_its_end_that_the_learner_plays(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    finale = run.finale_table(seed=3)
    assert not finale.over
    view = finale.view(YOU)
    assert isinstance(view, NuesseView)
    assert view.pile <= 4 and view.set_aside == 8  # the end is a few collections away
    assert len(view.jokers[YOU]) == 3  # the jokers the finale's words promise
    assert finale.to_act() is None  # the learner's roll comes first
    finale.advance_chance()
    assert finale.to_act() == YOU and finale.legal()
