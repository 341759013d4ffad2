"""``spieltisch learn awimbawe``: the lesson under a scripted standard input reaches its last
step and its closing game, and leaves with ``quit``; a wrong move is explained (the engine's
reason, the step's own words) and changes nothing."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import spieltisch
from spieltisch.cli import app
from spieltisch.session.lesson import Lesson, StepKind, load_lesson
from spieltisch.session.rule_ids import rule_ids
from spieltisch.terminal.learn import TerminalLesson

runner = CliRunner()
GAME = "awimbawe"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIELTISCH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")


def answers(lesson: Lesson) -> list[str]:
    """The lines a learner who follows the lesson types: each asked move, Enter elsewhere,
    Enter before the closing game."""
    return [step.expect or "" for step in lesson.steps] + [""]


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
    feed: Iterator[str] = iter(typed)
    seen: list[int] = []

    def read_line(prompt: str) -> str:
        seen.append(learning.run.table.version)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    learning = TerminalLesson(
        lesson, Console(file=out, width=120), read_line, rules=rule_ids(spieltisch.rules_page(GAME))
    )
    outcome = learning.play()
    text = out.getvalue()
    assert outcome.quit and outcome.steps_done == first_move - 1
    assert "the led land must be followed" in text  # the engine's reason for `play D5`
    assert "lower than the elephant" in text  # the step's own words for `play G4`
    assert "cannot read 'play G9'" in text  # unreadable: the grassland holds no 9
    assert "mouse beats the elephant of its own land" in text  # `rules`
    assert seen[-5:] == [3] * 5  # deal, tie-break, the elephant led: no wrong move was played
    assert learning.run.step is not None and learning.run.step.number == first_move
