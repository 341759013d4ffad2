"""``spieltisch learn``: the Auf die Eier lesson under a scripted standard input reaches its
end and its closing game; a wrong move is explained and changes nothing; a game without a
lesson and an unknown game are one-line errors."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.cli import app
from spieltisch.session import lesson as lesson_module
from spieltisch.session.lesson import Lesson, StepKind, load_lesson
from spieltisch.session.rule_ids import rule_ids
from spieltisch.terminal.learn import TerminalLesson

runner = CliRunner()


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIELTISCH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")


def answers(lesson: Lesson) -> list[str]:
    """The lines a learner who follows the lesson types: each asked move, Enter elsewhere,
    Enter before the closing game."""
    return [step.expect or "" for step in lesson.steps] + [""]


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
    feed: Iterator[str] = iter(typed)
    seen: list[int] = []

    def read_line(prompt: str) -> str:
        seen.append(learning.run.table.version)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    game = lesson.game()
    learning = TerminalLesson(
        lesson,
        Console(file=out, width=120),
        read_line,
        rules=rule_ids(spieltisch.rules_page("auf-die-eier")),
        adviser=make_agent("expert", game, 0),
    )
    outcome = learning.play()
    text = out.getvalue()
    assert outcome.quit and outcome.steps_done == first_move - 1
    assert "Rotten Eggs stay set aside" in text  # the engine's reason
    assert "`reroll CC` is legal but weaker" in text  # the strongest bot's ratings
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
    monkeypatch.setattr(lesson_module, "LESSON_FILE", "no-such-lesson.toml")  # none has one
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
