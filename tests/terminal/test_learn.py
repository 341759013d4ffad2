"""``spieltisch learn``: the Auf die Eier lesson under a scripted standard input reaches its
end and its closing game; a wrong move is explained and changes nothing; a game without a
lesson and an unknown game are one-line errors."""

from __future__ import annotations

import functools

import pytest
from typer.testing import CliRunner

from spieltisch import cli
from spieltisch.agents import make_agent
from spieltisch.cli import app
from spieltisch.session.lesson import StepKind, load_lesson

from .lessons import answers, scripted

runner = CliRunner()


def test_the_lesson_reaches_its_end_and_the_closing_game() -> None:
    lesson = load_lesson("auf-die-eier")
    lines = answers(lesson) + ["stop"] * 60  # the closing game: stop at every decision
    result = runner.invoke(app, ["learn", "auf-die-eier", "--seed", "5"], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Step {len(lesson.steps)} of {len(lesson.steps)}" in out
    assert "Yes: reroll PPF." in out  # `keep CPFFH`, taken as the re-roll it means
    assert "Your first game" in out and "Hint: expert:" in out
    assert "Final result" in out and "You left the lesson" not in out


def test_a_wrong_move_is_explained_and_changes_nothing() -> None:
    lesson = load_lesson("auf-die-eier")
    first_move = next(s.number for s in lesson.steps if s.kind is StepKind.MOVE)
    typed = [*answers(lesson)[: first_move - 1], "reroll R", "reroll CC", "stop", "rules"]
    run = scripted(lesson, typed, make_agent("expert", lesson.game(), 0))
    outcome, text, seen, learning = run.outcome, run.text, run.seen, run.learning
    assert outcome.quit and outcome.steps_done == first_move - 1
    assert "Rotten Eggs stay set aside" in text  # the engine's reason
    assert "(`reroll CC`) is legal but weaker" in text  # the strongest bot's ratings
    assert "ladder asks for one, and they earn nothing" in text  # the step's own words
    assert "Throw all nine dice" not in text and "chicken ladder reads" in text  # `rules`
    assert seen[-5:] == [1, 1, 1, 1, 1]  # the first throw only: no wrong move was played
    assert learning.run.step is not None and learning.run.step.number == first_move


@pytest.mark.parametrize(
    ("game", "message"),
    [("auf-die-eier", "auf-die-eier has no lesson yet"), ("chess", "unknown game")],
)
def test_a_game_without_a_lesson_is_a_one_line_error(
    game: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = functools.partial(load_lesson, file="no-such-lesson.toml")  # none has one
    monkeypatch.setattr(cli, "load_lesson", missing)
    result = runner.invoke(app, ["learn", game])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_the_lesson_speaks_german_when_asked() -> None:
    lesson = load_lesson("auf-die-eier")
    lines = [*answers(lesson)[:3], "quit"]
    result = runner.invoke(
        app, ["learn", "auf-die-eier", "--lang", "de", "--seed", "1"], input="\n".join(lines)
    )
    assert result.exit_code == 0, result.output
    assert "Schritt 1 von" in result.output and "Willkommen bei Auf die Eier" in result.output
    assert "Welcome to" not in result.output
    wrong = runner.invoke(app, ["learn", "auf-die-eier", "--lang", "fr"])
    assert wrong.exit_code == 2 and "no lesson language 'fr'" in wrong.output
