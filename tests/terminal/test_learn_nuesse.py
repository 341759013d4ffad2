"""``spieltisch learn auf-die-nuesse``: under a scripted standard input the lesson reaches its
last step and its closing game (near the end of a game, a hint before the learner's move), and
the learner leaves it with ``quit``; a move the rules forbid and a tempting legal one are each
explained and change nothing."""

from __future__ import annotations

from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.session.lesson import StepKind, load_lesson

from .lessons import answers

GAME = "auf-die-nuesse"
runner = CliRunner()


def test_the_lesson_reaches_its_last_step_and_the_closing_game_then_quit() -> None:
    lesson = load_lesson(GAME)
    lines = [*answers(lesson), "quit"]  # Enter before the closing game, then leave it there
    result = runner.invoke(app, ["learn", GAME, "--seed", "5"], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    out = result.output
    last = len(lesson.steps)
    assert f"Learn Auf die Nüsse! · {last} steps" in out
    assert f"Step {last} of {last}" in out
    for step in lesson.steps:
        if step.kind is StepKind.MOVE:
            assert f"Yes: {step.expect}." in out  # every asked move was taken as typed
    assert out.index(f"Step {last} of {last}") < out.index("Your first game")
    finale = out[out.index("Your first game") :]
    assert "Draw pile: 3 cards" in finale  # the closing game starts near the end
    assert "Hint: " in finale  # a hint before the learner's first move of it
    assert "Game abandoned" in finale  # `quit` left it


def test_a_wrong_move_is_explained_and_changes_nothing() -> None:
    lesson = load_lesson(GAME)
    first = next(step for step in lesson.steps if step.kind is StepKind.MOVE)
    assert first.expect == "place 3"
    typed = [
        *answers(lesson, closing=False)[: first.number - 1],
        "place 7",
        "place 8",
        "rules",
        "quit",
    ]
    result = runner.invoke(app, ["learn", GAME, "--seed", "5"], input="\n".join(typed))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "green die plus one of the white dice" in out  # the engine's refusal of `place 7`
    assert "where you have no squirrel yet" in out  # the step's own words for `place 8`
    assert "Yes: place" not in out  # neither move was played
    assert "nuesse.move-place" in out  # `rules` shows the rule the step teaches
    assert "You left the lesson." in out and f"Step {first.number + 1} of" not in out
