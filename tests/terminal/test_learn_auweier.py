"""``spieltisch learn auweier``: the lesson under a scripted standard input reaches its last step
and the closing game, where the learner is offered a hint and a move and leaves with ``quit``;
a wrong move is explained (the step's own words, or the engine's reason) and changes nothing."""

from __future__ import annotations

from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.session.lesson import Lesson, StepKind, load_lesson

from .lessons import answers, scripted

runner = CliRunner()


def short_answers(lesson: Lesson) -> list[str]:
    """What a learner who follows the lesson types (the False Worm exchange in its short
    form), Enter before the closing game."""
    return ["swap B 4" if line == "swap B#1 F" else line for line in answers(lesson)]


def test_the_lesson_reaches_its_last_step_and_the_closing_game() -> None:
    lesson = load_lesson("auweier")
    lines = [*short_answers(lesson), "quit"]  # Enter before the closing game, then leave it
    result = runner.invoke(app, ["learn", "auweier", "--seed", "5"], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Step {len(lesson.steps)} of {len(lesson.steps)}" in out
    assert "Yes: deck 6." in out and "Yes: deck spread." in out and "Yes: crow B@R." in out
    assert "Yes: swap B#1 F." in out  # `swap B 4`, taken as the exchange it means
    assert "Your first game" in out and "Blue leads 10 to 6" in out
    closing = out.split("Your first game", 1)[1]
    assert "Hint: ismcts:" in closing and "Alex, your move" in closing  # the learner's turn
    assert "Game abandoned" in closing and "You left the lesson." not in out


def test_a_wrong_move_is_explained_and_changes_nothing() -> None:
    lesson = load_lesson("auweier")
    crow = next(s.number for s in lesson.steps if s.expect == "crow B@R")
    typed = [*short_answers(lesson)[: crow - 1], "worm 3 R", "wedding R", "rules"]
    run = scripted(lesson, typed)
    outcome, text, seen, learning = run.outcome, run.text, run.seen, run.learning
    assert outcome.quit and outcome.steps_done == crow - 1
    assert "the Crow takes their 7 away for good" in text  # the step's own words
    assert "the opening Wedding goes only before a female where the player has" in text  # engine
    assert "The Crow eats the" in text and "unless the" in text  # `rules`: auweier.play-crow
    assert seen[-4:] == [seen[-1]] * 4  # nothing was played while the wrong moves were tried
    step = learning.run.step
    assert step is not None and step.number == crow and step.kind is StepKind.MOVE
