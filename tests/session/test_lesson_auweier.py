"""The Auweier lesson: it holds against the engine and teaches every rule of its rules page; it
walks to its end (your own deck, a Crow, the opening Wedding, a whole wedding phase with a
False Worm exchange, the mating); a tempting move gets the step's own words, a move the rules
forbid is refused with the engine's reason and changes nothing; the finale starts near the end
of a match with the learner to move."""

from __future__ import annotations

import dataclasses

import pytest

from spieltisch.games.auweier import AuweierState, AuweierView, Card, Colour, Egg, Stage
from spieltisch.session.lesson import (
    Lesson,
    LessonError,
    LessonRun,
    StepKind,
    Verdict,
    check_lesson,
    load_lesson,
)

GAME = "auweier"
YOU, BLUE = 0, 1


@pytest.fixture(scope="module")
def lesson() -> Lesson:
    return load_lesson(GAME)


def step_of(lesson: Lesson, text: str, kind: StepKind = StepKind.MOVE) -> int:
    """The number of the first step of ``kind`` whose move is ``text``."""
    return next(s.number for s in lesson.steps if s.move_text == text and s.kind is kind)


def run_to(lesson: Lesson, number: int) -> LessonRun:
    """A run standing at step ``number``, every step before it done as the lesson asks."""
    run = LessonRun(lesson)
    run.follow(number)
    return run


def your_view(run: LessonRun) -> AuweierView:
    state = run.table.state
    assert isinstance(state, AuweierState)
    return state.view(YOU)


def stack(view: AuweierView, female: Colour, owner: int) -> tuple[Card, ...]:
    return view.females[female].stacks[owner].cards


# --- the shipped lesson ------------------------------------------------------------------------


def test_a_rule_no_step_teaches_fails_the_check(lesson: Lesson) -> None:
    last = lesson.steps[-1]
    assert "auweier.concede" in last.teaches
    taught = tuple(rule for rule in last.teaches if rule != "auweier.concede")
    steps = (*lesson.steps[:-1], dataclasses.replace(last, teaches=taught))
    with pytest.raises(LessonError, match=r"no step teaches auweier\.concede"):
        check_lesson(dataclasses.replace(lesson, steps=steps))


def test_the_lesson_walks_to_its_end_through_the_engine(lesson: Lesson) -> None:
    run = run_to(lesson, step_of(lesson, "worm 6 R"))
    view = your_view(run)  # your 6 and Crow, and four cards of the spread twenty
    assert view.stage is Stage.PLAY and run.table.to_act() == YOU
    hand = (Card.FOUR, Card.TWO_STAR, Card.FIVE_STAR, Card.SIX, Card.FALSE_WORM, Card.CROW)
    assert [view.my_hand[card] for card in hand] == [1, 1, 0, 1, 1, 1]
    assert view.my_hand[Card.WEDDING] == 1 and sum(view.my_hand) == 6
    assert view.pile_known == () and sum(view.pile_unknown) == 16  # shuffled: unknown to you
    assert view.pile_unknown[Card.WEDDING] == 5

    run = run_to(lesson, step_of(lesson, "worm 5* R", StepKind.OPPONENT))  # your Crow ate Blue's 7
    view = your_view(run)
    assert stack(view, Colour.RED, YOU) == (Card.SIX,)
    assert stack(view, Colour.RED, BLUE) == (Card.FIVE_STAR,)  # Blue's answer, already shown
    assert view.players[BLUE].discarded[Card.SEVEN] == 1

    run = run_to(lesson, step_of(lesson, "wedding G", StepKind.OPPONENT))  # the opening Wedding
    assert your_view(run).stage is Stage.WEDDINGS
    assert your_view(run).start_player == YOU

    swap = step_of(lesson, "swap B#1 F")
    run = run_to(lesson, swap + 1)
    view = your_view(run)  # the False Worm lies at blue; the 4 is back in hand, seen by all
    assert stack(view, Colour.BLUE, YOU) == (Card.FALSE_WORM,)
    assert view.my_hand[Card.FOUR] == 1 and view.players[YOU].shown[Card.FOUR] == 1

    run = run_to(lesson, len(lesson.steps) + 1)
    assert run.done
    view = your_view(run)  # mating: red's first egg for you; only Blue's 6 at blue stays
    assert view.stage is Stage.PLAY and run.table.to_act() == YOU
    assert view.players[YOU].eggs == (Egg(Colour.RED, 1),)
    assert run.table.state.scores() == (2, 0)
    assert view.females[Colour.RED].eggs_left == (2, 3)
    assert [stack(view, f, p) for f in Colour if f < 3 for p in (YOU, BLUE)] == [
        (),
        (),
        (),
        (Card.SIX,),
        (),
        (),
    ]
    assert sum(view.my_hand) == 6 and view.players[BLUE].hand_size == 6  # refilled
    with pytest.raises(LessonError, match="the lesson is over"):
        run.advance()


# --- the runner's answers ----------------------------------------------------------------------


def test_a_tempting_move_is_answered_by_the_steps_own_words(lesson: Lesson) -> None:
    number = step_of(lesson, "worm 3 R")
    run = run_to(lesson, number)
    version = run.table.version
    why = dict(lesson.steps[number - 1].why_not)["worm 2* R"]
    attempt = run.try_move("worm 2* R")
    assert attempt.verdict is Verdict.OTHER and attempt.message.startswith(why)
    assert attempt.message.endswith("`worm 3 R`.")  # then what the step asks for
    assert "tie" in why
    assert run.table.version == version and run.step is not None and run.step.number == number


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(lesson: Lesson) -> None:
    number = step_of(lesson, "wedding R")
    run = run_to(lesson, number)
    version = run.table.version
    opening = run.try_move("wedding B")  # you have no worm before the blue female
    assert opening.verdict is Verdict.REFUSED
    assert "the opening Wedding goes only before a female where the player has" in opening.message
    crow = run.try_move("crow B@R")  # your only Crow is eaten up already
    assert crow.verdict is Verdict.REFUSED and "from the player's hand" in crow.message
    assert run.try_move("nest 9").verdict is Verdict.REFUSED  # not a move at all
    assert run.table.version == version and run.step is not None and run.step.number == number
    assert run.try_move("H R").verdict is Verdict.ACCEPTED  # the short form of the asked move


def test_the_finale_starts_near_the_end_with_the_learner_to_move(lesson: Lesson) -> None:
    finale = LessonRun(lesson).finale_table(seed=3)
    assert not finale.over and finale.to_act() == YOU and finale.legal()
    state = finale.state
    assert isinstance(state, AuweierState)
    view = state.view(YOU)
    assert view.stage is Stage.PLAY and state.scores() == (6, 10)
    assert sum(len(female.eggs_left) for female in view.females) == 4
    assert [player.pile_size for player in view.players] == [1, 0]
