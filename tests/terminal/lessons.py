"""Shared by the terminal's lesson tests: what a learner types, and a lesson run on a scripted
standard input that records the table's version at every prompt."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.console import Console

import spieltisch
from spieltisch.core.agent import Agent
from spieltisch.session.lesson import Lesson
from spieltisch.session.rule_ids import rule_ids
from spieltisch.terminal.learn import LearnOutcome, TerminalLesson


def answers(lesson: Lesson, *, closing: bool = True) -> list[str]:
    """The lines a learner who follows the lesson types: each asked move, Enter elsewhere,
    and (``closing``) Enter before the closing game."""
    return [step.expect or "" for step in lesson.steps] + ([""] if closing else [])


@dataclass
class Scripted:
    """A lesson played in the terminal from typed lines until they run out."""

    learning: TerminalLesson
    outcome: LearnOutcome
    text: str
    """Everything the terminal printed."""
    seen: list[int]
    """The table's version at each prompt."""


def scripted(lesson: Lesson, typed: list[str], adviser: Agent[Any] | None = None) -> Scripted:
    """Run ``lesson`` in a terminal on the lines ``typed`` (input ends after them)."""
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
        lesson,
        Console(file=out, width=120),
        read_line,
        rules=rule_ids(spieltisch.rules_page(lesson.game_id)),
        adviser=adviser,
    )
    outcome = learning.play()
    return Scripted(learning, outcome, out.getvalue(), seen)
