"""Learning a game in the browser: the lesson page and the API it drives.

``GET /learn/{game}`` is the lesson's page (``lesson.js`` draws it with the game's own board).
``GET /api/lessons`` lists the games with a lesson; ``GET /api/lessons/{game}?at=N&lang=``
answers step ``N`` (the board as the learner sees it, the step's words, the part of the board
it points at, the learner's legal moves when it asks for one, and that move in the board's
words beside its notation, so the page can say what to do on the board); ``POST
/api/lessons/{game}/try`` takes a move tried at a step (taken, or answered in the page's
language with why not, the rules' reason or the lesson's, and what the step asks for
instead); ``POST /api/lessons/{game}/finale``
plays the closing game against the gentlest bot from the page's seed and moves, with a hint
when asked. The server keeps nothing per learner (see :mod:`.lesson_work`); the work runs in
the bots' worker pool, queued per address, and each address draws on its own allowance of
lesson requests (the gate's ``LESSONS``), so a visitor can slow only their own lesson.
"""

from __future__ import annotations

import functools
from html import escape
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from spieltisch.core.codec import JSON
from spieltisch.core.seeds import derive_seed
from spieltisch.locale import N_, SOURCE
from spieltisch.web.routes.fields import Field as Text
from spieltisch.web.routes.gate import client_address
from spieltisch.web.routes.language import page_language, page_response, query_language
from spieltisch.web.routes.pages import BOARD, shell
from spieltisch.web.routes.seat_api import hub_of
from spieltisch.web.tables.lesson_work import (
    MAX_FINALE_MOVES,
    FinaleJob,
    StepJob,
    TryJob,
    lesson_finale,
    lesson_games,
    lesson_step,
    lesson_try,
)

MAX_LESSON_MOVE = 400
"""The longest move a lesson page may send (the games' moves are far shorter)."""
MAX_STEPS = 500
"""More steps than any lesson has: a step index beyond is refused before any work."""
_LOADING = N_("Loading…")
_LEARN = N_("Learn to play")


class TryIn(BaseModel):
    """A move tried at a step."""

    model_config = ConfigDict(extra="forbid")
    at: Annotated[int, Field(ge=0, le=MAX_STEPS)]
    move: Annotated[Text, Field(min_length=1, max_length=MAX_LESSON_MOVE)]
    lang: Annotated[str, Field(max_length=8)] = SOURCE


class FinaleIn(BaseModel):
    """The finale's seed, the learner's moves so far, and the one tried now (may be empty)."""

    model_config = ConfigDict(extra="forbid")
    seed: Annotated[int, Field(ge=0, lt=2**62)]
    moves: Annotated[
        list[Annotated[Text, Field(max_length=MAX_LESSON_MOVE)]],
        Field(max_length=MAX_FINALE_MOVES),
    ] = []
    move: Annotated[Text, Field(max_length=MAX_LESSON_MOVE)] = ""
    lang: Annotated[str, Field(max_length=8)] = SOURCE
    hint: bool = False


@functools.cache
def _lessons() -> dict[str, dict[str, Any]]:
    return {found["id"]: found for found in lesson_games()}


def page(game_id: str, language: str = SOURCE) -> str:
    """The lesson page of ``game_id`` (known to have a lesson)."""
    name, heading, loading, board = _lessons()[game_id]["name"], _LEARN, _LOADING, BOARD
    body = f"""<h1 id="page-title"><span data-t>{heading}</span>: {escape(name)}</h1>
<div class="lesson-layout">
  <section id="lesson" class="panel" aria-live="polite"></section>
  <div class="lesson-board">
    <h2 id="board-title" class="visually-hidden" data-t>{board}</h2>
    <section id="board" class="panel" aria-labelledby="board-title">
      <p data-t>{loading}</p>
    </section>
  </div>
  <aside class="side">
    <section id="rule-at-hand" class="panel" aria-live="polite" hidden></section>
    <section id="log" class="panel" aria-labelledby="log-title"></section>
  </aside>
</div>"""
    return shell(name, "lesson.js", body, f' data-game="{escape(game_id)}"', language)


def _game(game_id: str) -> str:
    if game_id not in _lessons():
        raise HTTPException(404, "this game has no lesson")
    return game_id


def _queue(request: Request) -> str:
    """The worker queue of a lesson request: one per address, beside the tables'."""
    return f"lesson:{client_address(request, hub_of(request).settings)}"


def _checked(answer: dict[str, JSON]) -> dict[str, JSON]:
    error = answer.get("error")
    if isinstance(error, str):
        raise HTTPException(409, error)
    return answer


def lessons_api(app: FastAPI) -> None:
    """Add the lesson pages and their API to ``app``. A closing game's page names its game
    by a seed of its own; the cards and dice come from that seed and the server's secret (one
    for every process sharing the database), so the page cannot work them out."""

    @app.get("/learn/{game_id}", response_class=HTMLResponse)
    async def lesson_page(request: Request, game_id: str) -> HTMLResponse:
        game, language = _game(game_id[:40]), await page_language(request)
        return page_response(page(game, language), language)

    @app.get("/api/lessons")
    async def lessons() -> list[dict[str, Any]]:
        return list(_lessons().values())

    @app.get("/api/lessons/{game_id}")
    async def lesson(request: Request, game_id: str, at: int = 0, lang: str = SOURCE) -> Any:
        if not 0 <= at <= _lessons()[_game(game_id)]["steps"]:
            raise HTTPException(404, "the lesson has no such step")
        job = StepJob(game_id, at, query_language(lang))
        return _checked(await hub_of(request).pool.run(_queue(request), lesson_step, job))

    @app.post("/api/lessons/{game_id}/try")
    async def lesson_move(request: Request, game_id: str, body: TryIn) -> Any:
        if body.at >= _lessons()[_game(game_id)]["steps"]:
            raise HTTPException(404, "the lesson has no such step")
        job = TryJob(game_id, body.at, body.move, query_language(body.lang))
        return _checked(await hub_of(request).pool.run(_queue(request), lesson_try, job))

    @app.post("/api/lessons/{game_id}/finale")
    async def finale(request: Request, game_id: str, body: FinaleIn) -> Any:
        secret = hub_of(request).lesson_secret
        seed = derive_seed(secret, "lesson-finale", body.seed)  # the page's seed, the server's dice
        job = FinaleJob(
            _game(game_id), seed, tuple(body.moves), body.move, query_language(body.lang),
            body.hint,
        )  # fmt: skip
        answer = _checked(await hub_of(request).pool.run(_queue(request), lesson_finale, job))
        return {**answer, "seed": body.seed}
