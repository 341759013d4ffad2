"""What a lesson page is answered: a step, a tried move, the finale; worked out in a worker.

A lesson in the browser keeps no state on the server. The page names the step it is at (and,
in the finale, its seed and the moves it made), and each answer replays the lesson from its
fixed position to there (:class:`~spieltisch.session.lesson.LessonRun`: the steps before it
are done exactly as the lesson says, for only the lesson's moves are ever taken). Replaying a
few dozen moves costs less than keeping a table per visitor, and a reload, a second tab or a
server restart loses nothing.

Every answer comes from the learner's view, like a table's (:mod:`.payload`): the view, the
events as the learner saw them, the learner's legal moves; the lesson's words are msgids of the
catalogs, said in the page's language. The functions here run in the server's worker pool (the
adviser behind an answer to another move, and the finale's hints, search).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from spieltisch.agents import agent_names, make_agent
from spieltisch.agents.ladder import load_ladder
from spieltisch.core.codec import JSON, to_jsonable
from spieltisch.core.errors import SpieltischError
from spieltisch.core.seeds import derive_seed
from spieltisch.games import REGISTRY, kit_of
from spieltisch.locale import translation
from spieltisch.session import Table
from spieltisch.session.lesson import (
    Lesson,
    LessonError,
    LessonRun,
    StepKind,
    Verdict,
    load_lesson,
    refusal_text,
    replay_finale,
)
from spieltisch.web.common.words import spoken
from spieltisch.web.tables.bots import advise, hint_level
from spieltisch.web.tables.payload import events_for, legal_items, result_item

MAX_FINALE_MOVES = 600
"""The most learner's moves a finale's page may send (a finale is a short game)."""
_Job = TypeVar("_Job")


def _answering(work: Callable[[_Job], dict[str, JSON]]) -> Callable[[_Job], dict[str, JSON]]:
    """``work`` answering an engine's refusal as ``{"error": reason}``: an exception never
    crosses back from the worker (not every error pickles, and a broken pool stops every
    table's bots)."""

    @functools.wraps(work)
    def answered(job: _Job) -> dict[str, JSON]:
        try:
            return work(job)
        except SpieltischError as error:
            return {"error": str(error)}

    return answered


@dataclass(frozen=True, slots=True)
class StepJob:
    """The lesson of ``game`` at step index ``at`` (0: the first step; the number of steps:
    done, the finale next), in ``language``."""

    game: str
    at: int
    language: str


@dataclass(frozen=True, slots=True)
class TryJob:
    """The learner's ``move`` tried at step index ``at``."""

    game: str
    at: int
    move: str
    language: str


@dataclass(frozen=True, slots=True)
class FinaleJob:
    """The finale from ``seed`` after the learner's ``moves``, and ``move`` tried next (empty:
    none); with a hint when ``hint`` asks and the finale allows it. ``seed`` draws the cards
    and dice, the bot's and the hint's choices: the server's, never the page's (the page could
    work out every hidden card from it)."""

    game: str
    seed: int
    moves: tuple[str, ...]
    move: str
    language: str
    hint: bool = False


@functools.cache
def lesson_in(game_id: str) -> Lesson:
    """The game's lesson, read once per worker (its words are said per answer, in the page's
    language). :class:`~spieltisch.session.lesson.NoLessonError` for a game without one."""
    return load_lesson(game_id)


def _run_to(lesson: Lesson, at: int, language: str, *, advised: bool = False) -> LessonRun:
    """A run of ``lesson`` with its first ``at`` steps done as the lesson says."""
    if not 0 <= at <= len(lesson.steps):
        raise LessonError(lesson.game_id, None, f"the lesson has no step {at + 1}")
    game = lesson.game()
    adviser = make_agent(hint_level(game), game, derive_seed(0, "lesson", at)) if advised else None
    run = LessonRun(lesson, adviser, translation(language))
    run.follow(at + 1)
    return run


def _board(table: Table, lesson: Lesson, language: str, since: int) -> dict[str, JSON]:
    """What the learner's board shows of ``table``: the view, the events since version
    ``since`` as the learner saw them, the names, whose turn it is."""
    words = spoken(kit_of(table.game).words, language)
    view = table.view(lesson.learner)
    return {
        "game": lesson.game_id,
        "name": table.game.info.name,
        "seat": lesson.learner,
        "names": list(table.seats),
        "to_act": table.to_act(),
        "view": to_jsonable(view),
        "events": events_for(table, words, lesson.learner, since, view),
    }


@_answering
def lesson_step(job: StepJob) -> dict[str, JSON]:
    """The lesson at ``job.at``: the board, the step's words and what it asks (the
    learner's legal moves at a step that asks for one, and its move as the board words it,
    ``expect_label``, and sends it, ``expect_move``), and the finale's words."""
    lesson = lesson_in(job.game)
    run = _run_to(lesson, job.at, job.language)
    speech = translation(job.language)
    answer = _board(run.table, lesson, job.language, len(lesson.setup))
    step, table = run.step, run.table
    legal: list[JSON] = []
    if step is not None and step.kind is StepKind.MOVE:
        words = spoken(kit_of(table.game).words, job.language)
        legal = legal_items(table.game, words, table.view(lesson.learner), table.legal())
    label, move = run.wanted() or (None, None)
    answer.update(
        steps=len(lesson.steps),
        at=run.index,
        legal=legal,
        points=list(lesson.points),
        step=None if step is None else {
            "number": step.number,
            "kind": step.kind.value,
            "say": speech.gettext(step.say),
            "point": step.point,
            "teaches": list(step.teaches),
            "expect": step.expect,
            "expect_label": label,
            "expect_move": move,
        },
        finale={"say": speech.gettext(lesson.finale.say), "hints": lesson.finale.hints},
    )  # fmt: skip
    return answer


@_answering
def lesson_try(job: TryJob) -> dict[str, JSON]:
    """The learner's move at ``job.at``: taken (the lesson goes on), refused with the rules'
    reason, or another legal move answered with the step's words or the adviser's ratings."""
    lesson = lesson_in(job.game)
    run = _run_to(lesson, job.at, job.language, advised=True)
    attempt = run.try_move(job.move)
    return {
        "verdict": attempt.verdict.value,
        "message": attempt.message,
        "move": attempt.move,
        "at": run.index,
        "accepted": attempt.verdict is Verdict.ACCEPTED,
    }


@_answering
def lesson_finale(job: FinaleJob) -> dict[str, JSON]:
    """The finale after the learner's moves and the one tried now (refused with the rules'
    reason if it cannot be played; the moves before it stand): the board, the learner's
    legal moves, the result once it is over, and a hint if asked."""
    lesson = lesson_in(job.game)
    game = lesson.game()
    gentlest = agent_names(game)[-1]

    def replayed(moves: tuple[str, ...]) -> Table:
        opponent = make_agent(gentlest, game, derive_seed(job.seed, "seat", 1))
        return replay_finale(lesson, job.seed, moves, opponent)

    try:
        table = replayed(job.moves)
    except SpieltischError as error:  # the page's own moves: its record is not this finale's
        return {"error": f"these moves are not a game of this finale: {error}"}
    moves, rejected = job.moves, None
    if job.move:
        try:
            table, moves = replayed((*job.moves, job.move)), (*job.moves, job.move)
        except SpieltischError as error:
            rejected = refusal_text(error, translation(job.language))
    answer = _board(table, lesson, job.language, len(lesson.finale.setup))
    words = spoken(kit_of(game).words, job.language)
    mine = table.to_act() == lesson.learner and not table.over
    view = table.view(lesson.learner)
    answer.update(
        moves=list(moves),
        rejected=rejected,
        bot=gentlest,
        bot_name=load_ladder().name_of(game.info.id, game.players, gentlest),
        legal=legal_items(game, words, view, table.legal()) if mine else [],
        result=result_item(table, words, view) if table.over else None,
        hint=_hint(table, lesson, job) if mine and job.hint and lesson.finale.hints else None,
    )
    return answer


def _hint(table: Table, lesson: Lesson, job: FinaleJob) -> str:
    adviser = make_agent(hint_level(table.game), table.game, derive_seed(job.seed, "hint"))
    return advise(table, lesson.learner, adviser, job.language)


def lesson_games() -> list[dict[str, Any]]:
    """Every game with a lesson: its id, name and number of steps."""
    found = []
    for game_id in REGISTRY.implemented():
        try:
            lesson = load_lesson(game_id)
        except LessonError:
            continue
        name = REGISTRY.game_class(game_id).info.name
        found.append({"id": game_id, "name": name, "steps": len(lesson.steps)})
    return found
