"""``spieltisch learn awimbawe``: the lesson under a scripted standard input reaches its last
step and its closing game, and leaves with ``quit``; a wrong move is explained (the engine's
reason, the step's own words) and changes nothing."""

from __future__ import annotations

from typer.testing import CliRunner

from spieltisch.cli import app
from spieltisch.session.lesson import StepKind, load_lesson

from .lessons import answers, scripted

runner = CliRunner()
GAME = "awimbawe"


def test_the_lesson_reaches_its_last_step_and_the_closing_game() -> None:
    lesson = load_lesson(GAME)
    lines = [*answers(lesson), "quit"]  # the closing game's first move: who leads round 3
    result = runner.invoke(app, ["learn", GAME, "--seed", "5"], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    out = result.output
    total = len(lesson.steps)
    assert f"Step {total} of {total}" in out
    assert "Yes: move 1 under 3." in out and "Yes: play S10 fight." in out
    assert "Your first game" in out and "Awimbawé · round 3" in out
    assert "You left the lesson" not in out  # quit came in the game, not in the steps


def test_a_wrong_move_is_explained_and_changes_nothing() -> None:
    lesson = load_lesson(GAME)
    first_move = next(s.number for s in lesson.steps if s.kind is StepKind.MOVE)
    typed = [*answers(lesson)[: first_move - 1], "play D5", "play G4", "play G9", "rules"]
    run = scripted(lesson, typed)
    outcome, text, seen, learning = run.outcome, run.text, run.seen, run.learning
    assert outcome.quit and outcome.steps_done == first_move - 1
    assert "the led land must be followed" in text  # the engine's reason for `play D5`
    assert "lower than the elephant" in text  # the step's own words for `play G4`
    assert "not a move of this game (`play G9`)" in text  # unreadable: the grassland holds no 9
    assert "mouse beats the elephant of its own land" in text  # `rules`
    assert seen[-5:] == [3] * 5  # deal, tie-break, the elephant led: no wrong move was played
    assert learning.run.step is not None and learning.run.step.number == first_move
