"""Rules at hand: each rule of a game's rules page by its id, for a board to show on a click.

A board marks each die, card, space or panel with the id of the rule that governs it
(``data-rule``, the ids of the rules pages: :mod:`spieltisch.session.rule_ids`);
``GET /api/rules/{game}?lang=`` answers every rule of the game's page in that language, each as
HTML, so the table page, a replay and a lesson can show the rule beside the board without
leaving the game. The answer is the same for everyone and changes only with the installed
rules pages, so it is built once and may be cached by the browser.
"""

from __future__ import annotations

import functools

from fastapi import FastAPI, HTTPException, Response

import spieltisch
from spieltisch.games import REGISTRY
from spieltisch.locale import SOURCE
from spieltisch.session.rule_ids import rule_blocks
from spieltisch.web.routes.language import CACHE, query_language
from spieltisch.web.routes.pages import markdown_html


@functools.cache
def rules_of(game_id: str, language: str) -> dict[str, str]:
    """Every rule of the game's rules page in ``language`` (English where it has none), by id,
    as HTML that stands on its own (a table row under its table's header)."""
    text = spieltisch.rules_page(game_id, language) or spieltisch.rules_page(game_id, SOURCE)
    return {rule: markdown_html(body) for rule, body in rule_blocks(text).items()}


def rules_api(app: FastAPI) -> None:
    """Add the route to ``app``."""

    @app.get("/api/rules/{game_id}")
    async def rules(game_id: str, response: Response, lang: str = SOURCE) -> dict[str, object]:
        if game_id not in REGISTRY.implemented():
            raise HTTPException(404, "no such game")
        language = query_language(lang)
        response.headers["Cache-Control"] = CACHE
        return {"game": game_id, "language": language, "rules": rules_of(game_id, language)}
